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
import SSDPCapture
import SSDPCore
import SSDPDeviceCore
import SSDPDevices
import SSDPHarness
import SSDPSimulator
import SSDPVirtualNetwork
import Testing

/// `ssdp-sim import`: captures in every format and link type read to the same datagrams, a capture
/// becomes a scenario that reproduces what the session saw, and bad files are errors, never crashes.
@Suite struct CaptureImportTests {
    typealias F = CaptureFixtures

    /// What a run reported and dropped: the (USN, ST) set and every drop counter.
    static func outcome(_ record: RunRecord) -> (found: Set<String>, drops: [SearchSessionStatistics.Drop: Int]) {
        let found = Set(record.reports.map { "\($0.service.usn) \($0.service.st)" })
        let statistics = record.statistics ?? SearchSessionStatistics()
        return (
            found, Dictionary(uniqueKeysWithValues: SearchSessionStatistics.Drop.allCases.map { ($0, statistics[$0]) })
        )
    }

    static func imported(_ bytes: [UInt8], options: CaptureImport.Options = .init()) throws -> CaptureImport.Result {
        try CaptureImport.scenario(from: try PacketCapture.read(bytes), file: "/tmp/lan.pcap", options: options)
    }

    @Test func theHarnessOwnPcapReadsBackToTheSameDatagramsAndTimes() throws {
        let capture = try PacketCapture.read(Reports.pcap(F.lan, startingAt: 1_700_000_000))
        #expect(capture.format == "pcap")
        #expect(capture.packets == F.lan.count)
        #expect(capture.datagrams.map(\.payload) == F.lan.map(\.bytes))
        #expect(capture.datagrams.map(\.source) == F.lan.map(\.source))
        #expect(capture.datagrams.map(\.destination) == F.lan.map(\.destination))
        #expect(capture.datagrams.map(\.packet) == Array(1...F.lan.count))
        for (datagram, entry) in zip(capture.datagrams, F.lan) {
            #expect(abs(datagram.time - 1_700_000_000 - Double(entry.at.milliseconds) / 1_000) < 0.000_001)
        }
    }

    @Test(arguments: [1, 113, 276, 0, 101])
    func everyLinkTypeInPcapAndPcapngGivesTheSameDatagrams(linkType: Int) throws {
        let frames = F.ipPackets(F.lan).map { ($0.time, F.frame($0.packet, linkType: linkType)) }
        for file in [
            F.pcap(frames, linkType: linkType), F.pcap(frames, linkType: linkType, bigEndian: true),
            F.pcapng(frames, linkType: linkType),
        ] {
            let capture = try PacketCapture.read(file)
            #expect(capture.datagrams.map(\.payload) == F.lan.map(\.bytes))
            #expect(capture.datagrams.map(\.source) == F.lan.map(\.source))
            // Both formats keep the time to the microsecond (pcapng here in nanoseconds).
            let times = capture.datagrams.map { ($0.time - 1_700_000_000) * 1_000 }
            #expect(zip(times, F.lan).allSatisfy { abs($0 - Double($1.at.milliseconds)) < 0.001 })
        }
    }

    @Test func fragmentedDatagramsAreReassembledOverIPv4AndIPv6AndALostFragmentIsCounted() throws {
        let v4 = F.ipPackets([F.lan[1]])[0].packet
        let v6Entry = F.entry(
            0,
            F.Endpoint(address: "fe80::1", port: 1900),
            F.Endpoint(address: "fe80::5", port: 50_000),
            F.answer(usn: "uuid:v6::upnp:rootdevice")
        )
        let v6 = F.ipPackets([v6Entry])[0].packet
        let fragments = F.ipv4Fragments(v4) + F.ipv6Fragments(v6)
        let capture = try PacketCapture.read(F.pcap(fragments.map { (.zero, $0) }, linkType: 101))
        #expect(capture.datagrams.map(\.payload) == [F.lan[1].bytes, v6Entry.bytes])
        #expect(capture.datagrams.map(\.packet) == [2, 4])
        #expect(capture.reassembled == 2)
        #expect(capture.incompleteFragments == 0)
        let lost = try PacketCapture.read(F.pcap([(.zero, F.ipv4Fragments(v4)[0])], linkType: 101))
        #expect(lost.datagrams.isEmpty)
        #expect(lost.incompleteFragments == 1)
    }

