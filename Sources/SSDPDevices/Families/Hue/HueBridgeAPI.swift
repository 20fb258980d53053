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

/// A Hue bridge's REST API as the simulator's HTTP server asks it: JSON under `/api`, the pairings and
/// light changes reported as `DeviceAction`s of the bridge `udn`, and its live state, the link button,
/// which the control API presses (`PATCH /devices/{id} {"state": {"linkButton": true}}`).
public struct HueBridgeAPI: DeviceAPI {
    /// The bridge.
    public private(set) var bridge: HueBridge
    private let udn: String

    /// The API of `bridge`, whose device is `udn`.
    public init(udn: String, bridge: HueBridge) {
        self.udn = udn
        self.bridge = bridge
    }

    /// Whether its link button is pressed.
    public var liveState: Set<String> { ["linkButton"] }

    /// Why `value` cannot be the link button's state: `true` or `false` only.
    public func check(_ name: String, _ value: String) -> String? {
        guard name == "linkButton" else { return "not a Hue bridge's state (linkButton)" }
        return Self.pressed[value] == nil ? "must be true (pressed: apps may pair for 30 s) or false" : nil
    }

    /// Presses the link button or lets it go.
    public mutating func set(_ name: String, to value: String, at time: DeviceAPITime) {
        if Self.pressed[value] == true { bridge.pressLinkButton(at: time.instant) } else { bridge.releaseLinkButton() }
    }

    /// Whether a `linkButton` value presses the button: `true` or `false`, as text or as JSON's booleans
    /// (which the control API passes on as UPnP's `1` and `0`).
    private static let pressed = ["true": true, "1": true, "false": false, "0": false]

    /// The bridge's JSON, always 200 as the bridge answers (errors included), for a path under `/api`.
    public mutating func respond(to request: DeviceHTTPRequest, at time: DeviceAPITime) -> DeviceAPIAnswer? {
        let hueRequest = HueBridge.Request(
            method: request.method,
            path: request.path,
            body: request.body,
            now: time.instant,
            address: SSDPRootDevice.host(of: request.origin),
            utc: HTTPDate.isoString(secondsSince1970: time.secondsSince1970)
        )
        guard let answer = bridge.respond(to: hueRequest) else { return nil }
        return DeviceAPIAnswer(
            status: 200,
            headers: [SSDPHeaderField(name: "Content-type", value: "application/json")],
            content: .text(answer.json.text),
            actions: answer.action.map { [DeviceAction(udn: udn, name: $0.name, value: $0.value)] } ?? []
        )
    }
}

extension HueBridgeConfiguration: DeviceAPIConfiguration {
    /// The bridge as configured, its keys drawn from `seed`.
    public func makeAPI(for device: SSDPDevice, seed: UInt64, at time: DeviceAPITime) -> any DeviceAPI {
        HueBridgeAPI(udn: device.udn, bridge: HueBridge(configuration: self, seed: seed))
    }

    /// The REST API's endpoints.
    public var endpoints: [DeviceHTTPEndpoint] {
        [
            .init(
                methods: "GET",
                path: "/api/config",
                summary: "what bridge this is (bridgeid, apiversion), to anyone"
            ),
            .init(
                methods: "POST",
                path: "/api",
                summary: "pair an app: its key while the link button is pressed, else error 101 (recorded)"
            ),
            .init(methods: "GET", path: "/api/{key}", summary: "the whole bridge: lights, config, empty groups…"),
            .init(
                methods: "GET",
                path: "/api/{key}/config",
                summary: "the full configuration, paired apps included"
            ),
            .init(
                methods: "GET",
                path: "/api/{key}/lights[/{id}]",
                summary: "the lights (a color and a white lamp)"
            ),
            .init(
                methods: "PUT",
                path: "/api/{key}/lights/{id}/state",
                summary: "on, bri, hue, sat, xy, ct, alert, effect (recorded)"
            ),
            .init(methods: "PUT", path: "/api/{key}/lights/{id}", summary: "rename a light (recorded)"),
        ]
    }
}
