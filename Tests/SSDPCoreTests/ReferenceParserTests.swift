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

/// `SSDPParser` reads what the plain `ReferenceParser` reads: the same message, the same diagnostics in the
/// same order, or the same error at the same line with the same text. However the parser finds lines,
/// colons and names (sixteen or eight bytes at a time, in place), this is what it must still find.
@Suite struct ReferenceParserTests {
    static let agreement = ParserAgreement(
        read: { (datagram: [UInt8]) throws(SSDPParseError) in try SSDPParser.parse(datagram) },
        expected: { (datagram: [UInt8]) throws(SSDPParseError) in try ReferenceParser.parse(datagram) }
    )

    @Test(arguments: try CorpusFixture.all())
    func readsEachCorpusDatagramAsTheReferenceDoes(_ fixture: CorpusFixture) throws {
        #expect(Self.agreement.difference(try fixture.bytes()) == nil)
    }

    /// Header names of every length up to 30 bytes (the parser reads a name of up to 24 as words, longer
    /// ones byte by byte), in any case, with and without a dot or a hyphen at each place, every name SSDP
    /// defines with one byte changed, each in the middle of a datagram and at its very end (where a word
    /// would run past the buffer): the lower-case, duplicate and missing-header diagnostics are the
    /// reference's.
    @Test func classifiesNamesOfEveryLengthAndPlaceAsTheReferenceDoes() {
        var random = SplitMix64(seed: 0xC1A5)
        let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)
        var names: [[UInt8]] = []
        for length in 1...30 {
            for trial in 0..<24 {
                var name = (0..<length).map { _ in letters[Int(random.next() % UInt64(letters.count))] }
                if trial % 3 == 0 { name = name.map { $0 & ~0x20 } }  // upper case only
                if trial % 4 == 1 { name[Int(random.next() % UInt64(length))] = UInt8(ascii: ".") }
                if trial % 4 == 2 { name[Int(random.next() % UInt64(length))] = UInt8(ascii: "-") }
                names.append(name)
            }
        }
        for known in SSDPHeaders.WellKnownName.allCases {
            let spelling = Array(known.text.utf8)
            for position in spelling.indices {
                for change: UInt8 in [0x20, 0x01, 0x80] {
                    var name = spelling
                    name[position] ^= change
                    names += [name, spelling.map(asciiLowercased)]
                }
            }
            names.append(spelling)
        }
        for name in names {
            let head = Array("HTTP/1.1 200 OK\r\nST: x\r\n".utf8)
            let datagrams = [
                head + name + Array(": 1\r\nUSN: u\r\n".utf8) + name + Array(":2\r\n\r\n".utf8),
                head + name + Array(":".utf8),
                Array("M-SEARCH * HTTP/1.1\r\n".utf8) + name + Array(":".utf8),
            ]
            for datagram in datagrams {
                let difference = Self.agreement.difference(datagram)
                #expect(difference == nil, "\(String(decoding: name, as: UTF8.self)): \(difference ?? "")")
            }
        }
    }

    /// Names repeated in one datagram, in the spellings devices use (each name SSDP defines as UDA writes
    /// it, capitalised, in lower case and in mixed case; vendor names, one with `é` in one scalar or two),
    /// with and without a space after the colon: each diagnostic is noted once per name as written, which
    /// the parser checks only for a name an earlier field had (or one that is not ASCII); as the reference.
    @Test func notesTheDiagnosticsOfRepeatedNamesAsTheReferenceDoes() {
        var spellings = ["X-Vendor", "x-vendor", "Caf\u{E9}", "Cafe\u{301}"]
        for known in SSDPHeaders.WellKnownName.allCases {
            let mixed = known.text.enumerated().map { $0.offset % 2 == 0 ? $0.element.lowercased() : "\($0.element)" }
            spellings += [known.text, known.capitalized, known.text.lowercased(), mixed.joined()]
        }
        var random = SplitMix64(seed: 0x2E9E)
        func pick<Element>(_ elements: [Element]) -> Element { elements[Int(random.next() % UInt64(elements.count))] }
        for _ in 0..<3_000 {
            let names = (0..<3).map { _ in pick(spellings) }
            var text = "HTTP/1.1 200 OK\r\n"
            for _ in 0..<(3 + Int(random.next() % 4)) {
                text += pick(names) + pick([": ", ":", " : "]) + "v\r\n"
            }
            let datagram = Array((text + "\r\n").utf8)
            let difference = Self.agreement.difference(datagram)
            #expect(difference == nil, "\(text.debugDescription): \(difference ?? "")")
        }
    }

    /// 100,000 random and mutated datagrams from the fuzz test's generator, with a seed of their own: bare
    /// line feeds, bytes that are not UTF-8, spaces around colons, duplicate and lower-case names, every
    /// error, lines shorter and longer than sixteen bytes, and datagrams that end mid-line.
    @Test func readsFuzzedDatagramsAsTheReferenceDoes() async throws {
        let (differences, messages, errors) = try await Self.agreement.fuzz(
            count: 100_000,
            seed: ParserFuzzTests.seed &+ 0x5EF
        )
        #expect(differences.isEmpty, "\(differences.joined(separator: "\n"))")
        #expect(messages > 10_000 && errors > 10_000, "\(messages) messages, \(errors) errors")
    }
}
