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
    /// A Roku streaming player (§2.1): answers `roku:ecp` with `USN: uuid:roku:ecp:<serial>`, DIAL searches
    /// with LOCATION `/dial/dd.xml`, and serves ECP on port 8060.
    public static let roku = SimulatorProfile(
        name: "roku",
        summary: "a Roku player: roku:ecp and DIAL, ECP on :8060 (device-info, apps, keypress, launch)"
    ) { number, random, _ in
        RokuModel.ultra.device(number: number, random: &random)
    }

    /// A Roku TV (a TCL 55S20 on Roku OS 11.5, as rokuecp's capture of one reports it): a Roku's SSDP and
    /// ECP, with what a TV adds: its inputs among the apps (`tvinput.hdmi1`, `tvinput.dtv`), an antenna
    /// tuner with channels (`/query/tv-channels`, `/query/tv-active-channel`, `launch/tvinput.dtv?ch=…`,
    /// ChannelUp and ChannelDown), and a standby that turns the display off (`DisplayOff`).
    public static let rokuTV = SimulatorProfile(
        name: "roku-tv",
        summary: "a Roku TV: a Roku's ECP with HDMI and antenna inputs, TV channels, DisplayOff standby"
    ) { number, random, _ in
        RokuModel.tclTV.device(number: number, random: &random)
    }
}

/// What makes one Roku model differ from another: its identity, the `<device-info>` it reports, its apps,
/// and for a TV its channels. Both Roku profiles are made by `device(number:random:)`.
struct RokuModel: Sendable {
    /// The first three bytes of its Wi-Fi MAC, which its UDN and WAKEUP carry.
    var macPrefix: [UInt8]
    /// Its UDN before the MAC (`28000000-0000-1000-8000-` on a player).
    var udnPrefix: String
    /// Its serial number's first characters and how many are drawn after them.
    var serialPrefix: String
    var serialDrawn: Int
    /// Roku OS, as SERVER and device-info name it.
    var softwareVersion: String
    var friendlyName: String
    var modelName: String
    var modelNumber: String
    /// Its `<device-info>` fields in its order, given its serial, Wi-Fi MAC and advertising id.
    var deviceInfo: @Sendable (_ serial: String, _ mac: MACAddress, _ advertisingID: String) -> [SSDPDeviceProperty]
    /// How it indents `<device-info>`'s fields (Roku OS 9 by four spaces, 10 and later not at all).
    var deviceInfoIndent: String
    var apps: [RokuApp]
    var tvChannels: [RokuTVChannel] = []
    /// The power mode PowerOff puts it in.
    var standbyPowerMode = "Ready"

    /// Device `number` of this model, its serial, MAC and ids drawn from `random`.
    func device(number: Int, random: inout SSDPRandom) -> SimulatedDevice {
        let mac = random.mac(prefix: macPrefix)
        let serial = serialPrefix + random.text(count: serialDrawn, from: "0123456789ABCDEFGHJKLMNPRSTUVWXYZ")
        let server = "Roku/\(softwareVersion) UPnP/1.0 Roku/\(softwareVersion)"
        let identity = [
            SSDPHeaderField(name: "device-group.roku.com", value: random.text(count: 19, from: "0123456789ABCDEF")),
            SSDPHeaderField(name: "WAKEUP", value: "MAC=\(mac.text(separator: "-"));Timeout=10"),
        ]
        let advertisingID = random.uuid()
        return SimulatedDevice(
            device: SSDPDevice(
                udn: "uuid:\(udnPrefix)\(mac.text(separator: ""))",
                deviceType: "urn:roku-com:device:player:1-0",
                friendlyName: "\(friendlyName) \(number)",
                manufacturer: "Roku",
                modelName: modelName,
                properties: [
                    .init("manufacturerURL", "http://www.roku.com/"),
                    .init("modelDescription", "Roku Streaming Player Network Media"),
                    .init("modelNumber", modelNumber), .init("modelURL", "http://www.roku.com/"),
                    .init("serialNumber", serial),
                ],
                services: [
                    SSDPDeviceService(
                        serviceType: "urn:roku-com:service:ecp:1",
                        serviceID: "urn:roku-com:serviceId:ecp1-0",
                        urls: .init(scpd: "ecp_SCPD.xml", control: "", event: "")
                    )
                ]
            ),
            server: server,
            maxAge: 3600,
            extraTargets: [
                SSDPExtraTarget("roku:ecp", usn: "uuid:roku:ecp:\(serial)"),
                SSDPExtraTarget("urn:dial-multiscreen-org:service:dial:1", location: "/dial/dd.xml"),
            ],
            extraHeaders: identity,
            // The Roku OS 9.2 answer to roku:ecp (§2.1).
            responseHeaders: [
                .init(name: "Cache-Control", value: "max-age={maxAge}"), .init(name: "ST", value: "{st}"),
                .init(name: "USN", value: "{usn}"), .init(name: "Ext", value: ""),
                .init(name: "Server", value: "{server}"), .init(name: "LOCATION", value: "{location}"),
            ] + identity,
            web: DeviceWeb(
                realPort: 8060,
                descriptionPath: "/",
                roku: RokuConfiguration(
                    deviceInfo: deviceInfo(serial, mac, advertisingID),
                    apps: apps,
                    deviceInfoIndent: deviceInfoIndent,
                    tvChannels: tvChannels,
                    standbyPowerMode: standbyPowerMode
                ),
                // `Application-URL: http://…:8060/dial`, without the final slash, as real Rokus send it (a
                // Roku Ultra's, as peer-dial logged it); a client that appends the app name as it is gets 404.
                dial: DIALConfiguration(descriptionPath: "/dial/dd.xml", applicationPath: "/dial")
            )
        )
    }

