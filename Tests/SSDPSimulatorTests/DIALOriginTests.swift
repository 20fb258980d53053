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
import SSDPDevices
import Testing

/// An app's origins matched as the Netflix reference server matches them (dial_server.c's host_matches and
/// origin_matches), with its debug build's entries.
@Suite struct DIALOriginTests {
    let youTube = DIALApp(
        name: "YouTube",
        allowedOrigins: [
            "https://youtube.com", "https://www.youtube.com", "https://*.youtube.com:443",
            "https://port.youtube.com:123", "package:com.google.android.youtube", "proto:*",
        ]
    )

    @Test(arguments: [
        ("https://youtube.com", true), ("https://youtube.com:8080", true),  // an entry without a port: any port
        ("https://m.youtube.com", true), ("https://m.youtube.com:443", true),  // :443 also matches none
        ("https://m.youtube.com:444", false), ("https://a.b.youtube.com", false),  // one label only
        ("https://port.youtube.com:123", true), ("https://port.youtube.com:124", false),
        ("http://youtube.com", false), ("package:com.google.android.youtube", true), ("package:com.other", false),
        ("proto:x", true), ("proto:", false), ("https://youtube.com.evil.example", false), ("", true),
    ])
    func originsMatchAsTheReferenceServerMatchesThem(origin: String, allowed: Bool) {
        #expect(youTube.allows(origin: origin) == allowed, "\(origin)")
    }

    @Test func anAppWithoutOriginsTakesEveryOne() {
        #expect(DIALApp(name: "system", allowStop: false).allows(origin: "https://anywhere.example"))
    }
}
