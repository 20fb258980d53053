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

@testable import SSDPDevices
@testable import SSDPSimulator

/// The one server every device API is served through keeps what a request changed for the next request,
/// whatever the family (a DIAL launch here), and asks the API once per request (`ProfileLiveTests` holds a
/// device to that over HTTP: a second ask would stop a DIAL app twice).
@Suite struct DeviceAPIServerTests {
    private static let origin = "http://127.0.0.1:8060"

    private static func request(_ method: String, _ target: String) -> DeviceHTTPRequest {
        DeviceHTTPRequest(method: method, target: target, origin: origin)
    }

    @Test func aDIALAppLaunchedRunsUntilStopped() throws {
        let configuration = DIALConfiguration(descriptionPath: "/dd.xml", applicationPath: "/apps")
        let server = DeviceAPIServer(
            configuration.makeAPI(for: SSDPDevice(udn: "uuid:tv", deviceType: "urn:x:device:tv:1"), seed: 1, at: .now)
        )
        #expect(server.liveState.isEmpty)
        #expect(try #require(server.respond(to: Self.request("GET", "/apps/YouTube"))).body.contains("stopped"))
        #expect(server.respond(to: Self.request("POST", "/apps/YouTube"))?.status == 201)
        #expect(try #require(server.respond(to: Self.request("GET", "/apps/YouTube"))).body.contains("running"))
        #expect(server.respond(to: Self.request("DELETE", "/apps/YouTube/run"))?.status == 200)
        #expect(server.respond(to: Self.request("DELETE", "/apps/YouTube/run"))?.status == 404)
        #expect(server.respond(to: Self.request("GET", "/description.xml")) == nil)
    }
}
