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

import SSDPCore

/// The addresses of the virtual network, for IPv4 or IPv6 searches. IPv4: the client is 10.0.0.1 (its
/// sessions on ports 40000 and up), device `n` (from 0) is 10.0.(n / 250 + 1).(n % 250 + 1) on port 1900,
/// the group 239.255.255.250:1900. IPv6: the client is fe80::1, device `n` fe80::d:(n + 1 in hex), the group
/// ff02::c; LOCATIONs are `http://[fe80::…]:port/`.
package enum VirtualAddressPlan: Sendable, Hashable {
    /// IPv4 addresses, the group 239.255.255.250.
    case ipv4
    /// IPv6 link-local addresses, the group ff02::c.
    case ipv6

    /// The client's first session.
    @inlinable
    package var client: SSDPEndpoint {
        SSDPEndpoint(address: self == .ipv6 ? "fe80::1" : "10.0.0.1", port: 40_000)
    }

    /// The SSDP multicast group.
    @inlinable
    package var group: SSDPEndpoint {
        SSDPEndpoint(
            address: self == .ipv6 ? "ff02::c" : SSDPSearchSessionConfiguration.multicastHost,
            port: SSDPSearchSessionConfiguration.multicastPort
        )
    }

    /// Device `index` (from 0), on its own host.
    @inlinable
    package func device(_ index: Int) -> SSDPEndpoint {
        let address =
            self == .ipv6 ? "fe80::d:\(String(index + 1, radix: 16))" : "10.0.\(index / 250 + 1).\(index % 250 + 1)"
        return SSDPEndpoint(address: address, port: 1900)
    }
}
