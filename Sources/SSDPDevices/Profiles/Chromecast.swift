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
    /// A first-generation Chromecast from the DIAL era (§2.3), with libupnp's OPT/01-NLS/X-User-Agent
    /// signature; its DIAL application URL lists the running app.
    public static let chromecastLegacy = SimulatorProfile(
        name: "chromecast-legacy",
        summary: "a DIAL-era Chromecast: :8008/ssdp/device-desc.xml, libupnp OPT/01-NLS headers"
    ) { number, random, _ in
        let nls = random.uuid().replacing("-", with: "")
        return SimulatedDevice(
            device: SSDPDevice(
                udn: "uuid:\(random.uuid())",
                deviceType: "urn:dial-multiscreen-org:device:dial:1",
                friendlyName: "Chromecast \(number)",
                manufacturer: "Google Inc.",
                modelName: "Eureka Dongle",
                services: [Self.dialService]
            ),
            server: "Linux/4.9.113, UPnP/1.0, Portable SDK for UPnP devices/1.6.18",
            extraHeaders: Self.nls(bootID: nls) + [Self.libupnpUserAgent],
            // libupnp 1.6's answer (§2.3; no DATE).
            responseHeaders: [
                .init(name: "CACHE-CONTROL", value: "max-age={maxAge}"), .init(name: "EXT", value: ""),
                .init(name: "LOCATION", value: "{location}"),
            ] + Self.nls(bootID: nls) + [
                .init(name: "SERVER", value: "{server}"), Self.libupnpUserAgent,
                .init(name: "ST", value: "{st}"), .init(name: "USN", value: "{usn}"),
                .init(name: "BOOTID.UPNP.ORG", value: "{bootId}"),
                .init(name: "CONFIGID.UPNP.ORG", value: "{configId}"),
            ],
            web: DeviceWeb(
                realPort: 8008,
                descriptionPath: "/ssdp/device-desc.xml",
                dial: DIALConfiguration(
                    descriptionPath: "/ssdp/device-desc.xml",
                    applicationPath: "/apps/",
                    redirectsToRunningApp: true
                )
            )
        )
    }
}
