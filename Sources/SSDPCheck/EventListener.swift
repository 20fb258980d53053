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
import NIOPosix

/// Where a checked device sends its GENA events: an HTTP server on the checker's address toward the
/// device that answers every request 200 and keeps each NOTIFY with a SID until a check takes it (at most
/// `maximumKept` waiting, each at most 256 KiB). A connection gets `connectionDeadline` to send its request.
final class EventListener: Sendable {
    /// The most messages waiting to be taken; later ones are answered and dropped.
    static let maximumKept = 64
    /// How long one connection may take to send its request before it is closed.
    static let connectionDeadline = TimeAmount.seconds(10)

    private let channel: any Channel
    private let received: NIOLockedValueBox<[HTTPMessage]>
    /// The connections open now, closed with the listener.
    private let connections: NIOLockedValueBox<[ObjectIdentifier: any Channel]>

    /// The address the listener took, to write into a CALLBACK.
    var address: SocketAddress? { channel.localAddress }

    private init(
        channel: any Channel,
        received: NIOLockedValueBox<[HTTPMessage]>,
        connections: NIOLockedValueBox<[ObjectIdentifier: any Channel]>
    ) {
        self.channel = channel
        self.received = received
        self.connections = connections
    }

    /// A listener on `host` (the checker's end of a connection to the device), on a port of the system's
    /// choice.
    static func start(host: String, eventLoopGroup: any EventLoopGroup) async throws -> EventListener {
        let received = NIOLockedValueBox<[HTTPMessage]>([])
        let connections = NIOLockedValueBox<[ObjectIdentifier: any Channel]>([:])
        let channel = try await ServerBootstrap(group: eventLoopGroup)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                let key = ObjectIdentifier(channel)
                connections.withLockedValue { $0[key] = channel }
                channel.closeFuture.whenComplete { _ in _ = connections.withLockedValue { $0.removeValue(forKey: key) }
                }
                channel.eventLoop.scheduleTask(in: connectionDeadline) { channel.close(promise: nil) }
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(RequestCollector(received: received))
                }
            }
            .bind(host: host, port: 0)
            .get()
        return EventListener(channel: channel, received: received, connections: connections)
    }

    /// Waits up to `timeout` for a message that `predicate` accepts, and takes it.
    func take(timeout: Duration, where predicate: (HTTPMessage) -> Bool) async -> HTTPMessage? {
        let deadline = ContinuousClock.now + timeout
        while true {
            let found = received.withLockedValue { messages -> HTTPMessage? in
                guard let index = messages.firstIndex(where: predicate) else { return nil }
                return messages.remove(at: index)
            }
            if let found { return found }
            guard ContinuousClock.now < deadline else { return nil }
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Closes the listener and every connection still open to it.
    func stop() async {
        try? await channel.close()
        for connection in connections.withLockedValue({ Array($0.values) }) {
            try? await connection.close()
        }
    }
}

/// Reads one request from a connection, keeps it, answers 200 and closes.
private final class RequestCollector: ChannelInboundHandler, @unchecked Sendable {
    // Used only on its channel's event loop.
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let received: NIOLockedValueBox<[HTTPMessage]>
    private let reader = HTTPMessageReader(maximumBodySize: 256 * 1024, endsAtClose: false)
    private var bytes: [UInt8] = []
    private var done = false

    init(received: NIOLockedValueBox<[HTTPMessage]>) {
        self.received = received
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !done else { return }
        var buffer = unwrapInboundIn(data)
        bytes += buffer.readBytes(length: buffer.readableBytes) ?? []
        switch reader.read(bytes, closed: false) {
        case .incomplete:
            return
        case .complete(let message):
            // Only what an event is: a NOTIFY for a subscription. Anything else is answered and forgotten.
            if message.startLine.hasPrefix("NOTIFY "), message.header("SID") != nil {
                received.withLockedValue {
                    if $0.count < EventListener.maximumKept { $0.append(message) }
                }
            }
            answer(context: context, "HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        case .invalid:
            answer(context: context, "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        }
    }

    private func answer(context: ChannelHandlerContext, _ text: String) {
        done = true
        var buffer = context.channel.allocator.buffer(capacity: text.utf8.count)
        buffer.writeString(text)
        context.writeAndFlush(wrapOutboundOut(buffer)).assumeIsolated().whenComplete { _ in context.close(promise: nil)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
