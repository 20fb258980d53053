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
    /// A Sonos ZonePlayer (§2.6) with its MediaServer and MediaRenderer, the household headers, and
    /// `max-age = 1800` written with spaces.
    public static let sonos = SimulatorProfile(
        name: "sonos",
        summary: "a Sonos ZonePlayer with MediaServer and MediaRenderer, X-RINCON household headers, :1400"
    ) { number, random, run in
        let mac = random.mac(prefix: [0x48, 0xA6, 0xB8])
        let rincon = "RINCON_\(mac.text(separator: "", upperCase: true))01400"
        // Every player of a run is in one household, as the players of one home are.
        var shared = run
        let household = "Sonos_" + shared.text(count: 26, from: Self.alphanumerics)
        let sonosService = { (name: String) in
            SSDPDeviceService(
                serviceType: "urn:schemas-upnp-org:service:\(name):1",
                urls: .init(scpd: "/xml/\(name)1.xml", control: "/\(name)/Control", event: "/\(name)/Event")
            )
        }
        let embeddedService = { (device: String, domain: String, name: String) in
            SSDPDeviceService(
                serviceType: "urn:\(domain):service:\(name):1",
                urls: .init(
                    scpd: "/xml/\(name)1.xml",
                    control: "/\(device)/\(name)/Control",
                    event: "/\(device)/\(name)/Event"
                )
            )
        }
        let upnp = "schemas-upnp-org"
        // The embedded devices' fields, as SoCo's recording of a description has them.
        let embeddedProperties = { (role: String) -> [SSDPDeviceProperty] in
            [
                .init("manufacturerURL", "http://www.sonos.com"), .init("modelNumber", "S18"),
                .init("modelDescription", "Sonos One \(role)"),
                .init("modelURL", "http://www.sonos.com/products/zoneplayers/S18"),
            ]
        }
        var player = SimulatedDevice(
            device: SSDPDevice(
                udn: "uuid:\(rincon)",
                deviceType: "urn:schemas-upnp-org:device:ZonePlayer:1",
                friendlyName: "Sonos One \(number)",
                manufacturer: "Sonos, Inc.",
                modelName: "Sonos One",
                // What SoCo's get_speaker_info reads, as a Sonos One writes it (the serial number is the MAC;
                // the first icon is the player's), in the order SoCo's recording of a description has them.
                properties: [
                    .init("manufacturerURL", "http://www.sonos.com"), .init("modelNumber", "S18"),
                    .init("modelDescription", "Sonos One"),
                    .init("modelURL", "http://www.sonos.com/products/zoneplayers/S18"),
                    .init("softwareVersion", SonosPlayer.softwareVersion), .init("swGen", "2"),
                    .init("hardwareVersion", SonosPlayer.hardwareVersion),
                    .init("serialNum", mac.text(separator: "-", upperCase: true) + ":1"),
                    .init("MACAddress", mac.text(separator: ":", upperCase: true)),
                    .markup(
                        "iconList",
                        "<iconList><icon><id>0</id><mimetype>image/png</mimetype><width>48</width><height>48</height>"
                            + "<depth>24</depth><url>/img/icon-S18.png</url></icon></iconList>"
                    ),
                    .init("minCompatibleVersion", SonosPlayer.minCompatibleVersion),
                    .init("legacyCompatibleVersion", SonosPlayer.legacyCompatibleVersion),
                    .init("displayVersion", SonosPlayer.displayVersion), .init("roomName", "Room \(number)"),
                    .init("displayName", "One"),
                ],
                services: [
                    "AlarmClock", "MusicServices", "DeviceProperties", "SystemProperties", "ZoneGroupTopology",
                    "GroupManagement",
                ].map(sonosService),
                embeddedDevices: [
                    SSDPDevice(
                        udn: "uuid:\(rincon)_MS",
                        deviceType: "urn:schemas-upnp-org:device:MediaServer:1",
                        friendlyName: "Sonos One \(number) Media Server",
                        manufacturer: "Sonos, Inc.",
                        modelName: "Sonos One",
                        properties: embeddedProperties("Media Server"),
                        services: [
                            embeddedService("MediaServer", upnp, "ContentDirectory"),
                            embeddedService("MediaServer", upnp, "ConnectionManager"),
                        ]
                    ),
                    SSDPDevice(
                        udn: "uuid:\(rincon)_MR",
                        deviceType: "urn:schemas-upnp-org:device:MediaRenderer:1",
                        friendlyName: "Sonos One \(number) Media Renderer",
                        manufacturer: "Sonos, Inc.",
                        modelName: "Sonos One",
                        properties: embeddedProperties("Media Renderer"),
                        services: [
                            embeddedService("MediaRenderer", upnp, "RenderingControl"),
                            embeddedService("MediaRenderer", upnp, "ConnectionManager"),
                            embeddedService("MediaRenderer", upnp, "AVTransport"),
                            embeddedService("MediaRenderer", "schemas-sonos-com", "Queue"),
                            embeddedService("MediaRenderer", upnp, "GroupRenderingControl"),
                        ]
                    ),
                ]
            ),
            server: "Linux UPnP/1.0 Sonos/96.1-79270 (ZPS14)",
            extraHeaders: [
                .init(name: "X-RINCON-HOUSEHOLD", value: household), .init(name: "X-RINCON-BOOTSEQ", value: "{bootId}"),
            ],
            // The newer-firmware answer (§2.6).
            responseHeaders: [
                .init(name: "CACHE-CONTROL", value: "max-age = {maxAge}"), .init(name: "EXT", value: ""),
                .init(name: "LOCATION", value: "{location}"), .init(name: "SERVER", value: "{server}"),
                .init(name: "ST", value: "{st}"), .init(name: "USN", value: "{usn}"),
                .init(name: "X-RINCON-HOUSEHOLD", value: household), .init(name: "X-RINCON-BOOTSEQ", value: "{bootId}"),
                .init(name: "BOOTID.UPNP.ORG", value: "{bootId}"), .init(name: "X-RINCON-VARIANT", value: "2"),
                .init(
                    name: "HOUSEHOLD.SMARTSPEAKER.AUDIO",
                    value: "\(household).\(random.text(count: 20, from: Self.alphanumerics))"
                ),
                .init(
                    name: "LOCATION.SMARTSPEAKER.AUDIO",
                    value: "lc_\(random.text(count: 32, from: "0123456789abcdef"))"
                ),
                .init(name: "SECURELOCATION.UPNP.ORG", value: "https://{host}:1443/xml/device_description.xml"),
            ],
            web: DeviceWeb(
                realPort: 1400,
                descriptionPath: "/xml/device_description.xml",
                serviceDescriptions: SSDPServiceDescription.sonosZonePlayer
            )
        )
        player.descriptionLayout = .sonos
        player.web.files = ServedFile.sonosIcons
        return player
    }
}
