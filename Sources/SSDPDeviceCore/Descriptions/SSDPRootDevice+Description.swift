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
        let layout = descriptionLayout
        let (newline, step) = (layout.style.newline, layout.style.indent)
        var xml = layout.style.declaration
        xml += "<root xmlns=\"urn:schemas-upnp-org:device-1-0\""
        xml += layout.specVersion.minor >= 1 ? " configId=\"\(configID)\">" : ">"
        xml += newline + step
        // One line in UDA's layout and MiniDLNA's, an element per line in gmrender-resurrect's and the Hue's.
        let versionBreak = layout.style == .lines || layout.style == .unindented ? newline : ""
        xml += "<specVersion>\(versionBreak)<major>\(layout.specVersion.major)</major>\(versionBreak)"
        xml += "<minor>\(layout.specVersion.minor)</minor>\(versionBreak)</specVersion>" + newline
        let urlBase = "\(step)<URLBase>\(Self.originPlaceholder)/</URLBase>\(newline)"
        if layout.urlBase == .beforeDevice { xml += urlBase }
        appendDevice(device, basePath: basePath, indent: step, counter: &counter, to: &xml)
        if layout.urlBase == .afterDevice { xml += urlBase }
        xml += "</root>" + newline
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
        let layout = descriptionLayout
        let (newline, step) = (layout.style.newline, layout.style.indent)
        let inner = indent + step
        xml += "\(indent)<device>\(newline)"
        // UDA 1.1 §2.3's order, which real stacks keep (miniupnpd, a Roku): manufacturerURL and
        // modelDescription (the layout's `beforeModelName`) before modelName, then the other properties as
        // given, UDN, those the layout puts after it (UPC), the lists, and those it puts last
        // (presentationURL); a layout may put some right after deviceType (gmrender-resurrect's
        // presentationURL).
        let properties = device.properties
        let afterDeviceType = properties.filter { layout.afterDeviceType.contains($0.name) }
        let beforeModelName = layout.beforeModelName.compactMap { name in properties.first { $0.name == name } }
        let afterUDN = properties.filter { layout.afterUDN.contains($0.name) }
        let last = properties.filter { layout.last.contains($0.name) }
        let rest = properties.filter {
            !layout.beforeModelName.contains($0.name) && !layout.afterUDN.contains($0.name)
                && !layout.last.contains($0.name) && !layout.afterDeviceType.contains($0.name)
        }
        let fields =
            [SSDPDeviceProperty("deviceType", device.deviceType)] + afterDeviceType
            + [
                SSDPDeviceProperty("friendlyName", device.friendlyName),
                SSDPDeviceProperty("manufacturer", device.manufacturer),
            ]
            + beforeModelName + [SSDPDeviceProperty("modelName", device.modelName)] + rest
            + [SSDPDeviceProperty("UDN", device.udn)] + afterUDN
        func write(_ property: SSDPDeviceProperty) {
            xml += inner
            xml +=
                property.isMarkup
                ? property.value : "<\(property.name)>\(Self.escaped(property.value))</\(property.name)>"
            xml += newline
        }
        fields.forEach(write)
        if !device.services.isEmpty {
            xml += "\(inner)<serviceList>\(newline)"
            for service in device.services {
                let urls = service.urls ?? Self.simulatorURLs(basePath: basePath, service: counter)
                counter += 1
                let values = [
                    "serviceType": service.serviceType, "serviceId": service.serviceID, "SCPDURL": urls.scpd,
                    "controlURL": urls.control, "eventSubURL": urls.event,
                ]
                xml += "\(inner)\(step)<service>\(newline)"
                for name in layout.serviceFields {
                    xml += "\(inner)\(step)\(step)<\(name)>\(Self.escaped(values[name] ?? ""))</\(name)>\(newline)"
                }
                xml += "\(inner)\(step)</service>\(newline)"
            }
            xml += "\(inner)</serviceList>\(newline)"
        }
        if !device.embeddedDevices.isEmpty {
            xml += "\(inner)<deviceList>\(newline)"
            for embedded in device.embeddedDevices {
                appendDevice(embedded, basePath: basePath, indent: inner + step, counter: &counter, to: &xml)
            }
            xml += "\(inner)</deviceList>\(newline)"
        }
        last.forEach(write)
        xml += "\(indent)</device>\(newline)"
    }

    /// The description as served to a client that reached the device at `origin` (`http://host:port`): its
    /// `{host}` (a router's presentationURL, `http://{host}/`) and `{origin}` (libupnp's URLBase) written
    /// as that address.
    public func descriptionXML(basePath: String, origin: String) -> String {
        Self.filling(
            descriptionXML(basePath: basePath),
            with: [Self.hostPlaceholder: Self.host(of: origin), Self.originPlaceholder: origin]
        )
    }

    /// In a description's values, the host the client reached the device at.
    public static let hostPlaceholder = "{host}"
    /// In a description, the scheme, host and port the client reached the device at (libupnp's URLBase).
    public static let originPlaceholder = "{origin}"

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
        // Most values are plain ASCII with nothing to escape: returned as they are, without a copy.
        if text.utf8.allSatisfy(isPlainASCII) { return text }
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

    /// An ASCII byte that `escaped` writes as it is: printable, not one of the five special characters.
    private static func isPlainASCII(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\""), UInt8(ascii: "'"): false
        case 0x20..<0x7F: true
        default: false
        }
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

