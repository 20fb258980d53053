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

/// A device's NOTIFYs as `record --listen` heard them make the way it writes and sends its own.
@Suite struct RecordedNotifyTests {
    static let device = DeviceFixtures.gateway

    /// A NOTIFY of the fixture's root as GSSDP 1.6 writes one (its BOOTID and CONFIGID -1).
    static func gssdp(_ nts: String, nt: String = "upnp:rootdevice") -> [UInt8] {
        let location = nts == "ssdp:alive" ? "Location: http://192.168.1.1:5000/rootDesc.xml\r\n" : ""
        let usn = nt.hasPrefix("uuid:") ? nt : "\(DeviceFixtures.root)::\(nt)"
        return Array(
            ("NOTIFY * HTTP/1.1\r\nHost: 239.255.255.250:1900\r\nCache-Control: max-age = 120\r\n\(location)"
                + "Server: Linux/5.10 UPnP/1.1 MiniUPnPd/2.3.3\r\nNTS: \(nts)\r\nNT: \(nt)\r\nUSN: \(usn)\r\n"
                + "BOOTID.UPNP.ORG: -1\r\nCONFIGID.UPNP.ORG: -1\r\n\r\n").utf8
        )
    }

    @Test func theDeviceWritesItsNOTIFYsAsItWasHeardToWithItsOwnValues() throws {
        let heard: [SSDPNotifyHeaders.Heard] = [
            .init(at: .milliseconds(10), sourcePort: 43_001, ttl: 4, bytes: Self.gssdp("ssdp:alive")),
            .init(
                at: .milliseconds(12),
                sourcePort: 43_001,
                ttl: 4,
                bytes: Self.gssdp("ssdp:alive", nt: DeviceFixtures.root)
            ),
            .init(at: .milliseconds(310), sourcePort: 43_002, ttl: 4, bytes: Self.gssdp("ssdp:alive")),
            .init(at: .milliseconds(610), sourcePort: 43_003, ttl: 4, bytes: Self.gssdp("ssdp:alive")),
            .init(at: .seconds(9), sourcePort: 43_004, ttl: 4, bytes: Self.gssdp("ssdp:byebye")),
        ]
        let headers = try #require(SSDPNotifyHeaders(heard: heard))
        #expect(headers.aliveCopies == 3, "three alives of one NT within a second")
        #expect(headers.byebyeCopies == 1)
        #expect(headers.ttl == 4 && headers.sentFromOwnPort)
        #expect(headers.alive.map(\.value).prefix(4) == ["{group}", "max-age = {maxAge}", "{location}", "{server}"])
        var device = Self.device
        device.notifyHeaders = headers
        let advertiser = DeviceAdvertiser(device: device, copies: 1, seed: 1)
        #expect(advertiser.copies == 3, "the device's own number wins over the simulator's")
        let alive = advertiser.datagram(
            device.alive(SSDPAdvertisement(target: "upnp:rootdevice", usn: "\(DeviceFixtures.root)::upnp:rootdevice"))
        )
        #expect(alive == Self.gssdp("ssdp:alive"), "the same bytes: the device's values are the recorded ones")
        let byebye = advertiser.datagram(
            device.byebye(SSDPAdvertisement(target: "upnp:rootdevice", usn: "\(DeviceFixtures.root)::upnp:rootdevice"))
        )
        #expect(byebye == Self.gssdp("ssdp:byebye"))
        // Moved and restarted: its own address and max-age; GSSDP's -1 is no BOOTID, and stays.
        device.location = "http://127.0.0.5:5000/rootDesc.xml"
        device.maxAge = 1800
        device.bootID = 9
        let moved = String(
            decoding: advertiser.datagram(device.alive(SSDPAdvertisement(target: "upnp:rootdevice", usn: "x"))),
            as: UTF8.self
        )
        #expect(moved.contains("Location: http://127.0.0.5:5000/rootDesc.xml\r\n"))
        #expect(moved.contains("Cache-Control: max-age = 1800\r\n") && moved.contains("BOOTID.UPNP.ORG: -1\r\n"))
    }

