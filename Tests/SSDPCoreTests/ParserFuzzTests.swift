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

import Foundation
import SSDPCore
import Testing

/// A million random and mutated datagrams through the parser: it never traps, and what it accepts obeys the
/// parser's and the serializer's promises.
///
/// The run is deterministic: four shards, each with its own seed derived from one base seed, run in parallel.
/// The test prints the base seed; `SSDP_FUZZ_SEED=<seed> swift test --filter ParserFuzzTests` replays the run,
/// and a failure names its shard, the datagram's index in the shard, and the datagram's bytes.
@Suite struct ParserFuzzTests {
    static let datagramCount = 1_000_000
    static let shardCount = 4

    static var seed: UInt64 {
        ProcessInfo.processInfo.environment["SSDP_FUZZ_SEED"].flatMap { UInt64($0) } ?? 0x55D9_F022_2026
    }

    @Test func survivesAMillionRandomAndMutatedDatagrams() async throws {
        let seed = Self.seed
        print("ParserFuzzTests: seed \(seed) (replay with SSDP_FUZZ_SEED=\(seed))")
        let corpus = try CorpusFixture.all().map { try $0.bytes() }.filter { $0.count <= 4_096 }
        let tally = await withTaskGroup(of: Tally.self) { group in
            for shard in 0..<Self.shardCount {
                group.addTask { await LowPriority.run { Self.fuzz(shard: shard, seed: seed, corpus: corpus) } }
            }
            return await group.reduce(into: Tally()) { $0.merge($1) }
        }
        print("ParserFuzzTests: \(tally)")
        for failure in tally.failures {
            Issue.record("seed \(seed), \(failure)")
        }
        #expect(tally.parsed == Self.datagramCount)
        #expect(tally.messages > Self.datagramCount / 10)
        #expect(tally.roundTrips > Self.datagramCount / 20)
        for code in Self.parseErrorCodes {
            #expect(tally.errors[code, default: 0] > 0, "no datagram failed with \(code)")
        }
        for code in Self.diagnosticCodes {
            #expect(tally.diagnostics.contains(code), "no datagram produced \(code)")
        }
    }

    /// Parses one shard's datagrams, stopping early after ten broken promises (at low priority, on a thread
    /// of its own: `LowPriority`).
    private static func fuzz(shard: Int, seed: UInt64, corpus: [[UInt8]]) -> Tally {
        var fuzzer = DatagramFuzzer(seed: seed &+ UInt64(shard) &* 0x9E37_79B9_7F4A_7C15, corpus: corpus)
        var tally = Tally()
        for index in 0..<datagramCount / shardCount where tally.failures.count < 10 {
            let datagram = fuzzer.next()
            if let failure = tally.record(datagram) {
                tally.failures.append("shard \(shard), datagram \(index): \(failure); bytes \(datagram.prefix(512))")
            }
        }
        return tally
    }

    static let parseErrorCodes: [SSDPParseError.Code] = [
        .emptyDatagram, .datagramTooLarge, .unknownStartLine, .headerLineWithoutColon, .emptyHeaderName,
    ]

    static let diagnosticCodes: [SSDPDiagnostic.Code] = [
        .bareLineFeed, .missingFinalBlankLine, .bodyPresent, .nonStandardStartLine, .invalidUTF8,
        .lowercaseHeaderName, .noSpaceAfterColon, .extraWhitespaceAroundColon, .duplicateHeader, .missingHeader,
        .spacedMaxAge, .extraCacheControlDirective, .invalidCacheControl, .malformedMAN, .invalidMX, .mxAboveFive,
        .unknownNotificationSubtype,
    ]
}

// MARK: - Tally

extension ParserFuzzTests {
    /// What the parser made of the datagrams so far, and how many broke a promise.
    struct Tally: Sendable, CustomStringConvertible {
        var parsed = 0
        var messages = 0
        var roundTrips = 0
        var failures: [String] = []
        var errors: [SSDPParseError.Code: Int] = [:]
        var diagnostics: Set<SSDPDiagnostic.Code> = []

        var description: String {
            let errorCounts = errors.map { "\($0.key) \($0.value)" }.sorted().joined(separator: ", ")
            return "\(parsed) datagrams: \(messages) messages (\(roundTrips) round-tripped), errors: \(errorCounts)"
        }

        /// Parses `datagram` and checks what comes out; returns the broken promise, if any.
        mutating func record(_ datagram: [UInt8]) -> String? {
            parsed += 1
            let parsed: SSDPParsedMessage
            do {
                parsed = try SSDPParser.parse(datagram)
            } catch {
                errors[error.code, default: 0] += 1
                return nil
            }
            messages += 1
            diagnostics.formUnion(parsed.diagnostics.map(\.code))
            if Set(parsed.diagnostics).count != parsed.diagnostics.count {
                return "duplicate diagnostics \(parsed.diagnostics)"
            }
            return checkRoundTrip(of: parsed)
        }

        /// The canonical serialization of a message the serializer makes promises about parses back into the
        /// same message, with the same diagnostics but those about the wire format.
        private mutating func checkRoundTrip(of parsed: SSDPParsedMessage) -> String? {
            guard parsed.message.hasOnlyRoundTrippableFields else { return nil }
            let serialized = parsed.message.serialized()
            guard serialized.count <= SSDPParser.maximumDatagramSize else { return nil }
            roundTrips += 1
            guard let reparsed = try? SSDPParser.parse(serialized) else {
                return "the serialization of \(parsed.message) does not parse"
            }
            if reparsed.message != parsed.message {
                return "the serialization parses into \(reparsed.message), not \(parsed.message)"
            }
            if reparsed.diagnostics != parsed.diagnosticsSurvivingSerialization {
                return
                    "the serialization reports \(reparsed.diagnostics), not \(parsed.diagnosticsSurvivingSerialization)"
            }
            return nil
        }

        mutating func merge(_ other: Tally) {
            parsed += other.parsed
            messages += other.messages
            roundTrips += other.roundTrips
            failures += other.failures
            errors.merge(other.errors, uniquingKeysWith: +)
            diagnostics.formUnion(other.diagnostics)
        }
    }
}
