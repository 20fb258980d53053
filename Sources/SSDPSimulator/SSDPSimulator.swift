import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import SSDPCore
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
/// `start` binds everything and returns once the simulator is listening; `run` (the `Service`
/// requirement) waits until it stops, and on graceful shutdown or cancellation sends one byebye per
/// advertisement before it closes its sockets.
public final class SSDPSimulator: Service, Sendable {
    /// The address searches arrive on.
    public let udpAddress: SocketAddress
    /// The address of the first HTTP server: the one the devices share, or the first device's own.
    public let httpAddress: SocketAddress
    /// Every HTTP server: the shared one first (when a device uses it), then one per device that has a
    /// server of its own (`DeviceWeb.realPort`), in device order.
    public let httpAddresses: [SocketAddress]
    /// The devices as they appear on the network, LOCATION and BOOTID filled in.
    public let devices: [SSDPRootDevice]
    private let udpChannel: any Channel
    private let httpChannels: [any Channel]
    private let handler: NIOLoopBound<SimulatorHandler>

    /// The largest datagram the simulator reads; a search is a few hundred bytes, so anything larger is
    /// dropped and counted as oversized.
    public static let maximumDatagramSize = 8_192

    private init(
        udpChannel: any Channel,
        httpChannels: [any Channel],
        handler: NIOLoopBound<SimulatorHandler>,
        devices: [SSDPRootDevice]
    ) throws {
        let httpAddresses = httpChannels.compactMap(\.localAddress)
        guard let udpAddress = udpChannel.localAddress, let httpAddress = httpAddresses.first,
            httpAddresses.count == httpChannels.count
        else {
            throw SimulatorError(reason: "the simulator's sockets have no address")
        }
        self.udpChannel = udpChannel
        self.httpChannels = httpChannels
        self.httpAddresses = httpAddresses
        self.handler = handler
        self.devices = devices
        self.udpAddress = udpAddress
        self.httpAddress = httpAddress
    }

    /// Binds the UDP and HTTP sockets, starts advertising, and returns the running simulator.
    ///
    /// - Throws: `SSDPConfigurationError` for a bad configuration, `SimulatorError` when a socket cannot
    ///   be opened (a port in use, an unknown interface).
    public static func start(
        _ configuration: SimulatorConfiguration,
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        logger: Logger = Logger(label: "ssdp-sim.simulator"),
        onEvent: @escaping @Sendable (SimulatorEvent) -> Void = { _ in }
    ) async throws -> SSDPSimulator {
        try configuration.validate()
        let interface = try findInterface(configuration.interface)
        guard let host = interface.address?.ipAddress else {
            throw SimulatorError(reason: "interface \(interface.name) has no IPv4 address")
        }
        let eventLoop = eventLoopGroup.next()
        let servers = try await startHTTPServers(configuration, host: host, group: eventLoopGroup, onEvent: onEvent)
        let bootID = configuration.bootID ?? Int(time(nil) & 0x7FFF_FFFF)
        let devices = configuration.devices.enumerated().map { index, device in
            device.rootDevice(
                baseURL: device.web.baseURL(host: host, port: servers.ports[index], index: index),
                defaultBootID: bootID
            )
        }
        do {
            let handler = try await startUDP(
                configuration,
                devices: devices,
                interface: interface,
                host: host,
                eventLoop: eventLoop,
                logger: logger,
                onEvent: onEvent
            )
            let simulator = try SSDPSimulator(
                udpChannel: handler.channel,
                httpChannels: servers.channels,
                handler: handler.handler,
                devices: devices
            )
            try await eventLoop.submit { handler.handler.value.startAdvertising() }.get()
            onEvent(.started(udp: simulator.udpAddress, http: simulator.httpAddress, devices: devices))
            logger.info(
                "Simulator started",
                metadata: [
                    "ssdp.udp": "\(simulator.udpAddress.endpointDescription)",
                    "ssdp.http": "\(simulator.httpAddress.endpointDescription)", "ssdp.devices": "\(devices.count)",
                ]
            )
            return simulator
        } catch {
            await closeAll(servers.channels)
            throw error
        }
    }

