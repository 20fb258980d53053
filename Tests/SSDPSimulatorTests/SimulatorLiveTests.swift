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
import SSDPNIO
import SSDPSearch
import Testing

@testable import SSDPDevices
@testable import SSDPSimulator

/// A running `DeviceSimulator` on 127.0.0.1 (unicast only, port 0) searched by the real `SSDPSearchSession`.
@Suite(.tags(.live)) struct SimulatorLiveTests {
    private func generic(_ count: Int, behaviour: SSDPDeviceBehaviour = .init()) -> [SimulatedDevice] {
        (1...count).map {
            var device = SimulatorProfile.generic.device(number: $0, seed: 3)
            device.behaviour = behaviour
            return device
        }
    }

    /// A live run starts the devices' clocks just before its search; on a loaded machine its task may resume
    /// seconds later. The clocks start again with the search itself, so a device silent for the search's
    /// first 2.5 s stays silent (the shipped silent-window scenario failed under the full test suite).
    @Test func theDevicesClocksStartWithTheSearchNotWithTheCall() async throws {
        var sleepy = generic(1, behaviour: SSDPDeviceBehaviour())[0]
        sleepy.behaviour.silentWindows = [.init(start: .zero, end: .milliseconds(2_500))]
        let simulator = try await LoopbackSimulator.start([sleepy])
        defer { Task { await simulator.shutdown() } }
        await simulator.startClocks()
        try await Task.sleep(for: .seconds(3))  // the caller resumes late
        let (found, statistics) = try await LoopbackSimulator.search(simulator, requests: 1)
        #expect(found.isEmpty, "silent for 2.5 s from its search: \(found)")
        #expect(statistics.searchesSent == 1)
        // Once the window is over, it answers: the next search 3.6 s after the first, a second past the window's end.
        try await Task.sleep(for: .seconds(2.5))
        #expect(try await LoopbackSimulator.search(simulator, requests: 1).found.count == 1)
    }

    @Test func theSearchSessionFindsEveryDeviceOnceAndItsDescriptionMatches() async throws {
        // Answers 0.3 s after each search: with delays drawn within MX, seed 11 put device 3's answers to the
        // second search 0.11 s before the session's end, where a busy machine reads them too late.
        let behaviour = SSDPDeviceBehaviour(delay: .fixed(.milliseconds(300)), duplicates: 2)
        let simulator = try await LoopbackSimulator.start(generic(3, behaviour: behaviour))
        let (found, statistics) = try await LoopbackSimulator.search(simulator)
        #expect(
            Set(found.map(\.uniqueServiceName)) == Set(simulator.devices.map { "\($0.device.udn)::upnp:rootdevice" })
        )
        #expect(found.count == 3)
        #expect(statistics.duplicates == 3 * 2 * 2 - 3, "each answer twice, two searches")

        // Each device is a host of its own: 127.0.0.2, .3 and .4, each serving its own description.
        let hosts = Set(found.compactMap { URL(string: $0.location)?.host })
        #expect(hosts == ["127.0.0.2", "127.0.0.3", "127.0.0.4"])
        for service in found {
            let response = try await PlainHTTP.request(url: service.location)
            #expect(response.status == 200)
            #expect(response.headers.contains("Content-Type: text/xml"))
            let elements = try XMLElements.parse(response.body)
            let udn = try #require(elements.first { $0.0 == "UDN" }?.1)
            #expect(service.uniqueServiceName == "\(udn)::upnp:rootdevice")
            #expect(elements.first { $0.0 == "deviceType" }?.1 == "urn:schemas-upnp-org:device:MediaRenderer:1")
        }
        let counters = await simulator.shutdown()
        #expect(counters.searchesAccepted == 2 && counters.answersSent == 12)
        #expect(counters.datagramsAccountedFor == counters.datagramsReceived)
    }

    @Test func httpAnswersOnlyItsOwnDocuments() async throws {
        let simulator = try await LoopbackSimulator.start(generic(1))
        // A device at an address of its own has its paths at the root, as a real device does.
        let base = "http://\(simulator.httpAddress.endpointDescription)"
        #expect(simulator.devices[0].location == "\(base)/description.xml")
        #expect(try await PlainHTTP.request(url: "\(base)/service/2/scpd.xml").status == 200)
        #expect(try await PlainHTTP.request(url: "\(base)/service/3/scpd.xml").status == 404)
        #expect(try await PlainHTTP.request(url: "\(base)/device/0/description.xml").status == 404)
        #expect(try await PlainHTTP.request(url: "\(base)/../../etc/passwd").status == 404)
        let post = try await PlainHTTP.request("POST", url: "\(base)/description.xml")
        #expect(post.status == 405 && post.headers.contains("Allow: GET, HEAD"))
        let head = try await PlainHTTP.request("HEAD", url: "\(base)/description.xml")
        #expect(head.status == 200 && head.body.isEmpty)
        await simulator.shutdown()
    }

    @Test func devicesThatShareAnAddressShareOneServerUnderDeviceN() async throws {
        let simulator = try await LoopbackSimulator.start(generic(2), addressing: .shared)
        let base = "http://\(simulator.httpAddress.endpointDescription)"
        #expect(simulator.httpAddress.ipAddress == "127.0.0.1")
        #expect(
            simulator.devices.map(\.location) == [
                "\(base)/device/0/description.xml", "\(base)/device/1/description.xml",
            ]
        )
        #expect(simulator.links[0].devicesShareAnAddress)
        #expect(try await PlainHTTP.request(url: "\(base)/device/1/service/2/scpd.xml").status == 200)
        #expect(try await PlainHTTP.request(url: "\(base)/device/2/description.xml").status == 404)
        await simulator.shutdown()
    }

    @Test func wrongTargetAndMalformedAnswersAreDroppedByTheSession() async throws {
        var devices = generic(1)
        devices += generic(2, behaviour: SSDPDeviceBehaviour(chatter: [.wrongTarget])).dropFirst()
        var malformed = SimulatorProfile.generic.device(number: 9, seed: 3)
        malformed.behaviour = SSDPDeviceBehaviour(malformations: [.missingLocation])
        let simulator = try await LoopbackSimulator.start(devices + [malformed])
        let (found, statistics) = try await LoopbackSimulator.search(simulator, requests: 1)
        #expect(found.map(\.uniqueServiceName) == ["\(simulator.devices[0].device.udn)::upnp:rootdevice"])
        #expect(statistics.wrongSearchTarget == 1)
        #expect(statistics.incomplete == 1)
        await simulator.shutdown()
    }

    @Test func eventsReportSearchesAndAnswers() async throws {
        let events = NIOLockedValueBox<[SimulatorEvent]>([])
        // Answers 0.3 s after the search: seed 3's delays within MX put one 0.18 s before the session's end, and
        // the shutdown drops what is still to send.
        let behaviour = SSDPDeviceBehaviour(delay: .fixed(.milliseconds(300)))
        let simulator = try await LoopbackSimulator.start(generic(2, behaviour: behaviour), events: events)
        _ = try await LoopbackSimulator.search(simulator, target: "ssdp:all", requests: 1)
        await simulator.shutdown()
        let recorded = events.withLockedValue { $0 }
        let searches = recorded.compactMap { event -> SimulatorEvent.SearchOutcome? in
            if case .searchReceived(_, let headers, let outcome, _, _) = event, headers["ST"] == "ssdp:all" {
                return outcome
            }
            return nil
        }
        #expect(searches == [.answered(12)])
        #expect(recorded.filter { if case .answerSent = $0 { true } else { false } }.count == 12)
        guard case .stopped(let counters) = recorded.last else {
            Issue.record("the last event is not .stopped: \(String(describing: recorded.last))")
            return
        }
        #expect(counters.answersSent == 12)
    }

    /// The servers of devices at addresses of their own open many at a time; each must still be its own
    /// device's. 200 devices (three times the servers opened at once): every LOCATION at the device's address
    /// serves that device's description, and a reboot onto a new port moves that device's server, not a
    /// neighbour's.
    @Test func manyDevicesAtAddressesOfTheirOwnEachServeTheirOwnDescription() async throws {
        let count = 200
        #expect(count > 3 * DeviceSimulator.concurrentOpens)
        let simulator = try await LoopbackSimulator.start(generic(count))
        let devices = simulator.devices
        #expect(devices.count == count)
        for (index, device) in devices.enumerated() {
            #expect(URL(string: device.location)?.host == "127.0.0.\(index + 2)", "\(device.location)")
            let udn = try XMLElements.parse(try await PlainHTTP.request(url: device.location).body)
                .first { $0.0 == "UDN" }?.1
            #expect(udn == device.device.udn, "device \(index + 1) at \(device.location)")
        }
        let moved = 150
        let status = try await simulator.perform(.reboot(downFor: .milliseconds(100), newPort: true), on: moved)
        #expect(status.location != devices[moved - 1].location)
        await #expect(throws: (any Error).self) { try await PlainHTTP.request(url: devices[moved - 1].location) }
        // Back by itself 100 ms after its server moved (bounded: 100 looks, 5 s).
        for _ in 0..<100 where simulator.status(moved).state != .alive {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(simulator.status(moved).state == .alive)
        let body = try await PlainHTTP.request(url: status.location).body
        #expect(try XMLElements.parse(body).first { $0.0 == "UDN" }?.1 == devices[moved - 1].device.udn)
        for neighbour in [moved - 1, moved + 1] {
            let body = try await PlainHTTP.request(url: devices[neighbour - 1].location).body
            #expect(try XMLElements.parse(body).first { $0.0 == "UDN" }?.1 == devices[neighbour - 1].device.udn)
        }
        await simulator.shutdown()
    }

    /// When servers opened at once cannot listen, the error names the first of them in the devices' order,
    /// whichever failed first, and every server already open is closed: the port is free again at every
    /// other device's address.
    @Test func aPortTakenAtTwoDevicesAddressesNamesTheFirstAndClosesTheRest() async throws {
        let group = MultiThreadedEventLoopGroup.singleton
        // Addresses no other test uses: other tests' simulators run at once at 127.0.0.2 and on, each of
        // their devices on a port of its own choosing, which could be this test's port at one of those addresses.
        let addresses = (2...101).map { "127.77.0.\($0)" }
        // A port free at both addresses (bounded: 50 picks).
        var taken: (first: any Channel, later: any Channel, port: Int)?
        for _ in 0..<50 where taken == nil {
            let later = try await ServerBootstrap(group: group).bind(host: addresses[28], port: 0).get()
            let port = try #require(later.localAddress?.port)
            do {
                let first = try await ServerBootstrap(group: group).bind(host: addresses[18], port: port).get()
                taken = (first, later, port)
            } catch {
                try await later.close()
            }
        }
        let (first, later, port) = try #require(taken)
        var configuration = SimulatorConfiguration(
            devices: generic(100),
            interfaces: ["lo"],
            port: 0,
            httpPort: .fixed(port),
            listening: .unicastOnly,
            seed: 1
        )
        configuration.addressing = .list(addresses)
        do {
            let simulator = try await DeviceSimulator.start(configuration)
            await simulator.shutdown()
            Issue.record("started with port \(port) taken at two devices' addresses")
        } catch let error as SimulatorError {
            #expect(error.reason.hasPrefix("device 19 (ssdp-sim generic 19, uuid:"), "\(error.reason)")
            #expect(error.reason.contains("cannot listen on TCP 127.77.0.20:\(port): the port is in use"))
        }
        try await first.close()
        try await later.close()
        for host in addresses {
            let probe = try await ServerBootstrap(group: group).bind(host: host, port: port).get()
            try await probe.close()
        }
    }

    @Test func aPortInUseIsAClearError() async throws {
        let blocker = try await DatagramBootstrap(group: MultiThreadedEventLoopGroup.singleton).bind(
            host: "127.0.0.1",
            port: 0
        ).get()
        let port = try #require(blocker.localAddress?.port)
        var configuration = SimulatorConfiguration(
            devices: generic(1),
            interfaces: ["lo"],
            port: port,
            listening: .unicastOnly,
            seed: 1
        )
        configuration.httpPort = .any
        await #expect(
            throws: SimulatorError(
                reason:
                    "UDP port \(port) on 127.0.0.1 is already in use (another SSDP stack or simulator? choose another with --port / --http-port)"
            )
        ) {
            try await DeviceSimulator.start(configuration)
        }
        try await blocker.close()
    }

    /// A recorded libupnp device answered from a port of its own: so does its playback, from the same address.
    @Test(arguments: [(41_234, true), (1900, false)])
    func aRecordedDeviceAnswersFromThePortKindItAnsweredFrom(recordedPort: Int, ownPort: Bool) async throws {
        let answer = "HTTP/1.1 200 OK\r\nST: roku:ecp\r\nUSN: uuid:roku:ecp:REC0000123\r\n\r\n"
        let device = try RecordedRokuTests.device(searches: [
            ["st": "roku:ecp", "answers": [["delay": 0, "sourcePort": recordedPort, "datagram": answer]]]
        ])
        let simulator = try await LoopbackSimulator.start([device])
        defer { Task { await simulator.shutdown() } }
        let ssdpPort = try #require(simulator.udpAddress.port)
        let answers = AnswerCollector()
        let client = try await DatagramBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(answers) }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let search =
            "M-SEARCH * HTTP/1.1\r\nHOST: 239.255.255.250:1900\r\nMAN: \"ssdp:discover\"\r\nMX: 1\r\nST: roku:ecp\r\n\r\n"
        try await client.writeAndFlush(
            AddressedEnvelope(
                remoteAddress: try SocketAddress(ipAddress: "127.0.0.1", port: ssdpPort),
                data: ByteBuffer(string: search)
            )
        )
        let deadline = ContinuousClock.now + .seconds(5)
        while answers.sources.withLockedValue(\.isEmpty), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        try await client.close()
        let first = answers.sources.withLockedValue(\.first)
        let source = try #require(first, "no answer in 5 s")
        #expect(source.ipAddress == "127.0.0.1")
        #expect((source.port != ssdpPort) == ownPort, "answered from \(source.port ?? 0), SSDP port \(ssdpPort)")
    }
}

/// The source address of every datagram a test's socket receives.
private final class AnswerCollector: ChannelInboundHandler, Sendable {
    typealias InboundIn = AddressedEnvelope<ByteBuffer>
    let sources = NIOLockedValueBox<[SocketAddress]>([])

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let envelope = unwrapInboundIn(data)
        sources.withLockedValue { $0.append(envelope.remoteAddress) }
    }
}
