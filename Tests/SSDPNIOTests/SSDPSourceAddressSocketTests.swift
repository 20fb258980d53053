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

#if os(Linux)
import Glibc
import NIOCore
import Testing

@testable import SSDPNIO

/// The source-address socket's batches, on loopback: every datagram arrives, in order, from the address it
/// was given, with one system call per 64.
@Suite struct SSDPSourceAddressSocketTests {
    @Test func sendsBatchesInOrderEachFromItsOwnAddress() throws {
        let receiver = try LoopbackReceiver()
        defer { receiver.close() }
        let socket = try SSDPSourceAddressSocket(interfaceIndex: Int(if_nametoindex("lo")), ttl: 2)
        defer { socket.close() }
        let destination = try SocketAddress(ipAddress: "127.0.0.1", port: receiver.port)
        let sources = try ["127.0.0.2", "127.0.0.3", "127.0.0.4"].map { try SocketAddress(ipAddress: $0, port: 0) }
        var batch = (0..<150).map { index in
            SSDPSourceAddressSocket.Outgoing(
                bytes: Array("answer \(index)".utf8),
                from: sources[index % sources.count],
                to: destination
            )
        }
        // Not IPv4 to IPv4: skipped, and the rest still leave.
        batch.insert(.init(bytes: [1], from: sources[0], to: try SocketAddress(ipAddress: "::1", port: 9)), at: 70)

        #expect(socket.send(batch) == 150)
        #expect(socket.sendCalls == 3)  // 64 + 64 + 22
        var received: [(String, String)] = []
        while let (bytes, source) = receiver.receive() {
            received.append((String(decoding: bytes, as: UTF8.self), source))
        }
        #expect(received.map(\.0) == (0..<150).map { "answer \($0)" })
        #expect(received.map(\.1) == (0..<150).map { ["127.0.0.2", "127.0.0.3", "127.0.0.4"][$0 % 3] })
    }

    @Test func aClosedSocketSendsNothing() throws {
        let socket = try SSDPSourceAddressSocket(interfaceIndex: Int(if_nametoindex("lo")), ttl: 2)
        socket.close()
        let to = try SocketAddress(ipAddress: "127.0.0.1", port: 9)
        let from = try SocketAddress(ipAddress: "127.0.0.2", port: 0)
        #expect(socket.send([.init(bytes: [1], from: from, to: to)]) == 0)
    }
}

/// A plain UDP socket on 127.0.0.1 that reads what has arrived, with the address it came from.
private struct LoopbackReceiver {
    let descriptor: CInt
    let port: Int

    init() throws {
        let descriptor = socket(AF_INET, CInt(SOCK_DGRAM.rawValue) | CInt(SOCK_NONBLOCK.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        // Room for the whole batch whatever the system's default (208 KiB holds about 150 such datagrams).
        var size = CInt(1 << 20)
        let sized = setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<CInt>.size)) == 0
        try #require(descriptor >= 0 && bound && sized)
        self.descriptor = descriptor
        self.port = Int(UInt16(bigEndian: address.sin_port))
    }

    /// The next datagram and its source address, or `nil` when none arrives within 200 ms.
    func receive() -> ([UInt8], String)? {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, 200) == 1 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 2_048)
        var source = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let count = withUnsafeMutablePointer(to: &source) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                recvfrom(descriptor, &buffer, buffer.count, 0, $0, &length)
            }
        }
        guard count >= 0 else { return nil }
        return (Array(buffer.prefix(count)), String(cString: inet_ntoa(source.sin_addr)))
    }

    func close() {
        _ = Glibc.close(descriptor)
    }
}
#endif
