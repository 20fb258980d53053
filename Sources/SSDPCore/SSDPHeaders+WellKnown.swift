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

extension SSDPHeaders {
    /// The header names SSDP defines (UDA 1.1 §1.2–§1.3), which the core looks up on every message: by this
    /// name, a lookup compares a field's name only when its length is the name's, eight bytes at a time, and
    /// makes no `String`.
    package enum WellKnownName: Int, CaseIterable, Sendable {
        case host, man, mx, st, nt, nts, usn, ext, server, location, cacheControl, userAgent
        case bootID, configID, nextBootID, searchPort

        /// The name as UDA 1.1 spells it.
        package var name: StaticString {
            switch self {
            case .host: "HOST"
            case .man: "MAN"
            case .mx: "MX"
            case .st: "ST"
            case .nt: "NT"
            case .nts: "NTS"
            case .usn: "USN"
            case .ext: "EXT"
            case .server: "SERVER"
            case .location: "LOCATION"
            case .cacheControl: "CACHE-CONTROL"
            case .userAgent: "USER-AGENT"
            case .bootID: "BOOTID.UPNP.ORG"
            case .configID: "CONFIGID.UPNP.ORG"
            case .nextBootID: "NEXTBOOTID.UPNP.ORG"
            case .searchPort: "SEARCHPORT.UPNP.ORG"
            }
        }

        /// The name as UDA 1.1 spells it, as a `String`.
        package var text: String { name.description }

        /// Whether `bytes` spell the name: letters in either case, other bytes (`-`, `.`) exactly. Eight
        /// bytes at a time, the last eight of a long name overlapping the word before.
        func isSpelled(by bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            Self.lowercaseSpellings[rawValue].withUnsafeBufferPointer { spelling in
                guard bytes.count == spelling.count else { return false }
                guard bytes.count >= 8 else {
                    return (0..<bytes.count).allSatisfy { asciiLowercased(bytes[$0]) == spelling[$0] }
                }
                let last = bytes.count - 8
                var offset = 0
                while true {
                    let at = Swift.min(offset, last)
                    guard asciiLowercased(word: loadWord(bytes, at: at)) == loadWord(spelling, at: at) else {
                        return false
                    }
                    if at == last { return true }
                    offset += 8
                }
            }
        }

        /// Each name's spelling in lower case, by `rawValue`.
        private static let lowercaseSpellings = allCases.map { Array($0.text.utf8).map(asciiLowercased) }
    }
}
