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
import Glibc
#endif

/// A UDP socket that sends each datagram from a source address the caller names, one of the host's own
/// (`IP_PKTINFO`'s `ipi_spec_dst`): the way many simulated devices, each at an address of its own, send
/// their answers and NOTIFYs through one socket instead of one socket each.
///
/// SwiftNIO reads packet info but writes none, so this is a plain non-blocking socket used from one
/// event loop. A send that would block is dropped and reported as `false`: UDP may lose a datagram, and
/// the caller counts it. IPv4 and Linux only; elsewhere `init` throws.
package final class SSDPSourceAddressSocket {
    #if os(Linux)
    private var descriptor: CInt
    #endif
    /// The UDP port the datagrams leave from (chosen by the system).
    package private(set) var port = 0

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
    }

    /// Sends `bytes` to `destination` from `source` (an IPv4 address of this host, written as text).
    /// Returns `false` when the datagram was not sent (the socket's buffer is full, or no route).
    package func send(_ bytes: [UInt8], from source: SocketAddress, to destination: SocketAddress) -> Bool {
        #if os(Linux)
        guard descriptor >= 0, case .v4(let from) = source, case .v4(let to) = destination else { return false }
        var target = to.address
        var info = in_pktinfo()
        info.ipi_spec_dst = from.address.sin_addr
        // One control message: a cmsghdr, then the in_pktinfo, padded to the alignment of size_t.
        let headerSize = MemoryLayout<cmsghdr>.stride
        let alignment = MemoryLayout<Int>.size
        let payloadSpace = (MemoryLayout<in_pktinfo>.size + alignment - 1) / alignment * alignment
        var control = [UInt8](repeating: 0, count: headerSize + payloadSpace)
        return control.withUnsafeMutableBytes { controlBytes -> Bool in
            let header = controlBytes.baseAddress!.assumingMemoryBound(to: cmsghdr.self)
            header.pointee.cmsg_len = headerSize + MemoryLayout<in_pktinfo>.size
            header.pointee.cmsg_level = CInt(IPPROTO_IP)
            header.pointee.cmsg_type = CInt(IP_PKTINFO)
            controlBytes.baseAddress!.advanced(by: headerSize).copyMemory(
                from: &info,
                byteCount: MemoryLayout<in_pktinfo>.size
            )
            return bytes.withUnsafeBytes { payload -> Bool in
                var vector = iovec(
                    iov_base: UnsafeMutableRawPointer(mutating: payload.baseAddress),
                    iov_len: payload.count
                )
                return withUnsafeMutablePointer(to: &target) { target -> Bool in
                    var message = msghdr()
                    message.msg_name = UnsafeMutableRawPointer(target)
                    message.msg_namelen = socklen_t(MemoryLayout<sockaddr_in>.size)
                    message.msg_control = controlBytes.baseAddress
                    message.msg_controllen = controlBytes.count
                    return withUnsafeMutablePointer(to: &vector) { vectorPointer in
                        message.msg_iov = vectorPointer
                        message.msg_iovlen = 1
                        return sendmsg(descriptor, &message, CInt(MSG_NOSIGNAL)) == payload.count
                    }
                }
            }
        }
        #else
        return false
        #endif
    }

    /// Closes the socket; later sends return `false`.
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
