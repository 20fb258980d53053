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
import SSDPDevices
import SSDPSimulator

/// Devices of one kind for `LoopbackLAN.run` and `VirtualLAN`: a built-in profile a number of times,
/// devices you made yourself, or the devices of a device file or a scenario file.
///
/// ```swift
/// [.roku(count: 2), .igd(behaviour: .lossy(0.3)), .deviceFile("Fixtures/tv.json")]
/// ```
public struct DeviceGroup: Sendable {
    enum Source: Sendable {
        case profile(String, count: Int)
        case devices([SimulatedDevice])
        case deviceFile(String)
        case scenario(String)
    }

    let source: Source
    /// Replaces each device's behaviour (a profile's own quirks included) when given.
    let behaviour: SSDPDeviceBehaviour?

    /// `count` devices of the built-in profile `name` (`ssdp-sim profiles` lists them), each with its own
    /// UDN, serial and address.
    public static func profile(_ name: String, count: Int = 1, behaviour: SSDPDeviceBehaviour? = nil) -> Self {
        Self(source: .profile(name, count: count), behaviour: behaviour)
    }

    /// Rokus (`roku:ecp`, the ECP API on :8060).
    public static func roku(count: Int = 1, behaviour: SSDPDeviceBehaviour? = nil) -> Self {
        profile("roku", count: count, behaviour: behaviour)
    }

    /// Roku TVs (a Roku's ECP with HDMI and antenna inputs and TV channels, on :8060).
    public static func rokuTV(count: Int = 1, behaviour: SSDPDeviceBehaviour? = nil) -> Self {
        profile("roku-tv", count: count, behaviour: behaviour)
    }

    /// DIAL TVs (`urn:dial-multiscreen-org:service:dial:1`, the DIAL REST API).
    public static func dialTV(count: Int = 1, behaviour: SSDPDeviceBehaviour? = nil) -> Self {
        profile("dial-tv", count: count, behaviour: behaviour)
    }

    /// Philips Hue bridges (which answer every search, twice, as the real bridge does).
    public static func hue(count: Int = 1, behaviour: SSDPDeviceBehaviour? = nil) -> Self {
        profile("hue", count: count, behaviour: behaviour)
    }

    /// Sonos players of one household (ZonePlayer, SOAP on :1400).
    public static func sonos(count: Int = 1, behaviour: SSDPDeviceBehaviour? = nil) -> Self {
        profile("sonos", count: count, behaviour: behaviour)
    }

    /// miniupnpd internet gateways (port mappings over SOAP on :5000).
    public static func igd(count: Int = 1, behaviour: SSDPDeviceBehaviour? = nil) -> Self {
        profile("igd", count: count, behaviour: behaviour)
    }

    /// MiniDLNA media servers (ContentDirectory Browse on :8200).
    public static func dlnaServer(count: Int = 1, behaviour: SSDPDeviceBehaviour? = nil) -> Self {
        profile("dlna-server", count: count, behaviour: behaviour)
    }

    /// gmrender-resurrect renderers (AVTransport, ConnectionManager, RenderingControl on :49152).
    public static func renderer(count: Int = 1, behaviour: SSDPDeviceBehaviour? = nil) -> Self {
        profile("renderer", count: count, behaviour: behaviour)
    }

    /// Chromecasts of the DIAL era (`urn:dial-multiscreen-org:device:dial:1` on :8008).
    public static func chromecast(count: Int = 1, behaviour: SSDPDeviceBehaviour? = nil) -> Self {
        profile("chromecast-legacy", count: count, behaviour: behaviour)
    }

    /// Plain UPnP MediaRenderer:1 devices.
    public static func generic(count: Int = 1, behaviour: SSDPDeviceBehaviour? = nil) -> Self {
        profile("generic", count: count, behaviour: behaviour)
    }

    /// Devices you built yourself (`SimulatorProfile.roku.device(number:seed:)` with changes, or from scratch).
    public static func devices(_ devices: [SimulatedDevice], behaviour: SSDPDeviceBehaviour? = nil) -> Self {
        Self(source: .devices(devices), behaviour: behaviour)
    }

    /// The devices of a device file, as `ssdp-sim serve --devices PATH` runs them.
    public static func deviceFile(_ path: String, behaviour: SSDPDeviceBehaviour? = nil) -> Self {
        Self(source: .deviceFile(path), behaviour: behaviour)
    }

    /// The devices of a scenario file (`Scenarios/*.json`), with the behaviours the scenario gives them.
    public static func scenario(_ path: String, behaviour: SSDPDeviceBehaviour? = nil) -> Self {
        Self(source: .scenario(path), behaviour: behaviour)
    }

    /// The devices of every group, numbered from 1 across the groups so that no two share a UDN.
    ///
    /// - Throws: `SSDPConfigurationError` for an unknown profile, a count below 1 or a bad behaviour;
    ///   `SimulatorInputError` (naming the file, the field and the reason) for a bad device or scenario file.
    static func devices(of groups: [DeviceGroup], seed: UInt64) throws -> [SimulatedDevice] {
        var devices: [SimulatedDevice] = []
        for group in groups {
            var made: [SimulatedDevice]
            switch group.source {
            case .profile(let name, let count):
                guard count >= 1 else {
                    throw SSDPConfigurationError(field: "count", value: "\(count)", reason: "must be 1 or more")
                }
                let profile = try SimulatorProfile.named(name)
                made = (1...count).map { profile.device(number: devices.count + $0, seed: seed) }
            case .devices(let given):
                made = given
            case .deviceFile(let path):
                made = try DeviceFile.load(path: path, seed: seed).devices
            case .scenario(let path):
                made = try ScenarioDevices.load(path: path)
            }
            if let behaviour = group.behaviour {
                try behaviour.validate()
                for index in made.indices { made[index].behaviour = behaviour }
            }
            devices += made
        }
        guard !devices.isEmpty else {
            throw SSDPConfigurationError(field: "devices", value: "0", reason: "at least one device is needed")
        }
        return devices
    }
}

extension SSDPDeviceBehaviour {
    /// Each answer is lost with `probability` (0...1) on its way to the client.
    public static func lossy(_ probability: Double) -> Self {
        Self(responseLoss: probability)
    }

    /// Every answer leaves this long after the search, whatever its MX.
    public static func delayed(_ delay: Duration) -> Self {
        Self(delay: .fixed(delay))
    }

    /// Every answer leaves this long after the search's MX window closed: too late for a client that
    /// waits only MX.
    public static func late(_ delay: Duration) -> Self {
        Self(delay: .late(delay))
    }

    /// Every answer is sent `times` times.
    public static func duplicating(_ times: Int) -> Self {
        Self(duplicates: times)
    }

    /// The first `count` searches go unheard: a client that sends one search and gives up finds nothing.
    public static func ignoring(firstSearches count: Int) -> Self {
        Self(ignoredSearches: count)
    }

    /// Every answer is broken in these ways (`.lineFeedOnly`, `.missingLocation`, …).
    public static func malformed(_ malformations: Set<SSDPMalformation>) -> Self {
        Self(malformations: malformations)
    }
}
