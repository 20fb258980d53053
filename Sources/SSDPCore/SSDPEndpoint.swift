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

/// Where a datagram comes from or goes: an address (IPv4 or IPv6) and a UDP port.
public struct SSDPEndpoint: Sendable, Hashable, CustomStringConvertible {
    /// The address as text, IPv6 without brackets (`10.0.1.1`, `fe80::1`).
    public var address: String
    /// The UDP port.
    public var port: Int

    /// An endpoint at `address` and `port`.
    @inlinable
    public init(address: String, port: Int) {
        self.address = address
        self.port = port
    }

    /// The address as the host of a URL or a HOST header: IPv6 in brackets.
    @inlinable
    public var host: String { address.utf8.contains(UInt8(ascii: ":")) ? "[\(address)]" : address }

    /// `host:port`, an IPv6 address in brackets.
    @inlinable
    public var description: String { "\(host):\(port)" }

    /// `address` as an IPv4 peer wrote it, where an IPv6 socket reports it mapped (`::ffff:192.168.1.20` is
    /// `192.168.1.20`); any other address as it is.
    package static func unmapped(_ address: String) -> String {
        address.hasPrefixIgnoringASCIICase("::ffff:") && address.contains(".")
            ? String(address.dropFirst("::ffff:".count)) : address
    }
}
