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

@Suite struct DeviceResponderTests {
    typealias F = DeviceFixtures

    private func responder(_ behaviour: SSDPDeviceBehaviour = .init(), seed: UInt64 = 1) -> DeviceResponder {
        DeviceResponder(device: F.gateway, behaviour: behaviour, startedAt: .zero, seed: seed)
    }

    private func answers(_ outcome: DeviceResponder.Outcome) -> [ScheduledAnswer] {
        if case .answered(let answers) = outcome { return answers }
        return []
    }

    /// The timeline of `count` searches a second apart: each answer's delay and USN.
    private func timeline(_ behaviour: SSDPDeviceBehaviour, seed: UInt64, count: Int = 5) -> [String] {
        var device = responder(behaviour, seed: seed)
        return (0..<count).flatMap { second in
            answers(device.receive(F.search("ssdp:all"), at: SSDPInstant(offset: .seconds(second)))).map {
                "\(second) +\($0.delay) \($0.advertisement.usn)"
            }
        }
    }

    @Test func anAnswerWithADateIsMadeOnceAndDatedWhenItLeaves() throws {
        var device = F.gateway
        device.responseHeaders = [.init(name: "ST", value: "{st}"), .init(name: "DATE", value: "{date}")]
        var responder = DeviceResponder(device: device, behaviour: .init(duplicates: 2), startedAt: .zero, seed: 1)
        let sent = answers(responder.receive(F.search("upnp:rootdevice"), at: .zero))
        #expect(sent.count == 2)
        let answer = try #require(sent.first)
        let made = String(decoding: answer.bytes, as: UTF8.self)
        #expect(made.hasSuffix("\r\nDATE: \(HTTPDate.epoch)\r\n\r\n"))
        let dated = answer.dated(secondsSince1970: 1_795_707_179)
        #expect(
            String(decoding: dated, as: UTF8.self)
                == made.replacing(HTTPDate.epoch, with: "Thu, 26 Nov 2026 15:32:59 GMT")
        )
        #expect(sent[1].dateOffset == answer.dateOffset)
        // Without {date} in its lines, an answer has nothing to date.
        var plainResponder = self.responder()
        let plain = answers(plainResponder.receive(F.search("upnp:rootdevice"), at: .zero))
        #expect(plain.first?.dateOffset == nil)
        #expect(plain.first.map { $0.dated(secondsSince1970: 1) == $0.bytes } == true)
    }

    @Test func uniformDelaysStayWithinMXAndSpreadOverIt() {
        var device = responder()
        let delays = (0..<100).flatMap { _ in
            answers(device.receive(F.search("ssdp:all", mx: 2), at: .zero)).map(\.delay)
        }
        #expect(delays.count == 1_100)
        #expect(delays.allSatisfy { $0 >= .zero && $0 <= .seconds(2) })
        #expect(delays.contains { $0 < .milliseconds(200) } && delays.contains { $0 > .milliseconds(1_800) })
    }

    /// libupnp's rule (ssdp_device.c): all answers to a search together, after whole seconds in
    /// 0 ..< MX − max(1, MX / 10): at once for MX 1 and 2, 0 or 1 s for MX 3, 0 to 3 s for MX 5.
    @Test(arguments: [(1, 0), (2, 0), (3, 1), (5, 3)])
    func wholeSecondDelaysAreOnePerSearchWithinLibupnpsWindow(mx: Int, latest: Int) {
        var device = responder(SSDPDeviceBehaviour(delay: .wholeSeconds))
        var seen = Set<Duration>()
        for _ in 0..<200 {
            let delays = answers(device.receive(F.search("ssdp:all", mx: mx), at: .zero)).map(\.delay)
            #expect(delays.count == 11 && Set(delays).count == 1, "one delay for every answer to a search")
            seen.formUnion(delays)
        }
        #expect(seen == Set((0...latest).map { Duration.seconds($0) }))
    }

    @Test func theSameSeedGivesTheSameTimelineAndAnotherSeedAnother() {
        let behaviour = SSDPDeviceBehaviour(searchLoss: 0.3, responseLoss: 0.2, duplicates: 2)
        #expect(timeline(behaviour, seed: 42) == timeline(behaviour, seed: 42))
        #expect(timeline(behaviour, seed: 42) != timeline(behaviour, seed: 43))
    }

    @Test(arguments: [
        (SSDPDeviceBehaviour.Delay.immediate, Duration.zero),
        (.fixed(.milliseconds(700)), .milliseconds(700)),
        (.late(.milliseconds(1_500)), .milliseconds(4_500)),
    ])
    func fixedDelaysAreExact(delay: SSDPDeviceBehaviour.Delay, expected: Duration) {
        var device = responder(SSDPDeviceBehaviour(delay: delay))
        let delays = answers(device.receive(F.search("ssdp:all", mx: 3), at: .zero)).map(\.delay)
        #expect(delays == Array(repeating: expected, count: 11))
    }

    @Test func searchLossDropsAboutThatShareOfSearches() {
        var device = responder(SSDPDeviceBehaviour(searchLoss: 0.3), seed: 9)
        let outcomes = (0..<2_000).map { _ in device.receive(F.search("upnp:rootdevice"), at: .zero) }
        let lost = outcomes.filter { $0 == .notHeard }.count
        #expect((500...700).contains(lost), "lost \(lost) of 2000 at p = 0.3")
        #expect(device.statistics.searchesNotHeard == lost)
        #expect(device.statistics.answersScheduled == 2_000 - lost)
    }

    @Test func responseLossDropsSingleDatagrams() {
        var device = responder(SSDPDeviceBehaviour(responseLoss: 0.5), seed: 3)
        let sent = (0..<200).map { _ in answers(device.receive(F.search("ssdp:all"), at: .zero)).count }.reduce(0, +)
        #expect(device.statistics.answersLost + sent == 2_200)
        #expect((900...1_300).contains(sent))
    }

    @Test func ignoresExactlyTheFirstKSearches() {
        var device = responder(SSDPDeviceBehaviour(ignoredSearches: 2))
        let outcomes = (0..<4).map { _ in device.receive(F.search("upnp:rootdevice"), at: .zero) }
        #expect(outcomes[0] == .notHeard && outcomes[1] == .notHeard)
        #expect(answers(outcomes[2]).count == 1 && answers(outcomes[3]).count == 1)
    }

    @Test func duplicatesSendEachAnswerKTimesAtTheSameMoment() {
        var device = responder(SSDPDeviceBehaviour(duplicates: 3))
        let sent = answers(device.receive(F.search("upnp:rootdevice"), at: .zero))
        #expect(sent.count == 3)
        #expect(Set(sent.map(\.bytes)).count == 1 && Set(sent.map(\.delay)).count == 1)
    }

    @Test func unmatchedSearchIsNotAnsweredUnlessChatty() {
        var quiet = responder()
        #expect(quiet.receive(F.search("roku:ecp"), at: .zero) == .noMatch)
        var chatty = responder(SSDPDeviceBehaviour(chatter: [.anyTarget]))
        let targets = answers(chatty.receive(F.search("roku:ecp"), at: .zero)).map(\.advertisement.target)
        #expect(targets == ["upnp:rootdevice", F.root, "urn:schemas-upnp-org:device:InternetGatewayDevice:2"])
    }

    /// A wrong-target device answers with an ST the search did not ask for, and the real search session
    /// drops every one of those answers as chatter.
    @Test func wrongTargetAnswersAreDroppedByTheSearchSession() throws {
        var device = responder(SSDPDeviceBehaviour(chatter: [.wrongTarget]))
        let sent = answers(device.receive(F.search("upnp:rootdevice"), at: .zero))
        #expect(sent.map(\.advertisement.target) == ["urn:schemas-upnp-org:device:InternetGatewayDevice:2"])
        var session = SearchSessionStateMachine(
            configuration: try .createMulticastConfiguration(
                forSearchTarget: "upnp:rootdevice",
                maximumWaitResponseTime: 1
            )
        )
        _ = session.start(at: SSDPInstant.zero)
        let result = session.received(sent[0].bytes, at: SSDPInstant.zero)
        #expect(result == .dropped(.wrongSearchTarget("urn:schemas-upnp-org:device:InternetGatewayDevice:2")))
    }

    @Test func answersNotificationsOnlyWhenChattyAboutThem() {
        var quiet = responder()
        #expect(quiet.receiveNotification(at: .zero) == .noMatch)
        var chatty = responder(SSDPDeviceBehaviour(chatter: [.notifies]))
        #expect(answers(chatty.receiveNotification(at: .zero)).count == 3)
    }

    @Test func silentWindowsSilenceTheDeviceFromItsStart() {
        let window = SSDPDeviceBehaviour.SilentWindow(start: .seconds(2), end: .seconds(5))
        var device = DeviceResponder(
            device: F.gateway,
            behaviour: SSDPDeviceBehaviour(silentWindows: [window]),
            startedAt: SSDPInstant(offset: .seconds(10)),
            seed: 1
        )
        let at = { (second: Int) in
            device.receive(F.search("upnp:rootdevice"), at: SSDPInstant(offset: .seconds(10 + second)))
        }
        #expect(answers(at(1)).count == 1)
        #expect(at(2) == .silent)
        #expect(at(4) == .silent)
        #expect(answers(at(5)).count == 1)
        #expect(device.statistics.searchesWhileSilent == 2)
    }
}

