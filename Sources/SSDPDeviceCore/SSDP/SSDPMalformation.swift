//===----------------------------------------------------------------------===//
//
// This source file is part of the ssdp-sim open source project
//
// Copyright (c) 2026 the ssdp-sim project authors
// Licensed under Apache License v2.0
//
// See LICENSE for license information
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import SSDPCore

/// One way real devices get the wire format wrong (reference: ssdp-protocol-facts.md §3), applied by a
/// simulated device to what it sends so that control points can be tested against it.
///
/// The raw values are the names device files and flags use (`--malformed lf-only,missing-ext`).
public enum SSDPMalformation: String, Hashable, Sendable, CaseIterable {
    /// Lines end in LF instead of CRLF (RSSDP#29, ConnectSDK).
    case lineFeedOnly = "lf-only"
    /// Header names in lower case (`location:`, LG TVs, SAT>IP servers).
    case lowercaseNames = "lowercase-names"
    /// `LOCATION:http://…` with no space after the colon (Linksys, minidlna).
    case noSpaceAfterColon = "no-space-after-colon"
    /// `max-age = 1800`, as the UDA 1.0 template wrote it (Sonos, Harmony).
    case spacedMaxAge = "spaced-max-age"
    /// No `EXT` header (go-ssdp).
    case missingEXT = "missing-ext"
    /// No `CACHE-CONTROL` header (pydial).
    case missingCacheControl = "missing-cache-control"
    /// No `LOCATION` header.
    case missingLocation = "missing-location"
    /// No `SERVER` header.
    case missingServer = "missing-server"
    /// No `USN` header.
    case missingUSN = "missing-usn"
    /// The empty line that ends the headers is missing (Harmony Hub, minisatip).
    case noFinalBlankLine = "no-final-blank-line"
    /// A byte that is not UTF-8 (0xFF) inside the SERVER value (Zipp Mini, Samsung printers).
    case invalidUTF8 = "invalid-utf8"
    /// Padded with an extra header to `oversizedLength` bytes, beyond the 1,500–8,192-byte buffers many
    /// control points read with.
    case oversized

    /// The length of an `oversized` datagram.
    public static let oversizedLength = 9_000

    /// `message` on the wire, with `malformations` applied.
    public static func bytes(for message: SSDPMessage, with malformations: Set<SSDPMalformation>) -> [UInt8] {
        guard !malformations.isEmpty else { return message.serialized() }
        var message = message
        let removed: [(SSDPMalformation, String)] = [
            (.missingEXT, "EXT"), (.missingCacheControl, "CACHE-CONTROL"), (.missingLocation, "LOCATION"),
            (.missingServer, "SERVER"), (.missingUSN, "USN"),
        ]
        for (malformation, name) in removed where malformations.contains(malformation) {
            message.headers.removeAll(named: name)
        }
        message.headers = SSDPHeaders(
            message.headers.fields.map { field in
                var field = field
                if malformations.contains(.spacedMaxAge), field.name.equalsIgnoringASCIICase("CACHE-CONTROL") {
                    field.value = field.value.replacingFirst("max-age=", with: "max-age = ")
                }
                if malformations.contains(.lowercaseNames) {
                    field.name = field.name.asciiLowercased()
                }
                return field
            }
        )
        if malformations.contains(.oversized) {
            let length = message.serialized().count + "X-PADDING: \r\n".utf8.count
            message.headers.append(
                name: "X-PADDING",
                value: String(repeating: "x", count: max(1, oversizedLength - length))
            )
        }
        var bytes = message.serialized(
            lineEnding: malformations.contains(.lineFeedOnly)
                ? [UInt8(ascii: "\n")] : [UInt8(ascii: "\r"), UInt8(ascii: "\n")],
            spaceAfterColon: !malformations.contains(.noSpaceAfterColon),
            finalBlankLine: !malformations.contains(.noFinalBlankLine)
        )
        if malformations.contains(.invalidUTF8) {
            insertInvalidByte(into: &bytes)
        }
        return bytes
    }

    /// Puts 0xFF just after `SERVER:` (or after the start line when there is no SERVER).
    private static func insertInvalidByte(into bytes: inout [UInt8]) {
        let needle = "server:"
        var index = bytes.firstIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? bytes.count
        if let found = bytes.map(asciiLowercased).firstOffset(of: needle) {
            index = found + needle.utf8.count
        }
        bytes.insert(0xFF, at: index)
    }
}
