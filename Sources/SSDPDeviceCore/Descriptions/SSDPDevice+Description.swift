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

extension SSDPDevice {
    /// The device a UPnP device description (`<root><device>…`) describes, as a recorded device is read
    /// (`ssdp-sim record`): its UDN, type, names and properties, its services with their URLs as written
    /// (an absolute URL at `origin` made a path, so that the device answers where it is now), and its
    /// embedded devices. `nil` when `bytes` are not a description with a device that has a UDN and a type.
    public init?(description bytes: [UInt8], origin: String) {
        guard let root = SSDPXMLElement.parse(bytes), root.name == "root", let device = root.child("device") else {
            return nil
        }
        self.init(element: device, origin: origin)
    }

    private init?(element: SSDPXMLElement, origin: String) {
        let text = { (name: String) in element.child(name).map { Self.trimmed($0.text) } }
        guard let udn = text("UDN"), !udn.isEmpty, let deviceType = text("deviceType"), !deviceType.isEmpty else {
            return nil
        }
        let named: Set<String> = [
            "UDN", "deviceType", "friendlyName", "manufacturer", "modelName", "serviceList", "deviceList",
        ]
        self.init(
            udn: udn,
            deviceType: deviceType,
            friendlyName: text("friendlyName") ?? "",
            manufacturer: text("manufacturer") ?? "",
            modelName: text("modelName") ?? "",
            properties: element.children.filter { !named.contains($0.name) && $0.children.isEmpty }.map {
                SSDPDeviceProperty($0.name, Self.trimmed($0.text))
            },
            services: (element.child("serviceList")?.children ?? []).filter { $0.name == "service" }.compactMap {
                service in
                let url = { (name: String) in Self.path(service.child(name).map { Self.trimmed($0.text) } ?? "", origin)
                }
                guard let type = service.child("serviceType").map({ Self.trimmed($0.text) }), !type.isEmpty else {
                    return nil
                }
                return SSDPDeviceService(
                    serviceType: type,
                    serviceID: service.child("serviceId").map { Self.trimmed($0.text) },
                    urls: .init(scpd: url("SCPDURL"), control: url("controlURL"), event: url("eventSubURL"))
                )
            },
            embeddedDevices: (element.child("deviceList")?.children ?? []).filter { $0.name == "device" }.compactMap {
                SSDPDevice(element: $0, origin: origin)
            }
        )
    }

    /// `url` as the device serves it: an absolute URL at `origin` (any case) made its path; anything else
    /// (a relative URL, another origin) as written.
    private static func path(_ url: String, _ origin: String) -> String {
        guard url.hasPrefixIgnoringASCIICase(origin) else { return url }
        let path = String(url.dropFirst(origin.count))
        guard path.isEmpty || path.hasPrefix("/") else { return url }  // `http://h:80` in `http://h:8080/…`
        return path.isEmpty ? "/" : path
    }

    private static func trimmed(_ text: String) -> String {
        String(text.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