/// A device keeps its answers on the wire after the first search; they must follow the device.
@Suite struct DeviceResponderAnswerCacheTests {
    typealias F = DeviceFixtures

    private func bytes(_ outcome: DeviceResponder.Outcome) -> [String] {
        guard case .answered(let answers) = outcome else { return [] }
        return answers.map { String(decoding: $0.bytes, as: UTF8.self) }
    }

    @Test func answersCarryANewBootIDAfterTheDeviceChanges() {
        var device = DeviceResponder(device: F.gateway, behaviour: .init(delay: .immediate), startedAt: .zero, seed: 1)
        let before = bytes(device.receive(F.search("ssdp:all"), at: .zero))
        #expect(before.count == F.gateway.advertisements.count)
        #expect(before.allSatisfy { $0.contains("BOOTID.UPNP.ORG: \(F.gateway.bootID)\r\n") })

        device.device.bootID = F.gateway.bootID + 1
        let after = bytes(device.receive(F.search("ssdp:all"), at: SSDPInstant(offset: .seconds(1))))
        #expect(after.count == before.count)
        #expect(after.allSatisfy { $0.contains("BOOTID.UPNP.ORG: \(F.gateway.bootID + 1)\r\n") })
    }

    @Test func answersFollowANewBehaviour() {
        var device = DeviceResponder(device: F.gateway, behaviour: .init(delay: .immediate), startedAt: .zero, seed: 1)
        #expect(bytes(device.receive(F.search("upnp:rootdevice"), at: .zero)).allSatisfy { $0.contains("\r\nEXT:") })
        device.behaviour.malformations = [.missingEXT]
        let spoiled = bytes(device.receive(F.search("upnp:rootdevice"), at: SSDPInstant(offset: .seconds(1))))
        #expect(spoiled.count == 1)
        #expect(spoiled.allSatisfy { !$0.contains("\r\nEXT:") })
    }

    @Test func aCachedAnswerIsTheAnswerMadeAnew() {
        var device = DeviceResponder(device: F.gateway, behaviour: .init(delay: .immediate), startedAt: .zero, seed: 1)
        for (index, search) in ["ssdp:all", "ssdp:all", F.root, "upnp:rootdevice"].enumerated() {
            guard
                case .answered(let answers) = device.receive(F.search(search), at: SSDPInstant(offset: .seconds(index)))
            else {
                Issue.record("no answer to \(search)")
                continue
            }
            for answer in answers {
                #expect(answer.bytes == F.gateway.searchResponse(for: answer.advertisement).serialized())
            }
        }
    }
}
