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

import Testing

@testable import SSDPCore

/// Headers held as bytes: what parsed and built headers share, what copies keep, and the byte helpers the
/// parser and the session's de-duplication rely on.
@Suite struct SSDPHeadersTests {
    static let response =
        "HTTP/1.1 200 OK\r\nCACHE-CONTROL: max-age=1800\r\nEXT:\r\nLocation: http://10.0.0.2/\r\nST: upnp:rootdevice\r\n\r\n"

    @Test func parsedHeadersEqualTheSameHeadersBuilt() throws {
        let parsed = try SSDPParser.parse(Self.response).message.headers
        let built: SSDPHeaders = [
            "CACHE-CONTROL": "max-age=1800", "EXT": "", "Location": "http://10.0.0.2/", "ST": "upnp:rootdevice",
        ]
        #expect(parsed == built)
        #expect(Set([parsed, built]).count == 1)
        #expect(parsed.fields == built.fields)
        #expect(parsed.map(\.name) == ["CACHE-CONTROL", "EXT", "Location", "ST"])
        #expect(parsed[2] == SSDPHeaderField(name: "Location", value: "http://10.0.0.2/"))
        #expect(parsed["location"] == "http://10.0.0.2/")
        #expect(parsed["EXT"] == "")
        #expect(parsed["USN"] == nil)
    }

    @Test func aCopyKeepsItsFieldsWhenTheOtherChanges() throws {
        let parsed = try SSDPParser.parse(Self.response).message.headers
        var changed = parsed
        changed.append(name: "USN", value: "uuid:1::upnp:rootdevice")
        changed.removeAll(named: "cache-control")
        #expect(changed.map(\.name) == ["EXT", "Location", "ST", "USN"])
        #expect(changed["USN"] == "uuid:1::upnp:rootdevice")
        #expect(parsed.map(\.name) == ["CACHE-CONTROL", "EXT", "Location", "ST"])
        #expect(parsed["CACHE-CONTROL"] == "max-age=1800")
    }

