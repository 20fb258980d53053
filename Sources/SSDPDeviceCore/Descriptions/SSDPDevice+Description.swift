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

extension SSDPDevice {
    /// The device a UPnP device description (`<root><device>…`) describes, as a recorded device is read
    /// (`ssdp-sim record`): its UDN, type, names and properties, its services with the paths of their URLs
    /// (resolved as a control point resolves them, against URLBase or the description's own `path` at
    /// `origin`, so that the device answers where its clients will ask), and its embedded devices. `nil`
    /// when `bytes` are not a description with a device that has a UDN and a type.
    public init?(description bytes: [UInt8], origin: String, path: String = "/") {
        guard let root = SSDPXMLElement.parse(bytes), root.name == "root", let device = root.child("device") else {
            return nil
        }
        var base = path
        if let urlBase = root.child("URLBase").map({ Self.trimmed($0.text) }), !urlBase.isEmpty {
            let resolved = Self.path(urlBase, base: path, origin: origin)
            if resolved.hasPrefix("/") { base = resolved }
        }
        self.init(element: device, origin: origin, base: base)
    }

    private init?(element: SSDPXMLElement, origin: String, base: String) {
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
                let url = { (name: String) in
                    Self.path(service.child(name).map { Self.trimmed($0.text) } ?? "", base: base, origin: origin)
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
                SSDPDevice(element: $0, origin: origin, base: base)
            }
        )
    }

    /// The path a control point asks for `url` at: an absolute URL at `origin` (any case) made its path, a
    /// relative one resolved against the path `base` (RFC 3986 §5.2: `ctl` beside `/upnp/desc.xml` is
    /// `/upnp/ctl`, `../ctl` is `/ctl`), each with its dot segments removed and its query kept; a URL at
    /// another origin as written (the device cannot serve it).
    static func path(_ url: String, base: String, origin: String) -> String {
        guard !url.isEmpty else { return url }
        let path: String
        if url.contains("://") {
            guard url.hasPrefixIgnoringASCIICase(origin) else { return url }
            let rest = String(url.dropFirst(origin.count))
            guard rest.isEmpty || rest.hasPrefix("/") || rest.hasPrefix("?") else { return url }  // `h:80` in `h:8080`
            path = rest.hasPrefix("/") ? rest : "/" + rest
        } else if url.hasPrefix("/") {
            path = url
        } else {
            let directory = base.prefix { $0 != "?" }.split(separator: "/", omittingEmptySubsequences: false).dropLast()
            path = directory.joined(separator: "/") + "/" + url
        }
        let query = path.firstIndex(of: "?").map { String(path[$0...]) } ?? ""
        var segments: [Substring] = []
        let parts = path.prefix { $0 != "?" }.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        for (index, part) in parts.enumerated() {
            let last = index == parts.count - 1
            switch part {
            case ".": if last { segments.append("") }
            case "..":
                if !segments.isEmpty { segments.removeLast() }
                if last { segments.append("") }
            default: segments.append(part)
            }
        }
        return "/" + segments.joined(separator: "/") + query
    }

    private static func trimmed(_ text: String) -> String {
        String(text.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
