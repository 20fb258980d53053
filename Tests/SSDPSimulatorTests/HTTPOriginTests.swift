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
import Testing

@testable import SSDPSimulator

/// The origin a device's answers name, from the address its server socket reports: what a client's Host is
/// compared with, and what a libupnp device's URLBase says.
@Suite struct HTTPOriginTests {
    @Test(arguments: [
        ("192.168.1.20", 8060, "http://192.168.1.20:8060"),
        // An IPv4 client of a server on `::` (any IPv6 link makes it so): the address as the client wrote it.
        ("::ffff:192.168.1.20", 49152, "http://192.168.1.20:49152"),
        ("fe80::1", 1400, "http://[fe80::1]:1400"),
        ("::1", 80, "http://[::1]:80"),
    ])
    func theOriginIsTheAddressTheClientReached(address: String, port: Int, origin: String) throws {
        #expect(DeviceHTTPHandler.origin(of: try SocketAddress(ipAddress: address, port: port)) == origin)
    }
}
