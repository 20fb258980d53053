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

// Opening a simulator's sockets: its links, its devices' addresses, the HTTP servers and the UDP sockets,
// with errors that name the device, the address, the port and the flag that changes it.

extension DeviceSimulator {
    /// The links of the configuration: each interface (named, all, or the default one) with each scope.
    static func findLinks(_ configuration: SimulatorConfiguration) throws -> [SSDPLink] {
        do {
            var names = configuration.interfaces
            if configuration.allInterfaces {
                names = try SSDPNetworkInterface.multicastInterfaceNames(scopes: configuration.scopes)
                guard !names.isEmpty else {
                    let scopes = configuration.scopes.map(\.description).joined(separator: " and ")
                    throw SimulatorError(
                        reason: "no multicast-capable interface (not loopback) with an \(scopes) address"
                    )
                }
            } else if names.isEmpty {
                names = [try defaultInterface().name]
            }
            return try SSDPNetworkInterface.links(named: names, scopes: configuration.scopes)
        } catch let error as SSDPTransportError {
            throw SimulatorError(reason: error.reason)
        }
    }

    /// Each device's own IPv4 address, or `nil` for a device that shares its link's (see `DeviceAddressing`).
    static func deviceAddresses(_ configuration: SimulatorConfiguration, links: [SSDPLink]) throws -> [String?] {
        let devices = configuration.devices
        let link = links.count == 1 && links[0].scope == .ipv4 ? links[0] : nil
        let onLoopback = link?.address.isLoopback ?? false
        var addresses: [String?]
        switch configuration.addressing {
        case .shared:
            addresses = Array(repeating: nil, count: devices.count)
        case .list(let list):
            guard list.count >= devices.count else {
                throw SimulatorError(
                    reason:
                        "--addresses gives \(list.count) addresses for \(devices.count) devices (give a longer range)"
                )
            }
            addresses = Array(list.prefix(devices.count))
        case .automatic:
            addresses = devices.indices.map { index in
                onLoopback && ownAddressesAreSupported ? DeviceAddressing.loopbackAddress(index: index) : nil
            }
        }
        for index in devices.indices where devices[index].address != nil {
            addresses[index] = devices[index].address
        }
        let own = addresses.compactMap { $0 }
        guard !own.isEmpty else { return addresses }
        guard let link, ownAddressesAreSupported else {
            throw SimulatorError(
                reason:
                    "devices at addresses of their own (\(own[0]), …) need Linux and one IPv4 interface; serve one interface, or drop --addresses and the devices' address fields"
            )
        }
        var seen = Set<String>()
        if let repeated = own.first(where: { !seen.insert($0).inserted }) {
            throw SimulatorError(reason: "two devices are given the address \(repeated)")
        }
        let held = Set(
            try System.enumerateDevices().filter { $0.name == link.interfaceName }.compactMap(\.address?.ipAddress)
        )
        for (index, address) in addresses.enumerated() {
            guard let address, !(onLoopback && DeviceAddressing.isLoopback(address)), !held.contains(address) else {
                continue
            }
            throw SimulatorError(
                reason:
                    "device \(index + 1) (\(devices[index].device.friendlyName)): interface \(link.interfaceName) does not hold \(address) (add it with `ip addr add \(address)/24 dev \(link.interfaceName)`, or choose others with --addresses)"
            )
        }
        return addresses
    }

    /// Whether devices can have addresses of their own here: their answers leave through one socket with a
    /// chosen source address (`IP_PKTINFO`), which this simulator implements on Linux.
    static var ownAddressesAreSupported: Bool {
        #if os(Linux)
        true
        #else
        false
        #endif
    }

    /// The first multicast-capable IPv4 interface that is not loopback, or loopback.
    static func defaultInterface() throws -> NIONetworkDevice {
        let devices = try System.enumerateDevices().filter { $0.address?.protocol == .inet }
        let isLoopback = { (device: NIONetworkDevice) in device.address?.isLoopback ?? false }
        guard
            let device = devices.first(where: { !isLoopback($0) && $0.multicastSupported })
                ?? devices.first(where: isLoopback)
        else {
            throw SimulatorError(reason: "no IPv4 interface to serve on")
        }
        return device
    }

