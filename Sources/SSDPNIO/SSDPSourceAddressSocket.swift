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

#if os(Linux)
import CSSDPLinux
import Glibc
#endif

/// A UDP socket that sends each datagram from a source address the caller names, one of the host's own
/// (`IP_PKTINFO`'s `ipi_spec_dst`): the way many simulated devices, each at an address of its own, send
/// their answers and NOTIFYs through one socket instead of one socket each.
///
/// SwiftNIO reads packet info but writes none, so this is a plain non-blocking socket used from one
/// event loop. Datagrams leave in batches, up to 64 per system call (`sendmmsg`). A send that would
/// block is dropped and not counted as sent: UDP may lose a datagram, and the caller counts it. IPv4 and
/// Linux only; elsewhere `init` throws.
package final class SSDPSourceAddressSocket {
    /// One datagram to send: its bytes, the host address it leaves from, where it goes, and the IP TTL it
    /// leaves with when not the socket's.
    package struct Outgoing {
        package var bytes: [UInt8]
        package var source: SocketAddress
        package var destination: SocketAddress
        package var ttl: Int?

        package init(bytes: [UInt8], from source: SocketAddress, to destination: SocketAddress, ttl: Int? = nil) {
            self.bytes = bytes
            self.source = source
            self.destination = destination
            self.ttl = ttl
        }
    }

    /// The most datagrams one system call sends.
    package static let batchSize = 64

    #if os(Linux)
    private var descriptor: CInt
    /// The batch being built, allocated once: headers, one buffer each, addresses, `IP_PKTINFO` control
    /// messages, and the datagrams' bytes copied into one arena (a UDP datagram always fits).
    private let messages = UnsafeMutablePointer<CSSDPLinux_mmsghdr>.allocate(capacity: batchSize)
    private let vectors = UnsafeMutablePointer<iovec>.allocate(capacity: batchSize)
    private let names = UnsafeMutablePointer<sockaddr_in>.allocate(capacity: batchSize)
    private let controls = UnsafeMutableRawPointer.allocate(
        byteCount: batchSize * controlSpace,
        alignment: MemoryLayout<cmsghdr>.alignment
    )
    private let arena = UnsafeMutableRawPointer.allocate(byteCount: arenaSize, alignment: 16)
    private static let arenaSize = 256 << 10
    /// A message's control messages: a cmsghdr and the in_pktinfo, then a cmsghdr and an IP_TTL's int,
    /// each padded to the alignment of size_t (CMSG_SPACE).
    private static let pktinfoSpace = space(MemoryLayout<in_pktinfo>.size)
    private static let controlSpace = pktinfoSpace + space(MemoryLayout<CInt>.size)

    private static func space(_ length: Int) -> Int {
        MemoryLayout<cmsghdr>.stride + (length + MemoryLayout<Int>.size - 1) / MemoryLayout<Int>.size
            * MemoryLayout<Int>.size
    }
    #endif
    /// The UDP port the datagrams leave from (chosen by the system).
    package private(set) var port = 0
    /// The system calls that sent datagrams (against the datagrams sent, how well batches fill).
    package private(set) var sendCalls = 0

    /// Opens the socket; multicast leaves through interface `interfaceIndex` with `ttl` hops.
    package init(interfaceIndex: Int, ttl: Int) throws(SSDPTransportError) {
        #if os(Linux)
        let type = CInt(SOCK_DGRAM.rawValue) | CInt(SOCK_NONBLOCK.rawValue) | CInt(SOCK_CLOEXEC.rawValue)
        descriptor = socket(AF_INET, type, 0)
        guard descriptor >= 0 else {
            throw SSDPTransportError(reason: "cannot open a UDP socket: errno \(errno)")
        }
        var hops = CInt(ttl)
        var request = ip_mreqn()
        request.imr_ifindex = CInt(interfaceIndex)
        let configured =
            setsockopt(descriptor, CInt(IPPROTO_IP), IP_MULTICAST_TTL, &hops, socklen_t(MemoryLayout<CInt>.size)) == 0
            && setsockopt(
                descriptor,
                CInt(IPPROTO_IP),
                IP_MULTICAST_IF,
                &request,
                socklen_t(MemoryLayout<ip_mreqn>.size)
            ) == 0
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &local) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(descriptor, address, length) == 0 && getsockname(descriptor, address, &length) == 0
            }
        }
        guard configured, bound else {
            let code = errno
            Glibc.close(descriptor)
            throw SSDPTransportError(reason: "cannot set up a UDP socket on interface \(interfaceIndex): errno \(code)")
        }
        port = Int(UInt16(bigEndian: local.sin_port))
        #else
        throw SSDPTransportError(reason: "sending from a chosen source address needs Linux (IP_PKTINFO)")
        #endif
    }

    deinit {
        close()
        #if os(Linux)
        messages.deallocate()
        vectors.deallocate()
        names.deallocate()
        controls.deallocate()
        arena.deallocate()
        #endif
    }

    /// Sends `datagrams` in order, up to `batchSize` per system call. Returns how many were sent; one that
    /// is not IPv4 to IPv4, or that the system refuses (its buffer is full, no route), is skipped.
    package func send(_ datagrams: [Outgoing]) -> Int {
        #if os(Linux)
        var sent = 0
        var next = datagrams.startIndex
        var slots: [Int] = []  // the index in `datagrams` of each message of the batch
        slots.reserveCapacity(Self.batchSize)
        while next < datagrams.endIndex, descriptor >= 0 {
            slots.removeAll(keepingCapacity: true)
            var used = 0
            while next < datagrams.endIndex, slots.count < Self.batchSize {
                let datagram = datagrams[next]
                guard case .v4(let from) = datagram.source, case .v4(let to) = datagram.destination else {
                    next += 1
                    continue
                }
                guard used + datagram.bytes.count <= Self.arenaSize else { break }
                prepare(
                    slot: slots.count,
                    datagram.bytes,
                    at: used,
                    from: from.address.sin_addr,
                    to: to.address,
                    ttl: datagram.ttl
                )
                used += datagram.bytes.count
                slots.append(next)
                next += 1
            }
            guard !slots.isEmpty else { continue }
            let result = Int(CSSDPLinux_sendmmsg(descriptor, messages, CUnsignedInt(slots.count), CInt(MSG_NOSIGNAL)))
            if result > 0 {
                sent += result
                sendCalls += 1
            }
            // The message after the last one sent failed: skip it, and go on after it.
            if result < slots.count { next = slots[max(result, 0)] + 1 }
        }
        return sent
        #else
        return 0
        #endif
    }

    #if os(Linux)
    /// Fills message `slot` of the batch: `bytes` copied into the arena at `offset`, from `source` to `target`,
    /// with `ttl` hops when it says.
    private func prepare(
        slot: Int,
        _ bytes: [UInt8],
        at offset: Int,
        from source: in_addr,
        to target: sockaddr_in,
        ttl: Int?
    ) {
        bytes.withUnsafeBytes { payload in
            if let base = payload.baseAddress { (arena + offset).copyMemory(from: base, byteCount: payload.count) }
        }
        vectors[slot] = iovec(iov_base: arena + offset, iov_len: bytes.count)
        names[slot] = target
        let control = controls + slot * Self.controlSpace
        control.initializeMemory(as: UInt8.self, repeating: 0, count: Self.controlSpace)
        let header = control.assumingMemoryBound(to: cmsghdr.self)
        header.pointee.cmsg_len = MemoryLayout<cmsghdr>.stride + MemoryLayout<in_pktinfo>.size
        header.pointee.cmsg_level = CInt(IPPROTO_IP)
        header.pointee.cmsg_type = CInt(IP_PKTINFO)
        var info = in_pktinfo()
        info.ipi_spec_dst = source
        (control + MemoryLayout<cmsghdr>.stride).copyMemory(from: &info, byteCount: MemoryLayout<in_pktinfo>.size)
        if let ttl {
            // Linux takes IP_TTL per message, and it wins over IP_MULTICAST_TTL (ip_cmsg_send).
            let second = control + Self.pktinfoSpace
            let header = second.assumingMemoryBound(to: cmsghdr.self)
            header.pointee.cmsg_len = MemoryLayout<cmsghdr>.stride + MemoryLayout<CInt>.size
            header.pointee.cmsg_level = CInt(IPPROTO_IP)
            header.pointee.cmsg_type = CInt(IP_TTL)
            (second + MemoryLayout<cmsghdr>.stride).storeBytes(of: CInt(ttl), as: CInt.self)
        }
        var message = msghdr()
        message.msg_name = UnsafeMutableRawPointer(names + slot)
        message.msg_namelen = socklen_t(MemoryLayout<sockaddr_in>.size)
        message.msg_iov = vectors + slot
        message.msg_iovlen = 1
        message.msg_control = control
        message.msg_controllen = ttl == nil ? Self.pktinfoSpace : Self.controlSpace
        messages[slot] = CSSDPLinux_mmsghdr(msg_hdr: message, msg_len: 0)
    }
    #endif

    /// Closes the socket; later sends send nothing.
    package func close() {
        #if os(Linux)
        if descriptor >= 0 {
            Glibc.close(descriptor)
            descriptor = -1
        }
        #endif
    }
}

@available(*, unavailable)
extension SSDPSourceAddressSocket: Sendable {}
