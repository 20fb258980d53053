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

/// The UDP datagrams of a packet capture: a pcap or pcapng file as tcpdump, Wireshark or `ssdp-sim run
/// --trace` writes it.
///
/// Link types: Ethernet (with 802.1Q tags), Linux cooked (SLL and SLL2), raw IP, and BSD loopback. IPv4
/// and IPv6, fragments reassembled (those never completed are counted). Everything else in the file is
/// counted by kind, so that a capture without SSDP can say what it holds instead. A file that is not a
/// capture, or ends inside a packet, is an error naming the byte or packet where it went wrong; it is
/// never a crash.
package struct PacketCapture: Sendable {
    /// One UDP datagram.
    package struct Datagram: Sendable, Hashable {
        /// The packet it came in, counting from 1 as Wireshark does (the last fragment's, when reassembled).
        package var packet: Int
        /// When it was captured, in seconds since 1970.
        package var time: Double
        /// Who sent it.
        package var source: SSDPEndpoint
        /// Where it went.
        package var destination: SSDPEndpoint
        /// The UDP payload.
        package var payload: [UInt8]
    }

    /// `pcap` or `pcapng`.
    package var format: String
    /// Packets in the file.
    package var packets = 0
    /// Every UDP datagram, in capture order.
    package var datagrams: [Datagram] = []
    /// Packets that are not UDP, by kind (`TCP`, `ARP`, `ICMPv6`, `link type 105`), for saying what a
    /// capture holds instead.
    package var others: [String: Int] = [:]
    /// Fragments of IP datagrams that never completed.
    package var incompleteFragments = 0
    /// IP datagrams put together from fragments.
    package var reassembled = 0

    /// Why a file cannot be read.
    package enum ReadError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The file does not start like a pcap or pcapng file.
        case notACapture(firstBytes: [UInt8])
        /// The file ends (or a length points) past its end.
        case truncated(packet: Int, offset: Int)
        /// The capture's link type is one this reader does not take apart.
        case unsupportedLinkType(Int)
        /// A pcapng block that breaks the format's rules.
        case malformedBlock(offset: Int, reason: String)

        /// What is wrong, for the user: where in the file and why.
        package var description: String {
            switch self {
            case .notACapture(let bytes):
                let shown = bytes.prefix(4).map { String($0, radix: 16).leftPadded(to: 2) }.joined(separator: " ")
                return "not a pcap or pcapng capture (it starts with \(shown.isEmpty ? "nothing" : shown))"
            case .truncated(let packet, let offset):
                return "the file is truncated: packet \(packet) goes past the end (byte \(offset))"
            case .unsupportedLinkType(let type):
                return
                    "link type \(type) is not supported (Ethernet 1, raw IP 101/228/229, Linux cooked 113/276, loopback 0)"
            case .malformedBlock(let offset, let reason):
                return "a pcapng block at byte \(offset) is malformed: \(reason)"
            }
        }
    }

    /// Reads the capture in `bytes`.
    package static func read(_ bytes: [UInt8]) throws(ReadError) -> PacketCapture {
        guard bytes.count >= 4 else { throw .notACapture(firstBytes: bytes) }
        var reader = CaptureReader(bytes: bytes)
        let magic = reader.uint32(at: 0, bigEndian: false)
        switch magic {
        case 0x0A0D_0D0A:
            return try reader.readPcapng()
        case 0xA1B2_C3D4, 0xA1B2_3C4D, 0xD4C3_B2A1, 0x4D3C_B2A1:
            return try reader.readPcap()
        default:
            throw .notACapture(firstBytes: Array(bytes.prefix(4)))
        }
    }
}

