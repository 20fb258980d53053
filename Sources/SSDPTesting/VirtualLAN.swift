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

import NIOConcurrencyHelpers
import NIOCore
import NIOEmbedded
import SSDPCore
import SSDPDeviceCore
import SSDPDevices
import SSDPNIO
import SSDPSearch
import SSDPSimulator
import SSDPVirtualNetwork

/// Simulated devices on a virtual network, for search code that must not wait on the clock: a search of
/// 3 requests with MX 3 lasts 9.1 s of virtual time and a few milliseconds of the test's.
///
/// The devices are the production responders (the same as `ssdp-sim serve` and the harness's virtual runs
/// use), each on a virtual host of its own (10.0.1.1, 10.0.1.2, …); a seeded network between them and the
/// sessions adds the faults you give it (loss, latency, duplicates, reordering). Every session made with
/// `transport` or `searchSession` reads its clock from the LAN, and the LAN moves that clock only while a
/// session runs, so what a session finds, in what order and with what statistics is the same in every run
/// of the same seed.
///
/// ```swift
/// try await VirtualLAN.run([.roku(count: 2), .hue()]) { lan in
///     let found = try await lan.searchSession(target: "roku:ecp").search()
///     #expect(found.count == 2)
///     #expect(lan.elapsed == .milliseconds(9_100))
/// }
/// ```
///
/// Code under test that makes its own sessions takes the transport:
/// `SSDPSearchSession(configuration: configuration, transport: lan.transport)`. Searches to the group
/// (239.255.255.250:1900) reach every device; a search to one device's `address` reaches that one alone.
/// The virtual devices have no HTTP side: their LOCATIONs name virtual hosts (use `LoopbackLAN` for
/// tests that fetch them).
public final class VirtualLAN: Sendable {
    /// Every device, in the order of the groups.
    public let devices: [LANDevice]
    /// What a session is given to search this LAN.
    public var transport: SSDPSearchTransport {
        .channel(on: loop) { [network] in network.openSession() }
    }

    private let loop: NIOAsyncTestingEventLoop
    private let network: VirtualNetwork
    private let start: NIODeadline

    /// How far the LAN's clock moves in one step while a session runs. Every datagram and timer still
    /// happens at its own instant; the step only bounds how late the code under test sees time pass.
    static let step = TimeAmount.milliseconds(10)
    /// A bound on the virtual time of one run, so a session that never ends cannot spin for ever.
    static let maximumVirtualTime = Duration.seconds(86_400)

    private init(devices: [SimulatedDevice], faults: NetworkFaults, seed: UInt64) throws {
        let loop = NIOAsyncTestingEventLoop()
        self.loop = loop
        self.start = loop.now
        self.network = try VirtualNetwork(devices: devices, faults: faults, seed: seed, loop: loop)
        self.devices = network.roots.map { LANDevice($0.root, address: $0.endpoint.address) }
    }

    /// Runs `body` with a virtual LAN of the devices of `groups`, moving its clock while `body`'s sessions
    /// run.
    ///
    /// - Parameters:
    ///   - groups: the devices, as `DeviceGroup`s.
    ///   - network: the faults between the sessions and the devices, as a scenario's `network` gives them.
    ///   - seed: the seed of every random choice (UDNs, delays, loss); the same seed gives the same run.
    ///   - isolation: the actor `body` runs on (the caller's).
    ///   - body: the test, given the running LAN.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws; `SSDPConfigurationError` or `SimulatorInputError` for a bad group.
    public static func run<Result>(
        _ groups: [DeviceGroup],
        network: NetworkFaults = NetworkFaults(),
        seed: UInt64 = 1,
        isolation: isolated (any Actor)? = #isolation,
        _ body: (VirtualLAN) async throws -> Result
    ) async throws -> Result {
        let lan = try VirtualLAN(devices: try DeviceGroup.devices(of: groups, seed: seed), faults: network, seed: seed)
        let clock = Task { await lan.moveClock() }
        return try await withCleanup {
            try await body(lan)
        } cleanup: {
            clock.cancel()
            await lan.close()
        }
    }

    /// A search of every device (through 239.255.255.250:1900) for `target`, on this LAN.
    public func searchSession(
        target: String = "ssdp:all",
        maximumWaitResponseTime: Int = 3,
        requests: Int = 3
    ) throws(SSDPConfigurationError) -> SSDPSearchSession {
        SSDPSearchSession(
            configuration: try .createMulticastConfiguration(
                forSearchTarget: target,
                maximumWaitResponseTime: maximumWaitResponseTime,
                maximumSearchRequestsBeforeClosing: requests
            ),
            transport: transport
        )
    }