    /// Waits until the simulator stops. On graceful shutdown (SIGTERM, SIGINT in a `ServiceGroup`) or task
    /// cancellation it says byebye first.
    public func run() async throws {
        try await withTaskCancellationOrGracefulShutdownHandler {
            try await self.udpChannel.closeFuture.get()
        } onCancelOrGracefulShutdown: {
            self.beginShutdown()
        }
        await Self.closeAll(httpChannels)
    }

    /// Says byebye, stops, and returns the final counters.
    @discardableResult
    public func shutdown() async -> SimulatorCounters {
        beginShutdown()
        try? await udpChannel.closeFuture.get()
        await Self.closeAll(httpChannels)
        return await counters()
    }

    /// Sends `ssdp:update` for every advertisement and moves every device to a new BOOTID.
    public func announceUpdate() async {
        let handler = self.handler
        try? await udpChannel.eventLoop.submit { handler.value.announceUpdate() }.get()
    }

    /// The counters so far.
    public func counters() async -> SimulatorCounters {
        let handler = self.handler
        return (try? await udpChannel.eventLoop.submit { handler.value.counters }.get()) ?? SimulatorCounters()
    }

    private func beginShutdown() {
        let handler = self.handler
        udpChannel.eventLoop.execute { handler.value.shutdown() }
    }

    // MARK: - Starting

    private static func findInterface(_ name: String?) throws -> NIONetworkDevice {
        let devices = try System.enumerateDevices().filter { $0.address?.protocol == .inet }
        if let name {
            guard let device = devices.first(where: { $0.name == name }) else {
                let names = Set(devices.map(\.name)).sorted().joined(separator: ", ")
                throw SimulatorError(reason: "no interface named \(name) with an IPv4 address (interfaces: \(names))")
            }
            return device
        }
        let isLoopback = { (device: NIONetworkDevice) in device.address?.ipAddress?.hasPrefix("127.") ?? false }
        guard
            let device = devices.first(where: { !isLoopback($0) && $0.multicastSupported })
                ?? devices.first(where: isLoopback)
        else {
            throw SimulatorError(reason: "no IPv4 interface to serve on")
        }
        return device
    }

    /// Opens the HTTP servers: one shared by the devices without a server of their own (when there are
    /// any), then one per device with its own. With a fixed `httpPort` they take consecutive ports from it;
    /// with 0, any free ones. Returns the channels and, per device, the port its LOCATION uses.
    private static func startHTTPServers(
        _ configuration: SimulatorConfiguration,
        host: String,
        group: any EventLoopGroup,
        onEvent: @escaping @Sendable (SimulatorEvent) -> Void
    ) async throws -> (channels: [any Channel], ports: [Int]) {
        var channels: [any Channel] = []
        var ports: [Int] = []
        func open(_ site: any HTTPSite) async throws -> Int {
            let port = configuration.httpPort == 0 ? 0 : configuration.httpPort + channels.count
            guard port <= 65_535 else {
                throw SimulatorError(reason: "--http-port \(configuration.httpPort) leaves no port for HTTP server \(channels.count + 1)")
            }
            let channel = try await bind("TCP", port: port, host: host) {
                try await startHTTPServer(host: host, port: port, site: site, group: group, onEvent: onEvent)
            }
            channels.append(channel)
            return channel.localAddress?.port ?? port
        }
        do {
            let sharedPort =
                configuration.devices.contains { $0.web.realPort == nil }
                ? try await open(DescriptionDocuments(devices: configuration.devices)) : 0
            for device in configuration.devices {
                ports.append(device.web.realPort == nil ? sharedPort : try await open(DeviceSite(device: device)))
            }
            return (channels, ports)
        } catch {
            await closeAll(channels)
            throw error
        }
    }

    private static func closeAll(_ channels: [any Channel]) async {
        for channel in channels {
            try? await channel.close()
        }
    }

