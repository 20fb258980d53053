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
import SSDPDeviceCore
import Testing

@testable import SSDPDevices
@testable import SSDPSimulator

/// The one server every device API is served through keeps what a request changed for the next request,
/// whatever the family (a DIAL launch here), and a device's site asks its APIs once per request.
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

    /// The device's site asks its APIs once per request: a second ask of a DIAL stop would find the app
    /// stopped and answer 404.
    @Test func theSiteAsksAnAPIOncePerRequest() throws {
        let site = DeviceSite(device: SimulatorProfile.dialTV.device(number: 1, seed: 1))
        let description = site.respond(to: Self.request("GET", "/dd.xml"))
        let apps = try #require(description.headers.first { $0.name == "Application-URL" }?.value)
        let youTube = String(apps.dropFirst(Self.origin.count)) + "YouTube"
        #expect(site.respond(to: Self.request("POST", youTube)).status == 201)
        #expect(site.respond(to: Self.request("DELETE", youTube + "/run")).status == 200)
        #expect(site.respond(to: Self.request("DELETE", youTube + "/run")).status == 404)
    }
}