    /// The channels both models have installed.
    private static let channels = [
        RokuApp(id: "12", name: "Netflix", version: "4.2.81179021"),
        RokuApp(id: "837", name: "YouTube", version: "2.20.100005"),
        RokuApp(id: "2285", name: "Hulu", version: "6.18.1"),
    ]

    /// A Roku Ultra on Roku OS 9.2. Its device-info: every field all five device-info captures share
    /// (after-discovery.md §6.1), in the order of the OS 9.2 capture (7820X: the Wi-Fi extender fields last),
    /// with a Roku Ultra's values; plus 9.2's notification and find-remote fields, and ethernet-mac (the Wi-Fi
    /// MAC less one, as on a 4200X) for a player with Ethernet. It is on Wi-Fi, whose MAC its UDN and WAKEUP
    /// carry. udn, friendly-device-name, user-device-name, uptime and power-mode are filled in when asked
    /// (`RokuECP`).
    static let ultra = RokuModel(
        macPrefix: [0xDC, 0x72, 0x23],
        udnPrefix: "28000000-0000-1000-8000-",
        serialPrefix: "YN00",
        serialDrawn: 9,
        softwareVersion: "9.2.0",
        friendlyName: "Roku Ultra",
        modelName: "Roku Ultra",
        modelNumber: "4800X",
        deviceInfo: { serial, mac, advertisingID in
            [
                .init("udn", ""), .init("serial-number", serial), .init("device-id", serial),
                .init("advertising-id", advertisingID), .init("vendor-name", "Roku"),
                .init("model-name", "Roku Ultra"), .init("model-number", "4800X"), .init("model-region", "US"),
                .init("is-tv", "false"), .init("is-stick", "false"), .init("supports-ethernet", "true"),
                .init("wifi-mac", mac.text(separator: ":")), .init("wifi-driver", "realtek"),
                .init(
                    "ethernet-mac",
                    MACAddress(bytes: mac.bytes.dropLast() + [mac.bytes[5] &- 1]).text(separator: ":")
                ),
                .init("network-type", "wifi"), .init("network-name", "HomeNetwork"),
                .init("friendly-device-name", ""), .init("friendly-model-name", "Roku Ultra"),
                .init("default-device-name", "Roku Ultra - \(serial)"), .init("user-device-name", ""),
                .init("user-device-location", "Living Room"), .init("build-number", "CHD.20E04174A"),
                .init("software-version", "9.2.0"), .init("software-build", "4174"),
                .init("secure-device", "true"), .init("language", "en"), .init("country", "US"),
                .init("locale", "en_US"), .init("time-zone-auto", "true"), .init("time-zone", "US/Pacific"),
                .init("time-zone-name", "United States/Pacific"),
                .init("time-zone-tz", "America/Los_Angeles"), .init("time-zone-offset", "-480"),
                .init("clock-format", "12-hour"), .init("uptime", ""), .init("power-mode", ""),
                .init("supports-suspend", "false"), .init("supports-find-remote", "true"),
                .init("find-remote-is-possible", "true"), .init("supports-audio-guide", "true"),
                .init("supports-rva", "true"), .init("developer-enabled", "false"),
                .init("keyed-developer-id", ""), .init("search-enabled", "true"),
                .init("search-channels-enabled", "true"), .init("voice-search-enabled", "true"),
                .init("notifications-enabled", "true"), .init("notifications-first-use", "false"),
                .init("supports-private-listening", "true"), .init("headphones-connected", "false"),
                .init("supports-ecs-textedit", "true"), .init("supports-ecs-microphone", "true"),
                .init("supports-wake-on-wlan", "true"), .init("supports-airplay", "false"),
                .init("has-play-on-roku", "true"), .init("has-mobile-screensaver", "false"),
                .init("support-url", "roku.com/support"), .init("has-wifi-extender", "false"),
                .init("has-wifi-5G-support", "true"), .init("can-use-wifi-extender", "true"),
            ]
        },
        deviceInfoIndent: "    ",
        apps: channels
    )

