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

/// Netcat for SSDP: sends one datagram exactly as given and reports every answer with the time it took.
///
/// The socket is the one a search uses (`SSDPSocket.makeSearchChannel`: an ephemeral port, multicast TTL
/// and interface), so answers come back to it whether the datagram went to a device or to the group.
package enum SSDPProbe {
    /// One datagram received after the probe was sent.
    package struct Answer: Sendable {
        /// Time since the probe was sent.
        package var elapsed: Duration
        /// The address and port the answer came from.
        package var source: SocketAddress
        /// The answer's UDP payload, unparsed.
        package var bytes: [UInt8]
    }

    /// Sends `bytes` to `destination`, calls `onAnswer` for each datagram received within `wait` of sending
    /// them, and returns how many there were. The clock starts when the socket is open and the bytes go out,
    /// so that a busy machine's time to open the socket is not taken from the answers' (nor counted in their
    /// `elapsed`).
    package static func send(
        _ bytes: [UInt8],
        to destination: SocketAddress,
        interface: String? = nil,
        multicastTTL: Int = SSDPSocket.defaultMulticastTTL,
        wait: Duration,
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        onAnswer: @escaping @Sendable (Answer) -> Void
    ) async throws -> Int {
        let eventLoop = eventLoopGroup.next()
        let start = NIOLockedValueBox(ContinuousClock.now)  // set again just before the bytes go out
        let count = NIOLockedValueBox(0)
        let channel = try await SSDPSocket.makeSearchChannel(
            destination: destination,
            interface: interface,
            multicastTTL: multicastTTL,
            eventLoop: eventLoop
        ) { channel in
            try channel.pipeline.syncOperations.addHandlers(
                SSDPDatagramCodec(),
                AnswerHandler { datagram in
                    count.withLockedValue { $0 += 1 }
                    onAnswer(
                        Answer(
                            elapsed: ContinuousClock.now - start.withLockedValue { $0 },
                            source: datagram.remoteAddress,
                            bytes: datagram.bytes
                        )
                    )
                }
            )
        }.get()
        let sent = ContinuousClock.now
        start.withLockedValue { $0 = sent }
        do {
            try await channel.writeAndFlush(SSDPDatagram(remoteAddress: destination, bytes: bytes)).get()
            try await Task.sleep(until: sent + wait)
        } catch {
            try? await channel.close()
            throw error
        }
        try? await channel.close()
        return count.withLockedValue { $0 }
    }

    /// The source address a probe to `destination` leaves from, as the system picks it for a socket like
    /// the probe's (connected, so that nothing is sent): what a device that answers or drops the probe by
    /// its source sees. `nil` when the system says nothing (no route).
    package static func sourceAddress(
        toward destination: SocketAddress,
        interface: String? = nil,
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) async -> SocketAddress? {
        guard
            let channel = try? await SSDPSocket.makeSearchChannel(
                destination: destination,
                interface: interface,
                eventLoop: eventLoopGroup.next(),
                initializer: { _ in }
            ).get()
        else { return nil }
        defer { channel.close(promise: nil) }
        guard (try? await channel.connect(to: destination).get()) != nil else { return nil }
        return channel.localAddress
    }
}

private final class AnswerHandler: ChannelInboundHandler {
    typealias InboundIn = SSDPDatagram

    private let onAnswer: (SSDPDatagram) -> Void

    init(onAnswer: @escaping (SSDPDatagram) -> Void) {
        self.onAnswer = onAnswer
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        onAnswer(unwrapInboundIn(data))
    }
}