    private static func startHTTPServer(
        host: String,
        port: Int,
        site: any HTTPSite,
        group: any EventLoopGroup,
        onEvent: @escaping @Sendable (SimulatorEvent) -> Void
    ) async throws -> any Channel {
        try await ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let sync = channel.pipeline.syncOperations
                    try sync.configureHTTPServerPipeline(withErrorHandling: true)
                    try sync.addHandler(IdleStateHandler(readTimeout: .seconds(10)))
                    try sync.addHandler(DeviceHTTPHandler(site: site, onEvent: onEvent))
                }
            }
            .bind(host: host, port: port)
            .get()
    }

    private static func startUDP(
        _ configuration: SimulatorConfiguration,
        devices: [SSDPRootDevice],
        interface: NIONetworkDevice,
        host: String,
        eventLoop: any EventLoop,
        logger: Logger,
        onEvent: @escaping @Sendable (SimulatorEvent) -> Void
    ) async throws -> (channel: any Channel, handler: NIOLoopBound<SimulatorHandler>) {
        let group = try SocketAddress(ipAddress: "239.255.255.250", port: configuration.port)
        let now = SSDPInstant(eventLoop.now)
        let responders = devices.indices.map { index in
            DeviceResponder(
                device: devices[index],
                behaviour: configuration.devices[index].behaviour,
                startedAt: now,
                seed: SSDPRandom.derivedSeed(seed: configuration.seed, stream: UInt64(index) << 1)
            )
        }
        let advertisers = devices.indices.map { index in
            DeviceAdvertiser(
                device: devices[index],
                copies: configuration.notifyCopies,
                host: "239.255.255.250:\(configuration.port)",
                seed: SSDPRandom.derivedSeed(seed: configuration.seed, stream: UInt64(index) << 1 | 1)
            )
        }
        let responder = SimulatorResponder(configuration: configuration.responder, devices: responders)
        let bindHost = configuration.multicast ? "0.0.0.0" : host
        let channel = try await bind("UDP", port: configuration.port, host: bindHost) {
            // Sharing 1900 with other SSDP stacks is normal for multicast; a unicast-only simulator owns its port.
            try await DatagramBootstrap(group: eventLoop)
                .channelOption(.socketOption(.so_reuseaddr), value: configuration.multicast ? 1 : 0)
                .channelOption(
                    .recvAllocator,
                    value: FixedSizeRecvByteBufferAllocator(capacity: maximumDatagramSize + 1)
                )
                // Read up to 16 datagrams per wake-up instead of NIO's 4: a flood of searches is served
                // with fewer trips through the event loop (ssdp-bench's loopback figure).
                .channelOption(.maxMessagesPerRead, value: 16)
                .bind(host: bindHost, port: configuration.port)
                .get()
        }
        do {
            if configuration.multicast {
                try await joinGroup(channel, group: group, interface: interface, ttl: configuration.multicastTTL)
            }
            let handler = try await eventLoop.submit {
                let codec = SSDPDatagramCodec(maximumSize: maximumDatagramSize)
                let handler = SimulatorHandler(
                    responder: responder,
                    advertisers: advertisers,
                    notifyDestination: configuration.multicast ? group : nil,
                    sourcePolicy: configuration.sourcePolicy,
                    codec: codec,
                    logger: logger,
                    reportsDatagrams: configuration.reportsDatagrams,
                    onEvent: onEvent
                )
                try channel.pipeline.syncOperations.addHandlers(codec, handler)
                return NIOLoopBound(handler, eventLoop: eventLoop)
            }.get()
            return (channel, handler)
        } catch {
            try? await channel.close()
            throw error
        }
    }

    private static func joinGroup(
        _ channel: any Channel,
        group: SocketAddress,
        interface: NIONetworkDevice,
        ttl: Int
    ) async throws {
        guard let multicast = channel as? MulticastChannel, let options = channel as? SocketOptionProvider,
            case .v4(let address) = interface.address
        else {
            throw SimulatorError(reason: "cannot use multicast on interface \(interface.name)")
        }
        do {
            try await multicast.joinGroup(group, device: interface).get()
            try await options.setIPMulticastIF(address.address.sin_addr).get()
            try await options.setIPMulticastTTL(CUnsignedChar(ttl)).get()
        } catch {
            throw SimulatorError(
                reason:
                    "cannot join 239.255.255.250 on \(interface.name): \(error) (is the interface up and multicast-capable?)"
            )
        }
    }

    /// Runs `open`, turning "address in use" into an error that names the port.
    private static func bind(
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

/// A simulator that could not start, with the reason.
public struct SimulatorError: Error, Hashable, Sendable, CustomStringConvertible {
    public var reason: String

    public init(reason: String) {
        self.reason = reason
    }

    public var description: String { reason }
}