/// How a root device's description is laid out: UDA 1.1's (`uda11`, what most stacks write), or a real
/// stack's own (`miniDLNA`). Element names and values are the device's; the layout decides the version the
/// root states, where properties go and the order of a service's elements.
public struct SSDPDescriptionLayout: Hashable, Sendable {
    /// The `<specVersion>`: 1.1 carries `configId` on the root, 1.0 does not.
    public var specVersion: (major: Int, minor: Int) {
        get { (specMajor, specMinor) }
        set { (specMajor, specMinor) = newValue }
    }
    private var specMajor: Int
    private var specMinor: Int
    /// Properties written right after deviceType, in the device's order (gmrender-resurrect: `presentationURL`).
    public var afterDeviceType: Set<String> = []
    /// Properties written between manufacturer and modelName, in this order (UDA: `manufacturerURL`,
    /// `modelDescription`; a Sonos puts `modelNumber` between them).
    public var beforeModelName = ["manufacturerURL", "modelDescription"]
    /// Properties written right after UDN, in the device's order (UDA: `UPC`).
    public var afterUDN: Set<String>
    /// Properties written after the service and device lists (UDA: `presentationURL`).
    public var last: Set<String>
    /// A service's elements, in order.
    public var serviceFields: [String]
    /// How the elements are laid out on lines.
    public var style: Style
    /// Where `<URLBase>`, the address the client reached the device at, is written, if anywhere.
    public var urlBase = URLBase.none

    /// Where a description writes `<URLBase>`.
    public enum URLBase: Hashable, Sendable {
        /// Nowhere (UDA 1.1 deprecates it).
        case none
        /// After `<specVersion>`, before the device (a Hue bridge).
        case beforeDevice
        /// After the device, as libupnp writes it into every description it serves.
        case afterDevice
    }

    /// How a description's elements are laid out on lines.
    public enum Style: Hashable, Sendable {
        /// One element per line, indented two spaces per level, after an XML declaration naming UTF-8.
        case indented
        /// All on one line after an XML declaration without encoding and a CRLF, no line end at the end
        /// (MiniDLNA).
        case oneLine
        /// One element per line, each ending in CRLF, without indentation, after an XML declaration without
        /// encoding (gmrender-resurrect's xmlgen.c).
        case lines
        /// One element per line, each ending in LF, without indentation, after `<?xml version="1.0"
        /// encoding="UTF-8" ?>` (a Hue bridge's).
        case unindented

