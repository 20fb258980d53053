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
import NIOPosix
import SSDPCore

/// Opens the UDP sockets SSDP uses, configured the way UDA 1.1 asks.
package enum SSDPSocket {
    /// The multicast TTL UDA 1.1 §1.3.2 recommends: enough for the LAN, not beyond it.
    package static let defaultMulticastTTL = 2

    /// The most bytes read per datagram: the largest UDP payload over IPv4 fits.
    package static let maximumDatagramRead = 65_536

    /// The receive buffer a search socket asks for. Answers arrive in bursts (every device on the LAN
    /// within MX; 60,000 answers a second in `ssdp-bench`'s scale run) and the kernel drops what does
    /// not fit while the session is busy; the default (208 KiB on Linux) holds about 90 answers. The
    /// system caps it (`net.core.rmem_max` on Linux).
    package static let searchReceiveBufferSize = 4 << 20

    /// Opens a socket for a control point's search and installs the handlers `initializer` adds.
    ///
    /// The socket binds an ephemeral port, never 1900 (some devices ignore searches from 1900, and 1900
    /// belongs to any device on the host). Multicast leaves with `multicastTTL` and, when `interface` is
    /// given, through that interface; an IPv4 socket then also binds that interface's address.
    package static func makeSearchChannel(
        destination: SocketAddress,
        interface: String? = nil,
        multicastTTL: Int = defaultMulticastTTL,
        eventLoop: any EventLoop,
        initializer: @escaping @Sendable (any Channel) throws -> Void
    ) -> EventLoopFuture<any Channel> {
        let device: NIONetworkDevice?
        do {
            guard (1...255).contains(multicastTTL) else {
                throw SSDPTransportError(reason: "multicast TTL \(multicastTTL) is outside 1...255")
            }
            device = try interface.map { try SSDPNetworkInterface.find(named: $0, like: destination) }
        } catch {
            return eventLoop.makeFailedFuture(error)
        }
        // IPv4 binds the interface's address, so answers come back through it. IPv6 binds the wildcard: a
        // link-local address needs its zone to bind, and IPV6_MULTICAST_IF already picks the interface.
        let bindHost = destination.protocol == .inet6 ? "::" : device?.address?.ipAddress ?? "0.0.0.0"
        return DatagramBootstrap(group: eventLoop)
            // NIO reads 2,048 bytes per datagram by default and truncates the rest without a word; answers
            // padded by chatty devices (Sonos groups, the simulator's `oversized`) are longer. Read whole
            // UDP datagrams, as gssdp and go-ssdp do.
            .channelOption(.recvAllocator, value: FixedSizeRecvByteBufferAllocator(capacity: maximumDatagramRead))
            .channelOption(.socketOption(.so_rcvbuf), value: SocketOptionValue(searchReceiveBufferSize))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try initializer(channel) }
            }
            .bind(host: bindHost, port: 0)
            .flatMap { channel in
                configureMulticast(channel, ttl: multicastTTL, device: device, family: destination.protocol)
                    .map { channel }
                    .flatMapError { error in
                        channel.close(promise: nil)
                        return channel.eventLoop.makeFailedFuture(error)
                    }
            }
    }

    /// Sets the multicast TTL (IPv4) or hop limit (IPv6) and, with `device`, the interface multicast
    /// leaves through.
    package static func configureMulticast(
        _ channel: any Channel,
        ttl: Int,
        device: NIONetworkDevice?,
        family: NIOBSDSocket.ProtocolFamily
    ) -> EventLoopFuture<Void> {
        guard let provider = channel as? any SocketOptionProvider else {
            return channel.eventLoop.makeSucceededVoidFuture()
        }
        if family == .inet6 {
            let hops = provider.setIPv6MulticastHops(CInt(ttl))
            guard let index = device?.interfaceIndex else { return hops }
            return hops.flatMap { provider.setIPv6MulticastIF(CUnsignedInt(index)) }
        }
        let hops = provider.setIPMulticastTTL(CUnsignedChar(ttl))
        guard case .v4(let address) = device?.address else { return hops }
        let interfaceAddress = address.address.sin_addr
        return hops.flatMap { provider.setIPMulticastIF(interfaceAddress) }
    }
}

/// A socket that could not be opened or configured, with the reason.
package struct SSDPTransportError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What failed, for people: `no interface named eth9 with an IPv4 address (interfaces: eth0, lo)`.
    package var reason: String

    /// An error with `reason` as its message.
    package init(reason: String) {
        self.reason = reason
    }

    /// The text form: `reason` alone.
    package var description: String { reason }
}
