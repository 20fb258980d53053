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

import NIOCore
import SSDPCore

/// Turns NIO's addressed byte buffers into `SSDPDatagram`s and back.
///
/// Datagrams larger than `maximumSize` (by default `SSDPParser.maximumDatagramSize`) are dropped on the way
/// in and counted in `oversizedDropped`, so nothing above the codec ever holds more than that per datagram.
/// A channel whose receive buffers hold `maximumSize + 1` bytes shows every larger datagram, truncated, as
/// `maximumSize + 1` bytes, so it is dropped too.
package final class SSDPDatagramCodec: ChannelDuplexHandler {
    /// What the socket delivers: a datagram's bytes with its sender.
    package typealias InboundIn = AddressedEnvelope<ByteBuffer>
    /// What the codec passes up: the datagram as an `SSDPDatagram`.
    package typealias InboundOut = SSDPDatagram
    /// What handlers above write: a datagram with its destination.
    package typealias OutboundIn = SSDPDatagram
    /// What the codec writes to the socket: the bytes addressed to the destination.
    package typealias OutboundOut = AddressedEnvelope<ByteBuffer>

    /// Inbound datagrams dropped for being larger than the parser accepts.
    package private(set) var oversizedDropped = 0

    /// Called on the channel's event loop with the sender of each datagram dropped for its size.
    package var onOversized: ((SocketAddress) -> Void)?

    /// The largest datagram passed on.
    package let maximumSize: Int

    /// A codec that drops inbound datagrams larger than `maximumSize` bytes.
    package init(maximumSize: Int = SSDPParser.maximumDatagramSize) {
        self.maximumSize = maximumSize
    }

    /// Passes a received datagram up as an `SSDPDatagram`, or drops and counts it when it is too large.
    package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let envelope = unwrapInboundIn(data)
        guard envelope.data.readableBytes <= maximumSize else {
            oversizedDropped += 1
            onOversized?(envelope.remoteAddress)
            return
        }
        let datagram = SSDPDatagram(
            remoteAddress: envelope.remoteAddress,
            bytes: Array(envelope.data.readableBytesView),
            destinationAddress: envelope.metadata?.packetInfo?.destinationAddress
        )
        context.fireChannelRead(wrapInboundOut(datagram))
    }

    /// Writes an `SSDPDatagram` to the socket as bytes addressed to its `remoteAddress`.
    package func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let datagram = unwrapOutboundIn(data)
        let buffer = context.channel.allocator.buffer(bytes: datagram.bytes)
        context.write(
            wrapOutboundOut(AddressedEnvelope(remoteAddress: datagram.remoteAddress, data: buffer)),
            promise: promise
        )
    }
}

@available(*, unavailable)
extension SSDPDatagramCodec: Sendable {}