    @Test func aDeviceHeardFromItsStartToItsStopSaysByebyeAtStartAndAtItsEndAsItDid() throws {
        // GSSDP 1.6 as a recording that waited for it heard it: one byebye per NT, the alive set three times
        // (a message every 120 ms), and, when it stopped, the byebye set three times.
        let targets = ["upnp:rootdevice", DeviceFixtures.root]
        var heard: [SSDPNotifyHeaders.Heard] = []
        var at = Duration.milliseconds(2_000)
        let hear = { (nts: String, times: Int) in
            for _ in 0..<times {
                for target in targets {
                    heard.append(.init(at: at, sourcePort: 1900, ttl: 4, bytes: Self.gssdp(nts, nt: target)))
                    at += .milliseconds(120)
                }
            }
        }
        hear("ssdp:byebye", 1)
        hear("ssdp:alive", 3)
        at += .seconds(6)
        hear("ssdp:byebye", 3)
        let headers = try #require(SSDPNotifyHeaders(heard: heard))
        #expect(headers.byebyeAtStart && headers.byebyeCopiesAtStart == 1 && headers.byebyeCopies == 3)
        #expect(headers.aliveCopies == 3 && !headers.sentFromOwnPort)
        // Played: at start the byebye set once, then the first alive set; at its end the byebye set thrice.
        var device = Self.device
        device.notifyHeaders = headers
        var advertiser = DeviceAdvertiser(device: device, copies: 1, seed: 1)
        advertiser.start(at: .zero)
        let first = advertiser.timerFired(at: SSDPInstant(offset: .seconds(1)))
        let set = device.advertisements.count
        #expect(first.prefix(set).allSatisfy { $0.headers["NTS"] == "ssdp:byebye" })
        #expect(
            first.dropFirst(set).count == set && first.dropFirst(set).allSatisfy { $0.headers["NTS"] == "ssdp:alive" }
        )
        let last = advertiser.stop(at: SSDPInstant(offset: .seconds(2)))
        #expect(last.count == 3 * set && last.allSatisfy { $0.headers["NTS"] == "ssdp:byebye" })
        // A device already on, power-cycled while heard: its leaving's byebyes (twice, then a 5 s reboot)
        // are no byebye at start; its start's (once, straight into its alives) are.
        var cycled: [SSDPNotifyHeaders.Heard] = []
        for (offset, nts) in [(0, "ssdp:byebye"), (100, "ssdp:byebye")] + [(5_000, "ssdp:alive")] {
            for target in targets {
                cycled.append(
                    .init(at: .milliseconds(offset), sourcePort: 1900, ttl: 4, bytes: Self.gssdp(nts, nt: target))
                )
            }
        }
        let plain = try #require(SSDPNotifyHeaders(heard: cycled))
        #expect(!plain.byebyeAtStart && plain.byebyeCopiesAtStart == nil && plain.byebyeCopies == 2)
        let gssdp = try #require(SSDPNotifyHeaders(heard: Array(cycled.prefix(2 * targets.count)) + heard))
        #expect(gssdp.byebyeAtStart && gssdp.byebyeCopiesAtStart == 1 && gssdp.byebyeCopies == 3)
        // Heard only after its start, a device says byebye at start as its family does, and at its end as
        // often as it was heard to.
        let late = try #require(SSDPNotifyHeaders(heard: Array(heard.dropFirst(targets.count))))
        #expect(!late.byebyeAtStart && late.byebyeCopiesAtStart == nil && late.byebyeCopies == 3)
    }

    @Test func whatWasNotHeardIsTheFamilysAndNamesAsWrittenStayUnspaced() throws {
        // MiniDLNA: NAME:value, from port 1900 (so not a port of its own), no byebye heard.
        let minidlna = Array(
            "NOTIFY * HTTP/1.1\r\nHOST:239.255.255.250:1900\r\nCACHE-CONTROL:max-age=1810\r\nLOCATION:http://h/\r\nSERVER: x\r\nNT:upnp:rootdevice\r\nUSN:uuid:x::upnp:rootdevice\r\nNTS:ssdp:alive\r\n\r\n"
                .utf8
        )
        var family = SSDPNotifyHeaders(alive: [], byebye: [.init(name: "HOST", value: "{group}")])
        family.byebyeCopies = 2
        family.byebyeAtStart = true
        let headers = try #require(
            SSDPNotifyHeaders(heard: [.init(at: .zero, sourcePort: 1900, ttl: nil, bytes: minidlna)], otherwise: family)
        )
        #expect(headers.unspacedNames == ["HOST", "CACHE-CONTROL", "LOCATION", "NT", "USN", "NTS"])
        #expect(headers.byebye == family.byebye && headers.byebyeCopies == 2 && headers.byebyeAtStart)
        #expect(!headers.sentFromOwnPort && headers.ttl == nil && headers.aliveCopies == 1)
        // Without the family's, a byebye is the alive's UDA lines.
        let alone = try #require(
            SSDPNotifyHeaders(heard: [.init(at: .zero, sourcePort: 1900, ttl: nil, bytes: minidlna)])
        )
        #expect(alone.byebye.map(\.name) == ["HOST", "NT", "USN", "NTS"])
        #expect(alone.byebye.last?.value == "ssdp:byebye")
        #expect(SSDPNotifyHeaders(heard: []) == nil, "no alive heard: nothing to lay out")
    }
}
