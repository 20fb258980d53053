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

/// A Roku's ECP as the simulator's HTTP server asks it, and the endpoints it serves.
extension RokuECP: DeviceAPI {
    /// `powerMode`, `activeApp` and a TV's `tvChannel`.
    public var liveState: Set<String> { Self.state }

    /// Sets a live state at `time` (`set(_:to:at:)` with the instant).
    public mutating func set(_ name: String, to value: String, at time: DeviceAPITime) {
        set(name, to: value, at: time.instant)
    }

    /// device-info reports the new names.
    public mutating func update(device: SSDPDevice) {
        self.device = device
    }

    /// The ECP's answer at `time` (`respond(to:at:)` with the instant).
    public mutating func respond(to request: DeviceHTTPRequest, at time: DeviceAPITime) -> DeviceAPIAnswer? {
        respond(to: request, at: time.instant)
    }
}

extension RokuConfiguration: DeviceAPIConfiguration {
    /// The ECP of `device`, started at `time` as the configuration says.
    public func makeAPI(for device: SSDPDevice, seed: UInt64, at time: DeviceAPITime) -> any DeviceAPI {
        RokuECP(device: device, configuration: self, startedAt: time.instant)
    }

    /// The ECP's endpoints, and a Roku TV's besides.
    public var endpoints: [DeviceHTTPEndpoint] {
        var endpoints: [DeviceHTTPEndpoint] = [
            .init(
                methods: "GET",
                path: "/query/device-info",
                summary: "ECP device info (serial, model, software, power mode)"
            ),
            .init(methods: "GET", path: "/query/apps", summary: "installed channels"),
            .init(methods: "GET", path: "/query/active-app", summary: "the channel in front"),
            .init(methods: "GET", path: "/query/media-player", summary: "player state"),
            .init(methods: "POST", path: "/keypress/{key}", summary: "press a key (recorded as an action)"),
            .init(methods: "POST", path: "/keydown/{key}", summary: "hold a key (recorded)"),
            .init(methods: "POST", path: "/keyup/{key}", summary: "release a key (recorded)"),
            .init(
                methods: "POST",
                path: "/launch/{id}",
                summary: "launch a channel (recorded; 404 for an unknown id)"
            ),
            .init(methods: "POST", path: "/input", summary: "send input parameters (recorded)"),
        ]
        if !tvChannels.isEmpty {
            endpoints += [
                .init(methods: "GET", path: "/query/tv-channels", summary: "the antenna channels"),
                .init(
                    methods: "GET",
                    path: "/query/tv-active-channel",
                    summary: "the tuned channel and its programme"
                ),
                .init(
                    methods: "POST",
                    path: "/launch/tvinput.dtv?ch={number}",
                    summary: "tune a channel (InputHDMI1, InputTuner, ChannelUp keys too)"
                ),
            ]
        }
        return endpoints
    }
}
