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
import SSDPCore
import SSDPDeviceCore
import SSDPDevices
import SSDPSimulator
import Testing

/// The dlna-server profile over real sockets, where it is Debian's MiniDLNA 1.3.0 (`scripts/fidelity
/// dlna-server` holds it to the real one): its content tree, its icons, and its events.
@Suite(.tags(.live)) struct MediaServerLiveTests {
    private let directory = "urn:schemas-upnp-org:service:ContentDirectory:1"

    private func started(
        _ device: SimulatedDevice,
        events: NIOLockedValueBox<[SimulatorEvent]>? = nil
    )
        async throws -> (DeviceSimulator, origin: String)
    {
        let simulator = try await LoopbackSimulator.start([device], events: events)
        let location = simulator.devices[0].location
        return (simulator, String(location.prefix { $0 != "/" }) + "//" + location.split(separator: "/")[1])
    }

    @Test func theRootListsMiniDLNAsContainersByNameWithWhatEachHolds() async throws {
        let (simulator, origin) = try await started(SimulatorProfile.dlnaServer.device(number: 1, seed: 1))
        defer { Task { await simulator.shutdown() } }
        let response = try await PlainHTTP.soap(
            origin + "/ctl/ContentDir",
            serviceType: directory,
            action: "Browse",
            [
                ("ObjectID", "0"), ("BrowseFlag", "BrowseDirectChildren"), ("Filter", "*"), ("StartingIndex", "0"),
                ("RequestedCount", "0"), ("SortCriteria", ""),
            ]
        )
        #expect(response.status == 200)
        let result = try #require(try XMLElements.parse(response.body).first { $0.0 == "Result" }?.1)
        let didl = try #require(SSDPXMLElement.parse(Array(result.utf8)))
        let containers = didl.children.filter { $0.name == "container" }
        // As Debian's MiniDLNA lists them: by name, Browse Folders first; Music's seven, Pictures' five and
        // Video's three are its own containers (the seven items are in All Music, All Pictures, All Video).
        #expect(containers.map { $0.attributes["id"] } == ["64", "1", "3", "2"])
        #expect(containers.map { $0.attributes["childCount"] } == ["0", "7", "5", "3"])
        #expect(containers.map { $0.child("title")?.text } == ["Browse Folders", "Music", "Pictures", "Video"])
    }

    @Test func theIconsItListsAreServedWithTheHeadersMiniDLNASendsWithAFile() async throws {
        let (simulator, origin) = try await started(SimulatorProfile.dlnaServer.device(number: 1, seed: 1))
        defer { Task { await simulator.shutdown() } }
        let description = try await PlainHTTP.request(url: origin + "/rootDesc.xml")
        let urls = try XMLElements.parse(description.body).filter { $0.0 == "url" }.map(\.1)
        #expect(urls == ["/icons/sm.png", "/icons/lrg.png", "/icons/sm.jpg", "/icons/lrg.jpg"])
        for (url, size) in zip(urls, [48, 120, 48, 120]) {
            let icon = try await PlainHTTP.request(url: origin + url)
            #expect(icon.status == 200)
            #expect(icon.header("Content-Type") == (url.hasSuffix(".png") ? "image/png" : "image/jpeg"))
            #expect(
                icon.headerNames.map { $0.lowercased() } == [
                    "connection", "date", "server", "ext", "realtimeinfo.dlna.org", "transfermode.dlna.org",
                    "content-type", "content-length",
                ]
            )
            let bytes = icon.bodyBytes
            #expect(Int(icon.header("Content-Length") ?? "") == bytes.count)
            if url.hasSuffix(".png") {
                #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]))  // \x89PNG, then IHDR's width and height
                #expect(bytes.count > 24 && Int(bytes[18]) << 8 | Int(bytes[19]) == size)
                #expect(bytes.count > 24 && Int(bytes[22]) << 8 | Int(bytes[23]) == size)
            } else {
                #expect(bytes.starts(with: [0xFF, 0xD8, 0xFF]))
            }
        }
    }

    @Test func miniDLNA130sInitialEventConnectsAndNeverWritesAndNothingFollows() async throws {
        let receiver = try await EventReceiver.start()
        defer { Task { try? await receiver.channel.close() } }
        let (simulator, origin) = try await started(SimulatorProfile.dlnaServer.device(number: 1, seed: 1))
        defer { Task { await simulator.shutdown() } }
        let subscribe = try await PlainHTTP.request(
            "SUBSCRIBE",
            url: origin + "/evt/ContentDir",
            headers: ["CALLBACK": "<\(receiver.url)>", "NT": "upnp:event"]
        )
        #expect(subscribe.status == 200)
        #expect(subscribe.header("TIMEOUT") == "Second-300")  // MiniDLNA's, asked for none
        let sid = try #require(subscribe.header("SID"))
        // The connection comes after the answer: looked for until it is there (bounded: 100 looks, 10 s).
        for _ in 0..<100 where receiver.connections.withLockedValue({ $0 }) == 0 {
            try await Task.sleep(for: .milliseconds(100))
        }
        await #expect(throws: EventReceiver.HarnessTimeout.self) { try await receiver.next(within: .milliseconds(700)) }
        #expect(receiver.connections.withLockedValue { $0 } == 1)
        // A renewal gets 300 s whatever it asks for.
        let renewal = try await PlainHTTP.request(
            "SUBSCRIBE",
            url: origin + "/evt/ContentDir",
            headers: ["SID": sid, "TIMEOUT": "Second-1800"]
        )
        #expect(renewal.status == 200 && renewal.header("TIMEOUT") == "Second-300")
        // A CALLBACK without NT is a bad request here.
        let withoutNT = try await PlainHTTP.request(
            "SUBSCRIBE",
            url: origin + "/evt/ContentDir",
            headers: ["CALLBACK": "<\(receiver.url)>"]
        )
        #expect(withoutNT.status == 400 && withoutNT.body == "<html><body>Bad request</body></html>")
    }

    @Test func withUDAsEventDeliveryTheInitialEventArrivesAs131SendsIt() async throws {
        let receiver = try await EventReceiver.start()
        defer { Task { try? await receiver.channel.close() } }
        let file = #"{ "devices": [ { "profile": "dlna-server", "eventDelivery": "uda" } ] }"#
        let device = try DeviceFile.decode(Data(file.utf8), file: "dlna.json", seed: 1).devices[0]
        let (simulator, origin) = try await started(device)
        defer { Task { await simulator.shutdown() } }
        let subscribe = try await PlainHTTP.request(
            "SUBSCRIBE",
            url: origin + "/evt/ContentDir",
            headers: ["CALLBACK": "<\(receiver.url)>", "NT": "upnp:event", "TIMEOUT": "Second-60"]
        )
        #expect(subscribe.status == 200)
        let initial = try await receiver.next()
        #expect(initial.headers["SEQ"] == "0")
        #expect(initial.body.contains("<SystemUpdateID>"))
    }
}
