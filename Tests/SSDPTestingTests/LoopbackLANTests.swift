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
import NIOPosix
import SSDPCore
import SSDPDeviceCore
import SSDPDevices
import SSDPSearch
import SSDPSimulator
import SSDPTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Tag {
    /// Tests that use real sockets (loopback only).
    @Tag static var live: Self
}

@Suite("LoopbackLAN: fake devices inside a test, on loopback", .tags(.live))
struct LoopbackLANTests {
    @Test func aSearchFindsEachDeviceAtItsLocationAndTheDescriptionIsServedThere() async throws {
        try await LoopbackLAN.run([.roku(count: 2), .igd()]) { lan in
            #expect(lan.devices.count == 3)
            let found = try await lan.searchSession(target: "roku:ecp").search()
            let rokus = lan.devices.filter { $0.deviceType == "urn:roku-com:device:player:1-0" }
            #expect(Set(found.map(\.location)) == Set(rokus.map(\.location)))
            #expect(found.count == 2)
            #if os(Linux)
            // Each device at an address of its own, on the real device's layout.
            #expect(Set(lan.devices.map(\.address)).count == 3)
            #expect(rokus.allSatisfy { $0.location.hasPrefix("http://\($0.address):") })
            #endif
            // The session sent three searches; each one reached the devices.
            #expect(lan.searches.filter { $0.target == "roku:ecp" }.count == 3)
            #expect(lan.answers.filter { $0.target == "roku:ecp" }.count >= 2)

            let url = try #require(URL(string: rokus[0].location))
            let (data, response) = try await URLSession.shared.data(from: url)
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            #expect(
                String(decoding: data, as: UTF8.self).contains("<friendlyName>\(rokus[0].friendlyName)</friendlyName>")
            )
            #expect(lan.httpRequests.contains { $0.url == rokus[0].location && $0.status == 200 })
        }
    }

    /// MiniDLNA says byebye for everything before its first alive set: those go, and are reported, as a
    /// byebye round, not as part of the alive round they go out with.
    @Test func aByebyeAtStartIsReportedAsByebyesBeforeTheFirstAlives() async throws {
        let listener = try await NotifyListener.start()
        defer { listener.close() }
        var options = LoopbackLAN.Options()
        options.notifyDestination = listener.address
        try await LoopbackLAN.run([.dlnaServer()], options: options) { lan in
            let advertised = lan.devices[0].advertisements.count
            try await listener.waitFor { $0.filter { $0.nts == "ssdp:alive" }.count >= advertised }
            let rounds = lan.notifications.map { "\($0.subtype) ×\($0.count)" }
            #expect(rounds.prefix(2) == ["byebye ×\(2 * advertised)", "alive ×\(advertised)"], "\(rounds)")
            #expect(listener.received.prefix(2 * advertised).allSatisfy { $0.nts == "ssdp:byebye" })
        }
    }

    /// The closure throws half-way: `run` rethrows after every byebye went out and every socket closed.
    @Test func aClosureThatThrowsLeavesNoSocketOpenAndEveryByebyeSent() async throws {
        let listener = try await NotifyListener.start()
        defer { listener.close() }
        var options = LoopbackLAN.Options()
        options.notifyDestination = listener.address
        struct Thrown: Error {}
        var seen: (devices: [LANDevice], port: Int)?
        await #expect(throws: Thrown.self) {
            try await LoopbackLAN.run([.roku(), .sonos(count: 2)], options: options) { lan in
                seen = (lan.devices, lan.port)
                let advertised = lan.devices.reduce(0) { $0 + $1.advertisements.count }
                // The alive round arrives first (two copies of each), then the test fails.
                try await listener.waitFor { $0.filter { $0.nts == "ssdp:alive" }.count >= advertised }
                throw Thrown()
            }
        }
        let (devices, port) = try #require(seen)
        // Every (NT, USN) advertised got its byebye: sent before `run` returned, read by the listener since.
        let advertised = Set(devices.flatMap { $0.advertisements.map { "\($0.target) \($0.usn)" } })
        #expect(advertised.count == devices.reduce(0) { $0 + $1.advertisements.count })
        func byebyes(_ received: [NotifyListener.Notify]) -> Set<String> {
            Set(received.filter { $0.nts == "ssdp:byebye" }.map { "\($0.nt) \($0.usn)" })
        }
        try await listener.waitFor { byebyes($0).isSuperset(of: advertised) }
        #expect(byebyes(listener.received) == advertised)
        // The search port and every HTTP port are free again.
        #expect(try await SocketProbe.canBindUDP(port: port))
        for device in devices {
            let url = try #require(URL(string: device.location))
            let port = try #require(url.port)
            #expect(!(await SocketProbe.acceptsTCP(host: device.address, port: port)), "\(device.location)")
        }
    }

    @Test func badGroupsAreErrorsThatNameTheField() async throws {
        await #expect(throws: SSDPConfigurationError.self) {
            try await LoopbackLAN.run([.profile("no-such-device")]) { _ in }
        }
        do {
            try await LoopbackLAN.run([.roku(count: 0)]) { _ in }
            Issue.record("a count of 0 started")
        } catch let error as SSDPConfigurationError {
            #expect(error.field == "count")
        }
        do {
            try await LoopbackLAN.run([.deviceFile("/nonexistent/devices.json")]) { _ in }
            Issue.record("a missing device file started")
        } catch let error as SimulatorInputError {
            #expect(error.file == "/nonexistent/devices.json")
        }
    }

    @Test func behavioursApplyToEveryDeviceOfTheGroup() async throws {
        // Each answers 50 ms after the search rather than at a random moment within MX: one search's window
        // must not lose an answer drawn at its very end on a busy machine.
        let prompt = SSDPDeviceBehaviour(delay: .fixed(.milliseconds(50)))
        var duplicating = prompt
        duplicating.duplicates = 3
        try await LoopbackLAN.run([.igd(behaviour: duplicating), .roku(behaviour: prompt)]) { lan in
            let session = try lan.searchSession(target: "upnp:rootdevice", requests: 1)
            let found = try await session.search()
            #expect(found.count == 2)
            let igd = try #require(lan.devices.first { $0.deviceType.contains("InternetGatewayDevice") })
            // One search, three copies of the IGD's answer, one of the Roku's: the session drops two.
            #expect(lan.answers.filter { $0.usn == "\(igd.udn)::upnp:rootdevice" }.count == 3)
            #expect(session.statistics.duplicates == 2)
        }
    }
}

