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
import SSDPHarness
import Testing

/// The virtual network drives the production session and device state machines; these tests pin down
/// what it does with time, faults and events, and that the checks catch a client that misbehaves.
@Suite struct VirtualRunTests {
    static func scenario(
        devices: String =
            #"[{"udn": "uuid:a", "behaviour": {"delay": "immediate"}}, {"udn": "uuid:b", "behaviour": {"delay": "immediate"}}]"#,
        search: String = #"{"target": "upnp:rootdevice", "mx": 3, "requests": 3}"#,
        extra: String = ""
    ) throws -> Scenario {
        // These tests look at the record itself; a scenario must still say what it finds.
        let expect = extra.contains(#""expect""#) ? "" : #", "expect": {"found": {"count": {"min": 0}}}"#
        return try HarnessFixtures.scenario(
            #"{"name": "t", "description": "d", "seed": 9, "search": \#(search), "devices": \#(devices)\#(expect)\#(extra)}"#
        )
    }

    static func checks(_ scenario: Scenario, _ record: RunRecord) -> [CheckResult] {
        ScenarioChecks(scenario: scenario, record: record, tolerance: .zero, searchHost: "239.255.255.250:1900")
            .evaluate()
    }

    /// The failed checks, as lines that say what went wrong.
    static func failures(_ scenario: Scenario, _ record: RunRecord) -> [String] {
        checks(scenario, record).filter(\.failed).map { "\($0.name): expected \($0.expected); got \($0.actual)" }
    }

    @Test func searchesAndStopsExactlyWhenTheSeedDesignSays() throws {
        let scenario = try Self.scenario()
        let record = try VirtualRun.run(scenario)

        #expect(record.searches.map(\.at) == [.zero, .milliseconds(3_050), .milliseconds(6_100)])
        #expect(record.endings.map(\.at) == [.milliseconds(9_100)])
        #expect(record.reports.map(\.service.usn) == ["uuid:a::upnp:rootdevice", "uuid:b::upnp:rootdevice"])
        #expect(record.reports.allSatisfy { $0.at == .zero })  // immediate answers, no latency
        #expect(record.statistics?.duplicates == 4)  // each device answers all three searches
        #expect(
            record.hearings == [.init(device: 1, delivered: 3, heard: 3), .init(device: 2, delivered: 3, heard: 3)]
        )
        #expect(Self.failures(scenario, record) == [])
    }

    /// A scenario made in Swift runs as the same scenario read from its file does.
    @Test func aScenarioMadeInSwiftRunsAsItsFileDoes() throws {
        let file = try Self.scenario()
        var expect = Expectations()
        expect.found = file.expect.found
        let search = SearchSpecification(target: "upnp:rootdevice", mx: 3, requests: 3)
        let made = Scenario(name: "t", description: "d", seed: 9, search: search, devices: file.devices, expect: expect)
        let fromFile = try VirtualRun.run(file, trace: .everyDatagram)
        let fromSwift = try VirtualRun.run(made, trace: .everyDatagram)
        #expect(fromSwift.trace == fromFile.trace)
        #expect(fromSwift.reports.map(\.service) == fromFile.reports.map(\.service))
        #expect(fromSwift.reports.count == 2)
        #expect(Self.failures(made, fromSwift) == [])
    }

    @Test func theSameSeedReplaysExactlyAndAnotherSeedDoesNot() throws {
        let scenario = try Self.scenario(
            devices: #"[{"count": 5}]"#,
            extra: #", "network": {"latency": {"min": 0, "max": 0.2}, "loss": 0.2, "duplicate": 0.2, "reorder": 0.5}"#
        )
        let first = try VirtualRun.run(scenario, seed: 77, trace: .everyDatagram)
        let again = try VirtualRun.run(scenario, seed: 77, trace: .everyDatagram)
        let other = try VirtualRun.run(scenario, seed: 78, trace: .everyDatagram)

        #expect(first.trace == again.trace)
        #expect(first.outcomes.map(\.at) == again.outcomes.map(\.at))
        #expect(first.statistics == again.statistics)
        #expect(first.trace != other.trace)
    }

