import FoundationEssentials
import SSDPCore

/// A device file: the devices a simulator runs, in JSON, the same shape scenario files use for devices.
///
/// ```json
/// { "devices": [
///     { "profile": "generic", "count": 2, "behaviour": { "delay": "late:1.5", "duplicates": 2 } },
///     { "friendlyName": "Kitchen", "deviceType": "urn:schemas-upnp-org:device:MediaServer:1",
///       "services": ["urn:schemas-upnp-org:service:ContentDirectory:1"],
///       "behaviour": { "malformed": ["lf-only", "missing-ext"], "silent": ["2-5"] } } ] }
/// ```
///
/// Unknown fields are errors, so a misspelt field never silently does nothing. Every error names the file,
/// the JSON path and the reason.
public struct DeviceFile: Sendable {
    public var devices: [SimulatedDevice]

    /// Reads and checks the file at `path`; `seed` draws the UDNs of devices that do not give one.
    public static func load(path: String, seed: UInt64) throws(SimulatorInputError) -> DeviceFile {
        guard FileManager.default.fileExists(atPath: path) else {
            throw SimulatorInputError(file: path, path: "$", reason: "no such file")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw SimulatorInputError(file: path, path: "$", reason: "cannot read the file")
        }
        return try decode(data, file: path, seed: seed)
    }

    /// Reads and checks a device file's contents; `file` names it in errors.
    public static func decode(_ data: Data, file: String, seed: UInt64) throws(SimulatorInputError) -> DeviceFile {
        let specification: Specification
        do {
            specification = try JSONDecoder().decode(Specification.self, from: data)
        } catch {
            throw SimulatorInputError(file: file, decodingError: error)
        }
        var devices: [SimulatedDevice] = []
        for (index, spec) in specification.devices.enumerated() {
            do throws(SSDPConfigurationError) {
                devices += try spec.makeDevices(firstNumber: devices.count + 1, seed: seed)
            } catch {
                throw SimulatorInputError(
                    file: file,
                    path: "$.devices[\(index)].\(error.field)",
                    reason: error.reason(quoting: true)
                )
            }
        }
        return DeviceFile(devices: devices)
    }

    struct Specification: Decodable {
        var devices: [DeviceSpecification]

        enum CodingKeys: String, CodingKey, CaseIterable {
            case devices
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
            devices = try container.decode([DeviceSpecification].self, forKey: .devices)
        }
    }
}