    /// Where the HTTP servers listen: the address of a single IPv4 link (as a device with one address
    /// does), otherwise every address, so each link's LOCATION reaches them (`::` takes IPv4 too).
    static func httpHost(for links: [SSDPLink]) -> String {
        if links.count == 1, links[0].scope == .ipv4, let host = links[0].address.ipAddress { return host }
        return links.contains { $0.scope != .ipv4 } ? "::" : "0.0.0.0"
    }

    /// The HTTP servers of a simulator: their channels, and per device the port its LOCATION uses, whether
    /// it has a server of its own (paths at the root), and which server that is.
    struct HTTPServers {
        var channels: [any Channel] = []
        var ports: [Int] = []
        var ownsServer: [Bool] = []
        let limiter: HTTPConnectionLimiter
        var serverOfDevice: [Int: Int] = [:]
        /// The ports taken at the shared address.
        var taken = Set<Int>()
    }

    /// Opens the HTTP servers: one shared by the devices that have neither an address nor a real port of
    /// their own (generic devices at a shared address), first, when there are any; then one per other device,
    /// at its own address or the shared one, on the port `httpPort` gives it. Servers are numbered in the
    /// devices' order. Those at the shared address open one after another (each takes the first port no
    /// earlier one has); those at addresses of their own need nothing from each other and open
    /// `concurrentOpens` at a time, which is what makes 10,000 devices start in seconds.
    static func startHTTPServers(
        _ configuration: SimulatorConfiguration,
        addresses: [String?],
        sharedHost: String,
        controls: DeviceControls,
        group: any EventLoopGroup,
        onEvent: @escaping @Sendable (SimulatorEvent) -> Void
    ) async throws -> HTTPServers {
        var servers = HTTPServers(
            limiter: HTTPConnectionLimiter(
                maximumTotal: configuration.httpConnectionLimit ?? HTTPConnectionLimiter.defaultTotal()
            )
        )
        var opened: [Int: any Channel] = [:]
        do {
            let devices = configuration.devices
            servers.ownsServer = devices.indices.map { addresses[$0] != nil || devices[$0].web.realPort != nil }
            let sharing = servers.ownsServer.filter { !$0 }.count
            var sharedPort = 0
            if sharing > 0 {
                let first: Int
                switch configuration.httpPort {
                case .fixed(let port): first = port
                case .real, .any: first = 0
                }
                let opening = HTTPServerOpening(
                    site: DescriptionDocuments(controls: controls),
                    host: sharedHost,
                    port: first,
                    owner: "the shared HTTP server of \(sharing) devices",
                    server: 0,
                    devices: sharing
                )
                let channel = try await opening.open(limiter: servers.limiter, group: group, onEvent: onEvent)
                opened[0] = channel
                sharedPort = channel.localAddress?.port ?? first
                servers.taken.insert(sharedPort)
            }
            servers.ports = Array(repeating: sharedPort, count: devices.count)
            var apart: [(device: Int, opening: HTTPServerOpening)] = []
            for (index, device) in devices.enumerated() where servers.ownsServer[index] {
                let host = addresses[index] ?? sharedHost
                let opening = HTTPServerOpening(
                    site: DeviceSite(controls: controls, index: index),
                    host: host,
                    port: httpPort(of: device, at: addresses[index], configuration.httpPort, taken: servers.taken),
                    owner: owner(device, index),
                    server: opened.count + apart.count,
                    devices: 1
                )
                servers.serverOfDevice[index] = opening.server
                guard host == sharedHost else {
                    apart.append((index, opening))
                    continue
                }
                let channel = try await opening.open(limiter: servers.limiter, group: group, onEvent: onEvent)
                opened[opening.server] = channel
                let bound = channel.localAddress?.port ?? opening.port
                servers.taken.insert(bound)
                servers.ports[index] = bound
            }
            let outcomes = await openConcurrently(
                apart.map(\.opening),
                limiter: servers.limiter,
                group: group,
                onEvent: onEvent
            )
            var failure: (server: Int, error: any Error)?
            for (server, channel) in outcomes {
                switch channel {
                case .success(let channel): opened[server] = channel
                // The first server in number that failed, the same whichever finished first.
                case .failure(let error) where server < failure?.server ?? .max: failure = (server, error)
                case .failure: break
                }
            }
            if let failure { throw failure.error }  // the servers opened are closed below
            for (index, opening) in apart {
                servers.ports[index] = opened[opening.server]?.localAddress?.port ?? opening.port
            }
            servers.channels = opened.keys.sorted().compactMap { opened[$0] }
            return servers
        } catch {
            await closeAll(opened.keys.sorted().compactMap { opened[$0] })
            throw error
        }
    }

