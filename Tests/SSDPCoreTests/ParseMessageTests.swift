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

/// `SSDPParser.parseMessage` skips the diagnostics and nothing else: for every datagram it returns
/// `parse`'s message, or throws `parse`'s error.
@Suite struct ParseMessageTests {
    static let agreement = ParserAgreement(
        read: { (datagram: [UInt8]) throws(SSDPParseError) in try SSDPParser.parseMessage(datagram) },
        expected: { (datagram: [UInt8]) throws(SSDPParseError) in try SSDPParser.parse(datagram).message }
    )

    @Test(arguments: try CorpusFixture.all())
    func agreesWithParseOnTheCorpus(_ fixture: CorpusFixture) throws {
        #expect(Self.agreement.difference(try fixture.bytes()) == nil)
    }

    /// 200,000 random and mutated datagrams, from the fuzz test's generator (its first shard's seed): every
    /// error code and every line-level diagnostic turns up among them.
    @Test func agreesWithParseOnFuzzedDatagrams() async throws {
        let (differences, messages, errors) = try await Self.agreement.fuzz(count: 200_000, seed: ParserFuzzTests.seed)
        #expect(differences.isEmpty, "\(differences.joined(separator: "\n"))")
        #expect(messages > 20_000 && errors > 20_000, "\(messages) messages, \(errors) errors: the generator changed")
    }
}
