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
import SSDPSimulator
import Testing

/// SOAP control and GENA eventing over real sockets on loopback: the answers, a chosen fault, events
/// delivered to a subscriber's callback, and 412 after a reboot.
@Suite(.tags(.live)) struct ControlLiveTests {
    private static let renderingControl = "urn:schemas-upnp-org:service:RenderingControl:1"

    private func soap(
        _ url: String,
        serviceType: String,
        action: String,
        _ arguments: [(String, String)] = []
    ) async throws -> PlainHTTP.Response {
        try await PlainHTTP.soap(url, serviceType: serviceType, action: action, arguments)
    }

    /// A SUBSCRIBE of `receiver` to the events at `url`, asking for 60 s.
    private func subscribe(_ receiver: EventReceiver, to url: String) async throws -> PlainHTTP.Response {
        try await PlainHTTP.request(
            "SUBSCRIBE",
            url: url,
            headers: ["CALLBACK": "<\(receiver.url)>", "NT": "upnp:event", "TIMEOUT": "Second-60"]
        )
    }

    private func text(of element: String, in body: String) throws -> String? {
        try XMLElements.parse(body).first { $0.0 == element }?.1
    }

    @Test func theRouterAnswersAndAChosenFaultComesBackAsASOAPFault() async throws {
        var igd = SimulatorProfile.igd.device(number: 1, seed: 3)
        igd.web.actionResponses = [ActionResponse(action: "AddPortMapping", outcome: .failure(UPnPError(code: 718)))]
        let events = NIOLockedValueBox<[SimulatorEvent]>([])
        let simulator = try await LoopbackSimulator.start([igd], events: events)
        defer { Task { await simulator.shutdown() } }
        let origin =
            String(simulator.devices[0].location.prefix { $0 != "/" }) + "//"
            + simulator.devices[0].location.split(separator: "/")[1]
        let wanIP = "urn:schemas-upnp-org:service:WANIPConnection:1"

        let address = try await soap(origin + "/ctl/IPConn", serviceType: wanIP, action: "GetExternalIPAddress")
        #expect(address.status == 200)
        #expect(try text(of: "NewExternalIPAddress", in: address.body) == "93.184.216.34")

        let fault = try await soap(
            origin + "/ctl/IPConn",
            serviceType: wanIP,
            action: "AddPortMapping",
            [
                ("NewRemoteHost", ""), ("NewExternalPort", "8080"), ("NewProtocol", "TCP"), ("NewInternalPort", "80"),
                ("NewInternalClient", "127.0.0.1"), ("NewEnabled", "1"), ("NewPortMappingDescription", "web"),
                ("NewLeaseDuration", "0"),
            ]
        )
        #expect(fault.status == 500)
        #expect(try text(of: "errorCode", in: fault.body) == "718")
        #expect(try text(of: "errorDescription", in: fault.body) == "ConflictInMappingEntry")

        #expect(try await soap(origin + "/ctl/IPConn", serviceType: wanIP, action: "NoSuchAction").status == 500)
        #expect(try await PlainHTTP.request(url: origin + "/ctl/IPConn").status == 405)
        #expect(try await PlainHTTP.request("POST", url: origin + "/ctl/IPConn", body: "<x/>").status == 400)

        let calls = events.withLockedValue { events in
            events.compactMap { if case .actionCalled(let record) = $0 { record } else { nil } }
        }
        #expect(calls.map(\.call.actionName) == ["GetExternalIPAddress", "AddPortMapping", "NoSuchAction"])
        #expect(calls[1].call.argument("NewExternalPort") == "8080")
        #expect(calls[1].outcome == .failure(UPnPError(code: 718)))
    }

    @Test func aSubscriberGetsTheInitialEventAndTheChangeAndARebootForgetsIt() async throws {
        let receiver = try await EventReceiver.start()
        defer { Task { try? await receiver.channel.close() } }
        let events = NIOLockedValueBox<[SimulatorEvent]>([])
        let simulator = try await LoopbackSimulator.start(
            [SimulatorProfile.sonos.device(number: 1, seed: 4)],
            events: events
        )
        defer { Task { await simulator.shutdown() } }
        let location = simulator.devices[0].location
        let origin = String(location.prefix { $0 != "/" }) + "//" + location.split(separator: "/")[1]

        let subscribe = try await subscribe(receiver, to: origin + "/MediaRenderer/RenderingControl/Event")
        #expect(subscribe.status == 200)
        #expect(subscribe.header("TIMEOUT") == "Second-60")
        let sid = try #require(subscribe.header("SID"))
        let initial = try await receiver.next()
        #expect(
            initial.headers["SID"] == sid && initial.headers["SEQ"] == "0"
                && initial.headers["NTS"] == "upnp:propchange"
        )
        #expect(initial.body.contains("LastChange"))

        let set = try await soap(
            origin + "/MediaRenderer/RenderingControl/Control",
            serviceType: Self.renderingControl,
            action: "SetVolume",
            [
                ("InstanceID", "0"), ("Channel", "Master"), ("DesiredVolume", "42"),
            ]
        )
        #expect(set.status == 200)
        let change = try await receiver.next()
        #expect(change.headers["SEQ"] == "1")
        #expect(change.body.contains("&lt;Volume channel=&quot;Master&quot; val=&quot;42&quot;/&gt;"))

        let renew = {
            try await PlainHTTP.request(
                "SUBSCRIBE",
                url: origin + "/MediaRenderer/RenderingControl/Event",
                headers: ["SID": sid]
            )
        }
        #expect(try await renew().status == 200)
        await simulator.announceUpdate()  // a reboot: a new BOOTID
        #expect(try await renew().status == 412)

        let records = events.withLockedValue { events in
            events.compactMap { if case .subscription(let record) = $0 { record.kind } else { nil } }
        }
        #expect(records == [.subscribe, .renew, .refused])
    }

    /// GENA's messages to one subscriber go one after another (UDA 1.1 §4.3.2): a change made while the
    /// subscriber still holds the initial event's connection waits for its answer, so SEQ 1 never
    /// overtakes SEQ 0.
    @Test func aSubscribersEventsGoOneAfterAnotherInSEQOrder() async throws {
        let receiver = try await EventReceiver.start(holdingFirst: .milliseconds(400))
        defer { Task { try? await receiver.channel.close() } }
        let simulator = try await LoopbackSimulator.start([SimulatorProfile.igd.device(number: 1, seed: 3)])
        defer { Task { await simulator.shutdown() } }
        let location = simulator.devices[0].location
        let origin = String(location.prefix { $0 != "/" }) + "//" + location.split(separator: "/")[1]
        let subscribe = try await subscribe(receiver, to: origin + "/evt/IPConn")
        #expect(subscribe.status == 200)
        _ = try await simulator.perform(.change(DeviceChange(state: ["ExternalIPAddress": "198.51.100.7"])), on: 1)
        let initial = try await receiver.next()
        let change = try await receiver.next()
        #expect([initial.headers["SEQ"], change.headers["SEQ"]] == ["0", "1"])
        // SEQ 1 left only once SEQ 0 was answered, 400 ms after it arrived.
        #expect(change.arrived - initial.arrived >= .milliseconds(350), "\(change.arrived - initial.arrived)")
        #expect(change.body.contains("<ExternalIPAddress>198.51.100.7</ExternalIPAddress>"))
    }

    @Test func aChangeOfLiveStateReachesTheSubscriberAndTheNextCall() async throws {
        let receiver = try await EventReceiver.start()
        defer { Task { try? await receiver.channel.close() } }
        let simulator = try await LoopbackSimulator.start([SimulatorProfile.igd.device(number: 1, seed: 3)])
        defer { Task { await simulator.shutdown() } }
        let location = simulator.devices[0].location
        let origin = String(location.prefix { $0 != "/" }) + "//" + location.split(separator: "/")[1]
        let wanIP = "urn:schemas-upnp-org:service:WANIPConnection:1"
        let subscribe = try await subscribe(receiver, to: origin + "/evt/IPConn")
        #expect(subscribe.status == 200)
        #expect(try await receiver.next().body.contains("<ExternalIPAddress>93.184.216.34</ExternalIPAddress>"))

        let status = try await simulator.perform(
            .change(DeviceChange(state: ["ExternalIPAddress": "198.51.100.7"])),
            on: 1
        )
        #expect(status.configID == 1337, "live state is not the description: miniupnpd's CONFIGID stays")
        let change = try await receiver.next()
        #expect(change.headers["SEQ"] == "1")
        #expect(change.body.contains("<ExternalIPAddress>198.51.100.7</ExternalIPAddress>"))
        let address = try await soap(origin + "/ctl/IPConn", serviceType: wanIP, action: "GetExternalIPAddress")
        #expect(try text(of: "NewExternalIPAddress", in: address.body) == "198.51.100.7")

        await #expect(throws: DeviceOperationError.self) {
            try await simulator.perform(.change(DeviceChange(state: ["ConnectionStatus": "Broken"])), on: 1)
        }
        #expect(simulator.configuration(of: 1).device.friendlyName == simulator.devices[0].device.friendlyName)
    }

    @Test func twoSonosPlayersAreOneHouseholdEachAtItsOwnLocation() async throws {
        let players = [1, 2].map { SimulatorProfile.sonos.device(number: $0, seed: 4) }
        let households = players.map(\.sonosHouseholdHeader)
        #expect(households[0] != nil && households[0] == households[1])
        let simulator = try await LoopbackSimulator.start(players)
        defer { Task { await simulator.shutdown() } }
        let location = simulator.devices[1].location
        let origin = String(location.prefix { $0 != "/" }) + "//" + location.split(separator: "/")[1]
        let topology = "urn:schemas-upnp-org:service:ZoneGroupTopology:1"

        let state = try await soap(
            origin + "/ZoneGroupTopology/Control",
            serviceType: topology,
            action: "GetZoneGroupState"
        )
        let body = try #require(try text(of: "ZoneGroupState", in: state.body))
        let members = try XMLElements.parse(body)
        #expect(members.filter { $0.0 == "ZoneGroupMember" }.count == 2)
        let household = try await soap(
            origin + "/DeviceProperties/Control",
            serviceType: "urn:schemas-upnp-org:service:DeviceProperties:1",
            action: "GetHouseholdID"
        )
        #expect(try text(of: "CurrentHouseholdID", in: household.body) == households[1])
        let zone = try await soap(
            origin + "/DeviceProperties/Control",
            serviceType: "urn:schemas-upnp-org:service:DeviceProperties:1",
            action: "GetZoneAttributes"
        )
        #expect(try text(of: "CurrentZoneName", in: zone.body) == "Room 2")
        for device in simulator.devices { #expect(body.contains("Location=\"\(device.location)\"")) }
    }

    @Test func aDeviceOnTheSharedServerIsControlledUnderItsPath() async throws {
        var generic = SimulatorProfile.generic.device(number: 1, seed: 5)
        generic.device.services = [SSDPDeviceService(serviceType: Self.renderingControl)]
        let simulator = try await LoopbackSimulator.start(
            [generic, SimulatorProfile.generic.device(number: 2, seed: 5)],
            addressing: .shared
        )
        defer { Task { await simulator.shutdown() } }
        let location = simulator.devices[0].location
        #expect(location.hasSuffix("/device/0/description.xml"))
        let origin = String(location.prefix { $0 != "/" }) + "//" + location.split(separator: "/")[1]
        let description = try await PlainHTTP.request(url: location)
        let control = try #require(try XMLElements.parse(description.body).first { $0.0 == "controlURL" }?.1)
        let answer = try await soap(
            origin + control,
            serviceType: Self.renderingControl,
            action: "GetVolume",
            [("InstanceID", "0"), ("Channel", "Master")]
        )
        #expect(answer.status == 200)
        #expect(try text(of: "CurrentVolume", in: answer.body) == "20")  // the template's default
    }

    @Test func aDeviceFileChoosesAResponseAndAFault() async throws {
        let file = #"""
            { "devices": [ { "profile": "igd", "actions": [
                { "action": "GetExternalIPAddress", "service": "WANIPConnection", "response": { "NewExternalIPAddress": "" } },
                { "action": "GetStatusInfo", "fault": 501, "description": "Disconnected" } ] } ] }
            """#
        let device = try DeviceFile.decode(Data(file.utf8), file: "igd.json", seed: 1).devices[0]
        let simulator = try await LoopbackSimulator.start([device])
        defer { Task { await simulator.shutdown() } }
        let location = simulator.devices[0].location
        let origin = String(location.prefix { $0 != "/" }) + "//" + location.split(separator: "/")[1]
        let wanIP = "urn:schemas-upnp-org:service:WANIPConnection:1"
        let address = try await soap(origin + "/ctl/IPConn", serviceType: wanIP, action: "GetExternalIPAddress")
        #expect(address.status == 200)
        #expect(try XMLElements.parse(address.body).contains { $0 == ("NewExternalIPAddress", "") })
        let status = try await soap(origin + "/ctl/IPConn", serviceType: wanIP, action: "GetStatusInfo")
        #expect(status.status == 500)
        #expect(try text(of: "errorCode", in: status.body) == "501")
        #expect(try text(of: "errorDescription", in: status.body) == "Disconnected")
    }

    @Test func aMediaServerBrowsesTheContentOfItsDeviceFileWithAbsoluteURLs() async throws {
        let file = #"""
            { "devices": [ { "profile": "dlna-server", "media": [
                { "id": "64", "parentID": "0", "title": "Podcasts", "class": "object.container.storageFolder" },
                { "id": "64$0", "parentID": "64", "title": "Episode 1", "class": "object.item.audioItem",
                  "resource": { "path": "/MediaItems/1.mp3", "protocolInfo": "http-get:*:audio/mpeg:*" } } ] } ] }
            """#
        let device = try DeviceFile.decode(Data(file.utf8), file: "media.json", seed: 1).devices[0]
        let simulator = try await LoopbackSimulator.start([device])
        defer { Task { await simulator.shutdown() } }
        let location = simulator.devices[0].location
        let origin = String(location.prefix { $0 != "/" }) + "//" + location.split(separator: "/")[1]
        let directory = "urn:schemas-upnp-org:service:ContentDirectory:1"
        let browse = { (id: String) in
            try await self.soap(
                origin + "/ctl/ContentDir",
                serviceType: directory,
                action: "Browse",
                [
                    ("ObjectID", id), ("BrowseFlag", "BrowseDirectChildren"), ("Filter", "*"), ("StartingIndex", "0"),
                    ("RequestedCount", "0"), ("SortCriteria", ""),
                ]
            )
        }
        let root = try await browse("0")
        #expect(try text(of: "TotalMatches", in: root.body) == "1", "\(root.body)")
        #expect(try text(of: "Result", in: root.body)?.contains("<dc:title>Podcasts</dc:title>") == true)
        let podcasts = try await browse("64")
        let result = try text(of: "Result", in: podcasts.body) ?? ""
        #expect(result.contains("<dc:title>Episode 1</dc:title>"), "\(result)")
        #expect(result.contains(">\(origin)/MediaItems/1.mp3</res>"), "\(result)")
    }
}

/// A subscriber's callback server: records each NOTIFY and answers 200.
final class EventReceiver: Sendable {
    struct Notification: Sendable {
        var headers: [String: String]
        var body: String
        /// When it arrived.
        var arrived = ContinuousClock.now
    }

    let channel: any Channel
    let url: String
    private let received = NIOLockedValueBox<[Notification]>([])
    /// How many connections came in, whether they carried a NOTIFY or nothing.
    let connections = NIOLockedValueBox(0)

    private init(channel: any Channel) throws {
        self.channel = channel
        url = "http://127.0.0.1:\(try #require(channel.localAddress?.port))/callback"
    }

    /// A receiver that answers each NOTIFY at once, or the one with SEQ 0 only after `holdingFirst`.
    static func start(holdingFirst: TimeAmount? = nil) async throws -> EventReceiver {
        let box = NIOLockedValueBox<EventReceiver?>(nil)
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { channel in
                box.withLockedValue { $0 }?.connections.withLockedValue { $0 += 1 }
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(
                        Reader(holdingFirst: holdingFirst) { notification in
                            box.withLockedValue { $0 }?.received.withLockedValue { $0.append(notification) }
                        }
                    )
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        let receiver = try EventReceiver(channel: channel)
        box.withLockedValue { $0 = receiver }
        return receiver
    }

    /// The next notification, waiting up to `within` of the test's own time: its checks count, not the
    /// clock, so a test held up by the rest of the suite (the thread pool busy with tests that wait on
    /// processes) still gets its whole allowance once it runs. The allowance is generous: a delivery is
    /// given up on after `EventNotifier.timeout`, and a notification that never comes fails all the same.
    func next(within limit: Duration = .seconds(20)) async throws -> Notification {
        for _ in 0..<max(1, Int(limit / .milliseconds(10))) {
            if let first = received.withLockedValue({ $0.isEmpty ? nil : $0.removeFirst() }) { return first }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw HarnessTimeout()
    }

    struct HarnessTimeout: Error {}

    private final class Reader: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        private var bytes: [UInt8] = []
        private let holdingFirst: TimeAmount?
        private let onNotification: @Sendable (Notification) -> Void

        init(holdingFirst: TimeAmount?, _ onNotification: @escaping @Sendable (Notification) -> Void) {
            self.holdingFirst = holdingFirst
            self.onNotification = onNotification
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            bytes += unwrapInboundIn(data).readableBytesView
            let text = String(decoding: bytes, as: UTF8.self)
            guard let end = text.range(of: "\r\n\r\n") else { return }
            var headers: [String: String] = [:]
            for line in text[..<end.lowerBound].components(separatedBy: "\r\n").dropFirst() {
                let parts = line.split(separator: ":", maxSplits: 1)
                if parts.count == 2 { headers[parts[0].uppercased()] = parts[1].trimmingCharacters(in: .whitespaces) }
            }
            let body = String(text[end.upperBound...])
            guard body.utf8.count >= Int(headers["CONTENT-LENGTH"] ?? "0") ?? 0 else { return }
            onNotification(Notification(headers: headers, body: body))
            let answer = {
                context.writeAndFlush(
                    self.wrapOutboundOut(
                        context.channel.allocator.buffer(string: "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")
                    )
                )
                .assumeIsolated().whenComplete { _ in context.close(promise: nil) }
            }
            if let holdingFirst, headers["SEQ"] == "0" {
                context.eventLoop.assumeIsolated().scheduleTask(in: holdingFirst) { answer() }
            } else {
                answer()
            }
        }

        typealias OutboundOut = ByteBuffer
    }
}

/// The HTTP-side faults over real sockets: what a client of a faulty device meets.
@Suite(.tags(.live)) struct HTTPFaultLiveTests {
    private func start(
        _ faults: HTTPFaultSpecification,
        profile: SimulatorProfile = .igd,
        events: NIOLockedValueBox<[SimulatorEvent]>? = nil
    ) async throws -> (DeviceSimulator, String) {
        var device = profile.device(number: 1, seed: 6)
        device.web.httpFaults = try faults.makeFaults(field: "httpFaults")
        let simulator = try await LoopbackSimulator.start([device], events: events)
        return (simulator, simulator.devices[0].location)
    }

    @Test func theFirstFetchesGet503AndThenTheDescription() async throws {
        let (simulator, location) = try await start(HTTPFaultSpecification(description: ["503:2"]))
        defer { Task { await simulator.shutdown() } }
        #expect(try await PlainHTTP.request(url: location).status == 503)
        #expect(try await PlainHTTP.request(url: location).status == 503)
        let third = try await PlainHTTP.request(url: location)
        #expect(third.status == 200)
        #expect(try XMLElements.parse(third.body).contains { $0.0 == "UDN" })
    }

    @Test func aClientWithATimeoutGivesUpOnAHangingDescription() async throws {
        let events = NIOLockedValueBox<[SimulatorEvent]>([])
        let (simulator, location) = try await start(HTTPFaultSpecification(description: ["hang"]), events: events)
        defer { Task { await simulator.shutdown() } }
        let url = try #require(URL(string: location))
        // A raw client with a one-second timeout, as a careful discovery library fetches.
        // The request leaves on connect, from the event loop, as `PlainHTTP` sends its own: a test task run
        // late on a loaded machine must not leave the server's idle timeout to close the connection first.
        let received = NIOLockedValueBox<[UInt8]>([])
        let request = "GET \(url.path) HTTP/1.1\r\nHost: \(try #require(url.host))\r\n\r\n"
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(ByteCollector(received, sending: request))
                }
            }
            .connect(host: try #require(url.host), port: try #require(url.port))
            .get()
        try await Task.sleep(for: .seconds(1))
        #expect(received.withLockedValue { $0.isEmpty }, "nothing answered within the client's timeout")
        #expect(channel.isActive, "the connection is held open, as a hanging device holds it")
        try await channel.close()
        #expect(
            events.withLockedValue { $0.contains { if case .httpRequest(_, _, 0, _) = $0 { true } else { false } } }
        )
    }

    @Test func aLateDescriptionComesAfterItsDelay() async throws {
        let (simulator, location) = try await start(HTTPFaultSpecification(description: ["delay:0.8"]))
        defer { Task { await simulator.shutdown() } }
        let clock = ContinuousClock()
        let started = clock.now
        #expect(try await PlainHTTP.request(url: location).status == 200)
        #expect(clock.now - started >= .milliseconds(800))
    }

    @Test(arguments: ["truncated", "empty", "malformed"])
    func aDamagedServiceDescriptionIsServedWith200(fault: String) async throws {
        let (simulator, location) = try await start(HTTPFaultSpecification(serviceDescriptions: [fault]))
        defer { Task { await simulator.shutdown() } }
        let description = try await PlainHTTP.request(url: location)
        #expect(try XMLElements.parse(description.body).isEmpty == false, "the description itself is whole")
        let scpd = try #require(try XMLElements.parse(description.body).first { $0.0 == "SCPDURL" }?.1)
        let origin = String(location.prefix { $0 != "/" }) + "//" + location.split(separator: "/")[1]
        let response = try await PlainHTTP.request(url: origin + scpd)
        #expect(response.status == 200)
        #expect(SSDPXMLElement.parse(Array(response.body.utf8)) == nil, "\(response.body)")
    }

    @Test func lostEventsAreReportedAndNeverSent() async throws {
        let receiver = try await EventReceiver.start()
        defer { Task { try? await receiver.channel.close() } }
        let events = NIOLockedValueBox<[SimulatorEvent]>([])
        let (simulator, location) = try await start(HTTPFaultSpecification(eventLoss: 1), events: events)
        defer { Task { await simulator.shutdown() } }
        let origin = String(location.prefix { $0 != "/" }) + "//" + location.split(separator: "/")[1]
        let subscribe = try await PlainHTTP.request(
            "SUBSCRIBE",
            url: origin + "/evt/IPConn",
            headers: ["CALLBACK": "<\(receiver.url)>", "NT": "upnp:event"]
        )
        #expect(subscribe.status == 200)
        #expect(subscribe.header("TIMEOUT") == "Second-1800")
        await #expect(throws: EventReceiver.HarnessTimeout.self) { try await receiver.next(within: .milliseconds(500)) }
        let lost = events.withLockedValue { events in
            events.compactMap { if case .eventSent(let delivery) = $0 { delivery } else { nil } }
        }
        #expect(lost.map(\.lost) == [true])
        #expect(lost.first?.event.sequence == 0)
    }
}

/// Collects every byte a connection receives.
/// Sends `request` as soon as the connection is up and collects what comes back.
private final class ByteCollector: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer
    private let received: NIOLockedValueBox<[UInt8]>
    private let request: String

    init(_ received: NIOLockedValueBox<[UInt8]>, sending request: String) {
        self.received = received
        self.request = request
    }

    func channelActive(context: ChannelHandlerContext) {
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(string: request)), promise: nil)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let bytes = Array(unwrapInboundIn(data).readableBytesView)
        received.withLockedValue { $0 += bytes }
    }
}

extension SimulatedDevice {
    fileprivate var sonosHouseholdHeader: String? {
        extraHeaders.first { $0.name == "X-RINCON-HOUSEHOLD" }?.value
    }
}
