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
            let name = self.name
            guard bytes.count == name.utf8CodeUnitCount else { return false }
            let spelling = UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
            guard bytes.count >= 8 else {
                // The short names are letters only, capitals: a byte with its case bit set is the letter's lower
                // case exactly when the byte is the letter in either case.
                var difference: UInt8 = 0
                for index in 0..<bytes.count { difference |= (bytes[index] | 0x20) ^ (spelling[index] | 0x20) }
                return difference == 0
            }
            let last = bytes.count - 8
            var offset = 0
            while true {
                let at = Swift.min(offset, last)
                let word = loadWord(bytes, at: at)
                // Not ASCII reads as `nil`: no such word spells an ASCII name. The spelling in lower case is the
                // spelling with every case bit set (`-` and `.` have theirs set already).
                guard let lowercased = asciiLowercased(word: word),
                    lowercased == loadWord(spelling, at: at) | 0x2020_2020_2020_2020
                else { return false }
                if at == last { return true }
                offset += 8
            }
        }

        /// The name `bytes` spell, in any case, or `nil` for any other name. A name's length and first letter
        /// tell the one name it can be, and only that one is compared.
        init?(spelledBy bytes: UnsafeBufferPointer<UInt8>) {
            guard let first = bytes.first else { return nil }
            let candidate: WellKnownName
            switch (bytes.count, asciiLowercased(first)) {
            case (2, UInt8(ascii: "s")): candidate = .st
            case (2, UInt8(ascii: "m")): candidate = .mx
            case (2, UInt8(ascii: "n")): candidate = .nt
            case (3, UInt8(ascii: "u")): candidate = .usn
            case (3, UInt8(ascii: "e")): candidate = .ext
            case (3, UInt8(ascii: "m")): candidate = .man
            case (3, UInt8(ascii: "n")): candidate = .nts
            case (4, _): candidate = .host
            case (6, _): candidate = .server
            case (8, _): candidate = .location
            case (10, _): candidate = .userAgent
            case (13, _): candidate = .cacheControl
            case (15, _): candidate = .bootID
            case (17, _): candidate = .configID
            case (19, UInt8(ascii: "n")): candidate = .nextBootID
            case (19, UInt8(ascii: "s")): candidate = .searchPort
            default: return nil
            }
            guard candidate.isSpelled(by: bytes) else { return nil }
            self = candidate
        }
    }

    /// Where the first field of each name SSDP defines is, found in one pass over the names: what a check
    /// of many of them reads (`SSDPConformance`), rather than searching the fields once for each.
    package struct WellKnownPositions {
        /// By `rawValue`, -1 for none: sixteen lanes, one per name, held inline (no allocation).
        private var first = SIMD16<Int32>(repeating: -1)

        /// Positions with no field noted.
        package init() {}

        // A lane is read and written in memory, at its offset: a lane chosen at run time is otherwise moved
        // out of a vector register and back.

        /// The position of the first field called `name`, in any case, or `nil` when there is none.
        @inline(__always)
        package subscript(name: WellKnownName) -> Int? {
            let position = withUnsafeBytes(of: first) { $0.load(fromByteOffset: 4 * name.rawValue, as: Int32.self) }
            return position < 0 ? nil : Int(position)
        }

        /// Notes a field called `name` at `position`, unless an earlier one was.
        @inline(__always)
        package mutating func note(_ name: WellKnownName, at position: Int) {
            withUnsafeMutableBytes(of: &first) { lanes in
                let offset = 4 * name.rawValue
                if lanes.load(fromByteOffset: offset, as: Int32.self) < 0 {
                    lanes.storeBytes(of: Int32(truncatingIfNeeded: position), toByteOffset: offset, as: Int32.self)
                }
            }
        }
    }

    /// The positions of the names SSDP defines among the fields.
    package var wellKnownPositions: WellKnownPositions {
        var positions = WellKnownPositions()
        withStorage { text, spans in
            for position in spans.indices {
                if let name = WellKnownName(spelledBy: UnsafeBufferPointer(rebasing: text[spans[position].name])) {
                    positions.note(name, at: position)
                }
            }
        }
        return positions
    }
}