/// One entry of a device file's `devices`: a profile, how many of it, and fields that override the profile.
public struct DeviceSpecification: Decodable, Sendable {
    public var profile: String?
    public var count: Int?
    public var udn: String?
    public var deviceType: String?
    public var friendlyName: String?
    public var manufacturer: String?
    public var modelName: String?
    public var services: [String]?
    public var embeddedDevices: [EmbeddedDeviceSpecification]?
    public var server: String?
    public var maxAge: Int?
    public var bootId: Int?
    public var configId: Int?
    public var extraTargets: [String]?
    /// Extra headers as `"NAME: value"`, in order.
    public var headers: [String]?
    /// The search response's header lines as `"NAME: value"` with placeholders (`{st}`, `{usn}`, …), in
    /// the order and spelling to send; see `SSDPRootDevice.responseHeaders`.
    public var responseHeaders: [String]?
    public var behaviour: BehaviourSpecification?
    /// `false` starts from a well-behaved device instead of the profile's known quirks (a Hue's chatter,
    /// a DIAL server's immediate answers); `behaviour` still applies on top.
    public var quirks: Bool?
    /// The IPv4 address the device lives at (see `DeviceAddressing`); with `count` above 1, the first of
    /// consecutive addresses.
    public var address: String?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case profile, count, udn, deviceType, friendlyName, manufacturer, modelName, services, embeddedDevices
        case server, maxAge, bootId, configId, extraTargets, headers, responseHeaders, behaviour, quirks, address
    }

    /// An entry built in code (command-line flags); every field left `nil` keeps the profile's value.
    public init(
        profile: String? = nil,
        count: Int? = nil,
        friendlyName: String? = nil,
        deviceType: String? = nil,
        server: String? = nil,
        maxAge: Int? = nil,
        behaviour: BehaviourSpecification? = nil,
        quirks: Bool? = nil
    ) {
        self.profile = profile
        self.count = count
        self.friendlyName = friendlyName
        self.deviceType = deviceType
        self.server = server
        self.maxAge = maxAge
        self.behaviour = behaviour
        self.quirks = quirks
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
        quirks = try container.decodeIfPresent(Bool.self, forKey: .quirks)
        profile = try container.decodeIfPresent(String.self, forKey: .profile)
        count = try container.decodeIfPresent(Int.self, forKey: .count)
        udn = try container.decodeIfPresent(String.self, forKey: .udn)
        deviceType = try container.decodeIfPresent(String.self, forKey: .deviceType)
        friendlyName = try container.decodeIfPresent(String.self, forKey: .friendlyName)
        manufacturer = try container.decodeIfPresent(String.self, forKey: .manufacturer)
        modelName = try container.decodeIfPresent(String.self, forKey: .modelName)
        services = try container.decodeIfPresent([String].self, forKey: .services)
        embeddedDevices = try container.decodeIfPresent([EmbeddedDeviceSpecification].self, forKey: .embeddedDevices)
        server = try container.decodeIfPresent(String.self, forKey: .server)
        maxAge = try container.decodeIfPresent(Int.self, forKey: .maxAge)
        bootId = try container.decodeIfPresent(Int.self, forKey: .bootId)
        configId = try container.decodeIfPresent(Int.self, forKey: .configId)
        extraTargets = try container.decodeIfPresent([String].self, forKey: .extraTargets)
        headers = try container.decodeIfPresent([String].self, forKey: .headers)
        responseHeaders = try container.decodeIfPresent([String].self, forKey: .responseHeaders)
        behaviour = try container.decodeIfPresent(BehaviourSpecification.self, forKey: .behaviour)
        address = try container.decodeIfPresent(String.self, forKey: .address)
    }

    /// The devices this entry describes, numbered from `firstNumber`. Errors name the field relative to
    /// the entry (`behaviour.delay`).
    public func makeDevices(firstNumber: Int, seed: UInt64) throws(SSDPConfigurationError) -> [SimulatedDevice] {
        let profile = try SimulatorProfile.named(self.profile ?? "generic")
        let count = self.count ?? 1
        guard (1...10_000).contains(count) else {
            throw SSDPConfigurationError(field: "count", value: "\(count)", reason: "must be 1...10000")
        }
        if udn != nil, count > 1 {
            throw SSDPConfigurationError(field: "udn", value: udn ?? "", reason: "a fixed UDN needs count 1")
        }
        let addresses = try address.map { (first) throws(SSDPConfigurationError) in
            guard let start = IPv4(first), UInt64(start.value) + UInt64(count) - 1 <= UInt64(UInt32.max) else {
                throw SSDPConfigurationError(field: "address", value: first, reason: "not an IPv4 address")
            }
            return (0..<count).map { IPv4(value: start.value + UInt32($0)).description }
        }
        return try (0..<count).map { (offset) throws(SSDPConfigurationError) in
            let number = firstNumber + offset
            var device = profile.device(number: number, seed: seed)
            try apply(to: &device, number: number, seed: seed)
            let base = quirks == false ? SSDPDeviceBehaviour() : device.behaviour
            device.behaviour = try behaviour?.makeBehaviour(base: base) ?? base
            device.address = addresses?[offset]
            try device.validate()
            return device
        }
    }

    private func apply(to simulated: inout SimulatedDevice, number: Int, seed: UInt64) throws(SSDPConfigurationError) {
        var device = simulated.device
        device.udn = udn ?? device.udn
        device.deviceType = deviceType ?? device.deviceType
        device.friendlyName = friendlyName.map { count ?? 1 > 1 ? "\($0) \(number)" : $0 } ?? device.friendlyName
        device.manufacturer = manufacturer ?? device.manufacturer
        device.modelName = modelName ?? device.modelName
        device.services = services.map { $0.map { SSDPDeviceService(serviceType: $0) } } ?? device.services
        if let embeddedDevices {
            var random = SSDPRandom.derived(seed: seed, stream: SimulatorProfile.embeddedUDNStream &+ UInt64(number))
            device.embeddedDevices = embeddedDevices.map { $0.makeDevice(random: &random) }
        }
        simulated.device = device
        simulated.server = server ?? simulated.server
        simulated.maxAge = maxAge ?? simulated.maxAge
        simulated.bootID = bootId ?? simulated.bootID
        simulated.configID = configId ?? simulated.configID
        simulated.extraTargets = extraTargets?.map { SSDPExtraTarget($0) } ?? simulated.extraTargets
        if let headers {
            simulated.extraHeaders = try headers.map { (line) throws(SSDPConfigurationError) in
                try SSDPHeaderField(line: line, field: "headers")
            }
        }
        if let responseHeaders {
            simulated.responseHeaders = try responseHeaders.map { (line) throws(SSDPConfigurationError) in
                try SSDPHeaderField(line: line, field: "responseHeaders")
            }
        }
    }
}

