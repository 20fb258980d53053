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

@Suite struct DeviceAdvertiserTests {
    private let device = DeviceFixtures.gateway

    private func started(seed: UInt64 = 1, copies: Int = 2) -> DeviceAdvertiser {
        var advertiser = DeviceAdvertiser(device: device, copies: copies, seed: seed)
        advertiser.start(at: .zero)
        return advertiser
    }

    /// Runs the advertiser's timer until `end`, returning each batch with the time it went out.
    private func run(_ advertiser: inout DeviceAdvertiser, until end: SSDPInstant) -> [(SSDPInstant, [SSDPMessage])] {
        var batches: [(SSDPInstant, [SSDPMessage])] = []
        while let deadline = advertiser.nextDeadline, deadline <= end {
            batches.append((deadline, advertiser.timerFired(at: deadline)))
        }
        return batches
    }

    @Test func firstAliveSetGoesOutWithinOneHundredMillisecondsAndIsRepeated() {
        var advertiser = started(copies: 3)
        let batches = run(&advertiser, until: SSDPInstant(offset: .seconds(1)))
        #expect(batches.count == 3)
        #expect(batches[0].0 <= SSDPInstant(offset: .milliseconds(100)))
        #expect(batches[1].0 - batches[0].0 == .milliseconds(200))
        for (_, messages) in batches {
            #expect(messages.count == device.advertisements.count)
            #expect(messages.allSatisfy { $0.notificationSubtype == .alive })
            #expect(Set(messages.map(\.headers["USN"])) == Set(device.advertisements.map(\.usn)))
        }
    }

    @Test func reAdvertisesBeforeHalfTheMaxAge() {
        var advertiser = started()
        let batches = run(&advertiser, until: SSDPInstant(offset: .seconds(600)))
        let rounds = stride(from: 0, to: batches.count, by: 2).map { batches[$0].0 }
        #expect(rounds.count >= 10)
        for (earlier, later) in zip(rounds, rounds.dropFirst()) {
            #expect(later - earlier < .seconds(device.maxAge / 2))
            #expect(later - earlier >= .seconds(device.maxAge / 3))
        }
    }

    @Test func aShorterMaxAgeComesForwardAndTheByebyeStillCoversTheLongerOne() {
        var advertiser = started()
        let first = run(&advertiser, until: SSDPInstant(offset: .seconds(1)))
        #expect(first.count == 2)
        // Lowered from 1800 to 60 s at 10 s: the next round was due after 600 s, now within 100 ms.
        var shorter = device
        shorter.maxAge = 60
        shorter.bootID = 999  // ignored: the BOOTID is the advertiser's own
        advertiser.reconfigure(shorter, at: SSDPInstant(offset: .seconds(10)))
        let next = advertiser.nextDeadline
        #expect(next.map { $0 <= SSDPInstant(offset: .milliseconds(10_100)) } == true)
        #expect(advertiser.device.bootID == device.bootID && advertiser.device.maxAge == 60)
        // Before that round goes out, the copies heard at 0 s live until 1800 s: a stop at 100 s says byebye.
        var stopped = advertiser
        #expect(stopped.stop(at: SSDPInstant(offset: .seconds(100))).count == device.advertisements.count)
        // A longer max-age leaves the round where it was.
        var longer = started()
        _ = run(&longer, until: SSDPInstant(offset: .seconds(1)))
        let due = longer.nextDeadline
        var raised = device
        raised.maxAge = 3_600
        longer.reconfigure(raised, at: SSDPInstant(offset: .seconds(10)))
        #expect(longer.nextDeadline == due)
    }

    @Test func earlyTimerCallsSendNothing() {
        var advertiser = started()
        let deadline = advertiser.nextDeadline!
        #expect(advertiser.timerFired(at: SSDPInstant(offset: deadline.offset - .milliseconds(1))) == [])
        #expect(advertiser.nextDeadline == deadline)
    }

    @Test func stopSaysByebyeForEveryAdvertisementOnce() {
        var advertiser = started()
        _ = run(&advertiser, until: SSDPInstant(offset: .seconds(1)))
        let byebyes = advertiser.stop(at: SSDPInstant(offset: .seconds(2)))
        #expect(byebyes.count == device.advertisements.count)
        #expect(byebyes.allSatisfy { $0.notificationSubtype == .byebye })
        #expect(Set(byebyes.map(\.headers["USN"])) == Set(device.advertisements.map(\.usn)))
        #expect(advertiser.stop(at: SSDPInstant(offset: .seconds(3))) == [])
        #expect(advertiser.nextDeadline == nil)
    }

    /// MiniDLNA's habits: a byebye set twice before its first alive set, twice when it stops, and
    /// `HOST:value` without a space for the names it writes so.
    private var miniDLNALike: SSDPRootDevice {
        var device = device
        var spelling = SSDPNotifyHeaders(
            alive: [
                .init(name: "HOST", value: "{group}"), .init(name: "SERVER", value: "{server}"),
                .init(name: "NT", value: "{nt}"), .init(name: "USN", value: "{usn}"),
                .init(name: "NTS", value: "ssdp:alive"),
            ],
            byebye: [
                .init(name: "HOST", value: "{group}"), .init(name: "NT", value: "{nt}"),
                .init(name: "USN", value: "{usn}"), .init(name: "NTS", value: "ssdp:byebye"),
            ]
        )
        spelling.byebyeCopies = 2
        spelling.byebyeAtStart = true
        spelling.unspacedNames = ["HOST", "NT", "USN", "NTS"]
        device.notifyHeaders = spelling
        return device
    }

