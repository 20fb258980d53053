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

/// A DIAL server as the simulator's HTTP server asks it (it has no live state of its own: its apps run,
/// stop and hide through its REST side), and the endpoints it serves.
extension DIALServer: DeviceAPI {
    /// The answer for a path under the application URL (`respond(to:)`; DIAL keeps no time).
    public mutating func respond(to request: DeviceHTTPRequest, at time: DeviceAPITime) -> DeviceAPIAnswer? {
        respond(to: request)
    }
}

extension DIALConfiguration: DeviceAPIConfiguration {
    /// The DIAL server of `device`, every app stopped.
    public func makeAPI(for device: SSDPDevice, seed: UInt64, at time: DeviceAPITime) -> any DeviceAPI {
        DIALServer(udn: device.udn, configuration: self)
    }

    /// `Application-URL`, on the description at `descriptionPath`: where a DIAL client finds the apps.
    public func descriptionHeaders(at path: String, origin: String) -> [SSDPHeaderField]? {
        path == descriptionPath ? [SSDPHeaderField(name: "Application-URL", value: origin + applicationPath)] : nil
    }

    /// The endpoints under the application URL.
    public var endpoints: [DeviceHTTPEndpoint] {
        var endpoints: [DeviceHTTPEndpoint] = []
        let base = applicationPath.hasSuffix("/") ? applicationPath : applicationPath + "/"
        if redirectsToRunningApp {
            endpoints.append(.init(methods: "GET", path: base, summary: "302 to the running app, 204 when idle"))
        }
        let names = apps.map(\.name).joined(separator: ", ")
        return endpoints + [
            .init(methods: "GET", path: base + "{app}", summary: "DIAL app status (apps: \(names))"),
            .init(methods: "POST", path: base + "{app}", summary: "launch: 201 + Location, 413 over 4096 bytes"),
            .init(methods: "DELETE", path: base + "{app}/run", summary: "stop: 200, 404 when not running"),
            .init(methods: "POST", path: base + "{app}/run/hide", summary: "hide: 200, 404 when not running"),
            .init(methods: "POST", path: base + "{app}/dial_data", summary: "additionalData for the status"),
            .init(methods: "OPTIONS", path: base + "{app}", summary: "CORS preflight: 204"),
        ]
    }
}
