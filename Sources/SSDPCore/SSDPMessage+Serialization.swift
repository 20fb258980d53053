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

extension SSDPMessage {
    /// The message as it goes on the wire: the start line, each field as `NAME: value`, every line ended
    /// by CRLF, and the empty line that ends the header block (UDA 1.1 §1.1).
    ///
    /// Names and values are written exactly as held (an empty value gives `EXT:`), so
    /// `SSDPParser.parse(m.serialized()).message == m` for any message whose names and values hold no CR
    /// or LF, no colon in a name, and no spaces or tabs at either end.
    public func serialized() -> [UInt8] {
        serialized(lineEnding: [UInt8(ascii: "\r"), UInt8(ascii: "\n")], spaceAfterColon: true, finalBlankLine: true)
    }

    /// The wire form with the layout choices a sloppy sender makes (see `SSDPMalformation`).
    package func serialized(lineEnding: [UInt8], spaceAfterColon: Bool, finalBlankLine: Bool) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32 + headers.textByteCount + headers.count * 4)
        bytes += startLine.utf8
        bytes += lineEnding
        headers.forEachField { name, value in
            bytes += name
            bytes.append(UInt8(ascii: ":"))
            if !value.isEmpty {
                if spaceAfterColon { bytes.append(UInt8(ascii: " ")) }
                bytes += value
            }
            bytes += lineEnding
        }
        if finalBlankLine { bytes += lineEnding }
        return bytes
    }

    /// `serialized()` as text, for logs and tools.
    public var serializedText: String {
        String(decoding: serialized(), as: UTF8.self)
    }
}
