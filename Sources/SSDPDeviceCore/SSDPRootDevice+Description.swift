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

extension SSDPRootDevice {
    /// The UPnP device description (UDA 1.1 §2.3) that LOCATION serves: every device of the tree with its
    /// type, names, UDN and service list.
    ///
    /// Service URLs are paths under `basePath`: service `k` (numbered across the whole tree, depth first)
    /// has `basePath/service/k/scpd.xml`, `…/control` and `…/event`.
    public func descriptionXML(basePath: String) -> String {
        var counter = 0
        var xml = """
            <?xml version="1.0" encoding="utf-8"?>
            <root xmlns="urn:schemas-upnp-org:device-1-0" configId="\(configID)">
              <specVersion><major>1</major><minor>1</minor></specVersion>

            """
        appendDevice(device, basePath: basePath, indent: "  ", counter: &counter, to: &xml)
        xml += "</root>\n"
        return xml
    }

    /// How many services the whole tree lists; their indexes in the service URLs are `0..<count`.
    public var serviceCount: Int {
        device.allDevices.reduce(0) { $0 + $1.services.count }
    }

    private func appendDevice(
        _ device: SSDPDevice,
        basePath: String,
        indent: String,
        counter: inout Int,
        to xml: inout String
    ) {
        let inner = indent + "  "
        xml += "\(indent)<device>\n"
        // UDA 1.1 §2.3's order, which real stacks keep (miniupnpd, a Roku): manufacturerURL and
        // modelDescription before modelName, UPC after UDN, presentationURL last; other properties as given.
        let properties = device.properties.map { ($0.name, $0.value) }
        let beforeModelName = properties.filter { ["manufacturerURL", "modelDescription"].contains($0.0) }
        let afterUDN = properties.filter { $0.0 == "UPC" }
        let last = properties.filter { $0.0 == "presentationURL" }
        let rest = properties.filter {
            !["manufacturerURL", "modelDescription", "UPC", "presentationURL"].contains($0.0)
        }
        let fields =
            [
                ("deviceType", device.deviceType), ("friendlyName", device.friendlyName),
                ("manufacturer", device.manufacturer),
            ]
            + beforeModelName + [("modelName", device.modelName)] + rest + [("UDN", device.udn)] + afterUDN
        for (name, value) in fields {
            xml += "\(inner)<\(name)>\(Self.escaped(value))</\(name)>\n"
        }
        if !device.services.isEmpty {
            xml += "\(inner)<serviceList>\n"
            for service in device.services {
                let urls = service.urls ?? Self.simulatorURLs(basePath: basePath, service: counter)
                counter += 1
                xml += "\(inner)  <service>\n"
                for (name, value) in [
                    ("serviceType", service.serviceType), ("serviceId", service.serviceID),
                    ("SCPDURL", urls.scpd), ("controlURL", urls.control), ("eventSubURL", urls.event),
                ] {
                    xml += "\(inner)    <\(name)>\(Self.escaped(value))</\(name)>\n"
                }
                xml += "\(inner)  </service>\n"
            }
            xml += "\(inner)</serviceList>\n"
        }
        if !device.embeddedDevices.isEmpty {
            xml += "\(inner)<deviceList>\n"
            for embedded in device.embeddedDevices {
                appendDevice(embedded, basePath: basePath, indent: inner + "  ", counter: &counter, to: &xml)
            }
            xml += "\(inner)</deviceList>\n"
        }
        for (name, value) in last {
            xml += "\(inner)<\(name)>\(Self.escaped(value))</\(name)>\n"
        }
        xml += "\(indent)</device>\n"
    }

    /// The URLs of service `service` (counted across the tree) of a device whose profile gives none.
    public static func simulatorURLs(basePath: String, service: Int) -> SSDPDeviceService.URLs {
        let path = "\(basePath)/service/\(service)"
        return .init(scpd: "\(path)/scpd.xml", control: "\(path)/control", event: "\(path)/event")
    }

    /// Text with the five XML special characters escaped, and each character XML 1.0 does not allow at all
    /// (the control characters but tab, LF and CR; U+FFFE, U+FFFF), which no escape can carry, replaced by
    /// U+FFFD: a client's value echoed back cannot make the document not well-formed.
    ///
    /// It reads scalars, not characters: an `&` followed by a combining mark is one `Character` that is
    /// not `&`, and would be written raw.
    public static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            default: result.unicodeScalars.append(isNotAllowedInXML(scalar) ? "\u{FFFD}" : scalar)
            }
        }
        return result
    }

    /// Whether XML 1.0 allows `scalar` nowhere in a document (its `Char` production).
    private static func isNotAllowedInXML(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: false
        case 0..<0x20, 0xFFFE, 0xFFFF: true
        default: false
        }
    }
}