/// A UDP socket on loopback that keeps the NOTIFY messages it gets.
final class NotifyListener: Sendable {
    struct Notify: Hashable, Sendable {
        var nts: String
        var nt: String
        var usn: String
        var bootID: String? = nil
        var nextBootID: String? = nil
    }

    private let channel: any Channel
    private let box: NIOLockedValueBox<[Notify]>
    var address: SocketAddress { channel.localAddress! }
    var received: [Notify] { box.withLockedValue { $0 } }

    private init(channel: any Channel, box: NIOLockedValueBox<[Notify]>) {
        self.channel = channel
        self.box = box
    }

    static func start() async throws -> NotifyListener {
        let box = NIOLockedValueBox<[Notify]>([])
        let channel = try await DatagramBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(Collector(box: box))
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        return NotifyListener(channel: channel, box: box)
    }

    /// Polls every 10 ms, for at most 10 s, until `condition` holds.
    func waitFor(_ condition: ([Notify]) -> Bool) async throws {
        for _ in 0..<1_000 {
            if condition(received) { return }
            try await Task.sleep(for: .milliseconds(10))
        }
        Issue.record("the NOTIFY messages expected did not arrive in 10 s; got \(received.count)")
    }

    func close() {
        channel.close(promise: nil)
    }

    private final class Collector: ChannelInboundHandler, Sendable {
        typealias InboundIn = AddressedEnvelope<ByteBuffer>
        let box: NIOLockedValueBox<[Notify]>

        init(box: NIOLockedValueBox<[Notify]>) {
            self.box = box
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let text = String(decoding: unwrapInboundIn(data).data.readableBytesView, as: UTF8.self)
            guard text.hasPrefix("NOTIFY") else { return }
            var headers: [String: String] = [:]
            for line in text.split(separator: "\r\n") {
                guard let colon = line.firstIndex(of: ":") else { continue }
                headers[line[..<colon].uppercased()] = line[line.index(after: colon)...].trimmingCharacters(
                    in: .whitespaces
                )
            }
            let notify = Notify(
                nts: headers["NTS"] ?? "",
                nt: headers["NT"] ?? "",
                usn: headers["USN"] ?? "",
                bootID: headers["BOOTID.UPNP.ORG"],
                nextBootID: headers["NEXTBOOTID.UPNP.ORG"]
            )
            box.withLockedValue { $0.append(notify) }
        }
    }
}

/// Whether ports are still held, by trying them.
enum SocketProbe {
    /// Whether a UDP socket can bind every address at `port` (the simulator's search socket did, without
    /// SO_REUSEADDR, so this fails while it is open).
    static func canBindUDP(port: Int) async throws -> Bool {
        let channel = try? await DatagramBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(host: "0.0.0.0", port: port)
            .get()
        try await channel?.close()
        return channel != nil
    }

    /// Whether something accepts a TCP connection at `host`:`port`.
    static func acceptsTCP(host: String, port: Int) async -> Bool {
        let channel = try? await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(.seconds(2))
            .connect(host: host, port: port)
            .get()
        try? await channel?.close()
        return channel != nil
    }
}
