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

/// A UPnP device as its description document lists it: identity, type, services and embedded devices.
///
/// The same value drives the SSDP side (which targets the device advertises and answers) and the HTTP
/// side (the description served at LOCATION), so the two can never disagree.
public struct SSDPDevice: Hashable, Sendable {
    /// The unique device name as written in the description, `uuid:` included.
    public var udn: String
    /// `urn:<domain>:device:<type>:<version>`.
    public var deviceType: String
    /// The short name shown to users (`<friendlyName>`).
    public var friendlyName: String
    /// The maker's name (`<manufacturer>`).
    public var manufacturer: String
    /// The model's name (`<modelName>`).
    public var modelName: String
    /// Further elements of the description's `<device>`, after `modelName`, in order (`modelNumber`,
    /// `serialNumber`, `presentationURL`).
    public var properties: [SSDPDeviceProperty]
    /// The services the device itself offers, in description order; each service type is advertised once.
    public var services: [SSDPDeviceService]
    /// The devices nested in this one (`<deviceList>`), each advertised with its own UDN.
    public var embeddedDevices: [SSDPDevice]

    /// A device; the defaults name it as ssdp-sim's own, with no services or embedded devices.
    public init(
        udn: String,
        deviceType: String,
        friendlyName: String = "ssdp-sim device",
        manufacturer: String = "ssdp-sim",
        modelName: String = "Simulated Device",
        properties: [SSDPDeviceProperty] = [],
        services: [SSDPDeviceService] = [],
        embeddedDevices: [SSDPDevice] = []
    ) {
        self.udn = udn
        self.deviceType = deviceType
        self.friendlyName = friendlyName
        self.manufacturer = manufacturer
        self.modelName = modelName
        self.properties = properties
        self.services = services
        self.embeddedDevices = embeddedDevices
    }

    /// This device and every device embedded in it, depth first, this one first.
    public var allDevices: [SSDPDevice] {
        [self] + embeddedDevices.flatMap(\.allDevices)
    }
}

/// A service a device offers, as its description lists it.
public struct SSDPDeviceService: Hashable, Sendable {
    /// `urn:<domain>:service:<type>:<version>`.
    public var serviceType: String
    /// `urn:<domain>:serviceId:<id>`.
    public var serviceID: String
    /// The service's URLs as the description writes them, or `nil` for the simulator's own
    /// (`<base>/service/K/scpd.xml`, `…/control`, `…/event`). A profile uses the real device's paths.
    public var urls: URLs?

    /// The three URLs of a service in a description (UDA 1.1 §2.3); relative ones are relative to LOCATION.
    public struct URLs: Hashable, Sendable {
        /// The URL of the service description (`<SCPDURL>`).
        public var scpd: String
        /// The URL that SOAP action calls go to (`<controlURL>`).
        public var control: String
        /// The URL that GENA subscriptions go to (`<eventSubURL>`).
        public var event: String

        /// The three URLs as the description writes them.
        public init(scpd: String, control: String, event: String) {
            self.scpd = scpd
            self.control = control
            self.event = event
        }
    }

    /// A service of `serviceType`; without `serviceID` its ID is `urn:upnp-org:serviceId:<type>`, and
    /// without `urls` it is served at the simulator's own paths.
    public init(serviceType: String, serviceID: String? = nil, urls: URLs? = nil) {
        self.serviceType = serviceType
        self.serviceID = serviceID ?? Self.defaultID(for: serviceType)
        self.urls = urls
    }

    /// `urn:upnp-org:serviceId:ContentDirectory` for `urn:schemas-upnp-org:service:ContentDirectory:1`.
    /// Split on bytes: a split by `Character` walks grapheme clusters, some 20,000 instructions for one type.
    private static func defaultID(for serviceType: String) -> String {
        let parts = serviceType.utf8.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
        let name = parts.count >= 4 ? Substring(parts[3]) : Substring(serviceType)
        return "urn:upnp-org:serviceId:\(name)"
    }
}

/// One element of a device description beyond the required ones, such as `<modelNumber>4200X</modelNumber>`.
public struct SSDPDeviceProperty: Hashable, Sendable {
    /// The element's name, `modelNumber`.
    public var name: String
    /// The element's text, unescaped (the description writer escapes it); for markup, the whole element.
    public var value: String
    /// Whether `value` is the element itself, written as it is (`markup(_:_:)`).
    public var isMarkup = false

    /// A property, name first: `SSDPDeviceProperty("modelNumber", "4200X")`.
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }

    /// An element with attributes or children of its own, written as `xml` says: MiniDLNA's
    /// `<dlna:X_DLNADOC xmlns:dlna="…">DMS-1.50</dlna:X_DLNADOC>`, an `<iconList>`.
    public static func markup(_ name: String, _ xml: String) -> SSDPDeviceProperty {
        var property = SSDPDeviceProperty(name, xml)
        property.isMarkup = true
        return property
    }
}

/// One advertisement of a root device: a notification type and the USN that goes with it.
///
/// A root device with `d` embedded devices and `k` (device, service type) pairs has 3 + 2d + k of them
/// (UDA 1.1 §1.2.2, Table 1-1..1-3); each is one NOTIFY alive and one answer to `ssdp:all`.
public struct SSDPAdvertisement: Hashable, Sendable {
    /// The NT of the alive message, and the ST of the answer to `ssdp:all`.
    public var target: String
    /// The unique service name (USN), `uuid:…::upnp:rootdevice`.
    public var usn: String
    /// The LOCATION of this advertisement, or `nil` for the root device's.
    public var location: String?

    /// An advertisement; `location` only when it points elsewhere than the root device's LOCATION.
    public init(target: String, usn: String, location: String? = nil) {
        self.target = target
        self.usn = usn
        self.location = location
    }
}
