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
}