    @Test func whereOneFieldEndsAndTheNextBeginsCountsForEquality() {
        let one: SSDPHeaders = ["AB": "C"]
        let other: SSDPHeaders = ["A": "BC"]
        #expect(one != other)
        #expect(
            SSDPHeaders([SSDPHeaderField(name: "X", value: "")]) != SSDPHeaders([SSDPHeaderField(name: "", value: "X")])
        )
        #expect((["ST": "a", "MX": "1"] as SSDPHeaders) != (["MX": "1", "ST": "a"] as SSDPHeaders))
    }

    @Test func valuesAndLookupIgnoreCaseAndKeepOrder() {
        let headers: SSDPHeaders = ["NT": "a", "nt": "b", "NTS": "ssdp:alive", "Nt": "c"]
        #expect(headers.values(for: "nT") == ["a", "b", "c"])
        #expect(headers["nt"] == "a")
        #expect(headers.contains("nts"))
        #expect(!headers.contains("N"))
    }

    // MARK: - Byte helpers

    @Test func bytesEqualFindsADifferenceAtEveryPosition() {
        for count in 0..<20 {
            let bytes = (0..<count).map { UInt8($0 + 65) }
            for position in 0..<count {
                var other = bytes
                other[position] ^= 0x20
                #expect(bytes.withUnsafeBufferPointer { a in other.withUnsafeBufferPointer { !bytesEqual(a, $0) } })
            }
            #expect(bytes.withUnsafeBufferPointer { a in Array(bytes).withUnsafeBufferPointer { bytesEqual(a, $0) } })
            let longer = bytes + [0]
            #expect(bytes.withUnsafeBufferPointer { a in longer.withUnsafeBufferPointer { !bytesEqual(a, $0) } })
        }
    }

    @Test func mixHashTellsApartValuesThatOnlyMoveTheirBoundary() {
        func hash(_ parts: [String]) -> UInt64 {
            var hash: UInt64 = 0
            for part in parts { Array(part.utf8).withUnsafeBufferPointer { mixHash($0, into: &hash) } }
            return hash
        }
        #expect(hash(["ab", "c"]) != hash(["a", "bc"]))
        #expect(hash(["", "abc"]) != hash(["abc", ""]))
        #expect(hash(["uuid:1", "upnp:rootdevice"]) == hash(["uuid:1", "upnp:rootdevice"]))
        // Long enough for the four lanes and the words after them: one byte changed anywhere, or one byte
        // more or fewer, changes the hash.
        let answer = String(repeating: "LOCATION: http://10.0.0.2:8080/description.xml\r\n", count: 3)
        let original = hash([answer])
        for position in answer.utf8.indices {
            var changed = Array(answer.utf8)
            changed[answer.utf8.distance(from: answer.utf8.startIndex, to: position)] ^= 1
            #expect(hash([String(decoding: changed, as: UTF8.self)]) != original, "byte \(position)")
        }
        #expect(hash([answer + "x"]) != original && hash([String(answer.dropLast())]) != original)
        // Two bits changed at once, in the same word or in words of different lanes (the top bits of two
        // words, which a multiply-and-shift step without the high half passes on unchanged), and two words
        // swapped between lanes: still another hash.
        let bytes = Array(answer.utf8)
        func hash(_ bytes: [UInt8]) -> UInt64 {
            var hash: UInt64 = 0
            bytes.withUnsafeBufferPointer { mixHash($0, into: &hash) }
            return hash
        }
        var random = SplitMix64(seed: 3)
        for _ in 0..<2_000 {
            var changed = bytes
            let (first, second) = (Int(random.next() % UInt64(bytes.count)), Int(random.next() % UInt64(bytes.count)))
            changed[first] ^= 1 << (random.next() % 8)
            changed[second] ^= 1 << (random.next() % 8)
            #expect(changed == bytes || hash(changed) != hash(bytes), "bytes \(first) and \(second)")
        }
        for (one, other) in [(7, 15), (15, 23), (7, 39), (31, 63)] {
            var changed = bytes
            changed[one] ^= 0x80
            changed[other] ^= 0x80
            #expect(hash(changed) != hash(bytes), "the top bits of bytes \(one) and \(other)")
        }
        var swapped = bytes
        swapped.replaceSubrange(0..<8, with: bytes[8..<16])
        swapped.replaceSubrange(8..<16, with: bytes[0..<8])
        #expect(bytes[0..<8] == bytes[8..<16] || hash(swapped) != hash(bytes))
    }

    @Test func wordHelpersAgreeWithTheirByteByByteForms() {
        // Each lane of a word takes every byte value in turn, the other lanes random: lower-casing matches
        // `asciiLowercased` byte by byte (nil when a byte is not ASCII), and the first byte equal to a
        // target is the one `bytesEqual(to:in:)` marks lowest.
        var random = SplitMix64(seed: 20)
        for lane in 0..<8 {
            for value in 0...255 {
                var bytes = (0..<8).map { _ in UInt8(random.next() % 128) }
                bytes[lane] = UInt8(value)
                let word = bytes.withUnsafeBufferPointer { loadWord($0, at: 0) }
                let lowered = bytes.contains { $0 >= 0x80 } ? nil : Array(bytes.map(asciiLowercased))
                let fromWord = asciiLowercased(word: word).map { word in
                    (0..<8).map { UInt8(truncatingIfNeeded: word >> (8 * $0)) }
                }
                #expect(fromWord == lowered, "\(bytes)")
                if value < 0x80 {  // the ASCII-only helpers: every lower-case letter marked, and only those
                    let letters = lowercaseLetters(in: word)
                    let marked = (0..<8).filter { letters >> (8 * $0 + 7) & 1 == 1 }
                    #expect(marked == bytes.indices.filter { (0x61...0x7A).contains(bytes[$0]) }, "\(bytes)")
                    #expect(lowercasedASCII(word) == asciiLowercased(word: word), "\(bytes)")
                    let partial = bytes.withUnsafeBufferPointer {
                        partialWord(UnsafeBufferPointer(rebasing: $0[..<lane]))
                    }
                    #expect(partial == (lane == 0 ? 0 : word & (~0 >> (64 - 8 * lane))), "\(bytes) \(lane)")
                }
                for target in [UInt8(ascii: ":"), UInt8(ascii: "\n"), UInt8(value)] {
                    let marks = bytesEqual(to: target, in: word)
                    let first = marks == 0 ? nil : marks.trailingZeroBitCount / 8
                    #expect(first == bytes.firstIndex(of: target), "\(bytes) \(target)")
                }
            }
        }
    }

    @Test func eachWellKnownNamesWrittenOutSpellingIsItsTextInLowerCase() {
        for name in SSDPHeaders.WellKnownName.allCases {
            let text = Array(name.text.utf8)
            let words = text.withUnsafeBufferPointer { SSDPHeaders.WellKnownName.lowercasedWords(of: $0) }
            #expect(name.spelling.count == text.count, "\(name)")
            #expect(words == name.spelling.words, "\(name)")
            #expect(text.allSatisfy { $0 < 0x61 || $0 > 0x7A }, "\(name) is written in capitals")
        }
    }

    @Test func eachWellKnownNamesWordsAsUDAWritesItAreItsText() {
        for name in SSDPHeaders.WellKnownName.allCases {
            // The words `spelling` holds, of the name's own bytes rather than of them in lower case.
            let text = Array(name.text.utf8)
            func word(_ bytes: ArraySlice<UInt8>) -> UInt64 {
                bytes.reversed().reduce(0) { $0 << 8 | UInt64($1) }
            }
            let count = text.count
            let words = SSDPHeaders.WellKnownName.Words(
                word(text.prefix(8)),
                count > 16 ? word(text[8..<16]) : 0,
                count >= 8 ? word(text.suffix(8)) : 0
            )
            #expect(name.wordsAsUDAWritesIt == words, "\(name)")
            #expect(SSDPHeaders.WellKnownName.named(count: count, words: words, asUDAWritesIt: true) == name)
            #expect(SSDPHeaders.WellKnownName.named(count: count, words: words) == nil, "\(name) in capitals")
        }
    }

    @Test func wellKnownNamesAreFoundAsLookupByNameFindsThem() {
        // Every well-known name in random case, and the same with one byte changed (a letter's case bit on a
        // `-` or `.`, a neighbouring letter, a byte above ASCII), among other fields: the lookup by the
        // well-known name finds what the lookup by its `String` finds, and only that.
        var random = SplitMix64(seed: 7)
        for name in SSDPHeaders.WellKnownName.allCases {
            let spelling = Array(name.text.utf8)
            for trial in 0..<64 {
                var bytes = spelling.map { random.next() % 2 == 0 ? asciiLowercased($0) : $0 }
                if trial % 2 == 1 {
                    let position = Int(random.next() % UInt64(bytes.count))
                    bytes[position] = [bytes[position] ^ 0x20, bytes[position] &+ 1, 0xC3][Int(random.next() % 3)]
                }
                let written = String(decoding: bytes, as: UTF8.self)
                var headers = SSDPHeaders([SSDPHeaderField(name: "X-\(written)", value: "before")])
                headers.append(name: written, value: "value")
                headers.append(name: name.text, value: "spelled")
                let expected = headers.firstIndex(named: name.text)
                #expect(headers.firstIndex(of: name) == expected, "\(written)")
                #expect(expected == (written.equalsIgnoringASCIICase(name.text) ? 1 : 2), "\(written)")
                #expect(headers[name] == headers[name.text])
                // The name a field's bytes spell, as the conformance pass reads it, and where it first is.
                let spelled = SSDPHeaders.WellKnownName.allCases.first { written.equalsIgnoringASCIICase($0.text) }
                #expect(bytes.withUnsafeBufferPointer { SSDPHeaders.WellKnownName(spelledBy: $0) } == spelled)
                #expect(headers.wellKnownPositions[name] == expected, "\(written)")
            }
        }
    }
}
