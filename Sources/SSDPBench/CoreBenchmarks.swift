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
import SSDPBenchWorkloads
import SSDPCore
import SSDPDeviceCore
import SSDPHarness
import SSDPSimulator

/// The benchmarks without sockets: the parser, the search session's filter, the responder and the
/// virtual network. Each runs on the calling thread only, so its figure is one core's.
enum CoreBenchmarks {
    // MARK: 1. parse

    /// Datagrams per second through `SSDPParser`, over the captured corpus (good and malformed).
    static func parse(
        corpus: [[UInt8]],
        minimum: Duration,
        counting: InstructionCount.Counting
    ) throws -> Figure {
        let name = "parse"
        var parsed = 0
        var rejected = 0
        for datagram in corpus {
            if (try? SSDPParser.parse(datagram)) != nil { parsed += 1 } else { rejected += 1 }
        }
        try require(
            parsed > 0 && rejected > 0,
            name,
            "the corpus needs good and malformed datagrams (\(parsed) good, \(rejected) rejected)"
        )

        let run = timedParse(corpus, atLeast: minimum)
        let datagrams = Double(run.rounds * corpus.count)
        // Bytes the parser reads: a datagram over the largest UDP payload is rejected by its size, unread
        // (the corpus has one of 66 KB, three quarters of its bytes), so it counts as a datagram, not as bytes.
        let oversized = corpus.filter { $0.count > SSDPParser.maximumDatagramSize }
        let corpusBytes = corpus.reduce(0) { $0 + $1.count }
        let bytesRead = corpusBytes - oversized.reduce(0) { $0 + $1.count }
        let instructions = try InstructionCount.perDatagram(.parse, datagrams: corpus, counting: counting)
        // Without diagnostics, as the search session and the devices read.
        let withoutDiagnostics = try InstructionCount.perDatagram(.parseMessage, datagrams: corpus, counting: counting)
        return Figure(
            name: name,
            unit: "datagrams/s",
            value: datagrams / run.cpu.seconds,
            details: [
                "corpusDatagrams": Double(corpus.count), "corpusGood": Double(parsed),
                "corpusRejected": Double(rejected), "corpusOversized": Double(oversized.count),
                "corpusBytes": Double(corpusBytes), "corpusBytesRead": Double(bytesRead),
                "megabytesReadPerSecond": Double(run.rounds * bytesRead) / run.cpu.seconds / 1e6,
                "cpuSeconds": run.cpu.seconds, "wallSeconds": run.wall.seconds,
            ]
        ).counting(instructions, as: "instructionsPerDatagram")
            .counting(withoutDiagnostics, as: "instructionsWithoutDiagnostics")
    }

    /// `SSDPParser.parse` over `corpus` in rounds for at least `minimum`, each message's diagnostics read.
    static func timedParse(
        _ corpus: [[UInt8]],
        atLeast minimum: Duration
    ) -> (rounds: Int, wall: Duration, cpu: Duration) {
        var diagnostics = 0
        return measure(atLeast: minimum) {
            for datagram in corpus {
                do {
                    diagnostics &+= try SSDPParser.parse(datagram).diagnostics.count
                } catch {
                    diagnostics &+= 1
                }
            }
        }
    }

    // MARK: 2. session ingest

    /// Responses per second through `SearchSessionStateMachine.received` (parse, filter, de-duplicate):
    /// `services` distinct services, each arriving `copies` times, in rounds as retries bring them.
    static func ingest(
        services: Int,
        copies: Int,
        minimum: Duration,
        counting: InstructionCount.Counting,
        instructionServices: Int
    ) throws -> Figure {
        let name = "ingest"
        let responses = Workloads.devices(services).map { root in
            root.searchResponse(for: root.advertisements[0]).serialized()  // upnp:rootdevice
        }
        let arrivals = Array((0..<copies).map { _ in responses }.joined())
        let configuration = try Workloads.ingestConfiguration()
        var last = SearchSessionStatistics()
        let run = measure(atLeast: minimum) {
            var session = SearchSessionStateMachine(configuration: configuration)
            _ = session.start(at: .zero)
            let now = SSDPInstant(offset: .milliseconds(10))
            for datagram in arrivals {
                _ = session.received(datagram, at: now)
            }
            last = session.statistics
        }
        try require(
            last.servicesReported == services && last.duplicates == services * (copies - 1)
                && last.dropped == last.duplicates,
            name,
            "expected \(services) reported and \(services * (copies - 1)) duplicates, got \(last)"
        )
        // Under callgrind, fewer services (1,000 of 10,000) in the same copies: the same work per datagram,
        // in seconds rather than minutes.
        let counted = Array((0..<copies).map { _ in responses.prefix(instructionServices) }.joined())
        let instructions = try InstructionCount.perDatagram(
            .ingest,
            datagrams: counted,
            counting: counting
        )
        return Figure(
            name: name,
            unit: "responses/s",
            value: Double(run.rounds * arrivals.count) / run.cpu.seconds,
            target: .atLeast(2_000_000),
            details: [
                "services": Double(services), "copies": Double(copies), "cpuSeconds": run.cpu.seconds,
                "wallSeconds": run.wall.seconds,
            ]
        ).counting(instructions, as: "instructionsPerDatagram")
    }

