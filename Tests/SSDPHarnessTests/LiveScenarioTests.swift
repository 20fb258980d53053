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
import SSDPDevices
import SSDPHarness
import SSDPSimulator
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

    /// `run --live --jobs 3`: three runs side by side, each with its devices in an address block of its own
    /// (block 0 is a run alone's), each passing as alone, handed out in the sweep's order.
    @MainActor @Test func liveRunsSideBySideEachHaveAddressesOfTheirOwn() async throws {
        let scenario = try HarnessFixtures.scenario(HarnessFixtures.chattyPair)
        let runs = (UInt64(1)...3).map { (scenario: scenario, seed: $0) }
        var handedOut: [Int] = []
        var hosts: [Set<String>] = []
        await ScenarioRunner.sweep(runs, mode: .live(.loopback), jobs: 3) { index, result in
            handedOut.append(index)
            #expect(result.passed && result.seed == runs[index].seed, "\(Reports.failureLines(result))")
            // The two honest devices' LOCATIONs (the chatty one's wrong-target answers are filtered out).
            hosts.append(
                Set(result.record.reports.compactMap { $0.service.location.flatMap { URL(string: $0)?.host } })
            )
        }
        #expect(handedOut == [0, 1, 2])
        #expect(hosts == (0...2).map { Set(DeviceAddressing.loopbackAddresses(count: 2, block: $0)) })
    }

    @Test func loopbackAddressBlocksStartAt127B02AndCrossIntoTheNextOctet() {
        #expect(DeviceAddressing.loopbackAddresses(count: 2, block: 0) == ["127.0.0.2", "127.0.0.3"])
        #expect(
            DeviceAddressing.loopbackAddresses(count: 300, block: 255).suffix(2) == ["127.255.1.44", "127.255.1.45"]
        )
    }

    @Test func aSweepInANamespaceGoesOneAtATimeAndTheDefaultsFollowTheCores() {
        #expect(ScenarioRunner.width(for: .live(.namespaceMulticast), jobs: 8) == 1)
        #expect(ScenarioRunner.width(for: .live(.loopback), jobs: 8) == 8)
        #expect(ScenarioRunner.width(for: .externalClient(command: "c"), jobs: 500) == ScenarioRunner.maximumJobs)
        #expect(ScenarioRunner.defaultJobs(for: .virtual, cores: 2) == 2)
        #expect(ScenarioRunner.defaultJobs(for: .live(.loopback), cores: 2) == 32)
        #expect(ScenarioRunner.defaultJobs(for: .externalClient(command: "c"), cores: 64) == ScenarioRunner.maximumJobs)
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
