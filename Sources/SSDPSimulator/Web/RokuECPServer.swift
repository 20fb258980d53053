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

/// A Roku's ECP on its HTTP side (`RokuECP` answers, this serves it, with the time): queries, key presses
/// and launches, recorded as `DeviceAction`s, and the live state the control API sets.
final class RokuECPServer: Sendable {
    private let ecp: NIOLockedValueBox<RokuECP>

    init(device: SSDPDevice, configuration: RokuConfiguration) {
        ecp = NIOLockedValueBox(RokuECP(device: device, configuration: configuration, startedAt: .now))
    }

    /// The live state a Roku has besides its services' variables.
    static let state = RokuECP.state

    /// The device's names change (`PATCH /devices/{id}`): device-info reports the new ones.
    func update(device: SSDPDevice) {
        ecp.withLockedValue { $0.device = device }
    }

    /// Why the live state `name` cannot be `value`, or `nil` when it can (`RokuECP.check`).
    func check(_ name: String, _ value: String) -> String? {
        ecp.withLockedValue { $0.check(name, value) }
    }

    /// Sets live state `name` to `value`, which `check` allowed.
    func set(_ name: String, to value: String) {
        ecp.withLockedValue { $0.set(name, to: value, at: .now) }
    }

    /// The answer for an ECP path, or `nil` when `request` is for another path.
    func respond(to request: DeviceHTTPRequest) -> DeviceHTTPResponse? {
        ecp.withLockedValue { $0.respond(to: request, at: .now) }.map(DeviceHTTPResponse.init)
    }
}
