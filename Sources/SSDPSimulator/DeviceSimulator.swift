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

import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import SSDPCore
import SSDPDeviceCore
import SSDPDevices
import SSDPNIO
import ServiceLifecycle

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A running simulator: root devices that answer M-SEARCH on UDP, advertise with NOTIFY, and serve their
/// descriptions over HTTP at LOCATION.
///
/// It serves on one or more links (an interface and a multicast scope: IPv4, IPv6 link-local, IPv6
/// site-local). Each link has its own UDP socket, joins its group on its interface only, answers the
/// searches that arrive there with LOCATIONs of that interface's address, and sends its NOTIFYs there.
/// The HTTP servers are shared by the links.
///
/// `start` binds everything and returns once the simulator is listening; `run` (the `Service`
/// requirement) waits until it stops, and on graceful shutdown or cancellation sends one byebye per
/// advertisement on every link before it closes its sockets.
public final class DeviceSimulator: Service, Sendable {
    /// The address searches arrive on (the first link's).
    public let udpAddress: SocketAddress
    /// The address of the first HTTP server: the one the devices share, or the first device's own.
    public let httpAddress: SocketAddress
    /// Every HTTP server: the shared one first (when a device uses it), then one per device that has a
    /// server of its own (`DeviceWeb.realPort`), in device order.
    public let httpAddresses: [SocketAddress]
    /// The devices as they appear on the first link, LOCATION and BOOTID filled in.
    public var devices: [SSDPRootDevice] { roster.withLockedValue { $0.links[0].devices } }
    /// Every link the simulator serves, with its socket's address and the devices as they appear there.
    public var links: [SimulatorLink] { roster.withLockedValue { $0.links } }
    let udp: [(channel: any Channel, handler: NIOLoopBound<SimulatorHandler>)]
    /// The devices' SOAP control and GENA eventing, and whether their HTTP side is up.
    let controls: DeviceControls
    /// The devices as configured, in order.
    var configuredDevices: [SimulatedDevice] { roster.withLockedValue { $0.configured } }
    /// What grows when a device is added (`add`): the devices on each link, their configuration, the HTTP
    /// servers.
    let roster: NIOLockedValueBox<Roster>
    /// What adding a device needs from the start: the configuration, where the HTTP servers listen, their
    /// connection limiter.
    let growth: Growth
    /// Whether each device is up, and its BOOTID.
    let operations: DeviceOperations
    /// The network faults the simulator started with, which a reset brings back.
    let initialNetwork: NetworkFaults
    /// The event loop every link's socket runs on: operations run there, so they reach every link at once.
    let eventLoop: any EventLoop
    let onEvent: @Sendable (SimulatorEvent) -> Void
    private let stoppedReported = NIOLockedValueBox(false)

    /// The largest datagram the simulator reads; a search is a few hundred bytes, so anything larger is
    /// dropped and counted as oversized.
    public static let maximumDatagramSize = 8_192

    private init(
        udp: [(channel: any Channel, handler: NIOLoopBound<SimulatorHandler>)],
        links: [SimulatorLink],
        httpChannels: [any Channel],
        controls: DeviceControls,
        configuredDevices: [SimulatedDevice],
        serverOfDevice: [Int: Int],
        growth: Growth,
        network: NetworkFaults,
        eventLoop: any EventLoop,
        onEvent: @escaping @Sendable (SimulatorEvent) -> Void
    ) throws {
        let httpAddresses = httpChannels.compactMap(\.localAddress)
        guard let first = links.first, let httpAddress = httpAddresses.first,
            httpAddresses.count == httpChannels.count
        else {
            throw SimulatorError(reason: "the simulator's sockets have no address")
        }
        self.udp = udp
        self.roster = NIOLockedValueBox(
            Roster(
                links: links,
                configured: configuredDevices,
                httpChannels: httpChannels,
                serverOfDevice: serverOfDevice
            )
        )
        self.growth = growth
        self.controls = controls
        self.operations = DeviceOperations(bootIDs: first.devices.map(\.bootID), network: network)
        self.initialNetwork = network
        self.eventLoop = eventLoop
        self.httpAddresses = httpAddresses
        self.onEvent = onEvent
        self.udpAddress = first.udpAddress
        self.httpAddress = httpAddress
    }

