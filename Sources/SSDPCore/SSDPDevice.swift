/// A UPnP device as its description document lists it: identity, type, services and embedded devices.
///
/// The same value drives the SSDP side (which targets the device advertises and answers) and the HTTP
/// side (the description served at LOCATION), so the two can never disagree.
public struct SSDPDevice: Hashable, Sendable {
    /// The unique device name as written in the description, `uuid:` included.
    public var udn: String
    /// `urn:<domain>:device:<type>:<version>`.
    public var deviceType: String
    public var friendlyName: String
    public var manufacturer: String
    public var modelName: String
    public var services: [SSDPDeviceService]
    public var embeddedDevices: [SSDPDevice]

    public init(
        udn: String,
        deviceType: String,
        friendlyName: String = "ssdp-sim device",
        manufacturer: String = "ssdp-sim",
        modelName: String = "Simulated Device",
        services: [SSDPDeviceService] = [],
        embeddedDevices: [SSDPDevice] = []
    ) {
        self.udn = udn
        self.deviceType = deviceType
        self.friendlyName = friendlyName
        self.manufacturer = manufacturer
        self.modelName = modelName
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

    public init(serviceType: String, serviceID: String? = nil) {
        self.serviceType = serviceType
        self.serviceID = serviceID ?? Self.defaultID(for: serviceType)
    }

    /// `urn:upnp-org:serviceId:ContentDirectory` for `urn:schemas-upnp-org:service:ContentDirectory:1`.
    private static func defaultID(for serviceType: String) -> String {
        let parts = serviceType.split(separator: ":", omittingEmptySubsequences: false)
        let name = parts.count >= 4 ? parts[3] : Substring(serviceType)
        return "urn:upnp-org:serviceId:\(name)"
    }
}

/// One advertisement of a root device: a notification type and the USN that goes with it.
///
/// A root device with `d` embedded devices and `k` (device, service type) pairs has 3 + 2d + k of them
/// (UDA 1.1 §1.2.2, Table 1-1..1-3); each is one NOTIFY alive and one answer to `ssdp:all`.
public struct SSDPAdvertisement: Hashable, Sendable {
    /// The NT of the alive message, and the ST of the answer to `ssdp:all`.
    public var target: String
    public var usn: String

    public init(target: String, usn: String) {
        self.target = target
        self.usn = usn
    }
}