    /// The servers opened at once, at most: enough to keep the event loops busy while a bind waits for its
    /// loop, few enough that a failure stops the opening soon.
    static let concurrentOpens = 64

    /// Opens `openings` up to `concurrentOpens` at a time, and returns each one's server number and channel,
    /// or why it could not open, in the order they finished. After a failure no more start.
    ///
    /// The outcomes are returned, not written into the caller's state from inside the task group: written
    /// into an `inout` table there, the release build (Swift 6.3.1) lost some, and their LOCATIONs read port 0.
    private static func openConcurrently(
        _ openings: [HTTPServerOpening],
        limiter: HTTPConnectionLimiter,
        group: any EventLoopGroup,
        onEvent: @escaping @Sendable (SimulatorEvent) -> Void
    ) async -> [(server: Int, channel: Result<any Channel, any Error>)] {
        await withTaskGroup(of: (server: Int, channel: Result<any Channel, any Error>).self) { tasks in
            var outcomes: [(server: Int, channel: Result<any Channel, any Error>)] = []
            var started = 0
            var failed = false
            while true {
                while started < openings.count, !failed, started - outcomes.count < concurrentOpens {
                    let opening = openings[started]
                    started += 1
                    tasks.addTask {
                        do {
                            let channel = try await opening.open(limiter: limiter, group: group, onEvent: onEvent)
                            return (opening.server, .success(channel))
                        } catch {
                            return (opening.server, .failure(error))
                        }
                    }
                }
                guard let outcome = await tasks.next() else { return outcomes }
                if case .failure = outcome.channel { failed = true }
                outcomes.append(outcome)
            }
        }
    }

    /// One HTTP server to open: what it serves, where, for whom (the name its errors give), its number
    /// among the simulator's servers and how many devices it serves.
    struct HTTPServerOpening: Sendable {
        var site: any HTTPSite
        var host: String
        var port: Int
        var owner: String
        var server: Int
        var devices: Int

        /// Opens the server, every connection admitted by `limiter`; errors name the owner and the port.
        func open(
            limiter: HTTPConnectionLimiter,
            group: any EventLoopGroup,
            onEvent: @escaping @Sendable (SimulatorEvent) -> Void
        ) async throws -> any Channel {
            guard port <= 65_535 else {
                throw SimulatorError(
                    reason: "\(owner): no HTTP port is left above \(port - 1) (choose another with --http-port PORT)"
                )
            }
            return try await bindHTTP(host: host, port: port, owner: owner) {
                try await startHTTPServer(
                    host: host,
                    port: port,
                    site: site,
                    limiter: (limiter, server: server, devices: devices),
                    group: group,
                    onEvent: onEvent
                )
            }
        }
    }

    /// The port a device's own server asks for: any (0), its real device's port or the fixed one at an
    /// address of its own; at the shared address, the first from there that no server of this run has taken.
    private static func httpPort(
        of device: SimulatedDevice,
        at address: String?,
        _ ports: HTTPPorts,
        taken: Set<Int>
    ) -> Int {
        func nextSharedPort(from first: Int) -> Int {
            var port = first
            while taken.contains(port) { port += 1 }
            return port
        }
        switch (ports, address) {
        case (.any, _): return 0
        case (.real, .some): return device.web.realPort ?? HTTPPorts.genericPort
        case (.fixed(let fixed), .some): return fixed
        case (.real, .none): return nextSharedPort(from: device.web.realPort ?? HTTPPorts.genericPort)
        case (.fixed(let fixed), .none): return nextSharedPort(from: fixed)
        }
    }

