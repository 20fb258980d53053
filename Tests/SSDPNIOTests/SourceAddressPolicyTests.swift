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
import SSDPNIO
import Testing

@Suite struct SourceAddressPolicyTests {
    @Test(arguments: [
        ("127.0.0.1", true), ("127.9.9.9", true), ("10.1.2.3", true), ("172.16.0.1", true), ("172.31.255.255", true),
        ("172.32.0.1", false), ("192.168.1.20", true), ("169.254.7.7", true), ("8.8.8.8", false), ("100.64.0.1", false),
        ("::1", true), ("fe80::1", true), ("fd12:3456::1", true), ("2001:db8::1", false), ("::ffff:192.168.1.2", true),
        ("::ffff:8.8.8.8", false),
        // The unspecified address: a source only on the sender's own link (an unbound client on a loopback
        // whose multicast route names no source), never routed.
        ("0.0.0.0", true), ("0.1.2.3", true), ("::", true), ("::2", false),
    ])
    func onlyLocalSourcesAreAnsweredByDefault(address: String, local: Bool) throws {
        let socketAddress = try SocketAddress(ipAddress: address, port: 50_000)
        #expect(SourceAddressPolicy.localOnly.allows(socketAddress) == local)
        #expect(SourceAddressPolicy.any.allows(socketAddress))
    }
}
