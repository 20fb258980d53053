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
import NIOConcurrencyHelpers
import NIOCore
import SSDPDeviceCore
import SSDPNIO
import Testing

@testable import SSDPControl
@testable import SSDPDevices
@testable import SSDPSimulator

/// What the control API changes while the devices run: their fields (`PATCH`), their presence (`DELETE`),
/// the network (`PUT /network`), and everything back (`POST /reset`), against a real simulator of two Rokus.
@Suite(.tags(.live)) struct ControlChangeTests {
    private static func body(_ json: String) -> [UInt8] { Array(json.utf8) }

    @Test func aNewNameIsServedWithTheNextConfigIDAndAnnouncedWithAnUpdate() async throws {
        try await ControlHarness.run(notifies: true) { harness in
            let before = try await harness.request("/devices/1").json()
            let changed = try await harness.request(
                "PATCH",
                "/devices/1",
                body: Self.body(#"{"friendlyName": "Den Roku", "state": {"powerMode": "DisplayOff"}}"#)
            )
            #expect(changed.status == 200, "\(changed.body)")
            let device = try changed.json()
            #expect(device["friendlyName"] as? String == "Den Roku")
            #expect(device["configId"] as? Int == (before["configId"] as? Int ?? 0) + 1)
            #expect(device["bootId"] as? Int == (before["bootId"] as? Int ?? 0) + 1, "ssdp:update moves BOOTID on")
            let location = try #require(device["location"] as? String)
            let description = try await PlainHTTP.request(url: location)
            #expect(description.body.contains("<friendlyName>Den Roku</friendlyName>"))
            #expect(description.body.contains(#"configId="\#(device["configId"] as? Int ?? 0)""#))
            let origin = String(location.dropLast(location.hasSuffix("/") ? 1 : 0))
            let info = try await PlainHTTP.request(url: origin + "/query/device-info").body
            #expect(info.contains("<friendly-device-name>Den Roku</friendly-device-name>"))
            #expect(info.contains("<power-mode>DisplayOff</power-mode>"))
            let update = try await harness.request("/journal/wait?kind=notify&nts=ssdp:update&timeout=10")
            #expect(update.status == 200, "\(update.body)")
            let updates = try await Self.until(harness.notifies) {
                $0.filter { $0.contains("NTS: ssdp:update") }.count == 6
            }
            #expect(updates.allSatisfy { !$0.contains("NTS: ssdp:update") || $0.contains("CONFIGID.UPNP.ORG: 2\r\n") })
            let change = try await harness.request("/journal?kind=device&device=1&action=change").json()
            #expect((change["entries"] as? [Any])?.count == 1)
            #expect(try await harness.request("/devices/2").json()["friendlyName"] as? String == "Roku Ultra 2")
        }
    }

    /// A Hue bridge's link button, pressed through the control API: an app that was refused pairs, and
    /// `false` ends the window again; a value that is no press is 400 naming the field.
    @Test func theLinkButtonOfAHueBridgeLetsAnAppPair() async throws {
        try await ControlHarness.run([SimulatorProfile.hue.device(number: 1, seed: 21)]) { harness in
            let location = try #require(try await harness.request("/devices/1").json()["location"] as? String)
            let api = location.replacing("/description.xml", with: "/api")
            let pair = {
                try await PlainHTTP.request("POST", url: api, body: Array(#"{"devicetype":"ci#test"}"#.utf8)).body
            }
            #expect(try await pair().contains(#""type":101"#))
            let press = #"{"state": {"linkButton": true}}"#
            #expect(try await harness.request("PATCH", "/devices/1", body: Self.body(press)).status == 200)
            #expect(try await pair().contains(#"{"success":{"username":""#))
            let release = #"{"state": {"linkButton": "false"}}"#
            #expect(try await harness.request("PATCH", "/devices/1", body: Self.body(release)).status == 200)
            #expect(try await pair().contains(#""type":101"#))
            let bad = try await harness.request(
                "PATCH",
                "/devices/1",
                body: Self.body(#"{"state": {"linkButton": "held"}}"#)
            )
            let refused = try bad.json()["path"] as? String
            #expect(bad.status == 400 && refused == "$.state.linkButton", "\(bad.body)")
            let paired = try await harness.request("/journal?kind=action&action=pair").json()
            #expect((paired["entries"] as? [Any])?.count == 1)
        }
    }

    /// A Roku TV's tuner, moved through the control API as if someone used the remote: rokuecp (or any
    /// client) reads the new channel; a channel it does not have is 400.
    @Test func aRokuTVChangesChannelWhenTold() async throws {
        try await ControlHarness.run([SimulatorProfile.rokuTV.device(number: 1, seed: 21)]) { harness in
            let location = try #require(try await harness.request("/devices/1").json()["location"] as? String)
            let change = #"{"state": {"activeApp": "tvinput.dtv", "tvChannel": "7.1"}}"#
            #expect(try await harness.request("PATCH", "/devices/1", body: Self.body(change)).status == 200)
            let active = try await PlainHTTP.request(url: location + "query/tv-active-channel").body
            #expect(active.contains("<number>7.1</number>") && active.contains("<active-input>true</active-input>"))
            let refused = try await harness.request(
                "PATCH",
                "/devices/1",
                body: Self.body(#"{"state": {"tvChannel": "9.9"}}"#)
            )
            #expect(refused.status == 400, "\(refused.body)")
        }
    }

    @Test func behaviourAndHTTPFaultsChangeFromTheNextRequestWithoutANewConfigID() async throws {
        try await ControlHarness.run { harness in
            let changed = try await harness.request(
                "PATCH",
                "/devices/2",
                body: Self.body(
                    #"{"maxAge": 60, "behaviour": {"duplicates": 3}, "httpFaults": {"description": ["503:1"]}}"#
                )
            ).json()
            #expect(changed["maxAge"] as? Int == 60 && changed["configId"] as? Int == 1)
            #expect((changed["behaviour"] as? [String: Any])?["duplicates"] as? Int == 3)
            #expect((changed["behaviour"] as? [String: Any])?["delay"] as? String == "uniform", "the rest kept")
            #expect((changed["httpFaults"] as? [String: Any])?["description"] as? [String] == ["503:1"])
            let location = try #require(changed["location"] as? String)
            #expect(try await PlainHTTP.request(url: location).status == 503)
            #expect(try await PlainHTTP.request(url: location).status == 200)
            let answers = try await harness.search("roku:ecp", at: "127.0.0.3", wait: .seconds(2)).map(\.text)
            #expect(answers.count == 3, "three copies of the one answer")
            #expect(answers.allSatisfy { $0.contains("max-age=60") }, "\(answers)")
        }
    }

    @Test(arguments: [
        (#"{"frendlyName": "x"}"#, 400, "$.frendlyName"),
        (#"{"maxAge": 0}"#, 400, "$.maxAge"),
        (#"{"behaviour": {"searchLoss": 2}}"#, 400, "$.behaviour.searchLoss"),
        (#"{"httpFaults": {"description": ["teapot"]}}"#, 400, "$.httpFaults.description[0]"),
        (#"{"state": {"powerMode": "Off"}}"#, 400, "$.state.powerMode"),
        (#"{"state": {"ExternalIPAddress": "1.2.3.4"}}"#, 400, "$.state.ExternalIPAddress"),
        (#"{"state": {"powerMode": [1]}}"#, 400, "$.state.powerMode"),
        (#"{"state": {"tvChannel": "4.1"}}"#, 400, "$.state.tvChannel"),
        (#"{"friendlyName": 7}"#, 400, "$.friendlyName"),
        ("{", 400, "$"),
    ])
    func aBadChangeIs400NamingItsPathAndChangesNothing(body: String, status: Int, path: String) async throws {
        try await ControlHarness.run { harness in
            let before = try await harness.request("/devices/1").body
            let response = try await harness.request("PATCH", "/devices/1", body: Self.body(body))
            #expect(response.status == status)
            #expect(try response.json()["path"] as? String == path, "\(response.body)")
            #expect(try await harness.request("/devices/1").body == before)
        }
    }

    @Test(arguments: [("null", "expected an object, found null"), ("[1]", "expected an object")])
    func aBodyThatIsNotAnObjectSaysSoInJSONTerms(body: String, error: String) async throws {
        try await ControlHarness.run { harness in
            let response = try await harness.request("PATCH", "/devices/1", body: Self.body(body))
            #expect(response.status == 400)
            #expect(try response.json()["error"] as? String == error, "\(response.body)")
        }
    }

    @Test func aDeletedDeviceSaysByebyeAndIsGoneFromTheListUntilAReset() async throws {
        try await ControlHarness.run(notifies: true) { harness in
            // The alive sets first (a byebye needs an advertisement still valid).
            _ = try await Self.until(harness.notifies) { $0.filter { $0.contains("NTS: ssdp:alive") }.count >= 12 }
            let removed = try await harness.request("DELETE", "/devices/2")
            #expect(removed.status == 200)
            #expect(try removed.json()["state"] as? String == "removed")
            let byebye = try await harness.request("/journal?kind=notify&nts=ssdp:byebye").json()
            #expect(
                ((byebye["entries"] as? [[String: Any]])?.first?["fields"] as? [String: Any])?["count"] as? Int == 6
            )
            let devices = try await harness.request("/devices").json()["devices"] as? [[String: Any]]
            #expect(devices?.compactMap { $0["number"] as? Int } == [1])
            #expect(try await harness.request("/health").json()["devices"] as? Int == 1)
            #expect(try await harness.request("/devices/2").status == 404)
            #expect(try await harness.request("POST", "/devices/2/actions/alive").status == 404)
            #expect(try await harness.request("DELETE", "/devices/2").status == 404)

            #expect(try await harness.request("DELETE", "/devices/1?byebye=maybe").status == 400)
            #expect(try await harness.request("DELETE", "/devices/1?byebye=false").status == 200)
            let after = try await harness.request("/journal?kind=notify&nts=ssdp:byebye").json()
            #expect((after["entries"] as? [Any])?.count == 1, "no byebye when told not to")
        }
    }

    /// A Roku's USN (`uuid:roku:ecp:SERIAL`) does not begin with its UDN, and a round of NOTIFYs is every
    /// device's: the journal still tells whose they are, so that `device=N` finds them.
    @Test func answersAndNotifiesNameTheirDevices() async throws {
        try await ControlHarness.run(notifies: true) { harness in
            _ = try await Self.until(harness.notifies) { $0.filter { $0.contains("NTS: ssdp:alive") }.count >= 12 }
            try await harness.answerAtOnce(2)
            let (usn, udn) = try await harness.answerJournaled("roku:ecp", at: "127.0.0.3", device: 2)
            #expect(usn.hasPrefix("uuid:roku:ecp:") && !usn.hasPrefix(udn), "\(usn) and \(udn)")
            let others = try await harness.request("/journal?kind=answer&device=1").json()["entries"] as? [Any]
            #expect(others?.isEmpty == true, "device 1 was not asked")

            // Each device's alive rounds, alone or with the other's when their timers fire together.
            let alive = try await harness.request("/journal?kind=notify&nts=ssdp:alive&device=2").json()
            let rounds = try #require(alive["entries"] as? [[String: Any]])
            #expect(!rounds.isEmpty)
            for round in rounds {
                let devices = (round["fields"] as? [String: Any])?["devices"] as? [Int] ?? []
                #expect(devices == [2] && round["device"] as? Int == 2 || devices == [1, 2] && round["device"] == nil)
            }
            let none = try await harness.request("/journal?kind=notify&device=3").json()["entries"] as? [Any]
            #expect(none?.isEmpty == true, "there is no device 3")
            #expect(try await harness.request("DELETE", "/devices/2").status == 200)
            let byebye = try await harness.request("/journal/wait?kind=notify&nts=ssdp:byebye&device=2&timeout=5")
            let bye = try #require((try byebye.json()["entries"] as? [[String: Any]])?.first, "\(byebye.body)")
            #expect(bye["device"] as? Int == 2, "one device's byebyes are that device's")
            #expect((bye["fields"] as? [String: Any])?["devices"] as? [Int] == [2])
        }
    }

    /// A router advertises WANIPConnection:2 from its WANConnectionDevice, and answers a search for :1 with
    /// `<that device's UDN>::…:WANIPConnection:1`, a USN it does not advertise: still its answer.
    @Test func anEmbeddedDevicesAnswerToAnOlderVersionIsTheRootsDevice() async throws {
        let target = "urn:schemas-upnp-org:service:WANIPConnection:1"
        try await ControlHarness.run([SimulatorProfile.igd.device(number: 1, seed: 21)]) { harness in
            let (usn, udn) = try await harness.answerJournaled(target, at: "127.0.0.2", device: 1)
            #expect(usn.hasSuffix("::" + target) && !usn.hasPrefix(udn), "\(usn) and the root's \(udn)")
        }
    }

    @Test func anAddedDeviceIsAHostOfItsOwnThatAnswersServesAndAnnouncesItself() async throws {
        try await ControlHarness.run(notifies: true) { harness in
            let body = Self.body(#"{"devices": [{"profile": "roku", "friendlyName": "Attic Roku"}]}"#)
            let added = try await harness.request("POST", "/devices", body: body)
            #expect(added.status == 201, "\(added.body)")
            let device = try #require((try added.json()["devices"] as? [[String: Any]])?.first)
            #expect(device["number"] as? Int == 3 && device["address"] as? String == "127.0.0.4")
            #expect(device["friendlyName"] as? String == "Attic Roku" && device["state"] as? String == "alive")
            let udn = try #require(device["udn"] as? String)
            let location = try #require(device["location"] as? String)
            #expect(location.hasPrefix("http://127.0.0.4:"))
            let devices = try await harness.request("/devices").json()["devices"] as? [[String: Any]]
            #expect(devices?.compactMap { $0["number"] as? Int } == [1, 2, 3])
            #expect(try await harness.request("/health").json()["devices"] as? Int == 3)
            // It answers a search at its own address, from that address, and serves ECP there.
            try await harness.answerAtOnce(3)
            let answers = try await harness.search("roku:ecp", at: "127.0.0.4", wait: .seconds(3)).map(\.text)
            #expect(answers.count == 1 && answers.allSatisfy { $0.contains("LOCATION: \(location)") }, "\(answers)")
            let origin = String(location.dropLast())
            #expect(try await PlainHTTP.request(url: origin + "/query/device-info").body.contains("Attic Roku"))
            // It announced itself, and the journal knows it as device 3.
            let alive = try await Self.until(harness.notifies) { texts in
                texts.contains { $0.contains("NTS: ssdp:alive") && $0.contains("USN: \(udn)\r\n") }
            }
            #expect(alive.contains { $0.contains("USN: \(udn)\r\n") })
            let entry = try await harness.request("/journal/wait?kind=device&device=3&action=add&timeout=5")
            #expect(entry.status == 200, "\(entry.body)")
            let keypress = try await PlainHTTP.request("POST", url: origin + "/keypress/Home")
            #expect(keypress.status == 200)
            #expect(try await harness.request("/journal/wait?kind=action&device=3&value=Home&timeout=5").status == 200)

            // A reset takes it off the LAN again, with a byebye.
            let reset = try await harness.request("POST", "/reset").json()["devices"] as? [[String: Any]]
            #expect(reset?.compactMap { $0["number"] as? Int } == [1, 2])
            #expect(try await harness.request("/devices/3").status == 404)
            let byebye = try await Self.until(harness.notifies) { texts in
                texts.contains { $0.contains("NTS: ssdp:byebye") && $0.contains("USN: \(udn)\r\n") }
            }
            #expect(byebye.contains { $0.contains("NTS: ssdp:byebye") && $0.contains("USN: \(udn)\r\n") })
        }
    }

    @Test func aRebootOntoANewPortComesBackWithTheNewLocation() async throws {
        try await ControlHarness.run(notifies: true) { harness in
            _ = try await Self.until(harness.notifies) { $0.filter { $0.contains("NTS: ssdp:alive") }.count >= 12 }
            let before = try #require(try await harness.request("/devices/1").json()["location"] as? String)
            let rebooting = try await harness.request(
                "POST",
                "/devices/1/actions/reboot",
                body: Self.body(#"{"downFor": 0.3, "newPort": true}"#)
            )
            #expect(rebooting.status == 200, "\(rebooting.body)")
            let after = try #require(try rebooting.json()["location"] as? String)
            #expect(after != before && after.hasPrefix("http://127.0.0.2:"), "\(before) → \(after)")
            #expect(
                try await harness.request("/journal/wait?kind=device&device=1&action=alive&timeout=10").status == 200
            )
            // The old port is closed; the new one serves, and requests there are still device 1's.
            await #expect(throws: (any Error).self) { try await PlainHTTP.request(url: before + "query/device-info") }
            #expect(try await PlainHTTP.request(url: after + "query/device-info").body.contains("Roku Ultra 1"))
            #expect(
                try await harness.request("/journal/wait?kind=http&device=1&path=/query/device-info&timeout=5").status
                    == 200
            )
            // It said byebye from the old LOCATION's device and comes back announcing the new one.
            let alive = try await Self.until(harness.notifies) { texts in
                texts.contains { $0.contains("NTS: ssdp:alive") && $0.contains("LOCATION: \(after)\r\n") }
            }
            #expect(alive.contains { $0.contains("LOCATION: \(after)\r\n") })
            let answers = try await harness.search("roku:ecp", at: "127.0.0.2", wait: .seconds(2)).map(\.text)
            #expect(answers.count == 1 && answers.allSatisfy { $0.contains("LOCATION: \(after)\r\n") }, "\(answers)")
            let bad = try await harness.request(
                "POST",
                "/devices/2/actions/reboot",
                body: Self.body(#"{"newPort": 1}"#)
            )
            #expect(bad.status == 400)
            #expect(try bad.json()["path"] as? String == "$.newPort")
        }
    }

    @Test func aDeviceTheLANCannotTakeIs400NamingWhy() async throws {
        try await ControlHarness.run { harness in
            let udn = try #require(try await harness.request("/devices/1").json()["udn"] as? String)
            let cases: [(String, String)] = [
                (#"{"devices": [{"profile": "toaster"}]}"#, "$.devices[0].profile"),
                (#"{"devices": [{"udn": "\#(udn)"}]}"#, "$.devices[*].udn"),
                (#"{"devices": [{"address": "127.0.0.2"}]}"#, "$.devices[*].address"),
                (#"{"device": []}"#, "$.device"),
                (#"{"devices": []}"#, "$.devices"),
                ("{", "$"),
            ]
            for (body, path) in cases {
                let response = try await harness.request("POST", "/devices", body: Self.body(body))
                #expect(response.status == 400, "\(body): \(response.body)")
                #expect(try response.json()["path"] as? String == path, "\(body): \(response.body)")
            }
            #expect(try await harness.request("/health").json()["devices"] as? Int == 2)
        }
    }

    @Test func answerLossForTwoTimesLosesTheFirstTwoAnswersThenNone() async throws {
        try await ControlHarness.run { harness in
            let set = try await harness.request(
                "PUT",
                "/network",
                body: Self.body(#"{"answerLoss": {"times": 2}}"#)
            )
            #expect(set.status == 200, "\(set.body)")
            let answerLoss = try #require(set.json()["answerLoss"] as? [String: Any])
            #expect(answerLoss["probability"] as? Double == 1 && answerLoss["times"] as? Int == 2)
            #expect(try await harness.request("/network").body == set.body)
            var answered: [Int] = []
            for attempt in 0..<3 {
                // The answer that is let through leaves within the unicast second; on a loaded machine later.
                let wait = attempt == 2 ? Duration.seconds(4) : .milliseconds(1_500)
                answered.append(try await harness.search("roku:ecp", at: "127.0.0.2", wait: wait).count)
            }
            #expect(answered == [0, 0, 1])
            let counters = await harness.simulator.counters()
            #expect(counters.networkLostOutgoing == 2 && counters.answersSent == 3)
            #expect(try await harness.request("/journal/wait?kind=network&timeout=5").status == 200)
        }
    }

    @Test(arguments: [
        (#"{"loss": 1.5}"#, "$.loss"), (#"{"loss": {"probability": -1}}"#, "$.loss.probability"),
        (#"{"duplicate": {"times": 0}}"#, "$.duplicate.times"), (#"{"latency": {"min": 2, "max": 1}}"#, "$.latency"),
        (#"{"jitter": 0.1}"#, "$.jitter"), ("[]", "$"),
    ])
    func aBadNetworkIs400NamingItsPath(body: String, path: String) async throws {
        try await ControlHarness.run { harness in
            let response = try await harness.request("PUT", "/network", body: Self.body(body))
            #expect(response.status == 400)
            #expect(try response.json()["path"] as? String == path, "\(response.body)")
            #expect(harness.simulator.network.isClean)
        }
    }

    /// The k-th answer the live simulator sends meets the fate the seed's `.sent` side draws for it, the
    /// side a virtual run of the same seed draws its answers' fates from.
    @Test func liveAnswersMeetTheFatesTheSeedDrawsAsAVirtualRunDoes() async throws {
        try await ControlHarness.run { harness in
            try await harness.answerAtOnce(1)
            _ = try await harness.request("PUT", "/network", body: Self.body(#"{"answerLoss": 0.5}"#))
            var faults = NetworkFaults()
            faults.answerLoss = 0.5
            var machine = NetworkFaultMachine(faults: faults, seed: 21)
            let expected = (0..<16).map { _ in machine.copies(answer: true)[0] != nil ? 1 : 0 }
            var answered: [Int] = []
            for _ in expected {
                answered.append(try await harness.search("roku:ecp", at: "127.0.0.2", wait: .seconds(1)).count)
            }
            #expect(answered == expected)
            #expect(expected.contains(0) && expected.contains(1), "the seed draws both fates")
            let lost = try await harness.request("/journal?kind=answer&lost=true").json()["entries"] as? [Any]
            #expect(lost?.count == expected.filter { $0 == 0 }.count, "a lost answer says so in the journal")
        }
    }

    @Test func latencyHoldsAnAnswerBackAndTheSearchSaysWhoAnswered() async throws {
        try await ControlHarness.run { harness in
            try await harness.answerAtOnce(1)
            _ = try await harness.request("PUT", "/network", body: Self.body(#"{"latency": 0.3}"#))
            let times = try await harness.search("roku:ecp", at: "127.0.0.2", wait: .seconds(2)).map(\.elapsed)
            // Held back both ways: the search reaches the device 0.3 s late, the answer 0.3 s after that.
            #expect(times.count == 1 && times.allSatisfy { $0 >= .milliseconds(600) }, "\(times)")
            let search =
                try await harness.request("/journal?kind=search&st=roku:ecp").json()["entries"] as? [[String: Any]]
            let fields = search?.first?["fields"] as? [String: Any]
            #expect(fields?["devices"] as? [Int] == [1])
            #expect(fields?["unanswered"] == nil, "the one device it reached answered")
            // A search to the whole host: the other Roku answers too; a target neither has, and why.
            _ = try await harness.search("urn:x-example:device:Toaster:1", at: "127.0.0.1", wait: .milliseconds(200))
            // Heard 0.3 s late (latency holds searches back too): wait for it.
            let toaster = try await harness.request(
                "/journal/wait?kind=search&st=urn:x-example:device:Toaster:1&timeout=5"
            ).json()
            let why = ((toaster["entries"] as? [[String: Any]])?.first?["fields"] as? [String: Any])?["unanswered"]
            #expect(why as? String == "2 devices: no match for the target", "\(toaster)")
        }
    }

    /// A datagram no device heard is a journal entry with its reason: one over the parser's limit, one that
    /// is no SSDP message. (A refused source is held in a namespace: UnboundClientTests.)
    @Test func datagramsDroppedUnheardAreJournaledWithTheirReason() async throws {
        try await ControlHarness.run { harness in
            let port = try #require(harness.simulator.udpAddress.port)
            let simulator = try SocketAddress(ipAddress: "127.0.0.1", port: port)
            for bytes in [[UInt8](repeating: UInt8(ascii: "x"), count: 9_000), Array("hello\r\n\r\n".utf8)] {
                _ = try await SSDPProbe.send(bytes, to: simulator, wait: .zero) { _ in }
            }
            let waited = try await harness.request("/journal/wait?kind=dropped&count=2&timeout=5").json()
            let entries = try #require(waited["entries"] as? [[String: Any]])
            let fields = entries.compactMap { $0["fields"] as? [String: Any] }
            #expect(fields.compactMap { $0["reason"] as? String } == ["oversized", "malformed"])
            #expect(fields.allSatisfy { ($0["from"] as? String)?.hasPrefix("127.0.0.1:") == true })
            #expect(fields.allSatisfy { $0["flag"] == nil }, "no option lets these in")
            #expect(fields.first?["detail"] as? String == "larger than a search can be")
        }
    }

    @Test func networkFaultsReadBackAsTheyWereWritten() throws {
        var faults = NetworkFaults()
        faults.latency = .milliseconds(10) ... .milliseconds(250)
        faults.loss = 0.25
        faults.answerLoss = 1
        faults.windows[.answerLoss] = NetworkFaults.Window(after: 1, times: 2)
        faults.duplicate = 0.5
        faults.windows[.duplicate] = NetworkFaults.Window(after: 3)
        faults.reorder = 0.125
        faults.reorderDelay = .milliseconds(200)
        let text = faults.json.jsonText
        #expect(try NetworkFaultsSpecification.decode(Data(text.utf8), source: "test") == faults, "\(text)")
        #expect(try NetworkFaultsSpecification.decode(Data("{}".utf8), source: "test").isClean)
    }

    @Test func aResetBringsEveryDeviceItsStateAndTheNetworkBackAfterEmptyingTheJournal() async throws {
        try await ControlHarness.run { harness in
            let original = try await harness.request("/devices/1").json()
            _ = try await harness.request("PATCH", "/devices/1", body: Self.body(#"{"friendlyName": "Den"}"#))
            _ = try await harness.request("DELETE", "/devices/2")
            _ = try await harness.request("PUT", "/network", body: Self.body(#"{"loss": 0.5}"#))
            let reset = try await harness.request("POST", "/reset")
            #expect(reset.status == 200)
            let devices = try #require(try reset.json()["devices"] as? [[String: Any]])
            #expect(devices.map { $0["state"] as? String } == ["alive", "alive"])
            #expect(devices[0]["friendlyName"] as? String == original["friendlyName"] as? String)
            #expect(devices[0]["configId"] as? Int == original["configId"] as? Int)
            #expect(harness.simulator.network.isClean)
            // The journal was emptied first: it holds what the reset did, and nothing from before.
            let entries = try await harness.request("/journal").json()["entries"] as? [[String: Any]] ?? []
            let done = entries.map { entry in
                let fields = entry["fields"] as? [String: Any]
                return
                    "\(entry["kind"] as? String ?? "") \(entry["device"] as? Int ?? 0) \(fields?["action"] as? String ?? "")"
            }
            #expect(done.sorted() == ["device 1 update", "device 2 alive", "network 0 "], "\(entries)")
            let location = try #require(devices[0]["location"] as? String)
            #expect(
                try await PlainHTTP.request(url: location).body.contains(
                    "<friendlyName>\(original["friendlyName"] as? String ?? "")</friendlyName>"
                )
            )
        }
    }

    /// The texts in `box` once `condition` holds, polling every 10 ms for at most 10 s.
    static func until(
        _ box: NIOLockedValueBox<[String]>,
        _ condition: ([String]) -> Bool
    ) async throws -> [String] {
        for _ in 0..<1_000 {
            let texts = box.withLockedValue { $0 }
            if condition(texts) { return texts }
            try await Task.sleep(for: .milliseconds(10))
        }
        Issue.record("what was expected did not arrive in 10 s")
        return box.withLockedValue { $0 }
    }

    static func search(_ target: String) -> [UInt8] {
        Array(
            "M-SEARCH * HTTP/1.1\r\nHOST: 239.255.255.250:1900\r\nMAN: \"ssdp:discover\"\r\nMX: 1\r\nST: \(target)\r\n\r\n"
                .utf8
        )
    }
}

extension ControlHarness {
    /// Sends one M-SEARCH for `target` to `address` on the simulator's port; after `wait`, the time each
    /// reply took and its text.
    func search(
        _ target: String,
        at address: String,
        wait: Duration
    ) async throws -> [(elapsed: Duration, text: String)] {
        let port = try #require(simulator.udpAddress.port)
        let replies = NIOLockedValueBox<[(elapsed: Duration, text: String)]>([])
        _ = try await SSDPProbe.send(
            ControlChangeTests.search(target),
            to: try SocketAddress(ipAddress: address, port: port),
            wait: wait
        ) { reply in
            replies.withLockedValue { $0.append((reply.elapsed, String(decoding: reply.bytes, as: UTF8.self))) }
        }
        return replies.withLockedValue { $0 }
    }

    /// Device `number` answers at once, so that a test need not wait out the MX.
    /// Searches for `target` at `address`, where device `device` alone answers once, and finds the answer
    /// in the journal as that device's: its USN, and the device's UDN.
    func answerJournaled(_ target: String, at address: String, device: Int) async throws -> (usn: String, udn: String) {
        let answers = try await search(target, at: address, wait: .seconds(2))
        #expect(answers.count == 1)
        let found = try await request("/journal/wait?kind=answer&device=\(device)&st=\(target)&timeout=5")
        #expect(found.status == 200, "\(found.body)")
        let entry = try #require((try found.json()["entries"] as? [[String: Any]])?.first)
        let usn = try #require((entry["fields"] as? [String: Any])?["usn"] as? String)
        return (usn, try #require(try await request("/devices/\(device)").json()["udn"] as? String))
    }

    func answerAtOnce(_ number: Int) async throws {
        let body = Array(#"{"behaviour": {"delay": "immediate"}}"#.utf8)
        #expect(try await request("PATCH", "/devices/\(number)", body: body).status == 200)
    }
}