/// An embedded device in a device file: type, names, services and its own embedded devices.
public struct EmbeddedDeviceSpecification: Decodable, Sendable {
    public var udn: String?
    public var deviceType: String
    public var friendlyName: String?
    public var services: [String]?
    public var embeddedDevices: [EmbeddedDeviceSpecification]?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case udn, deviceType, friendlyName, services, embeddedDevices
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
        udn = try container.decodeIfPresent(String.self, forKey: .udn)
        deviceType = try container.decode(String.self, forKey: .deviceType)
        friendlyName = try container.decodeIfPresent(String.self, forKey: .friendlyName)
        services = try container.decodeIfPresent([String].self, forKey: .services)
        embeddedDevices = try container.decodeIfPresent([EmbeddedDeviceSpecification].self, forKey: .embeddedDevices)
    }

    func makeDevice(random: inout SSDPRandom) -> SSDPDevice {
        SSDPDevice(
            udn: udn ?? "uuid:\(random.uuid())",
            deviceType: deviceType,
            friendlyName: friendlyName ?? "ssdp-sim embedded device",
            services: (services ?? []).map { SSDPDeviceService(serviceType: $0) },
            embeddedDevices: (embeddedDevices ?? []).map { $0.makeDevice(random: &random) }
        )
    }
}

/// A device's behaviour in a device file; every field is optional and the texts are the flags' texts.
public struct BehaviourSpecification: Decodable, Sendable {
    public var delay: String?
    public var searchLoss: Double?
    public var responseLoss: Double?
    public var ignoreFirst: Int?
    public var duplicates: Int?
    public var chatty: [String]?
    public var malformed: [String]?
    public var silent: [String]?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case delay, searchLoss, responseLoss, ignoreFirst, duplicates, chatty, malformed, silent
    }

    /// A behaviour built in code (command-line flags); `nil` fields keep the well-behaved default.
    public init(
        delay: String? = nil,
        searchLoss: Double? = nil,
        responseLoss: Double? = nil,
        ignoreFirst: Int? = nil,
        duplicates: Int? = nil,
        chatty: [String]? = nil,
        malformed: [String]? = nil,
        silent: [String]? = nil
    ) {
        self.delay = delay
        self.searchLoss = searchLoss
        self.responseLoss = responseLoss
        self.ignoreFirst = ignoreFirst
        self.duplicates = duplicates
        self.chatty = chatty
        self.malformed = malformed
        self.silent = silent
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
        delay = try container.decodeIfPresent(String.self, forKey: .delay)
        searchLoss = try container.decodeIfPresent(Double.self, forKey: .searchLoss)
        responseLoss = try container.decodeIfPresent(Double.self, forKey: .responseLoss)
        ignoreFirst = try container.decodeIfPresent(Int.self, forKey: .ignoreFirst)
        duplicates = try container.decodeIfPresent(Int.self, forKey: .duplicates)
        chatty = try container.decodeIfPresent([String].self, forKey: .chatty)
        malformed = try container.decodeIfPresent([String].self, forKey: .malformed)
        silent = try container.decodeIfPresent([String].self, forKey: .silent)
    }

    /// The behaviour these texts describe, not yet validated: `base` (a profile's quirks, or a well-behaved
    /// device) with every field given here replaced. Errors name the field as `behaviour.FIELD`.
    public func makeBehaviour(base: SSDPDeviceBehaviour = .init()) throws(SSDPConfigurationError) -> SSDPDeviceBehaviour {
        do throws(SSDPConfigurationError) {
            return SSDPDeviceBehaviour(
                delay: try delay.map { (text) throws(SSDPConfigurationError) in
                    try SSDPDeviceBehaviour.Delay(text: text)
                } ?? base.delay,
                searchLoss: searchLoss ?? base.searchLoss,
                responseLoss: responseLoss ?? base.responseLoss,
                ignoredSearches: ignoreFirst ?? base.ignoredSearches,
                duplicates: duplicates ?? base.duplicates,
                chatter: try chatty.map { (names) throws(SSDPConfigurationError) in
                    try parseNames(names.joined(separator: ","), field: "chatty")
                } ?? base.chatter,
                malformations: try malformed.map { (names) throws(SSDPConfigurationError) in
                    try parseNames(names.joined(separator: ","), field: "malformed")
                } ?? base.malformations,
                silentWindows: try silent.map { (texts) throws(SSDPConfigurationError) in
                    try texts.map { (text) throws(SSDPConfigurationError) in try SSDPDeviceBehaviour.SilentWindow(text: text) }
                } ?? base.silentWindows
            )
        } catch {
            throw SSDPConfigurationError(field: "behaviour.\(error.field)", value: error.value, reason: error.reason)
        }
    }
}

extension SSDPHeaderField {
    /// A header written as `NAME: value`; an error names `field`, the list it came from.
    public init(line: String, field: String) throws(SSDPConfigurationError) {
        guard let colon = line.firstIndex(of: ":"), colon != line.startIndex,
            !line[..<colon].contains(" ")
        else {
            throw SSDPConfigurationError(field: field, value: line, reason: "expected NAME: value")
        }
        let value = line[line.index(after: colon)...].drop { $0 == " " }
        self.init(name: String(line[..<colon]), value: String(value))
    }
}

extension SSDPConfigurationError {
    /// The reason, with the offending value quoted first when asked.
    public func reason(quoting: Bool) -> String {
        quoting ? "\"\(value)\": \(reason)" : reason
    }
}