    /// Binds the UDP and HTTP sockets, starts advertising, and returns the running simulator.
    ///
    /// - Throws: `SSDPConfigurationError` for a bad configuration, `SimulatorError` when a socket cannot
    ///   be opened (a port in use, an unknown interface, an interface without an address of a scope).
    public static func start(
        _ configuration: SimulatorConfiguration,
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        logger: Logger = Logger(label: "ssdp-sim.simulator"),
        onEvent: @escaping @Sendable (SimulatorEvent) -> Void = { _ in }
    ) async throws -> DeviceSimulator {
        try configuration.validate()
        let links = try findLinks(configuration)
        let addresses = try deviceAddresses(configuration, links: links)
        let eventLoop = eventLoopGroup.next()
        let controls = DeviceControls(
            devices: configuration.devices,
            seed: configuration.seed,
            forwarding: configuration.forwarding,
            checksHost: configuration.responder.strictness == .strict
        )
        let servers = try await startHTTPServers(
            configuration,
            addresses: addresses,
            sharedHost: httpHost(for: links),
            controls: controls,
            group: eventLoopGroup,
            onEvent: onEvent
        )
        let bootID = configuration.bootID ?? Int(time(nil) & 0x7FFF_FFFF)
        var opened = OpenedLinks()
        do {
            try await openLinks(
                configuration,
                links: links,
                addresses: addresses,
                servers: servers,
                bootID: bootID,
                into: &opened,
                eventLoop: eventLoop,
                logger: logger,
                onEvent: onEvent
            )
            let (udp, served, linkSeeds) = (opened.udp, opened.served, opened.linkSeeds)
            controls.place(
                locations: served[0].devices.map(\.location),
                prefixes: servers.ownsServer.indices.map { servers.ownsServer[$0] ? "" : "/device/\($0)" }
            )
            let simulator = try DeviceSimulator(
                udp: udp,
                links: served,
                httpChannels: servers.channels,
                controls: controls,
                configuredDevices: configuration.devices,
                serverOfDevice: servers.serverOfDevice,
                growth: Growth(
                    configuration: configuration,
                    sharedHost: httpHost(for: links),
                    limiter: servers.limiter,
                    group: eventLoopGroup,
                    bootID: bootID,
                    linkSeeds: linkSeeds,
                    usesOwnAddresses: addresses.contains { $0 != nil }
                ),
                network: configuration.network,
                eventLoop: eventLoop,
                onEvent: onEvent
            )
            for (_, handler) in udp {
                try await eventLoop.submit { handler.value.startAdvertising() }.get()
            }
            simulator.announce(links: served, logger: logger)
            return simulator
        } catch {
            await closeAll(opened.udp.map(\.channel) + servers.channels)
            throw error
        }
    }

    /// Tells `onEvent` and the log that the simulator serves on `links`.
    private func announce(links: [SimulatorLink], logger: Logger) {
        onEvent(.started(udp: udpAddress, http: httpAddress, devices: devices, links: links))
        logger.info(
            "Simulator started",
            metadata: [
                "ssdp.udp": "\(udpAddress.endpointDescription)",
                "ssdp.http": "\(httpAddress.endpointDescription)",
                "ssdp.devices": "\(configuredDevices.count)",
                "ssdp.links": "\(links.map(\.link.description).joined(separator: "; "))",
            ]
        )
    }

    /// The UDP side of every link, as far as it opened: what closes if the start fails.
    private struct OpenedLinks {
        var udp: [(channel: any Channel, handler: NIOLoopBound<SimulatorHandler>)] = []
        var served: [SimulatorLink] = []
        var linkSeeds: [UInt64] = []
    }

