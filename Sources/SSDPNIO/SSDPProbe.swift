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
import SSDPCore

/// Netcat for SSDP: sends one datagram exactly as given and reports every reply with the time it took.
///
/// The socket is the one a search uses (`SSDPSocket.makeSearchChannel`: an ephemeral port, multicast TTL
/// and interface), so replies come back to it whether the datagram went to a device or to the group.
public enum SSDPProbe {
    /// One datagram received after the probe was sent.
    public struct Reply: Sendable {
        /// Time since the probe was sent.
        public var elapsed: Duration
        /// The address and port the reply came from.
        public var source: SocketAddress
        /// The reply's UDP payload, unparsed.
        public var bytes: [UInt8]
    }

    /// Sends `bytes` to `destination`, calls `onReply` for each datagram received within `wait`, and returns
    /// how many there were.
    public static func send(
        _ bytes: [UInt8],
        to destination: SocketAddress,
        interface: String? = nil,
        multicastTTL: Int = SSDPSocket.defaultMulticastTTL,
        wait: Duration,
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        onReply: @escaping @Sendable (Reply) -> Void
    ) async throws -> Int {
        let eventLoop = eventLoopGroup.next()
        let start = ContinuousClock.now
        let count = NIOLockedValueBox(0)
        let channel = try await SSDPSocket.makeSearchChannel(
            destination: destination,
            interface: interface,
            multicastTTL: multicastTTL,
            eventLoop: eventLoop
        ) { channel in
            try channel.pipeline.syncOperations.addHandlers(
                SSDPDatagramCodec(),
                ReplyHandler { datagram in
                    count.withLockedValue { $0 += 1 }
                    onReply(
                        Reply(
                            elapsed: ContinuousClock.now - start,
                            source: datagram.remoteAddress,
                            bytes: datagram.bytes
                        )
                    )
                }
            )
        }.get()
        do {
            try await channel.writeAndFlush(SSDPDatagram(remoteAddress: destination, bytes: bytes)).get()
            try await Task.sleep(until: start + wait)
        } catch {
            try? await channel.close()
            throw error
        }
        try? await channel.close()
        return count.withLockedValue { $0 }
    }
}

private final class ReplyHandler: ChannelInboundHandler {
    typealias InboundIn = SSDPDatagram

    private let onReply: (SSDPDatagram) -> Void

    init(onReply: @escaping (SSDPDatagram) -> Void) {
        self.onReply = onReply
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        onReply(unwrapInboundIn(data))
    }
}
