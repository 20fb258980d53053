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

import SSDPDeviceCore
import Testing

/// Which Host headers name the address a request reached: what a device guarding its control and eventing
/// against DNS rebinding takes (GUPnP 1.6's rule, read from the real stack: scripts/gupnp-light).
@Suite struct HostHeaderTests {
    @Test(arguments: [
        ("http://192.168.1.20:49152", "192.168.1.20:49152", true),
        ("http://192.168.1.20:49152", " 192.168.1.20:49152 ", true),
        ("http://192.168.1.20:80", "192.168.1.20", true),
        ("http://192.168.1.20:80", "192.168.1.20:80", true),
        ("http://[fe80::1]:1400", "[FE80::1]:1400", true),
        ("http://192.168.1.20:49152", "evil.example", false),
        ("http://192.168.1.20:49152", "evil.example:49152", false),
        ("http://192.168.1.20:49152", "192.168.1.20:1", false),
        ("http://192.168.1.20:49152", "192.168.1.20", false),
        ("http://127.0.0.1:49152", "localhost:49152", false),
        ("http://192.168.1.20:49152", "", false),
    ])
    func hostNamesTheOriginOrNot(origin: String, host: String, names: Bool) {
        let request = DeviceHTTPRequest(method: "POST", target: "/ctl", headers: ["host": host], origin: origin)
        #expect(request.hostNamesOrigin == names)
    }

    /// HTTP/1.0 may leave Host out: there is nothing to check, and a browser always sends one.
    @Test func noHostNamesNothingToRefuse() {
        #expect(DeviceHTTPRequest(method: "POST", target: "/ctl", origin: "http://10.0.0.2:8080").hostNamesOrigin)
    }
}