    /// Runs `open`, turning a port in use or a privileged port into an error that names the device, the
    /// address and the port, and the flag that chooses another.
    static func bindHTTP(
        host: String,
        port: Int,
        owner: String,
        _ open: () async throws -> any Channel
    ) async throws -> any Channel {
        do {
            return try await open()
        } catch let error as IOError {
            let why = bindFailure(
                error,
                host: host,
                port: port,
                portRemedy: "choose another with --http-port PORT, or --http-port any for free ports",
                addressRemedy: "add it with ip addr add, or choose others with --addresses"
            )
            throw SimulatorError(reason: "\(owner) cannot listen on TCP \(why)")
        }
    }

    /// `HOST:PORT: why` for a listener that could not bind there, in words: the port in use or privileged
    /// (with `portRemedy` in brackets), an address no interface holds (with `addressRemedy`), else the
    /// system's own words for the error.
    package static func bindFailure(
        _ error: any Error,
        host: String,
        port: Int,
        portRemedy: String,
        addressRemedy: String
    ) -> String {
        let endpoint = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        guard let error = error as? IOError else { return "\(endpoint): \(error)" }
        let why =
            switch error.errnoCode {
            case EADDRINUSE: "the port is in use (\(portRemedy))"
            case EACCES: "permission denied, ports below 1024 need root or CAP_NET_BIND_SERVICE (\(portRemedy))"
            case EADDRNOTAVAIL: "no interface holds \(host) (\(addressRemedy))"
            default: String(cString: strerror(error.errnoCode))
            }
        return "\(endpoint): \(why)"
    }

    static func closeAll(_ channels: [any Channel]) async {
        for channel in channels {
            try? await channel.close()
        }
    }

