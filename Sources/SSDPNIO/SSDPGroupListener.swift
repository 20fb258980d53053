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

#if os(Linux)
import Glibc
#endif

/// Listens on IPv4's SSDP group for a while and keeps what arrives, each datagram with the IP TTL it
/// arrived with: what `ssdp-sim record --listen` hears of a device's NOTIFY set. NIO reports no TTL, so
/// the socket is a plain one (`IP_RECVTTL`), read on NIO's thread pool; Linux only. The socket is opened
/// (and a port or route that cannot be had is an error) before anything else is done; `stop` ends the
/// listening early.
package final class SSDPGroupListener: Sendable {
    /// One datagram heard.
    package struct Heard: Sendable, Hashable {
        /// How long after the listening began it arrived.
        package var elapsed: Duration
        package var source: SocketAddress
        /// The IP TTL it arrived with (how many hops it had left), when the system said.
        package var ttl: Int?
        package var bytes: [UInt8]
    }

    private let descriptor: CInt
    private let isStopped = NIOLockedValueBox(false)

    /// Opens a socket that shares UDP `port` (`SO_REUSEADDR`, as every control point does) and joins
    /// 239.255.255.250 where the system routes it.
    package init(port: Int) throws(SSDPTransportError) {
        #if os(Linux)
        descriptor = socket(AF_INET, CInt(SOCK_DGRAM.rawValue) | CInt(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw SSDPTransportError(reason: "cannot open a UDP socket: errno \(errno)") }
        var one: CInt = 1
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        var membership = ip_mreqn()
        membership.imr_multiaddr.s_addr = inet_addr(SSDPMulticastScope.ipv4.group)
        let descriptor = descriptor
        let option = { (level: Int32, name: Int32, value: UnsafeRawPointer, length: Int) in
            setsockopt(descriptor, level, name, value, socklen_t(length)) == 0
        }
        let ready =
            option(SOL_SOCKET, SO_REUSEADDR, &one, MemoryLayout<CInt>.size)
            && withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                }
            }
            && option(CInt(IPPROTO_IP), IP_ADD_MEMBERSHIP, &membership, MemoryLayout<ip_mreqn>.size)
            && option(CInt(IPPROTO_IP), IP_RECVTTL, &one, MemoryLayout<CInt>.size)
        guard ready else {
            let code = errno
            Glibc.close(descriptor)
            throw SSDPTransportError(
                reason:
                    "cannot listen on UDP \(port) to \(SSDPMulticastScope.ipv4.group): \(String(cString: strerror(code)))"
            )
        }
        #else
        throw SSDPTransportError(reason: "listening for NOTIFY messages with their TTL needs Linux (IP_RECVTTL)")
        #endif
    }

    deinit {
        #if os(Linux)
        Glibc.close(descriptor)
        #endif
    }

    /// Ends `listen` within a tenth of a second, with what it heard so far.
    package func stop() {
        isStopped.withLockedValue { $0 = true }
    }

    /// The datagrams that arrive within `duration` from now for which `keep` is true, at most `limit` of
    /// them (a flood is not kept without bound), in the order they came.
    package func listen(
        for duration: Duration,
        limit: Int,
        keep: @escaping @Sendable ([UInt8]) -> Bool
    ) async throws -> [Heard] {
        try await NIOThreadPool.singleton.runIfActive { self.listenBlocking(for: duration, limit: limit, keep: keep) }
    }

    private func listenBlocking(for duration: Duration, limit: Int, keep: ([UInt8]) -> Bool) -> [Heard] {
        var heard: [Heard] = []
        #if os(Linux)
        let start = ContinuousClock.now
        let end = start + duration
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var control = [UInt8](repeating: 0, count: 64)
        while heard.count < limit, !isStopped.withLockedValue({ $0 }) {
            let left = end - ContinuousClock.now
            guard left > .zero else { break }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            // A tenth of a second at most per wait, so that `stop` and the end are kept to within one.
            let milliseconds = min(
                left.components.seconds * 1_000 + left.components.attoseconds / 1_000_000_000_000_000,
                99
            )
            guard poll(&poller, 1, CInt(milliseconds + 1)) > 0 else { continue }
            var source = sockaddr_in()
            let descriptor = descriptor
            let (count, ttl) = buffer.withUnsafeMutableBytes { payload in
                control.withUnsafeMutableBytes { ancillary in
                    withUnsafeMutablePointer(to: &source) { name in
                        var vector = iovec(iov_base: payload.baseAddress, iov_len: payload.count)
                        return withUnsafeMutablePointer(to: &vector) { vectorPointer in
                            var message = msghdr()
                            message.msg_name = UnsafeMutableRawPointer(name)
                            message.msg_namelen = socklen_t(MemoryLayout<sockaddr_in>.size)
                            message.msg_iov = vectorPointer
                            message.msg_iovlen = 1
                            message.msg_control = ancillary.baseAddress
                            message.msg_controllen = ancillary.count
                            let count = recvmsg(descriptor, &message, 0)
                            return (
                                count, count >= 0 ? Self.ttl(in: ancillary, length: Int(message.msg_controllen)) : nil
                            )
                        }
                    }
                }
            }
            let elapsed = ContinuousClock.now - start
            // What arrives after the end (a poll can return a little late) is not within the listening.
            guard count > 0, elapsed < duration else { continue }
            let bytes = Array(buffer[..<count])
            guard keep(bytes) else { continue }
            heard.append(Heard(elapsed: elapsed, source: SocketAddress(source, host: ""), ttl: ttl, bytes: bytes))
        }
        #endif
        return heard
    }

    #if os(Linux)
    /// The TTL an `IP_TTL` control message in the first `length` bytes of `control` carries.
    private static func ttl(in control: UnsafeMutableRawBufferPointer, length: Int) -> Int? {
        var offset = 0
        let headerSize = MemoryLayout<cmsghdr>.stride
        while offset + headerSize <= length, let base = control.baseAddress {
            let header = (base + offset).loadUnaligned(as: cmsghdr.self)
            guard header.cmsg_len >= headerSize else { return nil }
            if header.cmsg_level == CInt(IPPROTO_IP), header.cmsg_type == CInt(IP_TTL),
                offset + headerSize + MemoryLayout<CInt>.size <= length
            {
                return Int((base + offset + headerSize).loadUnaligned(as: CInt.self))
            }
            // The next message starts at the length rounded up to the alignment of size_t (CMSG_NXTHDR).
            let step =
                (Int(header.cmsg_len) + MemoryLayout<Int>.size - 1) / MemoryLayout<Int>.size * MemoryLayout<Int>.size
            offset += step
        }
        return nil
    }
    #endif
}
