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
    /// A UPnP AV renderer as Debian's gmediarender 0.1 (gmrender-resurrect on libupnp 1.8.4) answers, held to
    /// the real one by `scripts/fidelity renderer`: MediaRenderer:1 with AVTransport, ConnectionManager and
    /// RenderingControl, a UPnP 1.0 device, on libupnp's first port 49152.
    public static let renderer = SimulatorProfile(
        name: "renderer",
        summary: "a gmrender-resurrect MediaRenderer:1 on libupnp 1.8: AVTransport, ConnectionManager, RenderingControl"
    ) { number, random, _ in
        let service = { (type: String, file: String) in
            SSDPDeviceService(
                serviceType: "urn:schemas-upnp-org:service:\(type):1",
                serviceID: "urn:upnp-org:serviceId:\(type)",
                urls: .init(
                    scpd: "/upnp/\(file)SCPD.xml",
                    control: "/upnp/control/\(file)1",
                    event: "/upnp/event/\(file)1"
                )
            )
        }
        let icon = { (size: Int) in
            "<icon>\r\n<mimetype>image/png</mimetype>\r\n<width>\(size)</width>\r\n<height>\(size)</height>\r\n"
                + "<depth>24</depth>\r\n<url>/upnp/grender-\(size)x\(size).png</url>\r\n</icon>"
        }
        // libupnp's 01-NLS: a UUID made when it starts (its string form, without `uuid:`).
        let nls = random.uuid()
        var renderer = SimulatedDevice(
            device: SSDPDevice(
                udn: "uuid:\(random.uuid())",
                deviceType: "urn:schemas-upnp-org:device:MediaRenderer:1",
                friendlyName: "renderer-\(number)",
                manufacturer: "Ivo Clarysse, Henner Zeller",
                modelName: "gmediarender",
                properties: [
                    // upnp_device.c's fields, as its main.c fills them for Debian's 0.1.
                    .init("presentationURL", ""),
                    .init("manufacturerURL", "http://github.com/hzeller/gmrender-resurrect"),
                    .init("modelDescription", "gmediarender 0.1"), .init("modelNumber", "0.1"),
                    .init("modelURL", "http://github.com/hzeller/gmrender-resurrect"),
                    .markup("iconList", "<iconList>\r\n" + icon(64) + "\r\n" + icon(128) + "\r\n</iconList>"),
                ],
                services: [
                    service("AVTransport", "rendertransport"), service("ConnectionManager", "renderconnmgr"),
                    service("RenderingControl", "rendercontrol"),
                ]
            ),
            // libupnp's SERVER: the kernel's name and release, then its own (Debian's kernel, bookworm's 6.1).
            server: "Linux/6.1.0-28-amd64, UPnP/1.0, Portable SDK for UPnP devices/1.8.4",
            // gmrender asks libupnp for 100 s (UpnpSendAdvertisement's Exp).
            maxAge: 100,
            // ssdp_server.c's answer (SearchByTarget through NewRequestHandler), in its order.
            responseHeaders: [
                .init(name: "CACHE-CONTROL", value: "max-age={maxAge}"), .init(name: "DATE", value: "{date}"),
                .init(name: "EXT", value: ""), .init(name: "LOCATION", value: "{location}"),
            ] + Self.nls(bootID: nls) + [
                .init(name: "SERVER", value: "{server}"), Self.libupnpUserAgent, .init(name: "ST", value: "{st}"),
                .init(name: "USN", value: "{usn}"),
            ],
            // Every answer to a search together, after whole seconds drawn from MX (ssdp_device.c).
            behaviour: SSDPDeviceBehaviour(delay: .wholeSeconds),
            web: DeviceWeb(
                realPort: 49152,
                descriptionPath: "/description.xml",
                serviceDescriptions: [
                    "urn:schemas-upnp-org:service:AVTransport:1": .gmrenderAVTransport,
                    "urn:schemas-upnp-org:service:ConnectionManager:1": .gmrenderConnectionManager,
                    "urn:schemas-upnp-org:service:RenderingControl:1": .gmrenderRenderingControl,
                ]
            )
        )
        // ssdp_device.c's NOTIFY, alive and byebye alike but for NTS: a UPnP 1.0 device's, without BOOTID.
        let notify = { (nts: String) -> [SSDPHeaderField] in
            [
                .init(name: "HOST", value: "{group}"), .init(name: "CACHE-CONTROL", value: "max-age={maxAge}"),
                .init(name: "LOCATION", value: "{location}"),
            ] + Self.nls(bootID: nls) + [
                .init(name: "NT", value: "{nt}"), .init(name: "NTS", value: nts),
                .init(name: "SERVER", value: "{server}"), Self.libupnpUserAgent, .init(name: "USN", value: "{usn}"),
            ]
        }
        renderer.notifyHeaders = SSDPNotifyHeaders(alive: notify("ssdp:alive"), byebye: notify("ssdp:byebye"))
        renderer.notifyHeaders?.byebyeCopies = 2
        renderer.descriptionLayout = .gmrender
        renderer.web.controlStack = .gmrender
        renderer.web.genaRules = .libupnp
        renderer.web.errorPages = .libupnp
        renderer.web.files = ServedFile.rendererIcons
        // gmrender's webserver.c serves its SCPDs as plain text/xml; libupnp writes its own description.
        renderer.web.serviceDescriptionContentType = "text/xml"
        // libupnp's header sets (httpreadwrite.c's http_MakeMessage formats): a file, a SOAP answer, a
        // subscription and a status page each have their own, in these orders.
        let fixed = { (name: String, value: String) in SSDPHeaderField(name: name, value: value) }
        renderer.web.httpHeadersByKind = [
            .document: [
                fixed("CONTENT-LENGTH", "{length}"), fixed("Accept-Ranges", "bytes"),
                fixed("CONTENT-TYPE", "{Content-Type}"), fixed("DATE", "{date}"), fixed("LAST-MODIFIED", "{date}"),
                fixed("SERVER", "{server}"), Self.libupnpUserAgent, fixed("CONNECTION", "close"),
            ],
            .control: [
                fixed("CONTENT-LENGTH", "{length}"), fixed("Accept-Ranges", "bytes"),
                fixed("CONTENT-TYPE", "{Content-Type}"), fixed("DATE", "{date}"), fixed("EXT", ""),
                fixed("SERVER", "{server}"), Self.libupnpUserAgent,
            ],
            .subscription: [
                fixed("DATE", "{date}"), fixed("SERVER", "{server}"), fixed("CONTENT-LENGTH", "{length}"),
                fixed("Accept-Ranges", "bytes"), Self.libupnpUserAgent, fixed("SID", "{SID}"),
                fixed("TIMEOUT", "{TIMEOUT}"),
            ],
            .statusPage: [
                fixed("SERVER", "{server}"), fixed("CONNECTION", "close"), fixed("CONTENT-LENGTH", "{length}"),
                fixed("Accept-Ranges", "bytes"), fixed("CONTENT-TYPE", "{Content-Type}"),
            ],
        ]
        return renderer
    }
}