    /// Opens one HTTP server, number `server` of the simulator's, for `devices` devices; every connection
    /// it accepts is first admitted by the limiter, which the simulator's servers share.
    static func startHTTPServer(
        host: String,
        port: Int,
        site: any HTTPSite,
        limiter: (HTTPConnectionLimiter, server: Int, devices: Int),
        group: any EventLoopGroup,
        onEvent: @escaping @Sendable (SimulatorEvent) -> Void
    ) async throws -> any Channel {
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let (connections, server, devices) = limiter
                    let client = channel.remoteAddress?.ipAddress ?? ""
                    guard let ticket = connections.admit(channel, server: server, devices: devices, from: client)
                    else { return }
                    let sync = channel.pipeline.syncOperations
                    try sync.configureHTTPServerPipeline(withErrorHandling: true)
                    try sync.addHandler(
                        DeviceHTTPHandler(site: site, limiter: connections, ticket: ticket, onEvent: onEvent)
                    )
                }
            }
        // An address in numbers is bound as it is: resolving it (getaddrinfo) asks the kernel for every
        // address of every interface first, a netlink exchange per server that 10,000 devices feel at start.
        if let address = try? SocketAddress(ipAddress: host, port: port) {
            return try await bootstrap.bind(to: address).get()
        }
        return try await bootstrap.bind(host: host, port: port).get()
    }

    /// The datagrams one read of the simulator's UDP socket takes.
    static let vectorReadCount = 16

    /// One link as the simulator serves it over UDP: the link, its number among the links (0 for the
    /// first), how many links there are, and the port every link takes.
    struct UDPLink {
        var link: SSDPLink
        var number: Int
        var count: Int
        var port: Int

        /// With several links, each socket is bound to its interface (`LinkSocketOption`) and hears only
        /// the groups it joined, so a search is answered on the interface it arrived on, with that
        /// interface's LOCATION.
        var bindsToInterface: Bool { count > 1 }
    }

    /// Opens one link's UDP socket with its handler: the devices as they appear on the link (at their own
    /// `addresses` where they have them), one responder and one advertiser each.
    static func startUDP(
        _ configuration: SimulatorConfiguration,
        devices: [SSDPRootDevice],
        on udpLink: UDPLink,
        addresses: [String?],
        eventLoop: any EventLoop,
        logger: Logger,
        onEvent: @escaping @Sendable (SimulatorEvent) -> Void
    ) async throws -> (link: (channel: any Channel, handler: NIOLoopBound<SimulatorHandler>), seed: UInt64) {
        let link = udpLink.link
        let group = try link.group(port: udpLink.port)
        // The first link keeps the seeds a one-link simulator always had.
        let seed =
            udpLink.number == 0
            ? configuration.seed
            : SSDPRandom.derivedSeed(seed: configuration.seed, stream: 1 << 40 + UInt64(udpLink.number))
        let (responder, advertisers) = answering(
            configuration,
            devices: devices,
            link: link,
            port: udpLink.port,
            seed: seed,
            at: SSDPInstant(eventLoop.now)
        )
        // Devices at addresses of their own hear unicast searches on those addresses too: the socket takes
        // every address of the interface and reports which one each datagram was sent to.
        let ownAddresses = addresses.contains { $0 != nil }
        // A recorded device that sent from a port of its own does so here too (IPv4: the source-address
        // socket's family).
        let sending = configuration.devices.map { DeviceSources.Sending($0, ssdpPort: udpLink.port) }
        let ownPorts = link.scope == .ipv4 && ownAddressesAreSupported && sending.contains(where: \.isOwn)
        let channel = try await openUDPChannel(
            configuration,
            on: udpLink,
            ownAddresses: ownAddresses,
            eventLoop: eventLoop
        )
        do {
            if configuration.multicast {
                try await joinGroup(channel, group: group, link: link, ttl: configuration.multicastTTL)
            }
            let handler = try await eventLoop.submit {
                let sources =
                    try ownAddresses || ownPorts
                    ? DeviceSources(
                        addresses: addresses,
                        sending: sending,
                        link: link,
                        ttl: configuration.multicastTTL
                    ) : nil
                let codec = SSDPDatagramCodec(maximumSize: maximumDatagramSize)
                let handler = SimulatorHandler(
                    seed: seed,
                    responder: responder,
                    advertisers: advertisers,
                    sources: sources,
                    notifyDestination: configuration.multicast ? group : configuration.notifyDestination,
                    sourcePolicy: configuration.sourcePolicy,
                    codec: codec,
                    logger: logger,
                    reportsDatagrams: configuration.reportsDatagrams,
                    network: (configuration.network, seed),
                    onEvent: onEvent
                )
                try channel.pipeline.syncOperations.addHandlers(codec, handler)
                return NIOLoopBound(handler, eventLoop: eventLoop)
            }.get()
            return ((channel, handler), seed)
        } catch {
            try? await channel.close()
            throw error
        }
    }

    /// The responder and the advertisers of `devices` on `link`, drawing from `seed`, started at `now`.
    private static func answering(
        _ configuration: SimulatorConfiguration,
        devices: [SSDPRootDevice],
        link: SSDPLink,
        port: Int,
        seed: UInt64,
        at now: SSDPInstant
    ) -> (SimulatorResponder, [DeviceAdvertiser]) {
        // Replaying devices point captured LOCATIONs at themselves, one device per captured LOCATION.
        let replayLocations = SSDPReplay.Locations.relocated(
            devices.indices.map { index in
                (
                    configuration.devices[index].behaviour.replay,
                    DeviceResponder.schemeAndAuthority(of: devices[index].location)
                )
            }
        )
        let responders = devices.indices.map { index in
            DeviceResponder(
                device: devices[index],
                behaviour: configuration.devices[index].behaviour,
                startedAt: now,
                seed: SSDPRandom.derivedSeed(seed: seed, stream: UInt64(index) << 1),
                replayLocations: replayLocations
            )
        }
        let notifyHost =
            link.scope == .ipv4 ? "\(link.scope.group):\(port)" : "[\(link.scope.group.uppercased())]:\(port)"
        let advertisers = devices.indices.map { index in
            DeviceAdvertiser(
                device: devices[index],
                copies: configuration.notifyCopies,
                host: notifyHost,
                seed: SSDPRandom.derivedSeed(seed: seed, stream: UInt64(index) << 1 | 1)
            )
        }
        return (SimulatorResponder(configuration: configuration.responder, devices: responders), advertisers)
    }

    /// Binds a link's UDP socket: to the wildcard address when it joins the group or hears devices' own
    /// addresses (then bound to the interface, and told each datagram's destination), else to the link's
    /// address; reading many datagrams per call.
    private static func openUDPChannel(
        _ configuration: SimulatorConfiguration,
        on udpLink: UDPLink,
        ownAddresses: Bool,
        eventLoop: any EventLoop
    ) async throws -> any Channel {
        let (link, port) = (udpLink.link, udpLink.port)
        let address =
            configuration.multicast || ownAddresses
            ? try SocketAddress(ipAddress: link.scope == .ipv4 ? "0.0.0.0" : "::", port: port)
            : link.address(port: port)
        return try await bind("UDP", port: port, host: link.urlHost) {
            var bootstrap = DatagramBootstrap(group: eventLoop)
                // Sharing 1900 with other SSDP stacks is normal for multicast; a unicast-only simulator owns its port.
                .channelOption(.socketOption(.so_reuseaddr), value: configuration.multicast ? 1 : 0)
                // Up to 16 datagrams per system call (`recvmmsg`), each in its own 64 KiB + 1 slice of
                // one buffer (NIO splits the buffer evenly), so an oversized datagram is still seen whole
                // enough to be dropped; and up to 16 such reads per wake-up instead of NIO's 4: a flood
                // of searches is served with fewer trips through the kernel and the event loop.
                .channelOption(.datagramVectorReadMessageCount, value: vectorReadCount)
                .channelOption(
                    .recvAllocator,
                    value: FixedSizeRecvByteBufferAllocator(capacity: vectorReadCount * (maximumDatagramSize + 1))
                )
                .channelOption(.maxMessagesPerRead, value: 16)
            if link.scope != .ipv4 {
                bootstrap = bootstrap.channelOption(
                    ChannelOptions.Types.SocketOption(level: .ipv6, name: .ipv6_v6only),
                    value: 1
                )
            }
            let bindToInterface = LinkSocketOption.bindToInterfaceIndex(link.scope)
            if udpLink.bindsToInterface && configuration.multicast {
                bootstrap = bootstrap.channelOption(bindToInterface, value: SocketOptionValue(link.interfaceIndex))
                if let multicastAll = LinkSocketOption.multicastAll(link.scope) {
                    bootstrap = bootstrap.channelOption(multicastAll, value: 0)
                }
            }
            if ownAddresses {
                bootstrap = bootstrap.channelOption(bindToInterface, value: SocketOptionValue(link.interfaceIndex))
                    .channelOption(.receivePacketInfo, value: true)
            }
            return try await bootstrap.bind(to: address).get()
        }
    }

    static func joinGroup(_ channel: any Channel, group: SocketAddress, link: SSDPLink, ttl: Int) async throws {
        guard let multicast = channel as? any MulticastChannel else {
            throw SimulatorError(reason: "cannot use multicast on \(link)")
        }
        do {
            try await multicast.joinGroup(group, device: link.device).get()
            try await SSDPSocket.configureMulticast(channel, ttl: ttl, device: link.device, family: link.scope.family)
                .get()
        } catch is NIOMulticastNotSupportedError {
            // Linux's loopback, as it comes: multicast off, and no route to the group. On another interface
            // (a tunnel, say) a route to the group would take every multicast of the host: no such advice.
            let name = link.interfaceName
            let isLoopback = link.address.isLoopback
            // With `src`, a client that binds no address sends from the loopback's, not from 0.0.0.0.
            let source = link.address.ipAddress.map { " src \($0)" } ?? ""
            let route = link.scope == .ipv4 ? " and `ip route add 239.0.0.0/8 dev \(name)\(source)`" : ""
            let advice =
                isLoopback
                ? "turn it on with `ip link set \(name) multicast on`\(route)"
                : "choose another with --interface"
            throw SimulatorError(
                reason:
                    "cannot join \(link.scope.group) on \(name): the interface does not do multicast (\(advice)), or serve it with --unicast-only"
            )
        } catch {
            throw SimulatorError(
                reason:
                    "cannot join \(link.scope.group) on \(link.interfaceName): \(error) (is the interface up and multicast-capable?)"
            )
        }
    }

    /// Runs `open`, turning "address in use" into an error that names the port.
    static func bind(
        _ proto: String,
        port: Int,
        host: String,
        _ open: () async throws -> any Channel
    ) async throws -> any Channel {
        do {
            return try await open()
        } catch let error as IOError where error.errnoCode == EADDRINUSE {
            throw SimulatorError(
                reason:
                    "\(proto) port \(port) on \(host) is already in use (another SSDP stack or simulator? choose another with --port / --http-port)"
            )
        } catch let error as IOError {
            throw SimulatorError(reason: "cannot bind \(proto) \(host):\(port): \(error)")
        }
    }
}
