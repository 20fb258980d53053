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
import SSDPHarness

/// Captures made in code: the harness's own pcap writer for the IP packets, wrapped in other link types,
/// pcapng, fragments and byte orders, so that each reader path meets a file it must take apart.
enum CaptureFixtures {
    typealias Endpoint = SSDPEndpoint

    static let client = Endpoint(address: "192.168.1.5", port: 50_123)
    static let group = Endpoint(address: "239.255.255.250", port: 1900)

    static func search(_ target: String = "ssdp:all", mx: Int = 1) -> [UInt8] {
        Array(
            "M-SEARCH * HTTP/1.1\r\nHOST: 239.255.255.250:1900\r\nMAN: \"ssdp:discover\"\r\nMX: \(mx)\r\nST: \(target)\r\n\r\n"
                .utf8
        )
    }

    static func answer(
        usn: String,
        st: String = "upnp:rootdevice",
        location: String = "http://192.168.1.20:8060/",
        extra: String = ""
    ) -> [UInt8] {
        Array(
            ("HTTP/1.1 200 OK\r\nCache-Control: max-age=1800\r\nST: \(st)\r\nUSN: \(usn)\r\nExt:\r\n"
                + "Server: Roku/9.2.0 UPnP/1.0 Roku/9.2.0\r\nLOCATION: \(location)\r\n\(extra)\r\n").utf8
        )
    }

    /// A datagram `at` seconds into the capture.
    static func entry(_ at: Double, _ source: Endpoint, _ destination: Endpoint, _ bytes: [UInt8]) -> TraceEntry {
        TraceEntry(
            at: .milliseconds(Int64(at * 1_000)),
            source: source,
            destination: destination,
            bytes: bytes,
            fate: ""
        )
    }

    /// One search answered by two devices: a Roku twice (a duplicate) and a TV once with another ST.
    static let lan: [TraceEntry] = [
        entry(0, client, group, search()),
        entry(
            0.12,
            Endpoint(address: "192.168.1.20", port: 1900),
            client,
            answer(usn: "uuid:roku:ecp:P0A070000007::upnp:rootdevice")
        ),
        entry(
            0.13,
            Endpoint(address: "192.168.1.20", port: 1900),
            client,
            answer(usn: "uuid:roku:ecp:P0A070000007::upnp:rootdevice")
        ),
        entry(
            0.4,
            Endpoint(address: "192.168.1.31", port: 41_000),
            client,
            answer(
                usn: "uuid:0d6f1d2e-3c4b-4a59-8e7f-001122334455::urn:dial-multiscreen-org:device:dial:1",
                st: "urn:dial-multiscreen-org:device:dial:1",
                location: "http://192.168.1.31:56790/dd.xml"
            )
        ),
        entry(1.0, client, group, search()),
        entry(
            1.5,
            Endpoint(address: "192.168.1.20", port: 1900),
            client,
            answer(usn: "uuid:roku:ecp:P0A070000007::upnp:rootdevice")
        ),
    ]

    /// The IP packets of a pcap written by `Reports.pcap`, each with its time.
    static func ipPackets(_ trace: [TraceEntry]) -> [(time: Duration, packet: [UInt8])] {
        let file = Reports.pcap(trace)
        var packets: [(Duration, [UInt8])] = []
        var offset = 24
        for entry in trace {
            let length = Int(file[offset + 8]) | Int(file[offset + 9]) << 8 | Int(file[offset + 10]) << 16
            packets.append((entry.at, Array(file[offset + 16..<offset + 16 + length])))
            offset += 16 + length
        }
        return packets
    }

    /// The link-layer header of each link type the reader takes, in front of `packet`.
    static func frame(_ packet: [UInt8], linkType: Int) -> [UInt8] {
        let ipv6 = packet[0] >> 4 == 6
        let ethertype: [UInt8] = ipv6 ? [0x86, 0xDD] : [0x08, 0x00]
        switch linkType {
        case 1:  // Ethernet with an 802.1Q tag
            return [0x01, 0x00, 0x5E, 0x7F, 0xFF, 0xFA, 0x02, 0x00, 0x5E, 0, 0, 1, 0x81, 0x00, 0x00, 0x05] + ethertype
                + packet
        case 113:
            return [0, 0, 0, 1, 0, 6, 2, 0, 0x5E, 0, 0, 1, 0, 0] + ethertype + packet
        case 276:
            return ethertype + [0, 0, 0, 0, 0, 2, 0, 1, 0, 6, 2, 0, 0x5E, 0, 0, 1, 0, 0] + packet
        case 0:
            return (ipv6 ? [30, 0, 0, 0] : [2, 0, 0, 0]) + packet
        default:
            return packet
        }
    }

