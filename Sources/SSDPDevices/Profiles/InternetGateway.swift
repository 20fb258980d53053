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
}
