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
import SSDPDevices
import SSDPSimulator
import ServiceLifecycle

/// The control API over HTTP+JSON (`serve --control`): another process, in any language, lists the
/// devices, makes them say byebye, vanish, come back, reboot or update, and queries and waits on the
/// journal. `docs/control.md` describes the endpoints; `GET /openapi.json` is their OpenAPI document.
///
/// `bind` listens (before the simulator starts, so that its URL can be printed with the simulator's
/// start), `attach` hands it the simulator once that serves (`/health` says 503 until then), and `run`
/// (the `Service` requirement) answers until graceful shutdown: then it stops listening, answers the pending
/// journal waits with 503 (the journal takes no more waits), and returns once every connection is closed. In a
/// `ServiceGroup`, list it after the simulator, so that it closes before the devices say byebye.
package final class ControlServer: Service, Sendable {
    /// Where and for whom the server listens.
    package struct Configuration: Hashable, Sendable {
        /// The address to listen on: loopback by default.
        package var host: String
        /// The port; 0 takes a free one.
        package var port: Int
        /// The web origins (`http://localhost:3000`) whose pages may call the API; a request with any other
        /// `Origin` header gets 403.
        package var allowedOrigins: Set<String>
        /// The token every request but `GET /health` must carry as `Authorization: Bearer TOKEN`, or get 401;
        /// `nil` for none.
        package var token: String?

        /// A server on `host`:`port`, refusing web pages except from `allowedOrigins`, and requests without
        /// `token` when there is one.
        package init(host: String = "127.0.0.1", port: Int = 0, allowedOrigins: Set<String> = [], token: String? = nil)
        {
            self.host = host
            self.port = port
            self.allowedOrigins = allowedOrigins
            self.token = token
        }
    }

    /// A connection's requests. Its answer is written to the channel, not through an asynchronous writer: a
    /// connection accepted but never served (the server cancelled while it waited in the listener's buffer) is
    /// dropped by NIO, and a dropped writer that was never finished traps (swift-nio#2813).
    typealias Connection = NIOAsyncChannel<ControlRequest, Never>

    /// The address the server listens on, with the port it got.
    package let address: SocketAddress
    let api: ControlAPI
    private let listener: NIOAsyncChannel<Connection, Never>
    private let logger: Logger
    private let connections: ControlConnections

    private init(
        address: SocketAddress,
        api: ControlAPI,
        listener: NIOAsyncChannel<Connection, Never>,
        connections: ControlConnections,
        logger: Logger
    ) {
        self.address = address
        self.api = api
        self.listener = listener
        self.connections = connections
        self.logger = logger
    }

    /// The API's base URL: `http://127.0.0.1:8080` (an IPv6 address in brackets).
    package var url: String {
        let host = address.ipAddress ?? "127.0.0.1"
        return "http://\(host.contains(":") ? "[\(host)]" : host):\(address.port ?? 0)"
    }

    /// Listens on the configured address and returns the server, which answers once it runs.
    ///
    /// - Throws: `SimulatorError` when it cannot listen (a port in use, an address not of this machine).
    package static func bind(
        _ configuration: Configuration,
        journal: SimulatorJournal,
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        logger: Logger = Logger(label: "ssdp-sim.control")
    ) async throws -> ControlServer {
        let listener: NIOAsyncChannel<Connection, Never>
        let connections = ControlConnections()
        do {
            listener = try await ServerBootstrap(group: eventLoopGroup)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .bind(host: configuration.host, port: configuration.port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                        connections.opened(channel)
                        try channel.pipeline.syncOperations.addHandler(ControlHTTPHandler(connections: connections))
                        return try Connection(wrappingChannelSynchronously: channel)
                    }
                }
        } catch {
            let why = DeviceSimulator.bindFailure(
                error,
                host: configuration.host,
                port: configuration.port,
                portRemedy: "choose another with --control HOST:PORT, or port 0 for a free one",
                addressRemedy: "choose an address this host has with --control HOST:PORT"
            )
            throw SimulatorError(reason: "the control API cannot listen on \(why)")
        }
        guard let address = listener.channel.localAddress else {
            listener.channel.close(promise: nil)
            throw SimulatorError(reason: "the control API's socket has no address")
        }
        let api = ControlAPI(
            journal: journal,
            allowedOrigins: configuration.allowedOrigins,
            loopbackOnly: ControlAPI.isLoopback(ip: address.ipAddress ?? ""),
            token: configuration.token
        )
        return ControlServer(address: address, api: api, listener: listener, connections: connections, logger: logger)
    }

    /// Hands the server the simulator it controls, once that serves.
    package func attach(_ simulator: DeviceSimulator) {
        api.simulator = simulator
    }

    /// Answers requests until graceful shutdown or cancellation. On graceful shutdown it stops listening,
    /// answers the pending waits (503), closes the connections that have not sent a request, and returns
    /// once the others are answered; on cancellation it closes them all.
    package func run() async throws {
        logger.info("Control API listening", metadata: ["ssdp.control": "\(url)"])
        try await withThrowingDiscardingTaskGroup { group in
            try await withTaskCancellationOrGracefulShutdownHandler {
                do {
                    try await listener.executeThenClose { connections in
                        for try await connection in connections {
                            group.addTask { await self.serve(connection) }
                        }
                    }
                } catch is CancellationError {
                    // Cancelled rather than shut down gracefully: the same end.
                }
            } onCancelOrGracefulShutdown: {
                self.listener.channel.close(promise: nil)
                self.api.journal.endWaits()
            }
            if Task.isCancelled {
                connections.closeAll()
            } else {
                connections.closeIdle()
            }
        }
        logger.info("Control API closed", metadata: ["ssdp.control": "\(url)"])
    }

    /// Answers the connection's one request.
    private func serve(_ connection: Connection) async {
        try? await connection.executeThenClose { requests in
            for try await request in requests {
                let response = await api.respond(to: request)
                try await connection.channel.writeAndFlush(response)
                // The handler closes once the answer is written: a large one is not cut.
                try await connection.channel.closeFuture.get()
                return
            }
        }
    }
}

