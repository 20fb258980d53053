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

/// Which searchers a simulator answers. By default only those that cannot be far away: loopback,
/// private (RFC 1918, IPv6 ULA) and link-local addresses, and the unspecified address (0.0.0.0, `::`),
/// which a host uses as its source only on its own link and no router forwards (RFC 1122 §3.2.1.3,
/// RFC 4291 §2.5.2): Linux sends from it on a loopback whose multicast route names no source, as the one
/// `ip route add 239.0.0.0/8 dev lo` makes, when the client binds no address. A public source address on
/// an SSDP search is either a misconfiguration or a spoofed request from a reflection attack.
public enum SourceAddressPolicy: Sendable, Hashable {
    /// Loopback, private and link-local sources only.
    case localOnly
    /// Any source (`--allow-any-source`).
    case any

    /// Whether a search from `address` may be answered.
    public func allows(_ address: SocketAddress) -> Bool {
        switch self {
        case .any: true
        case .localOnly: Self.isLocal(address)
        }
    }

    /// Whether `address` is loopback, private, link-local or unspecified.
    public static func isLocal(_ address: SocketAddress) -> Bool {
        switch address {
        case .v4(let v4):
            return isLocal(ipv4: UInt32(bigEndian: v4.address.sin_addr.s_addr))
        case .v6(let v6):
            let bytes = withUnsafeBytes(of: v6.address.sin6_addr) { Array($0) }
            return isLocal(ipv6: bytes)
        case .unixDomainSocket:
            return false
        }
    }

    static func isLocal(ipv4 address: UInt32) -> Bool {
        let prefixes: [(network: UInt32, bits: UInt32)] = [
            (0x0000_0000, 8),  // 0.0.0.0/8 "this host on this network", never routed
            (0x7F00_0000, 8),  // 127.0.0.0/8 loopback
            (0x0A00_0000, 8),  // 10.0.0.0/8
            (0xAC10_0000, 12),  // 172.16.0.0/12
            (0xC0A8_0000, 16),  // 192.168.0.0/16
            (0xA9FE_0000, 16),  // 169.254.0.0/16 link-local
        ]
        return prefixes.contains { address >> (32 - $0.bits) == $0.network >> (32 - $0.bits) }
    }

    static func isLocal(ipv6 bytes: [UInt8]) -> Bool {
        guard bytes.count == 16 else { return false }
        if bytes[0..<15].allSatisfy({ $0 == 0 }) && bytes[15] <= 1 { return true }  // ::1, and :: (unspecified)
        if bytes[0] == 0xFE && bytes[1] & 0xC0 == 0x80 { return true }  // fe80::/10 link-local
        if bytes[0] & 0xFE == 0xFC { return true }  // fc00::/7 unique local
        if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF {  // ::ffff:a.b.c.d
            let ipv4 = bytes[12...].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            return isLocal(ipv4: ipv4)
        }
        return false
    }
}