    // MARK: 3. responder

    /// Answers generated per second by `SimulatorResponder` for an `ssdp:all` search across `count` devices
    /// (parse the search, accept it, every device picks its answers, delays and bytes); and, as
    /// `floodedSearchesPerSecond`, the searches a second it handles from a source that has had every answer
    /// the rate limit allows it (which reach no device).
    static func responder(
        devices count: Int,
        minimum: Duration,
        counting: InstructionCount.Counting
    ) throws -> Figure {
        let name = "responder"
        let roots = Workloads.devices(count)
        var responder = Workloads.responder(answering: roots)
        let expected = roots.reduce(0) { $0 + $1.advertisements.count }
        let search = Workloads.searchForAll
        var now = SSDPInstant.zero
        var answered = 0
        var bytes = 0
        let run = try measure(atLeast: minimum) {
            now = now + .seconds(1)  // the per-source rate limit refills each second
            let reception = responder.receive(search, from: "10.0.0.1", at: now)
            try require(
                reception.answers.count == expected,
                name,
                "expected \(expected) answers, got \(reception.answers.count)"
            )
            answered += reception.answers.count
            for (_, answer) in reception.answers {
                bytes &+= answer.bytes.count
                responder.answerFinished()
            }
        }
        let rounds = Double(run.rounds)
        // A flood from one source, all at one instant, at the default rate limit (1,000 answers a second):
        // searches until the source has had every answer it allows; from then on each must reach no device.
        var limited = SimulatorResponder(configuration: .init(), devices: responder.devices)
        func askedNoDevice(_ reception: SimulatorResponder.Reception) -> Bool {
            reception.answers.isEmpty && reception.unanswered.notAsked == count
        }
        var searchesToSpend = 0
        var spent = false
        while !spent && searchesToSpend < 10_000 {
            let reception = limited.receive(search, from: "10.0.0.9", at: now)
            for _ in reception.answers { limited.answerFinished() }
            spent = askedNoDevice(reception)
            searchesToSpend += 1
        }
        try require(spent, name, "10,000 searches from one source at one instant never reached its rate limit")
        let flood = try measure(atLeast: minimum / 4) {
            let reception = limited.receive(search, from: "10.0.0.9", at: now)
            try require(
                askedNoDevice(reception),
                name,
                "a search past the rate limit was answered or asked the devices"
            )
        }
        let counted = Workloads.devices(Workloads.countedResponderDevices)
        let instructions = try InstructionCount.perAnswer(
            to: search,
            answersPerSearch: counted.reduce(0) { $0 + $1.advertisements.count },
            counting: counting
        )
        return Figure(
            name: name,
            unit: "answers/s",
            value: rounds * Double(expected) / run.cpu.seconds,
            target: .atLeast(1_000_000),
            details: [
                "devices": Double(count), "answersPerSearch": Double(expected),
                "bytesPerAnswer": Double(bytes) / Double(answered), "cpuSeconds": run.cpu.seconds,
                "wallSeconds": run.wall.seconds,
                "floodedSearchesPerSecond": Double(flood.rounds) / flood.cpu.seconds,
            ]
        ).counting(instructions, as: "instructionsPerAnswer")
    }

    // MARK: 5. virtual time

