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
import Logging
import NIOCore
import NIOPosix
import SSDPCore
import SSDPDeviceCore
import SSDPDevices
import SSDPSearch
import SSDPSimulator

/// 6. Many devices in one simulator process answering one `ssdp:all` search on loopback, found by the
/// real `SSDPSearchSession`: what fraction of the answers it received and reported once, and the memory
/// each simulated device costs while it waits for searches (after the search the figure also includes
/// the 60,000 services the session holds, so it is printed as a detail, not held to the target).
///
/// It runs in a child process of its own (`--scale-child`), so the memory figures start from a fresh
/// heap and not from what the other benchmarks left behind.
enum ScaleBenchmark {
    static let mx = 5

    /// One run: with `sharedAddress`, every device at 127.0.0.1 on one shared HTTP server (the cheapest
    /// layout); otherwise each device at an address of its own (127.0.0.2 onwards) with an HTTP server of
    /// its own, as `serve` runs them on loopback by default.
    static func run(devices count: Int, sharedAddress: Bool) async throws -> [Figure] {
        let name = sharedAddress ? "scale-shared" : "scale"
        let residentAtStart = residentBytes()
        let descriptorsAtStart = openDescriptors()
        let simulated = (0..<count).map { SimulatorProfile.generic.device(number: $0 + 1, seed: 7) }
        let clock = ContinuousClock()
        let startedAt = clock.now
        let (simulator, group) = try await BenchSimulator.start(
            simulated,
            addressing: sharedAddress ? .shared : .automatic
        )
        let startSeconds = (clock.now - startedAt).seconds
        let residentWithDevices = residentBytes()
        let descriptorsWithDevices = openDescriptors()
        let sources = Set(simulator.links[0].deviceAddresses)
        try require(
            sources.count == (sharedAddress ? 1 : count),
            name,
            "\(sources.count) device addresses for \(count) devices"
        )
        let expected = simulator.devices.reduce(0) { $0 + $1.advertisements.count }

        // A unicast search is answered within 1 s (UDA 1.1 §1.3.3), whatever MX says: the answers of
        // every device arrive in one second, five times the rate of a multicast search with MX 5.
        let session = SSDPSearchSession(
            configuration: try .createUnicastConfiguration(
                forSearchTarget: "ssdp:all",
                host: "127.0.0.1",
                port: simulator.udpAddress.port ?? 0,
                maximumWaitResponseTime: mx,
                maximumSearchRequestsBeforeClosing: 1
            )
        )
        let start = clock.now
        let found = try await session.search()
        let searchTime = clock.now - start
        let statistics = session.statistics
        // After answering, each device also holds its answers on the wire (made at the first search).
        let residentAfterSearch = residentBytes()
        let counters = await simulator.shutdown()
        try await group.shutdownGracefully()

        try verify(name, found: found, answersSent: counters.answersSent, expected: expected, statistics, sources)
        let devicesFound = Set(found.map { udn(of: $0.uniqueServiceName) })
        let received = Double(found.count) / Double(expected)
        let perDevice = Double(residentWithDevices - residentAtStart) / Double(count)
        let descriptorsPerDevice = Double(descriptorsWithDevices - descriptorsAtStart) / Double(count)
        return [
            Figure(
                name: name,
                unit: "% of answers reported",
                value: received * 100,
                target: .atLeast(100),
                details: [
                    "devices": Double(count), "devicesFound": Double(devicesFound.count),
                    "answersExpected": Double(expected), "answersSent": Double(counters.answersSent),
                    "datagramsReceived": Double(statistics.datagramsReceived),
                    "servicesReported": Double(found.count), "duplicatesDropped": Double(statistics.duplicates),
                    "searchSeconds": searchTime.seconds, "startSeconds": startSeconds,
                    "deviceAddresses": Double(sources.count),
                ]
            ),
            Figure(
                name: sharedAddress ? "memory-shared" : "memory",
                unit: "bytes per device",
                value: perDevice,
                // The 4 KiB target is the shared layout's; a device with an address and an HTTP server of its
                // own also holds a listening socket (see "address-cost").
                target: sharedAddress ? .atMost(4_096) : nil,
                details: [
                    "descriptorsPerDevice": descriptorsPerDevice,
                    "devices": Double(count), "residentAtStartBytes": Double(residentAtStart),
                    "residentWithDevicesBytes": Double(residentWithDevices),
                    "peakResidentBytes": Double(peakResidentBytes()),
                    "residentAfterSearchBytes": Double(residentAfterSearch),
                ]
            ),
        ]
    }

    /// Checks the run's work: each service reported once, every answer sent, none dropped as bad, and every
    /// LOCATION at an address a device lives at and on a port (a device whose answers were all lost is simply not there:
    /// losses are the figure, not a failure).
    private static func verify(
        _ name: String,
        found: [SSDPService],
        answersSent: Int,
        expected: Int,
        _ statistics: SearchSessionStatistics,
        _ sources: Set<String>
    ) throws {
        let distinct = Set(found.map { "\($0.uniqueServiceName) \($0.searchTarget)" })
        try require(distinct.count == found.count, name, "\(found.count - distinct.count) services were reported twice")
        try require(answersSent == expected, name, "the simulator sent \(answersSent) answers, expected \(expected)")
        try require(
            statistics.wrongSearchTarget == 0 && statistics.incomplete == 0 && statistics.unparseable == 0,
            name,
            "answers were dropped: \(statistics)"
        )
        let strays = Set(found.compactMap { URL(string: $0.location)?.host }).subtracting(sources)
        try require(strays.isEmpty, name, "LOCATIONs name hosts no device lives at: \(strays.sorted().prefix(3))")
        // Port 0 is where a server's port was lost between its opening and its device's LOCATION.
        let portless = Set(found.map(\.location).filter { (URL(string: $0)?.port ?? 0) == 0 })
        try require(portless.isEmpty, name, "\(portless.count) LOCATIONs name no port: \(portless.sorted().prefix(3))")
    }

    /// What an address of its own costs a device: the two runs' memory, descriptors and start time, per device.
    static func addressCost(own: [Figure], shared: [Figure]) -> Figure? {
        guard let ownMemory = own.first(where: { $0.name == "memory" }),
            let sharedMemory = shared.first(where: { $0.name == "memory-shared" }),
            let ownScale = own.first(where: { $0.name == "scale" }),
            let sharedScale = shared.first(where: { $0.name == "scale-shared" }),
            let devices = ownScale.details["devices"], devices > 0
        else { return nil }
        let startCost = ((ownScale.details["startSeconds"] ?? 0) - (sharedScale.details["startSeconds"] ?? 0)) / devices
        return Figure(
            name: "address-cost",
            unit: "bytes per device",
            value: ownMemory.value - sharedMemory.value,
            details: [
                "devices": devices,
                "descriptorsPerDevice": (ownMemory.details["descriptorsPerDevice"] ?? 0)
                    - (sharedMemory.details["descriptorsPerDevice"] ?? 0),
                "startMicrosecondsPerDevice": startCost * 1_000_000,
                "ownStartSeconds": ownScale.details["startSeconds"] ?? 0,
                "sharedStartSeconds": sharedScale.details["startSeconds"] ?? 0,
            ],
            remark: "an address and an HTTP listener of its own, against one shared address and server"
        )
    }

    /// How many file descriptors the process holds.
    static func openDescriptors() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0
    }

    /// `uuid:X` of a USN `uuid:X[::type]`.
    static func udn(of usn: String) -> String {
        guard let range = usn.range(of: "::") else { return usn }
        return String(usn[..<range.lowerBound])
    }
}