        var newline: String {
            switch self {
            case .indented, .unindented: "\n"
            case .oneLine: ""
            case .lines: "\r\n"
            }
        }

        /// The XML declaration and the line end after it.
        var declaration: String {
            switch self {
            case .indented: "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
            case .oneLine, .lines: "<?xml version=\"1.0\"?>\r\n"
            case .unindented: "<?xml version=\"1.0\" encoding=\"UTF-8\" ?>\n"
            }
        }

        var indent: String { self == .indented ? "  " : "" }
    }

    /// A layout stating UDA `major`.`minor`, with these places and orders.
    public init(
        specVersion: (major: Int, minor: Int),
        afterUDN: Set<String>,
        last: Set<String>,
        serviceFields: [String],
        style: Style
    ) {
        (specMajor, specMinor) = specVersion
        self.afterUDN = afterUDN
        self.last = last
        self.serviceFields = serviceFields
        self.style = style
    }

    /// UDA 1.1 §2.3: UPC after UDN, presentationURL last, SCPDURL before the control and event URLs.
    public static let uda11 = SSDPDescriptionLayout(
        specVersion: (1, 1),
        afterUDN: ["UPC", "iconList"],
        last: ["presentationURL"],
        serviceFields: ["serviceType", "serviceId", "SCPDURL", "controlURL", "eventSubURL"],
        style: .indented
    )

    /// MiniDLNA's (upnpdescgen.c): UPnP 1.0, DLNA's X_DLNADOC, presentationURL and the icons after UDN, the
    /// control and event URLs before SCPDURL, all on one line.
    public static let miniDLNA = SSDPDescriptionLayout(
        specVersion: (1, 0),
        afterUDN: ["dlna:X_DLNADOC", "presentationURL", "iconList"],
        last: [],
        serviceFields: ["serviceType", "serviceId", "controlURL", "eventSubURL", "SCPDURL"],
        style: .oneLine
    )

    /// gmrender-resurrect's (upnp_device.c through xmlgen.c), as libupnp 1.8 serves it: UPnP 1.0,
    /// presentationURL right after deviceType, the icons after UDN, an element per line ending in CRLF, and
    /// the URLBase libupnp adds after the device.
    public static let gmrender: SSDPDescriptionLayout = {
        var layout = SSDPDescriptionLayout(
            specVersion: (1, 0),
            afterUDN: ["iconList"],
            last: [],
            serviceFields: uda11.serviceFields,
            style: .lines
        )
        layout.afterDeviceType = ["presentationURL"]
        layout.urlBase = .afterDevice
        return layout
    }()

    /// A Sonos player's (SoCo's recording of a Play:5's description): UPnP 1.0, modelNumber and
    /// modelDescription between manufacturerURL and modelName, the icons and Sonos's own fields after UDN,
    /// and each service's control and event URLs before its SCPDURL.
    public static let sonos: SSDPDescriptionLayout = {
        var layout = SSDPDescriptionLayout(
            specVersion: (1, 0),
            afterUDN: [
                "iconList", "minCompatibleVersion", "legacyCompatibleVersion", "apiVersion", "minApiVersion",
                "displayVersion", "extraVersion", "roomName", "displayName", "zoneType",
            ],
            last: [],
            serviceFields: miniDLNA.serviceFields,
            style: .indented
        )
        layout.beforeModelName = ["manufacturerURL", "modelNumber", "modelDescription"]
        return layout
    }()

    /// A Hue bridge's (as apps and emulators that pass for one copy it: the Hue app and
    /// Home Assistant's emulated_hue among them): UPnP 1.0, URLBase before the device, presentationURL and
    /// the icons after UDN, an element per line ending in LF.
    public static let hue: SSDPDescriptionLayout = {
        var layout = SSDPDescriptionLayout(
            specVersion: (1, 0),
            afterUDN: ["presentationURL", "iconList"],
            last: [],
            serviceFields: uda11.serviceFields,
            style: .unindented
        )
        layout.urlBase = .beforeDevice
        return layout
    }()
}
