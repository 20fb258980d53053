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

extension SimulatorProfile {
    /// A TV with a DIAL 2.2 server as the Netflix reference implementation writes it (§2.2): `dd.xml` with
    /// `Application-URL`, apps launched, stopped and hidden over REST. Its quirks: it answers at once,
    /// ignoring MX, and answers NOTIFYs that contain the DIAL target.
    public static let dialTV = SimulatorProfile(
        name: "dial-tv",
        summary: "a DIAL 2.2 TV (Netflix reference server): dd.xml, YouTube and Netflix over DIAL REST"
    ) { number, random, _ in
        let mac = random.mac(prefix: [0x84, 0xC0, 0xEF])
        return SimulatedDevice(
            device: SSDPDevice(
                udn: "uuid:\(random.uuid())",
                deviceType: "urn:schemas-upnp-org:device:tvdevice:1",
                friendlyName: "DIAL TV \(number)",
                manufacturer: "ssdp-sim",
                modelName: "DIAL Reference TV",
                services: [Self.dialService]
            ),
            server: "Linux/2.6 UPnP/1.1 quick_ssdp/1.1",
            extraHeaders: [SSDPHeaderField(name: "WAKEUP", value: "MAC=\(mac.text(separator: ":"));Timeout=10")],
            // quick_ssdp.c's answer (§2.2).
            responseHeaders: [
                .init(name: "LOCATION", value: "{location}"), .init(name: "CACHE-CONTROL", value: "max-age={maxAge}"),
                .init(name: "EXT", value: ""), .init(name: "BOOTID.UPNP.ORG", value: "{bootId}"),
                .init(name: "SERVER", value: "{server}"), .init(name: "ST", value: "{st}"),
                .init(name: "USN", value: "{usn}"),
                .init(name: "WAKEUP", value: "MAC=\(mac.text(separator: ":"));Timeout=10"),
            ],
            behaviour: SSDPDeviceBehaviour(delay: .immediate, chatter: [.notifies]),
            web: DeviceWeb(
                realPort: 56_789,
                descriptionPath: "/dd.xml",
                dial: DIALConfiguration(
                    descriptionPath: "/dd.xml",
                    applicationPath: "/apps/",
                    systemApp: DIALSystemApp()
                )
            )
        )
    }
}