/// The server's open connections. At shutdown those that have not sent their whole request are closed rather
/// than left to their deadline, and so is every connection accepted after it began (one still in the listen
/// backlog when the shutdown came); at cancellation all are closed, answered or not.
final class ControlConnections: Sendable {
    private struct State {
        /// Each open connection, and whether its request is in.
        var open: [ObjectIdentifier: (channel: any Channel, requested: Bool)] = [:]
        /// A shutdown began: each connection accepted from now on is closed.
        var closing = false
    }

    private let state = NIOLockedValueBox(State())

    /// A connection was accepted.
    func opened(_ channel: any Channel) {
        let id = ObjectIdentifier(channel)
        let closing = state.withLockedValue { state in
            if !state.closing { state.open[id] = (channel, false) }
            return state.closing
        }
        if closing {
            channel.close(promise: nil)
            return
        }
        channel.closeFuture.whenComplete { _ in self.state.withLockedValue { $0.open[id] = nil } }
    }

    /// Connection `id` sent its request.
    func requested(_ id: ObjectIdentifier) {
        state.withLockedValue { $0.open[id]?.requested = true }
    }

    /// Closes every connection that has not sent its request, and every one accepted from now on.
    func closeIdle() {
        close(answered: false)
    }

    /// Closes every connection, and every one accepted from now on.
    func closeAll() {
        close(answered: true)
    }

    /// Closes the connections that have not sent their request, and with `answered` those that have.
    private func close(answered: Bool) {
        let channels = state.withLockedValue { state in
            state.closing = true
            return state.open.values.filter { answered || !$0.requested }.map(\.channel)
        }
        for channel in channels {
            channel.close(promise: nil)
        }
    }
}