/// Reads the file's records and takes each packet apart down to UDP.
private struct CaptureReader {
    let bytes: [UInt8]
    var capture = PacketCapture(format: "pcap")
    private var fragments = FragmentTable()

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    func uint32(at offset: Int, bigEndian: Bool) -> UInt32 {
        let value = (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) }
        return bigEndian ? value.byteSwapped : value
    }

    func uint16(at offset: Int, bigEndian: Bool) -> UInt16 {
        let value = UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
        return bigEndian ? value.byteSwapped : value
    }

    // MARK: pcap

    mutating func readPcap() throws(PacketCapture.ReadError) -> PacketCapture {
        guard bytes.count >= 24 else { throw .truncated(packet: 0, offset: bytes.count) }
        let magic = uint32(at: 0, bigEndian: false)
        let swapped = magic == 0xD4C3_B2A1 || magic == 0x4D3C_B2A1
        let nanoseconds = magic == 0xA1B2_3C4D || magic == 0x4D3C_B2A1
        let linkType = Int(uint32(at: 20, bigEndian: swapped) & 0x0FFF_FFFF)
        try Self.checkLinkType(linkType)
        var offset = 24
        while offset < bytes.count {
            let number = capture.packets + 1
            guard offset + 16 <= bytes.count else { throw .truncated(packet: number, offset: bytes.count) }
            let seconds = Double(uint32(at: offset, bigEndian: swapped))
            let fraction = Double(uint32(at: offset + 4, bigEndian: swapped))
            let length = Int(uint32(at: offset + 8, bigEndian: swapped))
            let start = offset + 16
            guard length <= bytes.count - start else { throw .truncated(packet: number, offset: bytes.count) }
            capture.packets = number
            let time = seconds + fraction / (nanoseconds ? 1e9 : 1e6)
            link(linkType, bytes[start..<start + length], packet: number, time: time)
            offset = start + length
        }
        return finished()
    }

    // MARK: pcapng

    mutating func readPcapng() throws(PacketCapture.ReadError) -> PacketCapture {
        capture.format = "pcapng"
        // Per section: each interface's link type and timestamp units per second.
        var interfaces: [(linkType: Int, unitsPerSecond: Double)] = []
        var bigEndian = false
        var offset = 0
        while offset < bytes.count {
            guard offset + 12 <= bytes.count else { throw .truncated(packet: capture.packets + 1, offset: bytes.count) }
            let type = uint32(at: offset, bigEndian: false)
            if type == 0x0A0D_0D0A {
                let order = uint32(at: offset + 8, bigEndian: false)
                guard order == 0x1A2B_3C4D || order == 0x4D3C_2B1A else {
                    throw .malformedBlock(offset: offset, reason: "the section header has no byte-order magic")
                }
                bigEndian = order == 0x4D3C_2B1A
                interfaces = []
            }
            let length = Int(uint32(at: offset + 4, bigEndian: bigEndian))
            guard length >= 12, length % 4 == 0 else {
                throw .malformedBlock(
                    offset: offset,
                    reason: "block length \(length) is not a multiple of 4 of at least 12"
                )
            }
            guard length <= bytes.count - offset else {
                throw .truncated(packet: capture.packets + 1, offset: bytes.count)
            }
            let body = offset + 8..<offset + length - 4
            switch uint32(at: offset, bigEndian: bigEndian) {
            case 1:  // interface description
                guard body.count >= 8 else { throw .malformedBlock(offset: offset, reason: "short interface block") }
                let linkType = Int(uint16(at: body.lowerBound, bigEndian: bigEndian))
                try Self.checkLinkType(linkType)
                interfaces.append(
                    (linkType, timestampResolution(options: body.lowerBound + 8..<body.upperBound, bigEndian))
                )
            case 6:  // enhanced packet
                guard body.count >= 20 else { throw .malformedBlock(offset: offset, reason: "short packet block") }
                let interface = Int(uint32(at: body.lowerBound, bigEndian: bigEndian))
                guard interface < interfaces.count else {
                    throw .malformedBlock(
                        offset: offset,
                        reason: "packet of interface \(interface), which was not described"
                    )
                }
                let high = UInt64(uint32(at: body.lowerBound + 4, bigEndian: bigEndian))
                let low = UInt64(uint32(at: body.lowerBound + 8, bigEndian: bigEndian))
                let captured = Int(uint32(at: body.lowerBound + 12, bigEndian: bigEndian))
                let data = body.lowerBound + 20
                guard captured <= body.upperBound - data else {
                    throw .truncated(packet: capture.packets + 1, offset: body.upperBound)
                }
                capture.packets += 1
                let time = Double(high << 32 | low) / interfaces[interface].unitsPerSecond
                link(interfaces[interface].linkType, bytes[data..<data + captured], packet: capture.packets, time: time)
            case 3:  // simple packet: interface 0, no timestamp
                guard let first = interfaces.first, body.count >= 4 else {
                    throw .malformedBlock(offset: offset, reason: "simple packet before any interface")
                }
                let original = Int(uint32(at: body.lowerBound, bigEndian: bigEndian))
                let data = body.lowerBound + 4
                capture.packets += 1
                link(
                    first.linkType,
                    bytes[data..<min(data + original, body.upperBound)],
                    packet: capture.packets,
                    time: 0
                )
            default:
                break  // name resolution, statistics, custom blocks
            }
            offset += length
        }
        return finished()
    }

    /// Units per second of an interface's timestamps: the `if_tsresol` option (9), microseconds without it.
    private func timestampResolution(options: Range<Int>, _ bigEndian: Bool) -> Double {
        var offset = options.lowerBound
        while offset + 4 <= options.upperBound {
            let code = uint16(at: offset, bigEndian: bigEndian)
            let length = Int(uint16(at: offset + 2, bigEndian: bigEndian))
            if code == 0 { break }
            if code == 9, length == 1, offset + 4 < options.upperBound {
                let value = bytes[offset + 4]
                let exponent = Double(value & 0x7F)
                return value & 0x80 == 0 ? pow(10, exponent) : pow(2, exponent)
            }
            offset += 4 + (length + 3) / 4 * 4
        }
        return 1e6
    }

    // MARK: link, IP and UDP

    static func checkLinkType(_ type: Int) throws(PacketCapture.ReadError) {
        guard [0, 1, 101, 113, 228, 229, 276].contains(type) else { throw .unsupportedLinkType(type) }
    }

    /// Takes the link layer off `frame` and passes on the IP packet.
    private mutating func link(_ linkType: Int, _ frame: ArraySlice<UInt8>, packet: Int, time: Double) {
        let start = frame.startIndex
        var protocolType: Int
        var payload: Int
        switch linkType {
        case 1:  // Ethernet, with any 802.1Q / 802.1ad tags
            guard frame.count >= 14 else { return count("short frame") }
            payload = start + 14
            protocolType = Int(frame[start + 12]) << 8 | Int(frame[start + 13])
            while protocolType == 0x8100 || protocolType == 0x88A8, payload + 4 <= frame.endIndex {
                protocolType = Int(frame[payload + 2]) << 8 | Int(frame[payload + 3])
                payload += 4
            }
        case 113:  // Linux cooked v1: the protocol at 14
            guard frame.count >= 16 else { return count("short frame") }
            protocolType = Int(frame[start + 14]) << 8 | Int(frame[start + 15])
            payload = start + 16
        case 276:  // Linux cooked v2: the protocol first
            guard frame.count >= 20 else { return count("short frame") }
            protocolType = Int(frame[start]) << 8 | Int(frame[start + 1])
            payload = start + 20
        case 0:  // BSD loopback: the address family in the capturing host's byte order
            guard frame.count >= 4 else { return count("short frame") }
            let family = Int(frame[start]) | Int(frame[start + 3])
            protocolType = family == 2 ? 0x0800 : [24, 28, 30].contains(family) ? 0x86DD : family
            payload = start + 4
        default:  // raw IP: the version says which
            guard let first = frame.first else { return count("short frame") }
            protocolType = first >> 4 == 6 ? 0x86DD : first >> 4 == 4 ? 0x0800 : 0
            payload = start
        }
        let ip = frame[payload...]
        switch protocolType {
        case 0x0800: ipv4(ip, packet: packet, time: time)
        case 0x86DD: ipv6(ip, packet: packet, time: time)
        case 0x0806: count("ARP")
        default: count("ethertype 0x\(String(protocolType, radix: 16))")
        }
    }

    private mutating func ipv4(_ packet: ArraySlice<UInt8>, packet number: Int, time: Double) {
        let start = packet.startIndex
        guard packet.count >= 20, packet[start] >> 4 == 4 else { return count("malformed IPv4") }
        let headerLength = Int(packet[start] & 0x0F) * 4
        let totalLength = Int(packet[start + 2]) << 8 | Int(packet[start + 3])
        guard headerLength >= 20, totalLength >= headerLength, totalLength <= packet.count else {
            return count("malformed IPv4")
        }
        let protocolNumber = packet[start + 9]
        let source = packet[start + 12..<start + 16].map(String.init).joined(separator: ".")
        let destination = packet[start + 16..<start + 20].map(String.init).joined(separator: ".")
        let flags = Int(packet[start + 6]) << 8 | Int(packet[start + 7])
        let moreFragments = flags & 0x2000 != 0
        let fragmentOffset = (flags & 0x1FFF) * 8
        var body = Array(packet[start + headerLength..<start + totalLength])
        if moreFragments || fragmentOffset > 0 {
            let identification = Int(packet[start + 4]) << 8 | Int(packet[start + 5])
            let key = "\(source)>\(destination)#\(identification)/\(protocolNumber)"
            guard let whole = fragments.add(body, offset: fragmentOffset, last: !moreFragments, key: key) else {
                return
            }
            capture.reassembled += 1
            body = whole
        }
        transport(protocolNumber, body[...], source: source, destination: destination, packet: number, time: time)
    }

    private mutating func ipv6(_ packet: ArraySlice<UInt8>, packet number: Int, time: Double) {
        let start = packet.startIndex
        guard packet.count >= 40, packet[start] >> 4 == 6 else { return count("malformed IPv6") }
        let payloadLength = Int(packet[start + 4]) << 8 | Int(packet[start + 5])
        guard 40 + payloadLength <= packet.count else { return count("malformed IPv6") }
        let source = Self.ipv6Text(packet[start + 8..<start + 24])
        let destination = Self.ipv6Text(packet[start + 24..<start + 40])
        var next = packet[start + 6]
        var offset = start + 40
        let end = start + 40 + payloadLength
        var fragment: (offset: Int, more: Bool, identification: UInt32)?
        // Extension headers: hop-by-hop, routing, fragment, destination options.
        while [0, 43, 44, 60].contains(next) {
            guard offset + 8 <= end else { return count("malformed IPv6") }
            let following = packet[offset]
            if next == 44 {
                let field = Int(packet[offset + 2]) << 8 | Int(packet[offset + 3])
                let identification = (offset + 4..<offset + 8).reduce(UInt32(0)) { $0 << 8 | UInt32(packet[$1]) }
                fragment = (field & 0xFFF8, field & 1 != 0, identification)
                offset += 8
            } else {
                offset += (Int(packet[offset + 1]) + 1) * 8
            }
            next = following
        }
        guard offset <= end else { return count("malformed IPv6") }
        var body = Array(packet[offset..<end])
        if let fragment {
            let key = "\(source)>\(destination)#\(fragment.identification)"
            guard let whole = fragments.add(body, offset: fragment.offset, last: !fragment.more, key: key) else {
                return
            }
            capture.reassembled += 1
            body = whole
        }
        transport(next, body[...], source: source, destination: destination, packet: number, time: time)
    }

    private mutating func transport(
        _ protocolNumber: UInt8,
        _ segment: ArraySlice<UInt8>,
        source: String,
        destination: String,
        packet: Int,
        time: Double
    ) {
        switch protocolNumber {
        case 17:
            let start = segment.startIndex
            guard segment.count >= 8 else { return count("malformed UDP") }
            let length = Int(segment[start + 4]) << 8 | Int(segment[start + 5])
            // A length past the packet (a capture cut at its snapshot length) keeps what was captured.
            let end = length >= 8 ? min(segment.endIndex, start + length) : segment.endIndex
            capture.datagrams.append(
                PacketCapture.Datagram(
                    packet: packet,
                    time: time,
                    source: SSDPEndpoint(
                        address: source,
                        port: Int(segment[start]) << 8 | Int(segment[start + 1])
                    ),
                    destination: SSDPEndpoint(
                        address: destination,
                        port: Int(segment[start + 2]) << 8 | Int(segment[start + 3])
                    ),
                    payload: Array(segment[start + 8..<end])
                )
            )
        case 6: count("TCP")
        case 1: count("ICMP")
        case 58: count("ICMPv6")
        case 2: count("IGMP")
        default: count("IP protocol \(protocolNumber)")
        }
    }

    private mutating func count(_ kind: String) {
        capture.others[kind, default: 0] += 1
    }

    private mutating func finished() -> PacketCapture {
        capture.incompleteFragments = fragments.incomplete
        return capture
    }

    static func ipv6Text(_ octets: ArraySlice<UInt8>) -> String {
        var raw = in6_addr()
        withUnsafeMutableBytes(of: &raw) { $0.copyBytes(from: octets) }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(AF_INET6, &raw, &text, socklen_t(text.count)) != nil else { return "::" }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// IP fragments waiting for the rest of their datagram. Bounded: at most `maximumDatagrams` datagrams in
/// progress and 64 KiB each; what never completes is counted as incomplete.
private struct FragmentTable {
    static let maximumDatagrams = 1_024
    private var pending: [String: (pieces: [Int: [UInt8]], total: Int?)] = [:]
    private(set) var dropped = 0

    var incomplete: Int { dropped + pending.values.reduce(0) { $0 + $1.pieces.count } }

    /// Adds a fragment; returns the whole datagram once every byte up to the last fragment's end is there.
    mutating func add(_ piece: [UInt8], offset: Int, last: Bool, key: String) -> [UInt8]? {
        guard offset + piece.count <= 65_535 else {
            dropped += 1
            return nil
        }
        if pending[key] == nil, pending.count >= Self.maximumDatagrams {
            dropped += 1
            return nil
        }
        var entry = pending[key] ?? ([:], nil)
        entry.pieces[offset] = piece
        if last { entry.total = offset + piece.count }
        pending[key] = entry
        guard let total = entry.total else { return nil }
        var whole: [UInt8] = []
        while whole.count < total {
            guard let next = entry.pieces[whole.count], !next.isEmpty else { return nil }
            whole += next
        }
        pending[key] = nil
        return Array(whole.prefix(total))
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
