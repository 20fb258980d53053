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
import SSDPDevices

/// One device API on the HTTP side (a Roku's ECP, a Hue bridge's, a DIAL server's; `DeviceAPI` answers,
/// this serves it with the time, behind a lock): whatever the family, the server asks it the same way.
final class DeviceAPIServer: Sendable {
    private let api: NIOLockedValueBox<any DeviceAPI>
    /// The names of the live state it has (`DeviceAPI.liveState`).
    let liveState: Set<String>

    init(_ api: any DeviceAPI) {
        self.api = NIOLockedValueBox(api)
        liveState = api.liveState
    }

    /// The answer for a path of the API, or `nil` when `request` is for another path.
    func respond(to request: DeviceHTTPRequest) -> DeviceHTTPResponse? {
        api.withLockedValue { $0.respond(to: request, at: .now) }.map(DeviceHTTPResponse.init)
    }

    /// Why the live state `name` cannot be `value`, or `nil` when it can.
    func check(_ name: String, _ value: String) -> String? {
        api.withLockedValue { $0.check(name, value) }
    }

    /// Sets live state `name` to `value`, which `check` allowed.
    func set(_ name: String, to value: String) {
        api.withLockedValue { $0.set(name, to: value, at: .now) }
    }

    /// The device's names changed (`PATCH /devices/{id}`).
    func update(device: SSDPDevice) {
        api.withLockedValue { $0.update(device: device) }
    }
}

extension DeviceAPITime {
    /// Now, on both clocks.
    static var now: DeviceAPITime {
        DeviceAPITime(instant: .now, secondsSince1970: HTTPDate.secondsNow)
    }
}
