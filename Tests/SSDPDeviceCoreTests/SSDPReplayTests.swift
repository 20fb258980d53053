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
import Testing

/// A device replaying captured answers (`ssdp-sim import`): which answers go with which search, their
/// bytes, and where their LOCATIONs point.
@Suite struct SSDPReplayTests {
    typealias F = DeviceFixtures

    static func answer(_ usn: String, location: String = "http://192.168.1.20:8060/dial.xml") -> [UInt8] {
        Array(
            "HTTP/1.1 200 OK\r\nCACHE-CONTROL: max-age=1800\r\nlocation:  \(location)\r\nST: upnp:rootdevice\r\nUSN: \(usn)\r\n\r\n"
                .utf8
        )
    }

    static let replay = SSDPReplay(
        searches: 2,
        answers: [
            .init(search: 0, delay: .milliseconds(120), bytes: answer("uuid:a::upnp:rootdevice")),
            .init(search: 0, delay: .milliseconds(121), bytes: answer("uuid:a::upnp:rootdevice")),
            .init(search: 1, delay: .milliseconds(900), bytes: [0xFF, 0xFE, 0x00]),
        ]
    )

    private func scheduled(_ outcome: DeviceResponder.Outcome) -> [ScheduledAnswer] {
        if case .answered(let answers) = outcome { return answers }
        Issue.record("expected answers, got \(outcome)")
        return []
    }

    @Test func eachSearchGetsTheAnswersRecordedForItAndLaterSearchesTheLastOnes() {
        var responder = DeviceResponder(
            device: F.gateway,
            behaviour: SSDPDeviceBehaviour(replay: Self.replay),
            startedAt: .zero,
            seed: 1,
            replayLocations: .asCaptured
        )
        // The ST asked for is not looked at: the device says what it said in the capture.
        let first = scheduled(responder.receive(F.search("urn:nothing:matches:1"), at: .zero))
        #expect(first.map(\.delay) == [.milliseconds(120), .milliseconds(121)])
        #expect(first.map(\.bytes) == [Self.answer("uuid:a::upnp:rootdevice"), Self.answer("uuid:a::upnp:rootdevice")])
        #expect(first.map(\.advertisement.usn) == ["uuid:a::upnp:rootdevice", "uuid:a::upnp:rootdevice"])
        for _ in 0..<2 {
            let later = scheduled(responder.receive(F.search("ssdp:all"), at: SSDPInstant(offset: .seconds(3))))
            #expect(later.map(\.bytes) == [[0xFF, 0xFE, 0x00]])
            #expect(later.map(\.delay) == [.milliseconds(900)])
            #expect(later.map(\.advertisement.usn) == [""])
        }
        #expect(responder.statistics.searchesReceived == 3)
        #expect(responder.statistics.answersScheduled == 4)
    }

    @Test func liveReplaysPointTheirLocationAtTheFakeKeepingThePathAndEverythingElse() {
        let bytes = Self.answer("uuid:a::upnp:rootdevice")
        let own = SSDPReplay.relocating(bytes, .relocated([:]), own: "http://10.0.1.1:8060")
        #expect(own == Self.answer("uuid:a::upnp:rootdevice", location: "http://10.0.1.1:8060/dial.xml"))
        // Two devices that named one LOCATION in the capture name one device in the replay.
        let table = SSDPReplay.Locations.relocated([
            (SSDPReplay(searches: 1, answers: [.init(search: 0, delay: .zero, bytes: bytes)]), "http://10.0.1.1:8060"),
            (SSDPReplay(searches: 1, answers: [.init(search: 0, delay: .zero, bytes: bytes)]), "http://10.0.1.2:8060"),
            (nil, "http://10.0.1.3:80"),
        ])
        #expect(table == .relocated(["http://192.168.1.20:8060": "http://10.0.1.1:8060"]))
        #expect(SSDPReplay.relocating(bytes, table, own: "http://10.0.1.2:8060") == own)
        #expect(SSDPReplay.relocating(bytes, .asCaptured, own: "http://10.0.1.2:8060") == bytes)
        // Not http://, no LOCATION, or a LOCATION-like line in the body: unchanged.
        for unchanged in [
            Self.answer("uuid:a", location: "https://192.168.1.20/x"),
            Array("HTTP/1.1 200 OK\r\nST: a\r\n\r\nLOCATION: http://192.168.1.20/\r\n".utf8),
            [0xFF, 0x0A, 0x0A],
        ] {
            #expect(SSDPReplay.relocating(unchanged, .relocated([:]), own: "http://10.0.1.1:80") == unchanged)
        }
    }

    @Test func capturedNotifyMessagesGoOutAtTheirTimesInOrderOnceWithTheirLocationRelocated() {
        let alive = Array(
            "NOTIFY * HTTP/1.1\r\nNTS: ssdp:alive\r\nLOCATION: http://192.168.1.20:8060/dial.xml\r\nUSN: uuid:a\r\n\r\n"
                .utf8
        )
        let byebye = Array("NOTIFY * HTTP/1.1\r\nNTS: ssdp:byebye\r\nUSN: uuid:a\r\n\r\n".utf8)
        let replay = SSDPReplay(
            searches: 1,
            answers: [],
            notifications: [
                .init(at: .milliseconds(900), bytes: byebye),
                .init(at: .milliseconds(100), bytes: alive),
                .init(at: .milliseconds(100), bytes: [0xFF]),
            ]
        )
        let start = SSDPInstant(offset: .seconds(5))
        var captured = NotificationReplay(replay, startedAt: start, locations: .asCaptured, own: "")
        #expect(captured.nextDeadline == start + .milliseconds(100))
        #expect(captured.due(at: start).isEmpty)
        // Those of one instant in their captured order, each once.
        #expect(captured.due(at: start + .milliseconds(500)) == [alive, [0xFF]])
        #expect(captured.due(at: start + .milliseconds(500)).isEmpty)
        #expect(captured.nextDeadline == start + .milliseconds(900))
        #expect(captured.due(at: start + .seconds(10)) == [byebye])
        #expect(captured.nextDeadline == nil)
        var live = NotificationReplay(replay, startedAt: .zero, locations: .relocated([:]), own: "http://10.0.1.1:8060")
        let relocated = String(decoding: live.due(at: SSDPInstant(offset: .seconds(1)))[0], as: UTF8.self)
        #expect(relocated.contains("LOCATION: http://10.0.1.1:8060/dial.xml\r\n"))
        #expect(!relocated.contains("192.168.1.20"))
    }

    @Test func aReplayWithANegativeSearchOrDelayIsRejectedNamingTheField() {
        let bad = SSDPDeviceBehaviour(
            replay: SSDPReplay(searches: 1, answers: [.init(search: 0, delay: .seconds(-1), bytes: [1])])
        )
        #expect(throws: SSDPConfigurationError.self) { try bad.validate() }
        do {
            try bad.validate()
        } catch {
            #expect(error.field == "replay.answers[0].delay")
        }
    }
}