    /// Only the trace sees NOTIFYs, so only a traced run makes them: without a trace the run is the same in
    /// everything else, reboots and byebyes included. The duration ends at the last event that is not a
    /// NOTIFY round: here the return from the second reboot, at 31 s, though the device's NOTIFYs follow
    /// and a byebye is still due when the run gives up on it (more than 60 s after the stop).
    @Test func aRunWithoutATraceIsTheTracedRunWithoutNotifications() throws {
        let scenario = try Self.scenario(
            devices: #"[{"count": 6}, {"udn": "uuid:phoenix", "behaviour": {"delay": "immediate"}}]"#,
            extra: #"""
                , "network": {"latency": {"min": 0, "max": 0.2}, "loss": 0.2, "duplicate": 0.2, "reorder": 0.5},
                "events": [{"at": 1, "action": "reboot", "device": 7, "downFor": 1.5},
                           {"at": 2, "action": "byebye", "device": 2},
                           {"at": 30, "action": "reboot", "device": 7, "downFor": 1},
                           {"at": 100, "action": "byebye", "device": 1}]
                """#
        )
        let traced = try VirtualRun.run(scenario, seed: 5, trace: .everyDatagram)
        let plain = try VirtualRun.run(scenario, seed: 5)

        #expect(plain.outcomes.map(\.at) == traced.outcomes.map(\.at))
        #expect(plain.outcomes.map(\.outcome) == traced.outcomes.map(\.outcome))
        #expect(plain.statistics == traced.statistics)
        #expect(plain.searches == traced.searches)
        #expect(plain.hearings == traced.hearings)
        #expect(plain.advertised == traced.advertised)
        #expect(plain.duration == traced.duration)
        #expect(plain.duration == .seconds(31))
        #expect(plain.trace.isEmpty)
        let notifications = traced.trace.filter { $0.fate == "multicast NOTIFY" }
        #expect(notifications.count > 7 * 6)  // every device's alive set at least once, and byebyes
        #expect(traced.trace.last.map { $0.at > .seconds(31) } == true)  // the returned device's NOTIFYs
        #expect(!plain.reports.isEmpty)
    }

    @Test func aNetworkThatLosesEverythingFindsNothing() throws {
        let scenario = try Self.scenario(extra: #", "network": {"loss": 1}, "expect": {"found": {"count": 0}}"#)
        let record = try VirtualRun.run(scenario)

        #expect(record.reports.isEmpty)
        #expect(record.hearings?.map(\.delivered) == [0, 0])
        #expect(record.searches.count == 3)
        #expect(Self.failures(scenario, record) == [])
    }

    @Test func answersAfterTheStopAreCountedNotReported() throws {
        let scenario = try Self.scenario(
            devices: #"[{"udn": "uuid:late", "behaviour": {"delay": "late:1"}}]"#,
            search: #"{"target": "upnp:rootdevice", "mx": 1, "requests": 1}"#
        )
        let record = try VirtualRun.run(scenario)

        #expect(record.reports.isEmpty)
        #expect(record.statistics?.notSearching == 1)  // arrived at 2 s, after the stop at 1.1 s
        #expect(record.duration == .seconds(2))
    }

    @Test func aDeviceThatSaysByebyeNeverSendsItsPendingAnswer() throws {
        let scenario = try Self.scenario(
            devices: #"[{"udn": "uuid:gone", "behaviour": {"delay": "fixed:1"}}]"#,
            search: #"{"target": "upnp:rootdevice", "mx": 2, "requests": 1}"#,
            extra: #", "events": [{"at": 0.5, "action": "byebye", "device": 1}]"#
        )
        let record = try VirtualRun.run(scenario, trace: .everyDatagram)

        #expect(record.statistics?.datagramsReceived == 0)
        let byebyes = record.trace.filter { Reports.summary(of: $0.bytes).contains("ssdp:byebye") }
        #expect(byebyes.count == 6)  // 3 + 2·0 + 3 services of the generic profile
        #expect(byebyes.allSatisfy { $0.at == .milliseconds(500) })
    }

    @Test func aRebootedDeviceComesBackWithTheNextBootIDAndIsReportedOnce() throws {
        let scenario = try Self.scenario(
            devices: #"[{"udn": "uuid:phoenix", "behaviour": {"delay": "immediate"}}]"#,
            extra: #", "events": [{"at": 2, "action": "reboot", "device": 1, "downFor": 1.5}]"#
        )
        let record = try VirtualRun.run(scenario, trace: .everyDatagram)

        #expect(record.reports.map(\.service.usn) == ["uuid:phoenix::upnp:rootdevice"])
        #expect(record.statistics?.duplicates == 1)  // the answer to the 3rd search, after the reboot
        let alive = record.trace.compactMap { entry -> String? in
            guard let message = try? SSDPParser.parse(entry.bytes).message, message.headers["NTS"] == "ssdp:alive"
            else {
                return nil
            }
            return message.headers["BOOTID.UPNP.ORG"]
        }
        #expect(Set(alive) == ["1", "2"])
        #expect(record.hearings == [.init(device: 1, delivered: 2, heard: 2)])  // it is down for the search at 3.05 s
    }

    @Test func aByebyeWhileRebootingKeepsTheDeviceDown() throws {
        let scenario = try Self.scenario(
            devices: #"[{"udn": "uuid:gone", "behaviour": {"delay": "immediate"}}]"#,
            search: #"{"target": "upnp:rootdevice", "mx": 1, "requests": 5}"#,
            extra:
                #", "events": [{"at": 0.5, "action": "reboot", "device": 1, "downFor": 2}, {"at": 1, "action": "byebye", "device": 1}]"#
        )
        let record = try VirtualRun.run(scenario)

        #expect(record.hearings == [.init(device: 1, delivered: 1, heard: 1)])  // only the search at 0 s
        #expect(record.statistics?.datagramsReceived == 1)
    }

    @Test func aUnicastSearchReachesOnlyItsDevice() throws {
        let scenario = try Self.scenario(
            search: #"{"target": "upnp:rootdevice", "mx": 1, "requests": 2, "mode": "unicast", "device": 2}"#
        )
        let record = try VirtualRun.run(scenario)

        #expect(record.reports.map(\.service.usn) == ["uuid:b::upnp:rootdevice"])
        #expect(record.hearings?.map(\.delivered) == [0, 2])
        #expect(record.searches.allSatisfy { $0.headers["HOST"] == "10.0.1.2:1900" })
    }

    @Test func zeroRequestsStopAtOnce() throws {
        let scenario = try Self.scenario(search: #"{"target": "ssdp:all", "requests": 0}"#)
        let record = try VirtualRun.run(scenario)

        #expect(record.searches.isEmpty)
        #expect(record.outcomes.count == 1)
        #expect(record.endings.first?.at == .zero)
        #expect(Self.failures(scenario, record) == [])
    }

    // MARK: - The checks are not vacuous

    /// A client's record bent one way each; the check named must catch it, and only it.
    static let mistakes: [(mistake: String, check: String, bend: @Sendable (inout RunRecord) -> Void)] = [
        (
            "reports a service twice", "each service reported once",
            { record in
                record.outcomes.insert(record.outcomes[0], at: 1)
            }
        ),
        (
            "reports after its stop", "nothing reported after the stop",
            { record in
                record.outcomes.append(record.outcomes[0])
            }
        ),
        (
            "stops 1 ms early", "stop",
            { record in
                let last = record.outcomes.count - 1
                record.outcomes[last].at -= .milliseconds(1)
            }
        ),
        (
            "stops twice", "stop",
            { record in
                record.outcomes.append(record.outcomes[record.outcomes.count - 1])
            }
        ),
        (
            "sends one search too few", "M-SEARCH count",
            { record in
                record.searches.removeLast()
            }
        ),
        (
            "spaces its searches wrongly", "M-SEARCH spacing",
            { record in
                record.searches[1].at = .seconds(1)
            }
        ),
        (
            "sends a search without MAN", "M-SEARCH headers",
            { record in
                record.searches[2].headers = SSDPHeaders([
                    "HOST": "239.255.255.250:1900", "MX": "3", "ST": "upnp:rootdevice",
                ])
            }
        ),
        (
            "reports another target", "only the searched target reported",
            { record in
                record.outcomes.insert((.zero, .found(ReportedService(usn: "uuid:a::urn:x", st: "urn:x"))), at: 0)
            }
        ),
        (
            "reports a LOCATION no device sent", "reported as a device sent it",
            { record in
                guard case .found(var service) = record.outcomes[0].outcome else { return }
                service.location = "http://10.0.1.9:49152/description.xml"
                record.outcomes[0].outcome = .found(service)
            }
        ),
        (
            "reports a SERVER no device sent", "reported as a device sent it",
            { record in
                guard case .found(var service) = record.outcomes[0].outcome else { return }
                service.server = "Linux/6.1 UPnP/1.1 other/1.0"
                record.outcomes[0].outcome = .found(service)
            }
        ),
        (
            "reports a USN no device sent", "reported as a device sent it",
            { record in
                guard case .found(var service) = record.outcomes[0].outcome else { return }
                service.usn = "uuid:z::upnp:rootdevice"
                record.outcomes[0].outcome = .found(service)
            }
        ),
        (
            "counts one service fewer at its stop", "found at the stop",
            { record in
                let last = record.outcomes.count - 1
                record.outcomes[last].outcome = .stopped(reason: .timedOut, found: 1)
            }
        ),
        (
            "stops for another reason", "stop reason",
            { record in
                let last = record.outcomes.count - 1
                record.outcomes[last].outcome = .stopped(reason: .stopRequested, found: 2)
            }
        ),
        (
            "misses a device", "found services",
            { record in
                record.outcomes.remove(at: 0)
            }
        ),
        (
            "fails", "error",
            { record in
                record.outcomes.append((.seconds(1), .failed("socket closed")))
                record.outcomes.removeAll {
                    guard case .stopped = $0.outcome else { return false }
                    return true
                }
            }
        ),
    ]

    @Test(arguments: mistakes.indices)
    func eachMistakeIsCaughtByItsCheck(index: Int) throws {
        let (mistake, check, bend) = Self.mistakes[index]
        let scenario = try Self.scenario(
            extra:
                #", "expect": {"found": {"services": [{"usn": "uuid:a::upnp:rootdevice", "st": "upnp:rootdevice"}, {"usn": "uuid:b::upnp:rootdevice", "st": "upnp:rootdevice"}]}}"#
        )
        var record = try VirtualRun.run(scenario)
        #expect(Self.failures(scenario, record) == [])

        bend(&record)
        let failed = Self.checks(scenario, record).filter(\.failed).map(\.name)
        #expect(failed.contains(check), "a client that \(mistake) must fail \(check); failed: \(failed)")
    }

    @Test func foundIncludingAsksForTheseAmongOthers() throws {
        let scenario = try Self.scenario(
            extra:
                #", "expect": {"found": {"including": [{"usn": "uuid:b::upnp:rootdevice", "st": "upnp:rootdevice"}]}}"#
        )
        let record = try VirtualRun.run(scenario)
        #expect(Self.failures(scenario, record) == [])  // uuid:a is found too, and that is fine

        var missing = scenario
        missing.expect.found?.including?.append(.init(usn: "uuid:c::upnp:rootdevice", st: "upnp:rootdevice"))
        #expect(
            Self.failures(missing, record) == [
                "found services included: expected these 2 services among those reported; "
                    + "got missing uuid:c::upnp:rootdevice (upnp:rootdevice)"
            ]
        )
    }

    /// What `ssdp-sim search --expect` checks: only what the client reported and its counters. A record with
    /// no M-SEARCH, no hearing and no advertisement seen (a network the harness does not run) passes them,
    /// and a duplicate report still fails.
    @Test func theReportChecksNeedNothingFromTheDevicesSide() throws {
        var expectations = Expectations()
        expectations.found = FoundExpectation(including: [.init(usn: "uuid:a::upnp:rootdevice", st: "upnp:rootdevice")])
        expectations.dropped = [.duplicates: CountExpectation(1...1)]
        let search = SearchSpecification(target: "upnp:rootdevice", mx: 1, requests: 2)
        var record = RunRecord(mode: .live, seed: 0)
        record.record(.found(ReportedService(usn: "uuid:a::upnp:rootdevice", st: "upnp:rootdevice")), at: .zero)
        record.record(.stopped(reason: .timedOut, found: 1), at: .milliseconds(2_100))
        var statistics = SearchSessionStatistics()
        statistics.duplicates = 1
        record.statistics = statistics

        let checks = ScenarioChecks(search: search, expect: expectations, record: record).evaluateReports()
        #expect(
            checks.map(\.name) == [
                "stop reason", "nothing reported after the stop", "each service reported once",
                "only the searched target reported", "found at the stop", "found services included",
                "dropped duplicates", "error",
            ]
        )
        let notPassed = checks.filter { !$0.passed }
        #expect(notPassed.isEmpty, "\(notPassed)")

        record.outcomes.insert((.zero, record.outcomes[0].outcome), at: 0)
        let twice = ScenarioChecks(search: search, expect: expectations, record: record).evaluateReports()
        #expect(twice.filter(\.failed).map(\.name) == ["each service reported once", "found at the stop"])
    }

    // MARK: - The shipped scenarios

    /// Faults put into the session on purpose: each must fail at least one shipped scenario in virtual time,
    /// by the check made for it, or the scenarios would pass a broken session.
    static let faults: [(fault: String, faults: SessionFaults, check: String)] = [
        (
            "keeps an ST that only contains the searched one (the original design's rule)", .containsTarget,
            "only the searched target reported"
        ),
        ("reports duplicates", .keepsDuplicates, "each service reported once"),
        ("sends one request fewer", .oneRequestFewer, "M-SEARCH count"),
        ("takes LOCATION from SERVER", .locationFromServer, "reported as a device sent it"),
    ]

    @Test(arguments: faults.indices)
    func aBrokenSessionFailsAShippedScenario(index: Int) throws {
        let (fault, faults, check) = Self.faults[index]
        var caughtBy: [String] = []
        for scenario in try HarnessFixtures.shippedScenarios() {
            let record = try VirtualRun.run(scenario, faults: faults)
            let host = "\(VirtualRun.searchDestination(scenario.search))"
            let failed = ScenarioChecks(scenario: scenario, record: record, tolerance: .zero, searchHost: host)
                .evaluate()
            if failed.contains(where: { $0.failed && $0.name == check }) { caughtBy.append(scenario.name) }
        }
        #expect(!caughtBy.isEmpty, "a session that \(fault) passes every shipped scenario's \(check) check")
    }

    @Test(arguments: try HarnessFixtures.shippedScenarios().map(\.name))
    func shippedScenarioPassesForTwentySeeds(name: String) async throws {
        let scenario = try #require(try HarnessFixtures.shippedScenarios().first { $0.name == name })
        for seed in UInt64(1)...20 {
            let result = await ScenarioRunner(seed: seed).run(scenario)
            #expect(result.passed, "\(name) with seed \(seed): \(Reports.failureLines(result))")
        }
    }
}

/// A sweep of virtual runs several at once (`ssdp-sim run --seeds N`, one per core) gives the results one at
/// a time would, handed out in the sweep's order.
@Suite struct SweepTests {
    /// On the main actor, so that `completed` runs there (the sweep's runs do not).
    @MainActor @Test func aSweepOnThreeJobsGivesTheResultsOfOneAtATimeInOrder() async throws {
        let scenarios = try HarnessFixtures.shippedScenarios().prefix(5)
        let runs = scenarios.flatMap { scenario in (UInt64(1)...3).map { (scenario: scenario, seed: $0) } }
        var handedOut: [Int] = []
        var swept: [ScenarioResult] = []
        await ScenarioRunner.sweep(runs, mode: .virtual, jobs: 3) { index, result in
            handedOut.append(index)
            swept.append(result)
        }
        #expect(handedOut == Array(runs.indices))
        for (run, result) in zip(runs, swept) {
            let alone = await ScenarioRunner(seed: run.seed).run(run.scenario)
            #expect(result.scenario.name == run.scenario.name && result.seed == run.seed)
            #expect(result.checks == alone.checks, "\(run.scenario.name) seed \(run.seed)")
            #expect(result.record.statistics == alone.record.statistics)
            #expect(result.record.reports.map(\.service) == alone.record.reports.map(\.service))
            #expect(result.record.reports.map(\.at) == alone.record.reports.map(\.at))
        }
    }
}

/// `search.ipv6`: the same run over IPv6 link-local addresses.
@Suite struct VirtualIPv6Tests {
    @Test func anIPv6SearchGoesToFF02CAndIsAnsweredWithBracketedLinkLocalLocations() throws {
        let scenario = try VirtualRunTests.scenario(
            search: #"{"target": "upnp:rootdevice", "mx": 1, "requests": 2, "ipv6": true}"#
        )
        let record = try VirtualRun.run(scenario, trace: .everyDatagram)
        #expect(record.searches.first?.headers["HOST"] == "[ff02::c]:1900")
        let locations = record.outcomes.compactMap { entry -> String? in
            guard case .found(let service) = entry.outcome else { return nil }
            return service.location
        }
        #expect(locations.count == 2)
        #expect(locations.allSatisfy { $0.hasPrefix("http://[fe80::d:") })
        #expect(record.trace.first.map { "\($0.source) → \($0.destination)" } == "[fe80::1]:40000 → [ff02::c]:1900")
        #expect(record.trace.contains { String(decoding: $0.bytes, as: UTF8.self).contains("HOST: [FF02::C]:1900") })
        let checks = ScenarioChecks(scenario: scenario, record: record, tolerance: .zero, searchHost: "[ff02::c]:1900")
        #expect(checks.evaluate().filter(\.failed).map(\.name) == [])
    }

    @Test func itsPcapHoldsIPv6PacketsWithValidUDPChecksums() throws {
        let scenario = try VirtualRunTests.scenario(
            search: #"{"target": "upnp:rootdevice", "mx": 1, "requests": 1, "ipv6": true}"#
        )
        let record = try VirtualRun.run(scenario, trace: .everyDatagram)
        let entry = try #require(record.trace.first)
        let packet = Array(Reports.pcap([entry]).dropFirst(24 + 16))  // the file's header, the record's
        #expect(packet[0] >> 4 == 6)
        #expect(packet[6] == 17 && packet[7] == 2)  // UDP, hop limit 2 to the group
        #expect(Array(packet[24..<40]) == [0xFF, 0x02] + Array(repeating: 0, count: 13) + [0x0C])
        // The ones' complement sum over the pseudo-header and the UDP datagram, checksum included, is 0xFFFF.
        let udp = Array(packet[40...])
        var pseudo = Array(packet[8..<40]) + [0, 0, UInt8(udp.count >> 8), UInt8(udp.count & 0xFF), 0, 0, 0, 17]
        pseudo += udp + (udp.count % 2 == 1 ? [0] : [])
        var sum: UInt32 = 0
        for index in stride(from: 0, to: pseudo.count, by: 2) {
            sum += UInt32(pseudo[index]) << 8 | UInt32(pseudo[index + 1])
        }
        while sum > 0xFFFF { sum = (sum & 0xFFFF) + (sum >> 16) }
        #expect(sum == 0xFFFF)
    }

    @Test func aLiveScenarioCannotBeIPv6() throws {
        #expect {
            try VirtualRunTests.scenario(
                search: #"{"target": "upnp:rootdevice", "ipv6": true}"#,
                extra: #", "tags": ["live"]"#
            )
        } throws: { error in
            "\(error)".contains("$.search.ipv6") && "\(error)".contains("scripts/ssdp-lab")
        }
    }
}