    /// A session with any configuration: the group reaches every device, a device's `address` on port
    /// 1900 reaches that device.
    public func searchSession(configuration: SSDPSearchSessionConfiguration) -> SSDPSearchSession {
        SSDPSearchSession(configuration: configuration, transport: transport)
    }

    /// The virtual time that has passed since the LAN started.
    public var elapsed: Duration {
        Duration.nanoseconds(loop.now.uptimeNanoseconds - start.uptimeNanoseconds)
    }

    /// The M-SEARCH messages the devices heard (each device's hearing of a multicast search counts).
    public var searches: [HeardSearch] { network.searches }
    /// The answers the devices sent, lost on the way or not.
    public var answers: [SentAnswer] { network.answers }

    /// Moves the clock in steps while a session is open, until the run ends or the bound is reached.
    private func moveClock() async {
        while !Task.isCancelled {
            if network.openSessions > 0, elapsed < Self.maximumVirtualTime {
                await loop.advanceTime(by: Self.step)
                await Task.yield()
            } else {
                try? await Task.sleep(for: .milliseconds(1))
            }
        }
    }

    /// Closes sessions still open and the loop; tasks still scheduled are dropped.
    private func close() async {
        for channel in network.closeAll() {
            try? await channel.close()
        }
        await loop.shutdownGracefully()
    }
}

/// The virtual hosts of a `VirtualLAN` and the network between them and the sessions. Touched on the
/// LAN's event loop; the records are read from anywhere.
final class VirtualNetwork: Sendable {
    fileprivate struct State {
        var hosts: [VirtualHost]
        /// The faults on what the hosts send, and on what they hear.
        var network: NetworkFaultMachine
        var clientNetwork: NetworkFaultMachine
        var channels: [ObjectIdentifier: any Channel] = [:]
        var sessionsOpened = 0
        var searches: [HeardSearch] = []
        var answers: [SentAnswer] = []
    }

    let roots: [(root: SSDPRootDevice, endpoint: SSDPEndpoint)]
    /// Each host's address and port, where its answers come from.
    private let sources: [SocketAddress]
    private let loop: NIOAsyncTestingEventLoop
    private let state: NIOLockedValueBox<State>

    init(devices: [SimulatedDevice], faults: NetworkFaults, seed: UInt64, loop: NIOAsyncTestingEventLoop) throws {
        let start = SSDPInstant(loop.now)
        let notifyHost = VirtualAddressPlan.ipv4.group.description.uppercased()
        let hosts = devices.indices.map { index in
            VirtualHost(devices[index], index: index, seed: seed, notifyHost: notifyHost, at: start)
        }
        self.roots = hosts.map { ($0.root, $0.endpoint) }
        self.sources = try hosts.map { try SocketAddress(ipAddress: $0.endpoint.address, port: $0.endpoint.port) }
        self.loop = loop
        self.state = NIOLockedValueBox(
            State(
                hosts: hosts,
                network: NetworkFaultMachine(faults: faults, seed: seed),
                clientNetwork: NetworkFaultMachine(faults: faults, seed: seed, side: .heard)
            )
        )
    }

    var openSessions: Int { state.withLockedValue { $0.channels.count } }
    var searches: [HeardSearch] { state.withLockedValue { $0.searches } }
    var answers: [SentAnswer] { state.withLockedValue { $0.answers } }

    /// A channel for one session, at its own client port (10.0.0.1:40000, 40001, …), with the network at
    /// its head.
    func openSession() -> EventLoopFuture<any Channel> {
        let port = state.withLockedValue { state in
            defer { state.sessionsOpened += 1 }
            return VirtualAddressPlan.ipv4.client.port + state.sessionsOpened
        }
        let channel = NIOAsyncTestingChannel(loop: loop)
        let key = ObjectIdentifier(channel)
        state.withLockedValue { $0.channels[key] = channel }
        channel.closeFuture.whenComplete { [weak self] _ in
            _ = self?.state.withLockedValue { $0.channels.removeValue(forKey: key) }
        }
        return loop.submit {
            try channel.pipeline.syncOperations.addHandler(VirtualNetworkHandler(network: self))
        }.flatMap {
            channel.register()
        }.flatMapThrowing {
            try SocketAddress(ipAddress: VirtualAddressPlan.ipv4.client.address, port: port)
        }.flatMap { address in
            channel.bind(to: address)
        }.map {
            channel
        }
    }

    /// Every channel still open, forgotten.
    func closeAll() -> [any Channel] {
        state.withLockedValue { state in
            defer { state.channels = [:] }
            return Array(state.channels.values)
        }
    }

