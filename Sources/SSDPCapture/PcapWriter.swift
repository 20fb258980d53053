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

import Foundation
import SSDPCore

/// Writes datagrams as a pcap file, for Wireshark and `tcpdump -r`: what `PacketCapture` reads, written.
package enum PcapWriter {
    /// One datagram to write: when, from where, to where, and its payload.
    package struct Datagram: Sendable {
        /// From the start of the capture (a search's start; negative before it).
        package var at: Duration
        /// Who sent it.
        package var source: SSDPEndpoint
        /// Where it went.
        package var destination: SSDPEndpoint
        /// The UDP payload.
        package var payload: [UInt8]

        /// A datagram sent `at` from `source` to `destination`.
        package init(at: Duration, source: SSDPEndpoint, destination: SSDPEndpoint, payload: [UInt8]) {
            self.at = at
            self.source = source
            self.destination = destination
            self.payload = payload
        }
    }

    /// A pcap file (LINKTYPE_RAW: each packet an IPv4 or IPv6 header, a UDP header and the datagram) of
    /// `datagrams`, stamped `start` seconds after 1970 plus each one's time. Virtual runs start at 0, so
    /// `tcpdump -tt` prints virtual seconds.
    package static func pcap(_ datagrams: [Datagram], startingAt start: Double = 0) -> [UInt8] {
        let start = Duration.microseconds(Int64(start * 1_000_000))
        var file: [UInt8] = []
        file.appendLittleEndian(UInt32(0xA1B2_C3D4))  // microsecond timestamps
        file.appendLittleEndian(UInt16(2))
        file.appendLittleEndian(UInt16(4))
        file.appendLittleEndian(UInt32(0))  // GMT offset
        file.appendLittleEndian(UInt32(0))  // accuracy
        file.appendLittleEndian(UInt32(65_535))  // snapshot length
        file.appendLittleEndian(UInt32(101))  // LINKTYPE_RAW
        for entry in datagrams {
            let packet = entry.source.address.contains(":") ? ipv6Packet(entry) : ipv4Packet(entry)
            let time = max(.zero, start + entry.at)
            let (seconds, attoseconds) = time.components
            file.appendLittleEndian(UInt32(truncatingIfNeeded: seconds))
            file.appendLittleEndian(UInt32(attoseconds / 1_000_000_000_000))
            file.appendLittleEndian(UInt32(packet.count))
            file.appendLittleEndian(UInt32(packet.count))
            file += packet
        }
        return file
    }

    static func ipv4Packet(_ entry: Datagram) -> [UInt8] {
        let payload = entry.payload.prefix(65_507)
        let udpLength = 8 + payload.count
        let totalLength = 20 + udpLength
        let multicast = entry.destination.address.hasPrefix("239.")
        var header: [UInt8] = [0x45, 0]
        header.appendBigEndian(UInt16(totalLength))
        header += [0, 0, 0x40, 0]  // identification 0, don't fragment
        header += [multicast ? 2 : 64, 17, 0, 0]  // TTL, UDP, checksum (filled below)
        header += octets(entry.source.address) + octets(entry.destination.address)
        let checksum = internetChecksum(header)
        header[10] = UInt8(checksum >> 8)
        header[11] = UInt8(checksum & 0xFF)
        var udp: [UInt8] = []
        udp.appendBigEndian(UInt16(entry.source.port))
        udp.appendBigEndian(UInt16(entry.destination.port))
        udp.appendBigEndian(UInt16(udpLength))
        udp.appendBigEndian(UInt16(0))  // no UDP checksum (allowed over IPv4)
        return header + udp + payload
    }

    static func ipv6Packet(_ entry: Datagram) -> [UInt8] {
        let payload = Array(entry.payload.prefix(65_487))
        let udpLength = 8 + payload.count
        let (source, destination) = (ipv6Octets(entry.source.address), ipv6Octets(entry.destination.address))
        var header: [UInt8] = [0x60, 0, 0, 0]  // version 6, no traffic class or flow label
        header.appendBigEndian(UInt16(udpLength))
        header += [17, destination[0] == 0xFF ? 2 : 64]  // UDP, hop limit
        header += source + destination
        var udp: [UInt8] = []
        udp.appendBigEndian(UInt16(entry.source.port))
        udp.appendBigEndian(UInt16(entry.destination.port))
        udp.appendBigEndian(UInt16(udpLength))
        udp.appendBigEndian(UInt16(0))
        // IPv6 requires the UDP checksum, over a pseudo-header of addresses, length and protocol.
        var pseudo = source + destination
        pseudo.appendBigEndian(UInt32(udpLength))
        pseudo += [0, 0, 0, 17]
        let checksum = internetChecksum(pseudo + udp + payload)
        udp[6] = UInt8((checksum == 0 ? 0xFFFF : checksum) >> 8)
        udp[7] = UInt8((checksum == 0 ? 0xFFFF : checksum) & 0xFF)
        return header + udp + payload
    }

    private static func ipv6Octets(_ address: String) -> [UInt8] {
        var raw = in6_addr()
        guard inet_pton(AF_INET6, address, &raw) == 1 else { return Array(repeating: 0, count: 16) }
        return withUnsafeBytes(of: raw) { Array($0) }
    }

    private static func octets(_ address: String) -> [UInt8] {
        let parts = address.split(separator: ".").compactMap { UInt8($0) }
        return parts.count == 4 ? parts : [0, 0, 0, 0]
    }

    private static func internetChecksum(_ bytes: [UInt8]) -> UInt16 {
        var sum: UInt32 = 0
        for index in stride(from: 0, to: bytes.count, by: 2) {
            sum += UInt32(bytes[index]) << 8 | UInt32(index + 1 < bytes.count ? bytes[index + 1] : 0)
        }
        while sum > 0xFFFF { sum = (sum & 0xFFFF) + (sum >> 16) }
        return ~UInt16(sum)
    }
}

extension [UInt8] {
    fileprivate mutating func appendLittleEndian<T: FixedWidthInteger>(_ value: T) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }

    fileprivate mutating func appendBigEndian<T: FixedWidthInteger>(_ value: T) {
        Swift.withUnsafeBytes(of: value.bigEndian) { append(contentsOf: $0) }
    }
}
