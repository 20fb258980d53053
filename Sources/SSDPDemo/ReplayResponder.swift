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
import SSDPNIO

/// A stand-in device for tests and the demo: answers every M-SEARCH it hears with the same canned
/// datagrams, sent back at once to the searcher's address and port, and records the searches.
///
/// It replays bytes exactly, so captured answers of real devices (duplicates, chatty and malformed
/// ones included) reach the searcher as those devices sent them. Datagrams that are not an M-SEARCH
/// are ignored. It binds the address given (loopback by default) and an ephemeral port.
package final class ReplayResponder: Sendable {
    /// The searches heard, in order (at most `maximumRecordedSearches`).
    package var receivedSearches: [SSDPMessage] { log.withLockedValue { $0 } }
    /// The address the responder listens on.
    package let localAddress: SocketAddress
    private let channel: any Channel
    private let log: NIOLockedValueBox<[SSDPMessage]>

    /// How many searches are recorded; later ones are still answered.
    package static let maximumRecordedSearches = 10_000

    private init(channel: any Channel, log: NIOLockedValueBox<[SSDPMessage]>) throws {
        guard let localAddress = channel.localAddress else {
            throw SSDPTransportError(reason: "responder has no address")
        }
        self.channel = channel
        self.log = log
        self.localAddress = localAddress
    }

    /// Starts a responder on `host`, port 0 (the system picks one; read `localAddress`).
    package static func start(
        host: String = "127.0.0.1",
        answers: [[UInt8]],
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) async throws -> ReplayResponder {
        let log = NIOLockedValueBox<[SSDPMessage]>([])
        let channel = try await DatagramBootstrap(group: eventLoopGroup)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandlers(
                        SSDPDatagramCodec(),
                        ReplayHandler(answers: answers, log: log)
                    )
                }
            }
            .bind(host: host, port: 0)
            .get()
        return try ReplayResponder(channel: channel, log: log)
    }

    /// Stops listening.
    package func stop() async {
        try? await channel.close()
    }
}

private final class ReplayHandler: ChannelInboundHandler {
    typealias InboundIn = SSDPDatagram
    typealias OutboundOut = SSDPDatagram

    private let answers: [[UInt8]]
    private let log: NIOLockedValueBox<[SSDPMessage]>

    init(answers: [[UInt8]], log: NIOLockedValueBox<[SSDPMessage]>) {
        self.answers = answers
        self.log = log
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let datagram = unwrapInboundIn(data)
        guard let message = try? SSDPParser.parseMessage(datagram.bytes), message.kind == .search else { return }
        log.withLockedValue { searches in
            if searches.count < ReplayResponder.maximumRecordedSearches { searches.append(message) }
        }
        for answer in answers {
            context.write(
                wrapOutboundOut(SSDPDatagram(remoteAddress: datagram.remoteAddress, bytes: answer)),
                promise: nil
            )
        }
        context.flush()
    }
}