    /// A session sends a datagram to `destination`: the hosts it reaches, each with the delay of every
    /// copy that arrives (none when the network lost it, two when it duplicated it).
    func send(to destination: SocketAddress) -> [(host: Int, arrival: Duration)] {
        state.withLockedValue { state in
            let reached: [Int]
            if destination.ipAddress == SSDPSearchSessionConfiguration.multicastHost {
                reached = Array(state.hosts.indices)
            } else {
                reached = state.hosts.indices.filter { state.hosts[$0].endpoint.address == destination.ipAddress }
            }
            return reached.flatMap { host in
                state.clientNetwork.copies().compactMap { arrival in arrival.map { (host, $0) } }
            }
        }
    }

    /// A datagram from a session reaches `host` at `now`: the production responder decides what to answer
    /// and when.
    func receive(_ bytes: [UInt8], at host: Int, from client: SocketAddress, now: SSDPInstant) -> [ScheduledAnswer] {
        state.withLockedValue { state in
            let reception = state.hosts[host].responder.receive(bytes, from: client.ipAddress ?? "", at: now)
            state.note(reception, from: client)
            return reception.answers.map(\.answer)
        }
    }

    /// An answer leaves its host: its place in the responder is freed, and the network decides the fate of
    /// each copy (`nil`: lost).
    func answerLeaves(_ answer: ScheduledAnswer, host: Int, to client: SocketAddress) -> [Duration?] {
        state.withLockedValue { state in
            state.hosts[host].responder.answerFinished()
            state.answers.append(
                SentAnswer(
                    to: client.endpointDescription,
                    usn: answer.advertisement.usn,
                    target: answer.advertisement.target
                )
            )
            return Array(state.network.copies(answer: true))
        }
    }

    func source(of host: Int) -> SocketAddress {
        sources[host]
    }
}

extension VirtualNetwork.State {
    fileprivate mutating func note(_ reception: SimulatorResponder.Reception, from client: SocketAddress) {
        let headers = reception.message?.headers ?? SSDPHeaders()
        switch reception.kind {
        case .search:
            searches.append(HeardSearch(from: client, headers: headers, answers: reception.answers.count))
        case .rejected(let rejection):
            searches.append(HeardSearch(from: client, headers: headers, rejection: rejection))
        case .notification, .response, .malformed:
            break
        }
    }
}

/// The network at the head of a session's channel: what the session writes reaches the virtual hosts,
/// and their answers come back as reads at the instants the network gives them.
final class VirtualNetworkHandler: ChannelDuplexHandler {
    typealias InboundIn = AddressedEnvelope<ByteBuffer>
    typealias InboundOut = AddressedEnvelope<ByteBuffer>
    typealias OutboundIn = AddressedEnvelope<ByteBuffer>

    private let network: VirtualNetwork
    private var context: ChannelHandlerContext?

    init(network: VirtualNetwork) {
        self.network = network
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let envelope = unwrapOutboundIn(data)
        promise?.succeed(())
        guard let client = context.channel.localAddress else { return }
        let bytes = Array(envelope.data.readableBytesView)
        for (host, arrival) in network.send(to: envelope.remoteAddress) {
            after(arrival, context: context) { handler in handler.deliver(bytes, at: host, from: client) }
        }
    }

    /// Runs `work` after `delay` on the loop, at once when there is none, while the handler is in place.
    private func after(
        _ delay: Duration,
        context: ChannelHandlerContext,
        _ work: @escaping (VirtualNetworkHandler) -> Void
    ) {
        guard delay > .zero else {
            work(self)
            return
        }
        context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(delay)) { [weak self] in
            guard let self, self.context != nil else { return }
            work(self)
        }
    }

    private func deliver(_ bytes: [UInt8], at host: Int, from client: SocketAddress) {
        guard let context else { return }
        let now = SSDPInstant(context.eventLoop.now)
        for answer in network.receive(bytes, at: host, from: client, now: now) {
            after(answer.delay, context: context) { handler in handler.answerLeaves(answer, host: host, to: client) }
        }
    }

    private func answerLeaves(_ answer: ScheduledAnswer, host: Int, to client: SocketAddress) {
        guard let context else { return }
        let source = network.source(of: host)
        for delay in network.answerLeaves(answer, host: host, to: client) {
            guard let delay else { continue }
            after(delay, context: context) { handler in
                guard let context = handler.context else { return }
                let envelope = AddressedEnvelope(remoteAddress: source, data: ByteBuffer(bytes: answer.bytes))
                context.fireChannelRead(handler.wrapInboundOut(envelope))
            }
        }
    }
}