    @Test func aDeviceThatSaysByebyeAtStartDoesSoTwiceBeforeItsFirstAliveSetAndOnlyThen() {
        var advertiser = DeviceAdvertiser(device: miniDLNALike, copies: 2, seed: 1)
        advertiser.start(at: .zero)
        let batches = run(&advertiser, until: SSDPInstant(offset: .seconds(1)))
        let count = device.advertisements.count
        #expect(batches.count == 2)
        #expect(
            batches[0].1.map(\.notificationSubtype) == Array(repeating: .byebye, count: 2 * count)
                + Array(repeating: .alive, count: count)
        )
        #expect(batches[1].1.map(\.notificationSubtype) == Array(repeating: .alive, count: count))
        let stopped = advertiser.stop(at: SSDPInstant(offset: .seconds(2)))
        #expect(stopped.count == 2 * count && stopped.allSatisfy { $0.notificationSubtype == .byebye })
        #expect(Set(stopped.map(\.headers["USN"])) == Set(device.advertisements.map(\.usn)))
    }

    @Test func aDatagramSpellsEachHeaderAsTheDeviceDoes() throws {
        var advertiser = DeviceAdvertiser(device: miniDLNALike, copies: 1, seed: 1)
        advertiser.start(at: .zero)
        let alive = advertiser.timerFired(at: SSDPInstant(offset: .seconds(1))).last!
        let text = String(decoding: advertiser.datagram(alive), as: UTF8.self)
        #expect(text.hasPrefix("NOTIFY * HTTP/1.1\r\nHOST:239.255.255.250:1900\r\nSERVER: \(device.server)\r\nNT:"))
        #expect(text.hasSuffix("\r\nNTS:ssdp:alive\r\n\r\n"))
        // Parsed, it is the same message.
        #expect(try SSDPParser.parse(advertiser.datagram(alive)).message == alive)
        // A device with no such habit is written as `serialized()` writes it.
        let plain = started()
        #expect(plain.datagram(alive) == alive.serialized())
    }

    @Test func aUPnP10DeviceSaysByebyeAndAliveWhereA11DeviceSaysUpdate() {
        var device = miniDLNALike
        device.descriptionLayout = .miniDLNA  // UPnP 1.0: no ssdp:update
        var advertiser = DeviceAdvertiser(device: device, copies: 2, seed: 1)
        advertiser.start(at: .zero)
        _ = run(&advertiser, until: SSDPInstant(offset: .seconds(1)))
        let changed = advertiser.update(at: SSDPInstant(offset: .seconds(5)))
        #expect(changed.count == 2 * device.advertisements.count)
        #expect(changed.allSatisfy { $0.notificationSubtype == .byebye })
        let after = run(&advertiser, until: SSDPInstant(offset: .seconds(6)))
        #expect(after.first?.1.allSatisfy { $0.notificationSubtype == .alive } == true)
        #expect(after.first.map { $0.0 <= SSDPInstant(offset: .milliseconds(5_100)) } == true)
        // The same device described as UDA 1.1 announces the change with ssdp:update.
        device.descriptionLayout = .uda11
        var updating = DeviceAdvertiser(device: device, copies: 2, seed: 1)
        updating.start(at: .zero)
        _ = run(&updating, until: SSDPInstant(offset: .seconds(1)))
        #expect(updating.update(at: SSDPInstant(offset: .seconds(5))).allSatisfy { $0.notificationSubtype == .update })
    }

    @Test func noByebyeForWhatWasNeverAdvertisedOrHasExpired() {
        var unannounced = started()
        #expect(unannounced.stop(at: .zero) == [])
        var advertiser = started()
        let first = advertiser.timerFired(at: advertiser.nextDeadline!)
        #expect(!first.isEmpty)
        #expect(advertiser.stop(at: SSDPInstant(offset: .seconds(device.maxAge + 1))) == [])
    }

    @Test func updateAnnouncesTheNextBootIDThenAdvertisesWithIt() {
        var advertiser = started()
        _ = run(&advertiser, until: SSDPInstant(offset: .seconds(1)))
        let updates = advertiser.update(at: SSDPInstant(offset: .seconds(2)))
        #expect(updates.count == device.advertisements.count)
        #expect(
            updates.allSatisfy {
                $0.notificationSubtype == .update && $0.headers["BOOTID.UPNP.ORG"] == "7"
                    && $0.headers["NEXTBOOTID.UPNP.ORG"] == "8"
            }
        )
        #expect(advertiser.device.bootID == 8)
        let next = advertiser.nextDeadline!
        #expect(next - SSDPInstant(offset: .seconds(2)) <= .milliseconds(100))
        let alive = advertiser.timerFired(at: next)
        #expect(alive.allSatisfy { $0.notificationSubtype == .alive && $0.headers["BOOTID.UPNP.ORG"] == "8" })
        #expect(advertiser.stop(at: next).allSatisfy { $0.headers["BOOTID.UPNP.ORG"] == "8" })
    }

    @Test func theSameSeedGivesTheSameSchedule() {
        func schedule(_ seed: UInt64) -> [SSDPInstant] {
            var advertiser = started(seed: seed)
            return run(&advertiser, until: SSDPInstant(offset: .seconds(3_600))).map(\.0)
        }
        #expect(schedule(5) == schedule(5))
        #expect(schedule(5) != schedule(6))
    }
}
