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

import SSDPHarness
import Testing

/// The scenarios tagged live pass over real UDP sockets on loopback with the real `SSDPSearchSession`.
@Suite(.tags(.live)) struct LiveScenarioTests {
    @Test(arguments: try HarnessFixtures.shippedScenarios().filter(\.isLive).map(\.name))
    func liveScenarioPasses(name: String) async throws {
        let scenario = try #require(try HarnessFixtures.shippedScenarios().first { $0.name == name })
        let result = await ScenarioRunner(mode: .live(.loopback)).run(scenario)

        #expect(result.passed, "\(Reports.failureLines(result))")
        #expect(result.record.mode == .live)
    }

    @Test func aLiveTraceHoldsEveryDatagramOnTheWireWithRealTimes() async throws {
        let scenario = try HarnessFixtures.scenario(HarnessFixtures.chattyPair)
        let result = await ScenarioRunner(mode: .live(.loopback), trace: .everyDatagram).run(scenario)
        let trace = result.record.trace
        let searches = trace.filter { Reports.summary(of: $0.bytes).hasPrefix("M-SEARCH") }
        let answers = trace.filter { Reports.summary(of: $0.bytes).hasPrefix("200 OK") }

        #expect(result.passed, "\(Reports.failureLines(result))")
        #expect(searches.count == 3)
        #expect(searches.allSatisfy { $0.destination.address == "127.0.0.1" && $0.destination.port != $0.source.port })
        // On loopback nothing is lost: the session received every answer the simulator sent.
        #expect(answers.count == result.record.statistics?.datagramsReceived)
        #expect(result.record.startedAt > 1_700_000_000)  // real time, so the pcap shows when it ran
    }

    @Test func scenariosNotTaggedLiveAreSkipped() async throws {
        let scenario = try HarnessFixtures.scenario(
            #"{"name": "v", "description": "d", "seed": 1, "search": {"target": "ssdp:all"}, "devices": [{}], "network": {"loss": 0.5}, "expect": {"found": {"count": 4}}}"#
        )
        let result = await ScenarioRunner(mode: .live(.loopback)).run(scenario)

        #expect(result.skipped == "not tagged live")
        #expect(!result.passed)
    }
}
