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
/// device that answers every request 200 and keeps it (at most `maximumKept`, each at most 256 KiB).
final class EventListener: Sendable {
    /// The most requests kept; later ones are answered and dropped.
    static let maximumKept = 64

    private let channel: any Channel
    private let received: NIOLockedValueBox<[HTTPMessage]>

    /// The address the listener took, to write into a CALLBACK.
    var address: SocketAddress? { channel.localAddress }

    private init(channel: any Channel, received: NIOLockedValueBox<[HTTPMessage]>) {
        self.channel = channel
        self.received = received
    }

    /// A listener on `host` (the checker's end of a connection to the device), on a port of the system's
    /// choice.
    static func start(host: String, eventLoopGroup: any EventLoopGroup) async throws -> EventListener {
        let received = NIOLockedValueBox<[HTTPMessage]>([])
        let channel = try await ServerBootstrap(group: eventLoopGroup)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(RequestCollector(received: received))
                }
            }
            .bind(host: host, port: 0)
            .get()
        return EventListener(channel: channel, received: received)
    }

    /// The requests received so far, in order.
    var messages: [HTTPMessage] { received.withLockedValue { $0 } }

    /// Waits up to `timeout` for a request that `predicate` accepts, and returns it.
    func wait(timeout: Duration, for predicate: (HTTPMessage) -> Bool) async -> HTTPMessage? {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let found = messages.first(where: predicate) { return found }
            guard ContinuousClock.now < deadline else { return nil }
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    func stop() async {
        try? await channel.close()
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
            received.withLockedValue {
                if $0.count < EventListener.maximumKept { $0.append(message) }
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
