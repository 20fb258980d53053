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

/// One device on a virtual host of its own, as in a live run: its paths at the root of its address on its
/// real device's port, the production responder that answers for it and the advertiser that multicasts
/// for it, each seeded from the run's seed and the device's stream (its number and generation). The one
/// place a virtual device is built, for the harness's virtual runs and `SSDPTesting`'s virtual LAN.
package struct VirtualHost: Sendable {
    /// The device tree as it serves, its LOCATION on the host's address (the responder's, not a copy kept
    /// beside it: a virtual run makes a thousand hosts per run).
    package var root: SSDPRootDevice { responder.devices[0].device }
    /// The host's address and SSDP port.
    package let endpoint: SSDPEndpoint
    /// The production responder, answering for the one device.
    package var responder: SimulatorResponder
    /// The production advertiser, not started.
    package var advertiser: DeviceAdvertiser
    /// A replaying device's captured NOTIFY messages, which take the advertiser's place.
    package var notificationReplay: NotificationReplay?

    /// Device `index` of a run with `seed` on `plan`'s addresses, in `generation` (0 at first, one more each
    /// time it comes back), with `bootID`, started at `start`; `notifyHost` is the group as its NOTIFY
    /// messages' HOST gives it. Inlinable, so that a run builds its thousand hosts in place.
    @inlinable
    package init(
        _ device: SimulatedDevice,
        index: Int,
        plan: VirtualAddressPlan = .ipv4,
        bootID: Int = 1,
        generation: Int = 0,
        seed: UInt64,
        notifyHost: String,
        at start: SSDPInstant
    ) {
        let endpoint = plan.device(index)
        let stream = UInt64(index) << 8 | UInt64(generation & 0xFF)
        let root = device.rootDevice(
            baseURL: "http://\(endpoint.host):\(device.web.realPort ?? HTTPPorts.genericPort)",
            defaultBootID: bootID
        )
        self.endpoint = endpoint
        responder = SimulatorResponder(
            configuration: .init(),
            devices: [
                DeviceResponder(
                    device: root,
                    behaviour: device.behaviour,
                    startedAt: start,
                    seed: SSDPRandom.derivedSeed(seed: seed, stream: stream << 1),
                    replayLocations: .asCaptured
                )
            ]
        )
        advertiser = DeviceAdvertiser(
            device: root,
            host: notifyHost,
            seed: SSDPRandom.derivedSeed(seed: seed, stream: stream << 1 | 1)
        )
        notificationReplay = device.behaviour.replay.map {
            NotificationReplay($0, startedAt: start, locations: .asCaptured, own: "")
        }
    }
}