    /// A pcapng file: a section header, one interface of `linkType` with nanosecond timestamps, and one
    /// enhanced packet block per frame, little-endian.
    static func pcapng(_ frames: [(time: Duration, frame: [UInt8])], linkType: Int) -> [UInt8] {
        var file: [UInt8] = []
        func block(_ type: UInt32, _ body: [UInt8]) {
            let padded = body + Array(repeating: 0, count: (4 - body.count % 4) % 4)
            let length = UInt32(12 + padded.count)
            file += le(type) + le(length) + padded + le(length)
        }
        block(0x0A0D_0D0A, le(UInt32(0x1A2B_3C4D)) + [1, 0, 0, 0] + Array(repeating: 0xFF, count: 8))
        // if_tsresol = 9 (nanoseconds), then the end of options.
        block(1, le(UInt16(linkType)) + [0, 0] + le(UInt32(65_535)) + [9, 0, 1, 0, 9, 0, 0, 0] + [0, 0, 0, 0])
        block(0x0000_0BAD, [1, 2, 3, 4])  // a custom block, which a reader skips
        for (time, frame) in frames {
            let nanoseconds =
                UInt64(1_700_000_000) * 1_000_000_000 + UInt64(time.components.seconds) * 1_000_000_000
                + UInt64(time.components.attoseconds / 1_000_000_000)
            block(
                6,
                le(UInt32(0)) + le(UInt32(nanoseconds >> 32)) + le(UInt32(nanoseconds & 0xFFFF_FFFF))
                    + le(UInt32(frame.count)) + le(UInt32(frame.count)) + frame
            )
        }
        return file
    }

    /// An IPv4 packet cut into two fragments (the first with 8 bytes of UDP data after the header).
    static func ipv4Fragments(_ packet: [UInt8]) -> [[UInt8]] {
        let header = Array(packet[0..<20])
        let payload = Array(packet[20...])
        let cut = 16
        func fragment(_ piece: [UInt8], offset: Int, more: Bool) -> [UInt8] {
            var header = header
            let total = 20 + piece.count
            header[2] = UInt8(total >> 8)
            header[3] = UInt8(total & 0xFF)
            header[4] = 0x12
            header[5] = 0x34
            let flags = (more ? 0x2000 : 0) | offset / 8
            header[6] = UInt8(flags >> 8)
            header[7] = UInt8(flags & 0xFF)
            return header + piece
        }
        return [
            fragment(Array(payload[..<cut]), offset: 0, more: true),
            fragment(Array(payload[cut...]), offset: cut, more: false),
        ]
    }

    /// An IPv6 packet cut into two fragments with a fragment header.
    static func ipv6Fragments(_ packet: [UInt8]) -> [[UInt8]] {
        let payload = Array(packet[40...])
        let cut = 24
        func fragment(_ piece: [UInt8], offset: Int, more: Bool) -> [UInt8] {
            var header = Array(packet[0..<40])
            let length = 8 + piece.count
            header[4] = UInt8(length >> 8)
            header[5] = UInt8(length & 0xFF)
            header[6] = 44
            let field = offset | (more ? 1 : 0)
            return header + [17, 0, UInt8(field >> 8), UInt8(field & 0xFF), 0, 0, 0xBE, 0xEF] + piece
        }
        return [
            fragment(Array(payload[..<cut]), offset: 0, more: true),
            fragment(Array(payload[cut...]), offset: cut, more: false),
        ]
    }

    static func le<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        withUnsafeBytes(of: value.littleEndian) { Array($0) }
    }

    /// A pcap file (microseconds) of `linkType` with these frames; big-endian when asked.
    static func pcap(_ frames: [(time: Duration, frame: [UInt8])], linkType: Int, bigEndian: Bool = false) -> [UInt8] {
        func word(_ value: UInt32) -> [UInt8] {
            bigEndian ? withUnsafeBytes(of: value.bigEndian) { Array($0) } : le(value)
        }
        func half(_ value: UInt16) -> [UInt8] {
            bigEndian ? withUnsafeBytes(of: value.bigEndian) { Array($0) } : le(value)
        }
        var file = word(0xA1B2_C3D4) + half(2) + half(4) + word(0) + word(0) + word(65_535) + word(UInt32(linkType))
        for (time, frame) in frames {
            let (seconds, attoseconds) = time.components
            file += word(UInt32(seconds) + 1_700_000_000) + word(UInt32(attoseconds / 1_000_000_000_000))
            file += word(UInt32(frame.count)) + word(UInt32(frame.count)) + frame
        }
        return file
    }
}