    /// Virtual seconds per wall second for a `count`-device scenario (MX 3, 3 requests, 5 % loss), run by
    /// the harness with its checks, which must pass.
    static func virtualTime(
        devices count: Int,
        minimum: Duration,
        counting: InstructionCount.Counting
    ) async throws -> Figure {
        let name = "virtual"
        let text = """
            {
              "name": "bench-\(count)-devices",
              "description": "\(count) generic devices, MX 3, 3 requests, 5 % datagram loss",
              "seed": 1000,
              "search": { "target": "upnp:rootdevice", "mx": 3, "requests": 3 },
              "devices": [ { "profile": "generic", "count": \(count) } ],
              "network": { "loss": 0.05 },
              "expect": {
                "found": { "count": { "min": \(count * 99 / 100), "max": \(count) } },
                "searches": { "sent": 3 },
                "dropped": { "wrongSearchTarget": 0, "incomplete": 0 }
              }
            }
            """
        let scenario = try ScenarioFile.decode(Data(text.utf8), file: "(ssdp-bench)")
        let runner = ScenarioRunner(mode: .virtual)
        let clock = ContinuousClock()
        let cpuStart = threadCPUTime()
        let start = clock.now
        var simulated = Duration.zero
        var runs = 0
        var found = 0
        repeat {
            let result = await runner.run(scenario)
            try require(
                result.passed,
                name,
                "the scenario's checks failed: \(Reports.failureLines(result).joined(separator: "; "))"
            )
            simulated += result.record.duration
            found += result.record.statistics?.servicesReported ?? 0
            runs += 1
        } while clock.now - start < minimum
        let wall = clock.now - start
        let cpu = threadCPUTime() - cpuStart
        let sweep = try await sweepTime(scenario, minimum: minimum)
        let instructions = try InstructionCount.perVirtualRun(
            scenario: Data(text.utf8),
            counting: counting
        )
        return Figure(
            name: name,
            unit: "× wall clock",
            value: simulated.seconds / wall.seconds,
            target: .atLeast(1_000),
            details: [
                "devices": Double(count), "runs": Double(runs),
                "virtualSecondsPerRun": simulated.seconds / Double(runs),
                "wallSecondsPerRun": wall.seconds / Double(runs), "foundPerRun": Double(found) / Double(runs),
                "cpuSeconds": cpu.seconds,
                "sweepJobs": Double(sweep.jobs), "sweepTimesWallClock": sweep.timesWallClock,
            ]
        ).counting(instructions, as: "instructionsPerRun")
    }

    /// Virtual seconds per wall second of a seed sweep (`ssdp-sim run --seeds N`): consecutive seeds of
    /// `scenario`, one run per core at once, for at least `minimum`; every run's checks must pass.
    private static func sweepTime(
        _ scenario: Scenario,
        minimum: Duration
    ) async throws -> (jobs: Int, timesWallClock: Double) {
        let jobs = ProcessInfo.processInfo.activeProcessorCount
        let clock = ContinuousClock()
        let start = clock.now
        var simulated = Duration.zero
        var failed: [String] = []
        var seed = scenario.seed
        repeat {
            let runs = (0..<UInt64(4 * jobs)).map { (scenario: scenario, seed: seed &+ $0) }
            seed &+= UInt64(runs.count)
            await ScenarioRunner.sweep(runs, mode: .virtual, jobs: jobs) { _, result in
                if !result.passed {
                    failed.append("seed \(result.seed): \(Reports.failureLines(result).joined(separator: "; "))")
                }
                simulated += result.record.duration
            }
        } while clock.now - start < minimum
        try require(failed.isEmpty, "virtual", "a sweep's checks failed: \(failed.prefix(3).joined(separator: " | "))")
        return (jobs, simulated.seconds / (clock.now - start).seconds)
    }

    // MARK: Shared

    /// Every captured datagram in `directory`, by name (the test corpus, `Tests/SSDPCoreTests/Fixtures`).
    static func loadCorpus(_ directory: String) throws -> [[UInt8]] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw BenchmarkFailure(
                benchmark: "parse",
                reason:
                    "cannot read the corpus directory \(directory): \(error.localizedDescription) (give it with --corpus)"
            )
        }
        let files = names.filter { !$0.hasPrefix(".") && !$0.hasSuffix(".json") }.sorted()
        try require(!files.isEmpty, "parse", "no datagrams in \(directory)")
        return try files.map { name in
            guard let data = FileManager.default.contents(atPath: "\(directory)/\(name)") else {
                throw BenchmarkFailure(benchmark: "parse", reason: "cannot read \(directory)/\(name)")
            }
            return Array(data)
        }
    }
}
