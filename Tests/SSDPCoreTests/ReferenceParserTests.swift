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
import Testing

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