    /// A TCL 55S20 Roku TV on Roku OS 11.5, as rokuecp's capture of one (C147X) reports it: its fields in
    /// that order, unindented as Roku OS 10 and later write device-info, with its values but for the
    /// serial, MACs and ids drawn; two HDMI inputs and the antenna before the channels, as a Roku TV lists
    /// its inputs; three antenna channels (New York's); PowerOff turns the display off, as a TV with warm
    /// standby does.
    static let tclTV = RokuModel(
        macPrefix: [0xD4, 0xAB, 0xCD],
        udnPrefix: "28000000-0000-1000-8008-",
        serialPrefix: "X0000",
        serialDrawn: 7,
        softwareVersion: "11.5.0",
        friendlyName: "TCL•Roku TV",
        modelName: "55S20",
        modelNumber: "C147X",
        deviceInfo: { serial, mac, advertisingID in
            [
                .init("udn", ""), .init("serial-number", serial), .init("device-id", "S04KH" + serial.suffix(7)),
                .init("advertising-id", advertisingID), .init("vendor-name", "TCL"), .init("model-name", "55S20"),
                .init("model-number", "C147X"), .init("model-region", "US"), .init("is-tv", "true"),
                .init("is-stick", "false"), .init("screen-size", "55"), .init("panel-id", "25"),
                .init("mobile-has-live-tv", "true"), .init("ui-resolution", "1080p"), .init("tuner-type", "ATSC"),
                .init("supports-ethernet", "true"), .init("wifi-mac", mac.text(separator: ":")),
                .init("wifi-driver", "realtek"), .init("has-wifi-extender", "false"),
                .init("has-wifi-5G-support", "true"), .init("can-use-wifi-extender", "true"),
                .init(
                    "ethernet-mac",
                    MACAddress(bytes: [0x34, 0x51, 0x80] + mac.bytes.suffix(3)).text(separator: ":")
                ),
                .init("network-type", "wifi"), .init("network-name", "HomeNetwork"),
                .init("friendly-device-name", ""), .init("friendly-model-name", "TCL•Roku TV"),
                .init("default-device-name", "TCL•Roku TV - \(serial)"), .init("user-device-name", ""),
                .init("user-device-location", ""), .init("build-number", "93C.50E04312A"),
                .init("software-version", "11.5.0"), .init("software-build", "4312"),
                .init("secure-device", "true"), .init("language", "en"), .init("country", "US"),
                .init("locale", "en_US"), .init("time-zone-auto", "true"), .init("time-zone", "US/Eastern"),
                .init("time-zone-name", "United States/Eastern"), .init("time-zone-tz", "America/New_York"),
                .init("time-zone-offset", "-240"), .init("clock-format", "12-hour"), .init("uptime", ""),
                .init("power-mode", ""), .init("supports-suspend", "true"), .init("supports-find-remote", "false"),
                .init("supports-audio-guide", "true"), .init("supports-rva", "true"),
                .init("has-hands-free-voice-remote", "false"), .init("developer-enabled", "false"),
                .init("keyed-developer-id", ""), .init("search-enabled", "true"),
                .init("search-channels-enabled", "true"), .init("voice-search-enabled", "true"),
                .init("notifications-enabled", "false"), .init("notifications-first-use", "true"),
                .init("supports-private-listening", "true"), .init("supports-private-listening-dtv", "true"),
                .init("supports-warm-standby", "true"), .init("headphones-connected", "false"),
                .init("supports-audio-settings", "false"), .init("expert-pq-enabled", "1.0"),
                .init("supports-ecs-textedit", "true"), .init("supports-ecs-microphone", "true"),
                .init("supports-wake-on-wlan", "true"), .init("supports-airplay", "true"),
                .init("has-play-on-roku", "true"), .init("has-mobile-screensaver", "false"),
                .init("support-url", "support.tcl.com/us"), .init("grandcentral-version", "9.2.45"),
                .init("trc-version", "3.0"), .init("trc-channel-version", "8.0.72"),
                .init("davinci-version", "2.8.20"), .init("av-sync-calibration-enabled", "3.0"),
            ]
        },
        deviceInfoIndent: "",
        apps: [
            RokuApp(id: "tvinput.hdmi1", name: "HDMI 1", version: "1.0.0", type: "tvin"),
            RokuApp(id: "tvinput.hdmi2", name: "HDMI 2", version: "1.0.0", type: "tvin"),
            RokuApp(id: "tvinput.dtv", name: "Antenna TV", version: "1.0.0", type: "tvin"),
        ] + channels,
        tvChannels: [
            RokuTVChannel(number: "2.1", name: "WCBS-HD", programTitle: "CBS Mornings"),
            RokuTVChannel(number: "4.1", name: "WNBC-HD", programTitle: "Today"),
            RokuTVChannel(number: "7.1", name: "WABC-HD", programTitle: "Good Morning America"),
        ],
        standbyPowerMode: "DisplayOff"
    )
}
