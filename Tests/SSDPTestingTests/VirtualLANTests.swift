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
import SSDPDeviceCore
import SSDPSearch
import SSDPTesting
import Testing

@Suite("VirtualLAN: search code in virtual time")
struct VirtualLANTests {
    @Test func aNineSecondSearchRunsInVirtualTimeAndFindsWhatIsThere() async throws {
        try await VirtualLAN.run([.roku(count: 2), .hue()]) { lan in
            let session = try lan.searchSession(target: "roku:ecp", maximumWaitResponseTime: 3, requests: 3)
            let found = try await session.search()
            let rokus = lan.devices.filter { $0.deviceType == "urn:roku-com:device:player:1-0" }
            #expect(Set(found.map(\.location)) == Set(rokus.map(\.location)))
            #expect(found.count == 2)
            // The session's own clock: three searches over N × MX + 0.1 s, stopped by its timeout.
            #expect(session.stopReason == .timedOut)
            #expect(session.statistics.searchesSent == 3)
            #expect(lan.elapsed >= .milliseconds(9_100))
            #expect(lan.elapsed < .milliseconds(9_100) + .seconds(1))
            // The Hue answers every search with its own targets, which the session drops.
            #expect(session.statistics.wrongSearchTarget > 0)
            // Each of the three devices heard each multicast search.
            #expect(lan.searches.count == 9)
        }
    }

    @Test func theSameSeedGivesTheSameRunOnALossyNetwork() async throws {
        var network = NetworkFaults()
        network.loss = 0.3
        network.latency = .milliseconds(5) ... .milliseconds(400)
        network.duplicate = 0.2
        func run(seed: UInt64) async throws -> (usns: [String], statistics: SearchSessionStatistics, answers: Int) {
            try await VirtualLAN.run([.generic(count: 6), .sonos(count: 2)], network: network, seed: seed) { lan in
                let session = try lan.searchSession(target: "ssdp:all", maximumWaitResponseTime: 2, requests: 2)
                let found = try await session.search()
                return (found.map(\.uniqueServiceName), session.statistics, lan.answers.count)
            }
        }
        let first = try await run(seed: 7)
        let second = try await run(seed: 7)
        #expect(first.usns == second.usns)
        #expect(first.statistics == second.statistics)
        #expect(first.answers == second.answers)
        // The network did lose and duplicate: not every answer sent became a report.
        #expect(first.statistics.datagramsReceived != first.answers)
        #expect(!first.usns.isEmpty)
    }

    @Test func retriesFindADeviceThatMissesTheFirstSearch() async throws {
        try await VirtualLAN.run([.roku(behaviour: .ignoring(firstSearches: 1))]) { lan in
            let once = try await lan.searchSession(target: "roku:ecp", maximumWaitResponseTime: 1, requests: 1).search()
            #expect(once.isEmpty)
        }
        try await VirtualLAN.run([.roku(behaviour: .ignoring(firstSearches: 1))]) { lan in
            let twice = try await lan.searchSession(target: "roku:ecp", maximumWaitResponseTime: 1, requests: 2)
                .search()
            #expect(twice.count == 1)
        }
    }

    @Test func aSearchToOneDevicesAddressReachesThatDeviceAlone() async throws {
        try await VirtualLAN.run([.generic(count: 3)]) { lan in
            let target = lan.devices[1]
            let configuration = try SSDPSearchSessionConfiguration.createUnicastConfiguration(
                forSearchTarget: "upnp:rootdevice",
                host: target.address,
                maximumWaitResponseTime: 1,
                maximumSearchRequestsBeforeClosing: 1
            )
            let found = try await lan.searchSession(configuration: configuration).search()
            #expect(found.map(\.location) == [target.location])
            #expect(lan.searches.count == 1)
        }
    }

    @Test func codeThatMakesItsOwnSessionsTakesTheTransport() async throws {
        try await VirtualLAN.run([.dialTV(count: 2)]) { lan in
            let finder = ScreenFinder { configuration in
                SSDPSearchSession(configuration: configuration, transport: lan.transport)
            }
            let screens = try await finder.screens()
            #expect(screens == Set(lan.devices.map(\.location)))
        }
    }
}

/// Code under test as a user writes it: it makes its own session from a configuration.
struct ScreenFinder {
    var makeSession: (SSDPSearchSessionConfiguration) -> SSDPSearchSession

    func screens() async throws -> Set<String> {
        let configuration = try SSDPSearchSessionConfiguration.createMulticastConfiguration(
            forSearchTarget: "urn:dial-multiscreen-org:service:dial:1"
        )
        var found: Set<String> = []
        for try await service in makeSession(configuration).services {
            found.insert(service.location)
        }
        return found
    }
}
