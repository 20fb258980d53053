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
    /// Compares the two on one datagram; returns what differs, if anything.
    static func difference(_ datagram: [UInt8]) -> String? {
        let full = Result { () throws(SSDPParseError) in try SSDPParser.parse(datagram).message }
        let alone = Result { () throws(SSDPParseError) in try SSDPParser.parseMessage(datagram) }
        switch (full, alone) {
        case (.success(let expected), .success(let message)) where message == expected:
            return nil
        case (.failure(let expected), .failure(let error)) where error == expected:
            return nil
        default:
            return "parse gave \(full), parseMessage \(alone)"
        }
    }

    @Test(arguments: try CorpusFixture.all())
    func agreesWithParseOnTheCorpus(_ fixture: CorpusFixture) throws {
        #expect(Self.difference(try fixture.bytes()) == nil)
    }

    /// 200,000 random and mutated datagrams, from the fuzz test's generator (its first shard's seed): every
    /// error code and every line-level diagnostic turns up among them.
    @Test func agreesWithParseOnFuzzedDatagrams() throws {
        let corpus = try CorpusFixture.all().map { try $0.bytes() }.filter { $0.count <= 4_096 }
        var fuzzer = DatagramFuzzer(seed: ParserFuzzTests.seed, corpus: corpus)
        var differences: [String] = []
        var (messages, errors) = (0, 0)
        for index in 0..<200_000 where differences.count < 5 {
            let datagram = fuzzer.next()
            if let difference = Self.difference(datagram) {
                differences.append("datagram \(index): \(difference); bytes \(datagram.prefix(256))")
            } else if (try? SSDPParser.parseMessage(datagram)) != nil {
                messages += 1
            } else {
                errors += 1
            }
        }
        #expect(differences.isEmpty, "\(differences.joined(separator: "\n"))")
        #expect(messages > 20_000 && errors > 20_000, "\(messages) messages, \(errors) errors: the generator changed")
    }
}
