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

// The built-in profiles of real devices. Each one's SSDP identity (search targets, USN form, SERVER,
// CACHE-CONTROL, extra headers, and the header spelling and order of its search response) follows the
// captures in ssdp-protocol-facts.md §2, cited per profile; its HTTP side serves its description at the
// real path and, for a Roku and a DIAL device, its API. Serial numbers, MAC addresses and UDNs are drawn
// from the seed, so the same seed gives the same devices.

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

    /// An Internet Gateway Device as OpenWrt 22.03's miniupnpd 2.3.3 serves it in its default configuration
    /// (§2.8; `igdv1`, so IGD:1 descriptions): the root with WANDevice and WANConnectionDevice embedded, each
    /// with its own UUID, so `ssdp:all` yields 3 + 2·2 + 3 = 10 answers. Held to Debian's miniupnpd beside it
    /// by `scripts/fidelity igd` (docs/fidelity.md): its SSDP, HTTP, SOAP and GENA bytes.
    public static let igd = SimulatorProfile(
        name: "igd",
        summary: "a miniupnpd InternetGatewayDevice:1 with WANDevice and WANConnectionDevice, rootDesc.xml"
    ) { number, random, _ in
        // miniupnpd's serviceIds (upnpdescgen.c), which clients name actions by (`WANIPConn1/GetExternalIPAddress`).
        let service = { (type: String, id: String, file: String, path: String) in
            SSDPDeviceService(
                serviceType: "urn:schemas-upnp-org:service:\(type):1",
                serviceID: "urn:upnp-org:serviceId:\(id)",
                urls: .init(scpd: "/\(file).xml", control: "/ctl/\(path)", event: "/evt/\(path)")
            )
        }
        // The embedded devices' fixed fields (upnpdescgen.c): miniupnpd's own URL, its release date as the
        // model number, the router's serial, and an empty UPC.
        let embedded = { (description: String) -> [SSDPDeviceProperty] in
            [
                .init("manufacturerURL", "http://miniupnp.free.fr/"), .init("modelDescription", description),
                .init("modelNumber", "20230305"), .init("modelURL", "http://miniupnp.free.fr/"),
                .init("serialNumber", "00000000"), .init("UPC", "000000000000"),
            ]
        }
        let (rootUDN, wanUDN, connectionUDN) = (
            "uuid:\(random.uuid())", "uuid:\(random.uuid())", "uuid:\(random.uuid())"
        )
        // Built for IGD v2 (OpenWrt's --igd2), its SSDP side says :2 whatever the description says, and
        // advertises DeviceProtection, the IPv6 firewall and, for clients that look for it, WANPPPConnection,
        // which it does not describe (minissdp.c's known_service_types, ADVERTISE_WANPPPCONN).
        let extra = { (type: String, udn: String) in
            SSDPExtraTarget("urn:schemas-upnp-org:service:\(type)", usn: "\(udn)::urn:schemas-upnp-org:service:\(type)")
        }
        var router = SimulatedDevice(
            device: SSDPDevice(
                udn: rootUDN,
                deviceType: "urn:schemas-upnp-org:device:InternetGatewayDevice:1",
                friendlyName: "OpenWrt router \(number)",
                // configure's OpenWrt names (OS_NAME, OS_URL) for the root device.
                manufacturer: "OpenWrt",
                modelName: "OpenWrt router",
                properties: [
                    .init("manufacturerURL", "http://www.openwrt.org/"), .init("modelDescription", "OpenWrt router"),
                    .init("modelNumber", "2.3.3"), .init("modelURL", "http://www.openwrt.org/"),
                    .init("serialNumber", "00000000"), .init("presentationURL", "http://{host}/"),
                ],
                services: [service("Layer3Forwarding", "L3Forwarding1", "L3F", "L3F")],
                embeddedDevices: [
                    SSDPDevice(
                        udn: wanUDN,
                        deviceType: "urn:schemas-upnp-org:device:WANDevice:1",
                        friendlyName: "WANDevice",
                        manufacturer: "MiniUPnP",
                        modelName: "WAN Device",
                        properties: embedded("WAN Device"),
                        services: [service("WANCommonInterfaceConfig", "WANCommonIFC1", "WANCfg", "CmnIfCfg")],
                        embeddedDevices: [
                            SSDPDevice(
                                udn: connectionUDN,
                                deviceType: "urn:schemas-upnp-org:device:WANConnectionDevice:1",
                                friendlyName: "WANConnectionDevice",
                                manufacturer: "MiniUPnP",
                                modelName: "MiniUPnPd",
                                properties: embedded("MiniUPnP daemon"),
                                services: [service("WANIPConnection", "WANIPConn1", "WANIPCn", "IPConn")]
                            )
                        ]
                    )
                ]
            ),
            // OS_STRING is OpenWrt and the kernel's release (configure's DYNAMIC_OS_VERSION): 22.03.5's 5.10.
            server: "OpenWrt/5.10.176 UPnP/1.1 MiniUPnPd/2.3.3",
            // NOTIFY's max-age is twice notify_interval (30 s by default before 2.3.7); answers say 120.
            maxAge: 60,
            configID: 1337,
            extraTargets: [
                extra("DeviceProtection:1", rootUDN), extra("WANIPv6FirewallControl:1", connectionUDN),
                extra("WANPPPConnection:1", connectionUDN),
            ],
            extraHeaders: Self.nls(bootID: "{bootId}"),
            // minissdp.c's SendSSDPResponse, in the order it writes (§2.8; no DATE, no SECURELOCATION).
            responseHeaders: [
                .init(name: "CACHE-CONTROL", value: "max-age=120"), .init(name: "ST", value: "{st}"),
                .init(name: "USN", value: "{usn}"), .init(name: "EXT", value: ""),
                .init(name: "SERVER", value: "{server}"), .init(name: "LOCATION", value: "{location}"),
            ] + Self.nls(bootID: "{bootId}") + Self.upnp11IDs,
            // It answers as soon as it reads the search, whatever the MX.
            behaviour: SSDPDeviceBehaviour(delay: .immediate),
            web: DeviceWeb(
                realPort: 5000,
                descriptionPath: "/rootDesc.xml",
                serviceDescriptions: SSDPServiceDescription.miniupnpdInternetGateway1
            )
        )
        for type in [
            "device:InternetGatewayDevice", "device:WANDevice", "device:WANConnectionDevice", "service:WANIPConnection",
        ] {
            router.advertisedTypes["urn:schemas-upnp-org:\(type):1"] = "urn:schemas-upnp-org:\(type):2"
        }
        // minissdp.c's SendSSDPNotify and its byebye, in their order.
        router.notifyHeaders = SSDPNotifyHeaders(
            alive: Self.minissdpNotify.alive + Self.nls(bootID: "{bootId}") + Self.upnp11IDs,
            byebye: Self.minissdpNotify.byebye + Self.nls(bootID: "{bootId}") + Self.upnp11IDs
        )
        // upnphttp.c's BuildHeader_upnphttp: the same five headers on every answer, in this order, then a
        // subscription's Timeout and SID; its error pages; its lenient SUBSCRIBE.
        router.web.httpHeaders = [
            .init(name: "Content-Type", value: #"{Content-Type|text/xml; charset="utf-8"}"#),
            .init(name: "Connection", value: "close"), .init(name: "Content-Length", value: "{length}"),
            .init(name: "Server", value: "{server}"), .init(name: "Ext", value: ""),
            .init(name: "Timeout", value: "{TIMEOUT}"), .init(name: "SID", value: "{SID}"),
        ]
        router.web.errorPages = .miniupnpd
        router.web.genaRules = .miniupnpd
        return router
    }

    /// A DLNA media server as Debian's MiniDLNA 1.3.0 answers (§2.9, and beside the real one in
    /// `scripts/fidelity dlna-server`): MediaServer:1 with ContentDirectory, ConnectionManager and
    /// X_MS_MediaReceiverRegistrar, a UPnP 1.0 device.
    public static let dlnaServer = SimulatorProfile(
        name: "dlna-server",
        summary: "a MiniDLNA MediaServer:1: ContentDirectory, ConnectionManager, X_MS_MediaReceiverRegistrar"
    ) { number, random, _ in
        let service = { (type: String, file: String) in
            SSDPDeviceService(
                serviceType: type,
                // upnpdescgen.c names the UPnP services' ids urn:upnp-org:serviceId:…, Microsoft's its own way.
                serviceID: type.replacing(":service:", with: ":serviceId:").replacing(
                    "schemas-upnp-org",
                    with: "upnp-org"
                )
                .split(separator: ":").dropLast().joined(separator: ":"),
                urls: .init(scpd: "/\(file).xml", control: "/ctl/\(file)", event: "/evt/\(file)")
            )
        }
        let icon = { (type: String, size: Int, file: String) in
            "<icon><mimetype>\(type)</mimetype><width>\(size)</width><height>\(size)</height><depth>24</depth>"
                + "<url>/icons/\(file)</url></icon>"
        }
        var server = SimulatedDevice(
            device: SSDPDevice(
                udn: "uuid:\(random.uuid())",
                deviceType: "urn:schemas-upnp-org:device:MediaServer:1",
                friendlyName: "media-\(number): minidlna",
                manufacturer: "Justin Maggard",
                modelName: "Windows Media Connect compatible (MiniDLNA)",
                properties: [
                    // upnpdescgen.c's defaults (ROOTDEV_MANUFACTURERURL, ROOTDEV_MODELDESCRIPTION, ROOTDEV_MODELURL).
                    .init("manufacturerURL", "http://www.netgear.com/"), .init("modelDescription", "MiniDLNA on Linux"),
                    .init("modelNumber", "1.3.0"), .init("modelURL", "http://www.netgear.com"),
                    .init("serialNumber", "00000000"),
                    .markup(
                        "dlna:X_DLNADOC",
                        #"<dlna:X_DLNADOC xmlns:dlna="urn:schemas-dlna-org:device-1-0">DMS-1.50</dlna:X_DLNADOC>"#
                    ),
                    .init("presentationURL", "/"),
                    .markup(
                        "iconList",
                        "<iconList>" + icon("image/png", 48, "sm.png") + icon("image/png", 120, "lrg.png")
                            + icon("image/jpeg", 48, "sm.jpg") + icon("image/jpeg", 120, "lrg.jpg") + "</iconList>"
                    ),
                ],
                services: [
                    service("urn:schemas-upnp-org:service:ContentDirectory:1", "ContentDir"),
                    service("urn:schemas-upnp-org:service:ConnectionManager:1", "ConnectionMgr"),
                    service("urn:microsoft.com:service:X_MS_MediaReceiverRegistrar:1", "X_MS_MediaReceiverRegistrar"),
                ]
            ),
            // Debian builds it with OS_NAME "Debian" and no OS version.
            server: "Debian DLNADOC/1.50 UPnP/1.0 MiniDLNA/1.3.0",
            // minissdp.c's answer (SendSSDPResponse), with the moment it leaves as DATE.
            responseHeaders: [
                .init(name: "CACHE-CONTROL", value: "max-age={maxAge}"), .init(name: "DATE", value: "{date}"),
                .init(name: "ST", value: "{st}"), .init(name: "USN", value: "{usn}"), .init(name: "EXT", value: ""),
                .init(name: "SERVER", value: "{server}"), .init(name: "LOCATION", value: "{location}"),
                .init(name: "Content-Length", value: "0"),
            ],
            // It answers as soon as it has read the search (13–30 ms), whatever the MX.
            behaviour: SSDPDeviceBehaviour(delay: .immediate),
            web: DeviceWeb(
                realPort: 8200,
                descriptionPath: "/rootDesc.xml",
                serviceDescriptions: SSDPServiceDescription.miniDLNAMediaServer1
            )
        )
        // A UPnP 1.0 device's NOTIFYs, in minissdp.c's order: no BOOTID or CONFIGID, no EXT. It says byebye
        // twice for everything when it starts, then alive twice, and byebye twice when it stops.
        server.notifyHeaders = Self.minissdpNotify
        server.notifyHeaders?.byebyeCopies = 2
        server.notifyHeaders?.byebyeAtStart = true
        server.notifyHeaders?.unspacedNames = ["HOST", "CACHE-CONTROL", "LOCATION", "NT", "USN", "NTS"]
        server.descriptionLayout = .miniDLNA
        // upnphttp.c's BuildHeader_upnphttp: miniupnpd's five headers, a subscription's Timeout and SID, then
        // Date and EXT; its error pages.
        server.web.httpHeaders = [
            .init(name: "Content-Type", value: #"{Content-Type|text/xml; charset="utf-8"}"#),
            .init(name: "Connection", value: "close"), .init(name: "Content-Length", value: "{length}"),
            .init(name: "Server", value: "{server}"), .init(name: "Timeout", value: "{TIMEOUT}"),
            .init(name: "SID", value: "{SID}"), .init(name: "Date", value: "{date}"), .init(name: "EXT", value: ""),
        ]
        server.web.errorPages = .miniDLNA
        server.web.genaRules = .miniDLNA
        // 1.3.0's initial event never leaves (a device file's `"eventDelivery": "uda"` gives 1.3.1's).
        server.web.eventDelivery = .miniDLNA130
        server.web.files = ServedFile.mediaServerIcons
        return server
    }

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

    /// DIAL's one service, with the placeholder URLs the reference server writes.
    private static let dialService = SSDPDeviceService(
        serviceType: "urn:dial-multiscreen-org:service:dial:1",
        serviceID: "urn:dial-multiscreen-org:serviceId:dial",
        urls: .init(scpd: "/ssdp/notfound", control: "/ssdp/notfound", event: "/ssdp/notfound")
    )

    /// The NOTIFY lines miniupnpd and MiniDLNA share (their minissdp.c): a UPnP 1.0 device's, to which
    /// miniupnpd adds its UDA 1.1 lines.
    private static let minissdpNotify = SSDPNotifyHeaders(
        alive: [
            .init(name: "HOST", value: "{group}"), .init(name: "CACHE-CONTROL", value: "max-age={maxAge}"),
            .init(name: "LOCATION", value: "{location}"), .init(name: "SERVER", value: "{server}"),
            .init(name: "NT", value: "{nt}"), .init(name: "USN", value: "{usn}"),
            .init(name: "NTS", value: "ssdp:alive"),
        ],
        byebye: [
            .init(name: "HOST", value: "{group}"), .init(name: "NT", value: "{nt}"), .init(name: "USN", value: "{usn}"),
            .init(name: "NTS", value: "ssdp:byebye"),
        ]
    )

    /// BOOTID.UPNP.ORG and CONFIGID.UPNP.ORG, last, as miniupnpd writes them.
    private static let upnp11IDs: [SSDPHeaderField] = [
        .init(name: "BOOTID.UPNP.ORG", value: "{bootId}"), .init(name: "CONFIGID.UPNP.ORG", value: "{configId}"),
    ]

    /// The `X-User-Agent` every libupnp message carries.
    static let libupnpUserAgent = SSDPHeaderField(name: "X-User-Agent", value: "redsonic")

    /// libupnp's and miniupnpd's `OPT` and `01-NLS` pair.
    static func nls(bootID: String) -> [SSDPHeaderField] {
        [
            .init(name: "OPT", value: "\"http://schemas.upnp.org/upnp/1/0/\"; ns=01"),
            .init(name: "01-NLS", value: bootID),
        ]
    }

    private static let alphanumerics = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
}

/// A MAC address drawn for a profile, written the ways devices write it.
struct MACAddress: Sendable {
    var bytes: [UInt8]

    func text(separator: String, upperCase: Bool = false) -> String {
        bytes.map { byte in
            let digits = String(byte, radix: 16, uppercase: upperCase)
            return byte < 16 ? "0" + digits : digits
        }.joined(separator: separator)
    }
}

extension SSDPRandom {
    /// A MAC address with the maker's `prefix` (OUI) and random last three bytes.
    mutating func mac(prefix: [UInt8]) -> MACAddress {
        MACAddress(bytes: prefix + (0..<3).map { _ in UInt8.random(in: 0...255, using: &self) })
    }

    /// `count` characters drawn from `alphabet`.
    mutating func text(count: Int, from alphabet: String) -> String {
        let characters = Array(alphabet)
        return String((0..<count).map { _ in characters[Int.random(in: 0..<characters.count, using: &self)] })
    }
}
