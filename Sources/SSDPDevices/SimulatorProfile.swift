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

/// A kind of device the simulator can run by name (`--profile generic`), from which device files and flags
/// override any field.
public struct SimulatorProfile: Sendable {
    /// The name used in flags and device files.
    public let name: String
    /// One line for `ssdp-sim profiles`.
    public let summary: String
    /// Makes device `number` from `random`, drawn from the seed and the number, and `run`, drawn from the seed
    /// alone: what every device of the run shares (a Sonos household) comes from a copy of `run`.
    private let make: @Sendable (_ number: Int, _ random: inout SSDPRandom, _ run: SSDPRandom) -> SimulatedDevice

    /// Every built-in profile.
    public static let all: [SimulatorProfile] = [
        .roku, .rokuTV, .dialTV, .hue, .sonos, .igd, .dlnaServer, .renderer, .chromecastLegacy, .generic,
    ]

    init(
        name: String,
        summary: String,
        make: @escaping @Sendable (_ number: Int, _ random: inout SSDPRandom, _ run: SSDPRandom) -> SimulatedDevice
    ) {
        self.name = name
        self.summary = summary
        self.make = make
    }

    /// The profile called `name`, or an error listing the names there are.
    public static func named(_ name: String) throws(SSDPConfigurationError) -> SimulatorProfile {
        guard let profile = all.first(where: { $0.name == name }) else {
            throw SSDPConfigurationError(
                field: "profile",
                value: name,
                reason: "no such profile (profiles: \(all.map(\.name).joined(separator: ", ")))"
            )
        }
        return profile
    }

    /// The first profile (`generic` aside) whose device is of type `deviceType`, the version ignored: what
    /// plays a recorded device's family (`ssdp-sim record`), answering what the recording does not hold.
    public static func family(ofDeviceType deviceType: String) -> SimulatorProfile? {
        let withoutVersion = { (type: String) in type.split(separator: ":").dropLast().joined(separator: ":") }
        return all.first { profile in
            profile.name != "generic"
                && withoutVersion(profile.device(number: 1, seed: 0).device.deviceType) == withoutVersion(deviceType)
        }
    }

    /// Device number `number` (1, 2, …) of this profile, with a UDN (and serial numbers, MAC addresses)
    /// drawn from `seed` and `number`, so the same seed gives the same devices and two devices never share
    /// a UDN.
    public func device(number: Int, seed: UInt64) -> SimulatedDevice {
        var random = SSDPRandom.derived(seed: seed, stream: Self.udnStream &+ UInt64(number))
        var device = make(number, &random, SSDPRandom.derived(seed: seed, stream: Self.runStream))
        device.profile = name
        return device
    }

    /// The generator streams UDNs are drawn from, apart from those of delays and loss.
    static let udnStream: UInt64 = 0x5544_4E00_0000_0000
    static let embeddedUDNStream: UInt64 = 0x454D_4200_0000_0000
    static let runStream: UInt64 = 0x5255_4E00_0000_0000

    /// A UPnP AV MediaRenderer:1 with its three services: a plain device whose every field a device file
    /// or a flag can change. It imitates no stack: UDA 1.1's messages and the AV templates' services, where
    /// the other profiles are real devices, quirks included.
    public static let generic = SimulatorProfile(
        name: "generic",
        summary:
            "a UPnP MediaRenderer:1 (RenderingControl, ConnectionManager, AVTransport) imitating no stack: UDA as written"
    ) { number, random, _ in
        SimulatedDevice(
            device: SSDPDevice(
                udn: "uuid:\(random.uuid())",
                deviceType: "urn:schemas-upnp-org:device:MediaRenderer:1",
                friendlyName: "ssdp-sim generic \(number)",
                manufacturer: "ssdp-sim",
                modelName: "Generic Renderer",
                services: [
                    SSDPDeviceService(serviceType: "urn:schemas-upnp-org:service:RenderingControl:1"),
                    SSDPDeviceService(serviceType: "urn:schemas-upnp-org:service:ConnectionManager:1"),
                    SSDPDeviceService(serviceType: "urn:schemas-upnp-org:service:AVTransport:1"),
                ]
            )
        )
    }
}