    @Test func aBadFileIsAnErrorThatSaysWhatIsWrong() throws {
        let good = F.pcap(F.ipPackets(F.lan).map { ($0.time, $0.packet) }, linkType: 101)
        let cases: [([UInt8], String)] = [
            (Array("{\"name\": \"x\"}".utf8), "not a pcap or pcapng capture (it starts with 7b 22 6e 61)"),
            ([], "not a pcap or pcapng capture (it starts with nothing)"),
            (Array(good.dropLast(10)), "the file is truncated: packet 6 goes past the end"),
            (F.pcap([], linkType: 105), "link type 105 is not supported"),
            (
                Array(F.pcapng([], linkType: 1).prefix(28)) + F.le(UInt32(1)) + F.le(UInt32(14)) + [0, 0, 0, 0, 0, 0],
                "is malformed"
            ),
        ]
        for (bytes, message) in cases {
            #expect {
                _ = try PacketCapture.read(bytes)
            } throws: { error in
                "\(error)".contains(message)
            }
        }
    }

    @Test func noSearchOrNoAnswerIsAnErrorThatSaysWhatTheCaptureHolds() throws {
        let dns = F.entry(0, F.client, F.Endpoint(address: "192.168.1.1", port: 53), [1, 2, 3])
        let notify = F.entry(
            0.5,
            F.Endpoint(address: "192.168.1.20", port: 1900),
            F.group,
            Array("NOTIFY * HTTP/1.1\r\n\r\n".utf8)
        )
        #expect {
            _ = try Self.imported(Reports.pcap([dns, dns, notify]))
        } throws: { error in
            "\(error)" == "no M-SEARCH in it: 3 packets, of which 1 NOTIFY, 2 other UDP (to port 53 ×2); "
                + "capture while the client searches (udp port 1900 and the answers)"
        }
        #expect {
            _ = try Self.imported(Reports.pcap([F.lan[0]]))
        } throws: { error in
            "\(error)".contains("got no answer and no device advertised after it")
        }
    }

    /// Every prefix of a capture, and every capture with one byte changed, reads or is an error: never a
    /// crash, whatever the lengths inside say.
    @Test func truncatedAndCorruptedCapturesNeverCrash() throws {
        let frames = F.ipPackets(F.lan).map { ($0.time, F.frame($0.packet, linkType: 1)) }
        for file in [F.pcap(frames, linkType: 1), F.pcapng(frames, linkType: 1)] {
            for length in 0..<file.count {
                _ = try? PacketCapture.read(Array(file.prefix(length)))
            }
            var random = SystemRandomNumberGenerator()
            for _ in 0..<500 {
                var corrupted = file
                corrupted[Int.random(in: 0..<file.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
                if let capture = try? PacketCapture.read(corrupted),
                    let imported = try? CaptureImport.scenario(from: capture, file: "x.pcap")
                {
                    #expect(imported.scenario.devices.count >= 1)
                }
            }
        }
    }

    @Test func aCaptureBecomesAScenarioThatReplaysItAndExpectsWhatACorrectSessionReports() throws {
        let result = try Self.imported(Reports.pcap(F.lan, startingAt: 1_700_000_000))
        let scenario = result.scenario
        #expect(scenario.name == "lan")
        #expect(scenario.search.target == "ssdp:all")
        #expect(scenario.search.mx == 1)
        #expect(scenario.search.requests == 2)
        #expect(scenario.devices.count == 2)
        #expect(result.answers == 4)
        let provenance = try #require(scenario.provenance)
        #expect(provenance.client == "192.168.1.5:50123")
        #expect(provenance.searchPackets == [1, 5])
        #expect(provenance.devices.map(\.address) == ["192.168.1.20", "192.168.1.31"])
        #expect(provenance.from == "2023-11-14T22:13:20.000Z")
        // The Roku's answers replay byte for byte, each after its search: 0.12 and 0.13 s after the first,
        // 0.5 s after the second.
        let replay = try #require(scenario.devices[0].behaviour.replay)
        #expect(replay.answers.map(\.search) == [0, 0, 1])
        #expect(replay.answers.map(\.delay) == [.milliseconds(120), .milliseconds(130), .milliseconds(500)])
        #expect(replay.answers.map(\.bytes) == [F.lan[1].bytes, F.lan[2].bytes, F.lan[5].bytes])
        // The expectations: both services once; the Roku's second and third answers dropped as duplicates.
        #expect(
            scenario.expect.found?.services == [
                .init(
                    usn: "uuid:0d6f1d2e-3c4b-4a59-8e7f-001122334455::urn:dial-multiscreen-org:device:dial:1",
                    st: "urn:dial-multiscreen-org:device:dial:1"
                ),
                .init(usn: "uuid:roku:ecp:P0A070000007::upnp:rootdevice", st: "upnp:rootdevice"),
            ]
        )
        #expect(scenario.expect.dropped[.duplicates] == CountExpectation(2...2))
        #expect(scenario.expect.dropped[.notSearching] == CountExpectation(0...0))
        // It passes, and a session that does not de-duplicate fails it.
        let record = try VirtualRun.run(scenario)
        let checks = ScenarioChecks(
            scenario: scenario,
            record: record,
            tolerance: .zero,
            searchHost: "239.255.255.250:1900"
        )
        #expect(checks.evaluate().allSatisfy { !$0.failed })
        // The file it wrote reads back to the same scenario.
        let reread = try ScenarioFile.decode(result.json, file: "lan.json")
        #expect(reread.devices == scenario.devices)
        #expect(reread.expect == scenario.expect)
    }

    /// An answer the session gets in the last moments before its end, which a live run on a busy machine may
    /// read too late, is named in the notes; the fixture's answers, all 0.5 s or more before it, are not.
    @Test func anAnswerInTheLastMomentsOfTheSearchIsNamedInTheNotes() throws {
        let plain = try #require(try Self.imported(Reports.pcap(F.lan)).scenario.provenance?.notes)
        #expect(!plain.contains { $0.contains("before its end") }, "\(plain)")
        var late = F.lan
        late[5].at = .milliseconds(1_950)  // 0.95 s after the second search: at 2.05 s of the replay's 2.1 s
        let notes = try #require(try Self.imported(Reports.pcap(late)).scenario.provenance?.notes)
        #expect(
            notes.contains(
                "1 answer reaches the session less than 0.25 s before its end at 2.100 s (packet 6, device 1, "
                    + "at 2.050 s): a live run on a busy machine may read it too late and fail its counts"
            ),
            "\(notes)"
        )
        // At 0.25 s or more before the end, nothing to say.
        late[5].at = .milliseconds(1_750)
        let clear = try #require(try Self.imported(Reports.pcap(late)).scenario.provenance?.notes)
        #expect(!clear.contains { $0.contains("before its end") }, "\(clear)")
    }

    @Test func theUsersSearchReplacesTheCapturedOne() throws {
        let result = try Self.imported(
            Reports.pcap(F.lan),
            options: .init(name: "roku-bug", target: "roku:ecp", mx: 2, requests: 4)
        )
        #expect(result.scenario.name == "roku-bug")
        #expect(result.scenario.search.target == "roku:ecp")
        #expect(result.scenario.search.mx == 2)
        #expect(result.scenario.search.requests == 4)
        // Nothing answered roku:ecp itself: every answer is for another target.
        #expect(result.scenario.expect.found?.services == [])
    }

    /// The harness's own trace of each shipped scenario (its pcap, and the same packets in pcapng) imports
    /// back to a scenario whose run reports the same services and drops the same answers. Scenarios with network faults are left out: a trace holds
    /// each datagram once as it was sent, not the copies the faulty network lost or doubled.
    @Test func everyShippedScenarioRoundTripsThroughItsOwnTrace() throws {
        var tried = 0
        for scenario in try HarnessFixtures.shippedScenarios()
        where scenario.network.isClean && scenario.devices.count <= 100 {
            let record = try VirtualRun.run(scenario, trace: .everyDatagram)
            let pcap = Reports.pcap(record.trace, startingAt: record.startedAt)
            guard
                record.reports.count > 0
                    || record.trace.contains(where: {
                        $0.destination.port == scenario.search.addressPlan.client.port
                    })
            else {
                continue  // nothing answered: there is no device to import
            }
            // The same packets in pcapng (Ethernet frames) import to the same scenario.
            let pcapng = F.pcapng(
                F.ipPackets(record.trace).map { ($0.time, F.frame($0.packet, linkType: 1)) },
                linkType: 1
            )
            let imported = try Self.imported(pcap, options: .init(name: scenario.name))
            let fromPcapng = try Self.imported(pcapng, options: .init(name: scenario.name))
            #expect(fromPcapng.scenario.devices == imported.scenario.devices, "\(scenario.name)")
            let replayed = try VirtualRun.run(imported.scenario, trace: .everyDatagram)
            let (original, again) = (Self.outcome(record), Self.outcome(replayed))
            #expect(again.found == original.found, "\(scenario.name)")
            #expect(again.drops == original.drops, "\(scenario.name)")
            // The devices' NOTIFY messages too: the same bytes at the same times (to the microsecond a pcap
            // keeps), up to the stop (a run goes on only as long as there are answers to deliver; a device says byebye when it ends).
            let stop = scenario.search.designedStop
            let notifications = { (trace: [TraceEntry]) in
                trace.filter {
                    $0.destination.port == 1900 && $0.bytes.starts(with: Array("NOTIFY".utf8)) && $0.at < stop
                }
                .map {
                    "\(Int64(($0.at / .microseconds(1)).rounded(.down))) \(String(decoding: $0.bytes, as: UTF8.self))"
                }
                .sorted()
            }
            #expect(notifications(replayed.trace) == notifications(record.trace), "\(scenario.name)")
            if !scenario.devices.contains(where: { $0.behaviour.replay != nil }) {
                #expect(!notifications(record.trace).isEmpty, "\(scenario.name)")
            }
            tried += 1
        }
        #expect(tried >= 18, "\(tried) scenarios round-tripped")
    }

    @Test func anonymizingReplacesEveryIdentifierConsistentlyAndTheScenarioStillPasses() throws {
        let sonos = F.Endpoint(address: "192.168.1.44", port: 1900)
        let trace =
            F.lan + [
                F.entry(
                    0.2,
                    sonos,
                    F.client,
                    F.answer(
                        usn: "uuid:RINCON_48A6B8C0FFEE01400::urn:schemas-upnp-org:device:ZonePlayer:1",
                        st: "urn:schemas-upnp-org:device:ZonePlayer:1",
                        location: "http://192.168.1.44:1400/xml/device_description.xml",
                        extra:
                            "X-RINCON-HOUSEHOLD: Sonos_qWeRtYuIoPaSdFgHjKlZxCvB\r\nX-RINCON-BOOTSEQ: 88\r\nhue-bridgeid: 001788FFFE46D003\r\n"
                            + "SERVER-EXTRA: Linux UPnP/1.0 kitchen-nas SN:QX7734A9B2 MAC 48:a6:b8:c0:ff:ee\r\n"
                            + "X-LOCATION6: http://[fe80::21d:c9ff:fe12:3456]:1400/xml/device_description.xml\r\n"
                    )
                ),
                F.entry(
                    0.25,
                    sonos,
                    F.client,
                    F.answer(
                        usn: "uuid:RINCON_48A6B8C0FFEE01400::upnp:rootdevice",
                        location: "http://my-nas.local:1400/xml/device_description.xml"
                    )
                ),
            ]
        let identifiers = [
            "192.168.1.5", "192.168.1.20", "192.168.1.31", "192.168.1.44", "P0A070000007",
            "0d6f1d2e-3c4b-4a59-8e7f-001122334455",
            "48A6B8C0FFEE", "qWeRtYuIoPaSdFgHjKlZxCvB", "001788FFFE46D003", "QX7734A9B2", "48:a6:b8:c0:ff:ee", "my-nas",
            "fe80::21d:c9ff:fe12:3456",
        ]
        let plain = try Self.imported(Reports.pcap(trace))
        let anonymized = try Self.imported(Reports.pcap(trace), options: .init(anonymize: true))
        let text = String(decoding: anonymized.json, as: UTF8.self)
        for identifier in identifiers {
            #expect(
                String(decoding: plain.json, as: UTF8.self).contains(identifier),
                "the fixture carries \(identifier)"
            )
            #expect(!text.lowercased().contains(identifier.lowercased()), "\(identifier) survived")
        }
        #expect(anonymized.scenario.provenance?.anonymized == true)
        // Still the same network: as many devices and services, the same drops, and one device's UDN the
        // same in each of its answers.
        #expect(anonymized.scenario.devices.count == plain.scenario.devices.count)
        #expect(anonymized.scenario.expect.found?.services?.count == plain.scenario.expect.found?.services?.count)
        #expect(anonymized.scenario.expect.dropped == plain.scenario.expect.dropped)
        let sonosUSNs = try #require(anonymized.scenario.devices.last?.behaviour.replay).answers.compactMap {
            String(decoding: $0.bytes, as: UTF8.self).split(separator: "\r\n").first { $0.hasPrefix("USN: ") }
        }
        #expect(Set(sonosUSNs.map { $0.split(separator: "::")[0] }).count == 1)
        #expect(text.contains("X-RINCON-BOOTSEQ: 88"))  // not an identifier: kept
        let record = try VirtualRun.run(anonymized.scenario)
        let checks = ScenarioChecks(
            scenario: anonymized.scenario,
            record: record,
            tolerance: .zero,
            searchHost: "239.255.255.250:1900"
        )
        #expect(checks.evaluate().allSatisfy { !$0.failed })
    }
}
