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

import NIOConcurrencyHelpers
import SSDPCore
import SSDPDeviceCore

/// A Hue bridge's REST API on its HTTP side (`HueBridge` answers, this serves it): JSON under `/api`, the
/// pairings and light changes recorded as `DeviceAction`s, and the link button, which the control API
/// presses (`PATCH /devices/{id} {"state": {"linkButton": true}}`).
final class HueAPIServer: Sendable {
    private let udn: String
    private let bridge: NIOLockedValueBox<HueBridge>

    init(udn: String, configuration: HueBridgeConfiguration, seed: UInt64) {
        self.udn = udn
        bridge = NIOLockedValueBox(HueBridge(configuration: configuration, seed: seed))
    }

    /// The live state a Hue bridge has: whether its link button is pressed.
    static let state: Set<String> = ["linkButton"]

    /// Why the live state `name` cannot be `value`, or `nil` when it can.
    func check(_ name: String, _ value: String) -> String? {
        guard name == "linkButton" else { return "not a Hue bridge's state (linkButton)" }
        return Self.pressed[value] == nil ? "must be true (pressed: apps may pair for 30 s) or false" : nil
    }

    /// Sets live state `name` to `value`, which `check` allowed: presses the link button or lets it go.
    func set(_ name: String, to value: String) {
        bridge.withLockedValue { bridge in
            if Self.pressed[value] == true { bridge.pressLinkButton(at: .now) } else { bridge.releaseLinkButton() }
        }
    }

    /// Whether a `linkButton` value presses the button: `true` or `false`, as text or as JSON's booleans
    /// (which the control API passes on as UPnP's `1` and `0`).
    private static let pressed = ["true": true, "1": true, "false": false, "0": false]

    /// The answer for a path under `/api`, or `nil` for another path.
    func respond(to request: DeviceHTTPRequest) -> DeviceHTTPResponse? {
        let hueRequest = HueBridge.Request(
            method: request.method,
            path: request.path,
            body: request.body,
            now: .now,
            address: Self.host(of: request.origin),
            utc: HTTPDate.isoString(secondsSince1970: HTTPDate.secondsNow)
        )
        guard let answer = bridge.withLockedValue({ $0.respond(to: hueRequest) }) else { return nil }
        let actions = answer.action.map { [DeviceAction(udn: udn, name: $0.name, value: $0.value)] } ?? []
        return DeviceHTTPResponse(
            status: 200,
            headers: [SSDPHeaderField(name: "Content-type", value: "application/json")],
            body: answer.json.text,
            actions: actions
        )
    }

    /// `192.168.1.2` of `http://192.168.1.2:80`.
    private static func host(of origin: String) -> String {
        let authority = origin.split(separator: "/").last.map(String.init) ?? origin
        return String(authority.prefix { $0 != ":" })
    }
}
