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
    /// A Philips Hue bridge (§2.7): `hue-bridgeid`, `max-age=100`, a HOST header in its answers, and its
    /// chatty habit (three answers, each twice, whatever the search asked) as a default quirk; on port 80,
    /// its REST API (`HueBridge`) with two lights, which apps pair with while the link button is pressed.
    public static let hue = SimulatorProfile(
        name: "hue",
        summary: "a Philips Hue bridge: hue-bridgeid, max-age=100, answers every search three times, twice; /api"
    ) { number, random, _ in
        let mac = random.mac(prefix: [0x00, 0x17, 0x88])
        let bridgeID =
            mac.text(separator: "", upperCase: true).prefix(6) + "FFFE"
            + mac.text(separator: "", upperCase: true).suffix(6)
        let header = SSDPHeaderField(name: "hue-bridgeid", value: String(bridgeID))
        // Each light's Zigbee address (Philips' 00:17:88:01 and four drawn bytes) and endpoint 0b.
        var zigbee: [String] = []
        for _ in 0..<2 {
            let address = MACAddress(
                bytes: [0x00, 0x17, 0x88, 0x01] + (0..<4).map { _ in UInt8.random(in: 0...255, using: &random) }
            )
            zigbee.append(address.text(separator: ":") + "-0b")
        }
        let api = HueBridgeConfiguration(
            name: "Philips hue",
            bridgeID: String(bridgeID),
            mac: mac.text(separator: ":"),
            lights: [
                HueLight(id: "1", name: "Hue color lamp 1", kind: .extendedColor, uniqueID: zigbee[0]),
                HueLight(id: "2", name: "Hue white lamp 1", kind: .dimmable, uniqueID: zigbee[1]),
            ]
        )
        var web = DeviceWeb(realPort: 80, descriptionPath: "/description.xml")
        web.hue = api
        web.files = ServedFile.hueIcons
        // A bridge's icon, height before width.
        let icon = { (size: Int, url: String) in
            "<icon>\n<mimetype>image/png</mimetype>\n<height>\(size)</height>\n<width>\(size)</width>\n"
                + "<depth>24</depth>\n<url>\(url)</url>\n</icon>\n"
        }
        var bridge = SimulatedDevice(
            device: SSDPDevice(
                udn: "uuid:2f402f80-da50-11e1-9b23-\(mac.text(separator: ""))",
                deviceType: "urn:schemas-upnp-org:device:Basic:1",
                friendlyName: "Philips hue \(number)",
                manufacturer: "Royal Philips Electronics",
                modelName: "Philips hue bridge 2015",
                properties: [
                    .init("manufacturerURL", "http://www.philips.com"),
                    .init("modelDescription", "Philips hue Personal Wireless Lighting"), .init("modelNumber", "BSB002"),
                    .init("modelURL", "http://www.meethue.com"), .init("serialNumber", mac.text(separator: "")),
                    .init("presentationURL", "index.html"),
                    .markup(
                        "iconList",
                        "<iconList>\n" + icon(48, "hue_logo_0.png") + icon(120, "hue_logo_3.png") + "</iconList>"
                    ),
                ]
            ),
            // A bridge names its API version in SERVER: the same version `/api/config` reports.
            server: "Linux/3.14.0 UPnP/1.0 IpBridge/\(api.apiVersion)",
            maxAge: 100,
            extraHeaders: [header],
            responseHeaders: [
                .init(name: "HOST", value: "239.255.255.250:1900"), .init(name: "EXT", value: ""),
                .init(name: "CACHE-CONTROL", value: "max-age={maxAge}"), .init(name: "LOCATION", value: "{location}"),
                .init(name: "SERVER", value: "{server}"), header, .init(name: "ST", value: "{st}"),
                .init(name: "USN", value: "{usn}"),
            ],
            behaviour: SSDPDeviceBehaviour(duplicates: 2, chatter: [.anyTarget]),
            web: web
        )
        bridge.descriptionLayout = .hue
        return bridge
    }
}
