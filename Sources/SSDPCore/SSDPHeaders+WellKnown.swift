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
    ///
    /// The cases are in the order UDA's lists of required headers give them (`SSDPConformance`), so that
    /// a set of names read in the order of its bits is in that order too.
    package enum WellKnownName: Int, CaseIterable, Sendable {
        case host, man, mx, cacheControl, ext, location, nt, nts, server, st, usn
        case bootID, configID, nextBootID, userAgent, searchPort

        /// The name as UDA 1.1 spells it: a literal, so that naming it costs nothing.
        package var text: String {
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

        /// The name with each word capitalised (`Cache-Control`, `Location`): how most devices that do not write
        /// it as UDA does write it, so a literal too.
        package var capitalized: String {
            switch self {
            case .host: "Host"
            case .man: "Man"
            case .mx: "Mx"
            case .st: "St"
            case .nt: "Nt"
            case .nts: "Nts"
            case .usn: "Usn"
            case .ext: "Ext"
            case .server: "Server"
            case .location: "Location"
            case .cacheControl: "Cache-Control"
            case .userAgent: "User-Agent"
            case .bootID: "Bootid.Upnp.Org"
            case .configID: "Configid.Upnp.Org"
            case .nextBootID: "Nextbootid.Upnp.Org"
            case .searchPort: "Searchport.Upnp.Org"
            }
        }

        /// The text of `bytes`, which spell this name in some case (`lowercase` when with a lower-case letter):
        /// the literal `text` or `capitalized` when they are one of those (nearly always), which makes no
        /// `String`; else the bytes decoded.
        package func text(spelledAs bytes: UnsafeBufferPointer<UInt8>, lowercase: Bool) -> String {
            guard lowercase else { return text }  // in upper case, as UDA spells it
            let capitalized = self.capitalized
            let isCapitalized = capitalized.utf8.withContiguousStorageIfAvailable { bytesEqual($0, bytes) } ?? false
            return isCapitalized ? capitalized : String(decoding: bytes, as: UTF8.self)
        }

        /// How a name is compared: its length, and its spelling in lower case as up to three little-endian
        /// words (the first eight bytes; the eight after them for a name over sixteen; the last eight, which
        /// overlap the first for a name of eight to sixteen), zeros where a short name has no bytes. Written
        /// out, so that a lookup reads constants (a test checks them against `text`).
        @inline(__always)
        var spelling: (count: Int, words: Words) {
            switch self {
            // "host"
            case .host: (4, Words(0x0000_0000_7473_6F68, 0, 0))
            // "man"
            case .man: (3, Words(0x0000_0000_006E_616D, 0, 0))
            // "mx"
            case .mx: (2, Words(0x0000_0000_0000_786D, 0, 0))
            // "cache-control"
            case .cacheControl: (13, Words(0x6F63_2D65_6863_6163, 0, 0x6C6F_7274_6E6F_632D))
            // "ext"
            case .ext: (3, Words(0x0000_0000_0074_7865, 0, 0))
            // "location"
            case .location: (8, Words(0x6E6F_6974_6163_6F6C, 0, 0x6E6F_6974_6163_6F6C))
            // "nt"
            case .nt: (2, Words(0x0000_0000_0000_746E, 0, 0))
            // "nts"
            case .nts: (3, Words(0x0000_0000_0073_746E, 0, 0))
            // "server"
            case .server: (6, Words(0x0000_7265_7672_6573, 0, 0))
            // "st"
            case .st: (2, Words(0x0000_0000_0000_7473, 0, 0))
            // "usn"
            case .usn: (3, Words(0x0000_0000_006E_7375, 0, 0))
            // "bootid.upnp.org"
            case .bootID: (15, Words(0x752E_6469_746F_6F62, 0, 0x6772_6F2E_706E_7075))
            // "configid.upnp.org"
            case .configID: (17, Words(0x6469_6769_666E_6F63, 0x726F_2E70_6E70_752E, 0x6772_6F2E_706E_7075))
            // "nextbootid.upnp.org"
            case .nextBootID: (19, Words(0x746F_6F62_7478_656E, 0x2E70_6E70_752E_6469, 0x6772_6F2E_706E_7075))
            // "user-agent"
            case .userAgent: (10, Words(0x6567_612D_7265_7375, 0, 0x746E_6567_612D_7265))
            // "searchport.upnp.org"
            case .searchPort: (19, Words(0x6F70_6863_7261_6573, 0x2E70_6E70_752E_7472, 0x6772_6F2E_706E_7075))
            }
        }

        /// The words of `spelling` as UDA writes the name, in upper case (`text`'s bytes): what a name written
        /// that way is compared with, without lowering its case first (a test checks them against `text`).
        @inline(__always)
        var wordsAsUDAWritesIt: Words {
            switch self {
            // "HOST"
            case .host: Words(0x0000_0000_5453_4F48, 0, 0)
            // "MAN"
            case .man: Words(0x0000_0000_004E_414D, 0, 0)
            // "MX"
            case .mx: Words(0x0000_0000_0000_584D, 0, 0)
            // "CACHE-CONTROL"
            case .cacheControl: Words(0x4F43_2D45_4843_4143, 0, 0x4C4F_5254_4E4F_432D)
            // "EXT"
            case .ext: Words(0x0000_0000_0054_5845, 0, 0)
            // "LOCATION"
            case .location: Words(0x4E4F_4954_4143_4F4C, 0, 0x4E4F_4954_4143_4F4C)
            // "NT"
            case .nt: Words(0x0000_0000_0000_544E, 0, 0)
            // "NTS"
            case .nts: Words(0x0000_0000_0053_544E, 0, 0)
            // "SERVER"
            case .server: Words(0x0000_5245_5652_4553, 0, 0)
            // "ST"
            case .st: Words(0x0000_0000_0000_5453, 0, 0)
            // "USN"
            case .usn: Words(0x0000_0000_004E_5355, 0, 0)
            // "BOOTID.UPNP.ORG"
            case .bootID: Words(0x552E_4449_544F_4F42, 0, 0x4752_4F2E_504E_5055)
            // "CONFIGID.UPNP.ORG"
            case .configID: Words(0x4449_4749_464E_4F43, 0x524F_2E50_4E50_552E, 0x4752_4F2E_504E_5055)
            // "NEXTBOOTID.UPNP.ORG"
            case .nextBootID: Words(0x544F_4F42_5458_454E, 0x2E50_4E50_552E_4449, 0x4752_4F2E_504E_5055)
            // "USER-AGENT"
            case .userAgent: Words(0x4547_412D_5245_5355, 0, 0x544E_4547_412D_5245)
            // "SEARCHPORT.UPNP.ORG"
            case .searchPort: Words(0x4F50_4843_5241_4553, 0x2E50_4E50_552E_5452, 0x4752_4F2E_504E_5055)
            }
        }

        /// Up to three words of a name, as `spelling` and `wordsAsUDAWritesIt` hold them.
        struct Words: Equatable {
            var first: UInt64
            var middle: UInt64
            var last: UInt64

            @inline(__always)
            init(_ first: UInt64, _ middle: UInt64, _ last: UInt64) {
                (self.first, self.middle, self.last) = (first, middle, last)
            }

            @inline(__always)
            static func == (one: Words, other: Words) -> Bool {
                // Without a branch per word: the three differences or'ed.
                (one.first ^ other.first) | (one.middle ^ other.middle) | (one.last ^ other.last) == 0
            }
        }

        /// The words a `spelling` holds, of `bytes` in lower case; `nil` when a byte in them is not ASCII (no
        /// name SSDP defines has one). They cover every byte of a name of up to 24 bytes; SSDP's longest has 19.
        @inline(__always)
        static func lowercasedWords(of bytes: UnsafeBufferPointer<UInt8>) -> Words? {
            guard bytes.count >= 8 else { return asciiLowercased(word: partialWord(bytes)).map { Words($0, 0, 0) } }
            let middle = bytes.count > 16 ? loadWord(bytes, at: 8) : 0
            guard let first = asciiLowercased(word: loadWord(bytes, at: 0)),
                let middle = asciiLowercased(word: middle),
                let last = asciiLowercased(word: loadWord(bytes, at: bytes.count - 8))
            else { return nil }
            return Words(first, middle, last)
        }

        /// Whether `bytes` spell the name: letters in either case, other bytes (`-`, `.`) exactly. At most
        /// three words compared.
        @inline(__always)
        func isSpelled(by bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            let spelling = self.spelling
            guard bytes.count == spelling.count, let words = Self.lowercasedWords(of: bytes) else { return false }
            return words == spelling.words
        }

        /// The name `bytes` spell, in any case, or `nil` for any other name.
        @inline(__always)
        init?(spelledBy bytes: UnsafeBufferPointer<UInt8>) {
            guard let words = Self.lowercasedWords(of: bytes), let name = Self.named(count: bytes.count, words: words)
            else { return nil }
            self = name
        }

        /// The name of `count` bytes whose spelling in lower case is `words` (as `spelling` holds them), or,
        /// `asUDAWritesIt`, whose bytes are `words` (as `wordsAsUDAWritesIt` holds them); `nil` for any other
        /// name. A name's length and first letter tell the one name it can be, and only that one is compared.
        @inline(__always)
        static func named(count: Int, words: Words, asUDAWritesIt: Bool = false) -> WellKnownName? {
            let candidate: WellKnownName
            // The first byte with its case bit set: a capital becomes the lower-case letter the cases below name.
            switch (count, UInt8(truncatingIfNeeded: words.first) | 0x20) {
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
            return (asUDAWritesIt ? candidate.wordsAsUDAWritesIt : candidate.spelling.words) == words ? candidate : nil
        }
    }

    /// Where the first field of each name SSDP defines is, found in one pass over the names: what a check
    /// of many of them reads (`SSDPConformance`), rather than searching the fields once for each.
    package struct WellKnownPositions {
        /// By `rawValue`, -1 for none: sixteen lanes, one per name, held inline (no allocation).
        private var first = SIMD16<Int32>(repeating: -1)
        /// The names with a field, one bit per name (by `rawValue`).
        package private(set) var seen: WellKnownNames = []

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

        /// Notes a field called `name` at `position`, unless an earlier one was; whether it is the first.
        @inline(__always)
        @discardableResult
        package mutating func note(_ name: WellKnownName, at position: Int) -> Bool {
            guard !seen.contains(name) else { return false }
            seen.insert(name)
            withUnsafeMutableBytes(of: &first) { lanes in
                lanes.storeBytes(
                    of: Int32(truncatingIfNeeded: position),
                    toByteOffset: 4 * name.rawValue,
                    as: Int32.self
                )
            }
            return true
        }
    }

    /// A set of the names SSDP defines, a bit each (by `rawValue`): what a message has, or what a rule
    /// requires, compared in one instruction.
    package struct WellKnownNames: Equatable, Sendable, ExpressibleByArrayLiteral {
        private var bits: UInt16 = 0

        /// The set of the names listed: `[.host, .man]`, `[]`.
        package init(arrayLiteral names: WellKnownName...) {
            for name in names { insert(name) }
        }

        /// Whether the set is empty.
        package var isEmpty: Bool { bits == 0 }

        /// The names of this set that are not in `other`.
        package func subtracting(_ other: WellKnownNames) -> WellKnownNames {
            var difference = self
            difference.bits &= ~other.bits
            return difference
        }

        /// The names in this set or in `other`.
        package func union(_ other: WellKnownNames) -> WellKnownNames {
            var union = self
            union.bits |= other.bits
            return union
        }

        /// Whether `name` is in the set.
        @inline(__always)
        package func contains(_ name: WellKnownName) -> Bool {
            bits & (1 << name.rawValue) != 0
        }

        /// Adds `name` to the set.
        @inline(__always)
        package mutating func insert(_ name: WellKnownName) {
            bits |= 1 << name.rawValue
        }

        /// The names in the set, one by one in the order of their cases (UDA's order), without allocating.
        package var names: UnfoldSequence<WellKnownName, UInt16> {
            sequence(state: bits) { left -> WellKnownName? in
                guard left != 0 else { return nil }
                defer { left &= left - 1 }
                return WellKnownName(rawValue: left.trailingZeroBitCount)
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