    /// Opens each link's UDP socket for the devices as they appear there (their LOCATION on the link's
    /// address, or their own, on the port of their HTTP server), adding each to `opened` as it opens.
    private static func openLinks(
        _ configuration: SimulatorConfiguration,
        links: [SSDPLink],
        addresses: [String?],
        servers: HTTPServers,
        bootID: Int,
        into opened: inout OpenedLinks,
        eventLoop: any EventLoop,
        logger: Logger,
        onEvent: @escaping @Sendable (SimulatorEvent) -> Void
    ) async throws {
        for (number, link) in links.enumerated() {
            let devices = configuration.devices.enumerated().map { index, device in
                let host = addresses[index] ?? link.urlHost
                let path = servers.ownsServer[index] ? "" : "/device/\(index)"
                return device.rootDevice(
                    baseURL: "http://\(host):\(servers.ports[index])\(path)",
                    defaultBootID: bootID
                )
            }
            // Every link takes the first one's port, so `--port 0` gives one port for all.
            let port = opened.served.first?.udpAddress.port ?? configuration.port
            let link = try await startUDP(
                configuration,
                devices: devices,
                on: UDPLink(link: link, number: number, count: links.count, port: port),
                addresses: addresses,
                eventLoop: eventLoop,
                logger: logger,
                onEvent: onEvent
            )
            opened.udp.append(link.link)
            opened.linkSeeds.append(link.seed)
            guard let address = link.link.channel.localAddress else {
                throw SimulatorError(reason: "the UDP socket on \(links[number]) has no address")
            }
            opened.served.append(
                SimulatorLink(
                    link: links[number],
                    udpAddress: address,
                    devices: devices,
                    deviceAddresses: addresses.map { $0 ?? links[number].urlHost }
                )
            )
        }
    }

    /// Waits until the simulator stops. On graceful shutdown (SIGTERM, SIGINT in a `ServiceGroup`) or task
    /// cancellation it says byebye first.
    public func run() async throws {
        try await withTaskCancellationOrGracefulShutdownHandler {
            for (channel, _) in self.udp {
                try await channel.closeFuture.get()
            }
        } onCancelOrGracefulShutdown: {
            self.beginShutdown()
        }
        await finish()
    }

    /// Says byebye, stops, and returns the final counters.
    @discardableResult
    public func shutdown() async -> SimulatorCounters {
        beginShutdown()
        return await finish()
    }

    /// Sends `ssdp:update` for every advertisement of every device that is up, on every link, and moves each
    /// to its next BOOTID; every event subscription is forgotten (renewals get 412, as after a reboot), which
    /// is what SIGUSR1 to `serve` has always done.
    public func announceUpdate() async {
        controls.reboot()
        for status in statuses() where status.state == .alive {
            _ = try? await perform(.update, on: status.number)
        }
    }

    /// The counters so far, added up over the links, with the HTTP servers' connections refused and displaced.
    public func counters() async -> SimulatorCounters {
        var parts: [SimulatorCounters] = []
        for (channel, handler) in udp {
            parts.append((try? await channel.eventLoop.submit { handler.value.counters }.get()) ?? SimulatorCounters())
        }
        var total = SimulatorCounters.sum(parts)
        let connections = growth.limiter.counts
        total.httpConnectionsRefused = connections.refused
        total.httpConnectionsDisplaced = connections.displaced
        return total
    }

    private func beginShutdown() {
        for (channel, handler) in udp {
            channel.eventLoop.execute { handler.value.shutdown() }
        }
    }

    /// Waits for every link to close (after its byebyes), closes the HTTP servers, and reports the final
    /// counters once.
    @discardableResult
    private func finish() async -> SimulatorCounters {
        for (channel, _) in udp {
            try? await channel.closeFuture.get()
        }
        await Self.closeAll(roster.withLockedValue { $0.httpChannels })
        let counters = await counters()
        let isFirst = stoppedReported.withLockedValue { reported in
            defer { reported = true }
            return !reported
        }
        if isFirst { onEvent(.stopped(counters)) }
        return counters
    }
}
