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

/// Two ways of reading datagrams held to each other (`parse` and `parseMessage`, `parse` and the plain
/// `ReferenceParser`): on the corpus and on the fuzz test's datagrams, each must give the same value or
/// throw the same error.
struct ParserAgreement<Value: Equatable & Sendable>: Sendable {
    /// The way under test, and the way it must agree with.
    var read: @Sendable ([UInt8]) throws(SSDPParseError) -> Value
    var expected: @Sendable ([UInt8]) throws(SSDPParseError) -> Value

    /// What differs on `datagram`, or `nil` when both read it the same.
    func difference(_ datagram: [UInt8]) -> String? {
        compare(datagram).difference
    }

    /// What differs on `datagram` (`nil` when both read it the same), and whether the expected way read a
    /// value rather than an error: each way reads it once.
    private func compare(_ datagram: [UInt8]) -> (difference: String?, isValue: Bool) {
        let got = Result { () throws(SSDPParseError) in try read(datagram) }
        let want = Result { () throws(SSDPParseError) in try expected(datagram) }
        let isValue = (try? want.get()) != nil
        switch (got, want) {
        case (.success(let value), .success(let expected)) where value == expected: return (nil, isValue)
        case (.failure(let error), .failure(let expected)) where error == expected: return (nil, isValue)
        default: return ("read \(got), expected \(want)", isValue)
        }
    }

    /// Compares the two on `count` datagrams from the fuzz test's generator with `seed`, stopping after five
    /// differences: those, and how many datagrams read as a value and as an error.
    /// It runs at low priority on a thread of its own (`LowPriority`).
    func fuzz(count: Int, seed: UInt64) async throws -> (differences: [String], values: Int, errors: Int) {
        try await LowPriority.run { try fuzzHere(count: count, seed: seed) }
    }

    private func fuzzHere(count: Int, seed: UInt64) throws -> (differences: [String], values: Int, errors: Int) {
        let corpus = try CorpusFixture.all().map { try $0.bytes() }.filter { $0.count <= 4_096 }
        var fuzzer = DatagramFuzzer(seed: seed, corpus: corpus)
        var differences: [String] = []
        var (values, errors) = (0, 0)
        for index in 0..<count where differences.count < 5 {
            let datagram = fuzzer.next()
            let (difference, isValue) = compare(datagram)
            if let difference {
                differences.append("datagram \(index): \(difference); bytes \(datagram.prefix(256))")
            } else if isValue {
                values += 1
            } else {
                errors += 1
            }
        }
        return (differences, values, errors)
    }
}
