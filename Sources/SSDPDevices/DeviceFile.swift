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

import FoundationEssentials
import SSDPCore
import SSDPDeviceCore

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
/// Unknown fields are errors (`InputFile` reads every file through `StrictDecoder`), so a misspelt field never
/// silently does nothing. Every error names the file,
/// the JSON path and the reason.
public struct DeviceFile: Sendable {
    /// The devices, each entry expanded by its `count`, in file order (numbered from 1).
    public var devices: [SimulatedDevice]

    /// Reads and checks the file at `path`; `seed` draws the UDNs of devices that do not give one.
    public static func load(path: String, seed: UInt64) throws(SimulatorInputError) -> DeviceFile {
        try decode(try InputFile.contents(of: path), file: path, seed: seed)
    }

    /// Reads and checks a device file's contents; `file` names it in errors. Its devices are numbered from
    /// `firstNumber` (a running simulator's next, for devices that join it): numbers draw UDNs and name
    /// the devices of a `count`.
    public static func decode(
        _ data: Data,
        file: String,
        seed: UInt64,
        firstNumber: Int = 1
    ) throws(SimulatorInputError) -> DeviceFile {
        let specification = try InputFile.decode(Specification.self, from: data, file: file)
        var devices: [SimulatedDevice] = []
        for (index, spec) in specification.devices.enumerated() {
            do throws(SSDPConfigurationError) {
                devices += try spec.makeDevices(firstNumber: firstNumber + devices.count, seed: seed)
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

    /// A device file of `entries`, as `record` writes one: JSON, keys sorted, two-space indents.
    public static func encoded(_ entries: [DeviceSpecification]) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(Specification(devices: entries)) + Data("\n".utf8)
    }

    /// The file as JSON: one model that reads and writes it.
    struct Specification: Codable {
        var devices: [DeviceSpecification]

        enum CodingKeys: String, CodingKey, CaseIterable {
            case devices
        }
    }
}

/// One entry of a device file's `devices`: a profile, how many of it, and fields that override the profile.
public struct DeviceSpecification: Codable, Sendable {
    /// The built-in profile to start from (`roku`, `dial-tv`, `hue`, `sonos`, `igd`, …); `generic` when absent.
    public var profile: String?
    /// How many devices the entry stands for, 1...10000 (1 when absent); with more than one, `friendlyName` gets each
    /// device's number appended.
    public var count: Int?
    /// The root device's UDN, `uuid:…`; drawn from the seed when absent. Needs `count` 1.
    public var udn: String?
    /// The root device's type, `urn:DOMAIN:device:TYPE:VERSION`.
    public var deviceType: String?
    /// The name shown in the description; `Kitchen 2`, `Kitchen 3`, … when `count` is above 1.
    public var friendlyName: String?
    /// The manufacturer shown in the description.
    public var manufacturer: String?
    /// The model name shown in the description.
    public var modelName: String?
    /// The root device's service types, `urn:DOMAIN:service:TYPE:VERSION` each; `[]` for none.
    public var services: [String]?
    /// Devices embedded in the root device, replacing the profile's.
    public var embeddedDevices: [EmbeddedDeviceSpecification]?
    /// The SERVER header of the device's answers and NOTIFYs.
    public var server: String?
    /// Seconds an advertisement stays valid (CACHE-CONTROL max-age), 1 or more.
    public var maxAge: Int?
    /// A fixed BOOTID.UPNP.ORG, 0...2147483647, kept across reboots; absent, the simulator picks one.
    public var bootId: Int?
    /// CONFIGID.UPNP.ORG, 0...16777215.
    public var configId: Int?
    /// Targets answered besides the UPnP ones (`roku:ecp`), each with USN `UDN::TARGET`.
    public var extraTargets: [String]?
    /// Extra headers as `"NAME: value"`, in order.
    public var headers: [String]?
    /// The search response's header lines as `"NAME: value"` with placeholders (`{st}`, `{usn}`, …), in
    /// the order and spelling to send; see `SSDPRootDevice.responseHeaders`.
    public var responseHeaders: [String]?
    /// How the device misbehaves on SSDP; each field given replaces that part of the profile's quirks.
    public var behaviour: BehaviourSpecification?
    /// `false` starts from a well-behaved device instead of the profile's known quirks (a Hue's chatter,
    /// a DIAL server's immediate answers); `behaviour` still applies on top.
    public var quirks: Bool?
    /// The IPv4 address the device lives at (see `DeviceAddressing`); with `count` above 1, the first of
    /// consecutive addresses.
    public var address: String?
    /// Answers for chosen SOAP actions: a response's out-arguments or a fault's code.
    public var actions: [ActionResponseSpecification]?
    /// Service descriptions (SCPDs) by service type, replacing the standard ones or giving one to a type of
    /// the user's own, in the catalog's notation; served and obeyed as written, wrong or not.
    public var serviceDescriptions: [String: ServiceDescriptionSpecification]?
    /// How the device's HTTP side misbehaves.
    public var httpFaults: HTTPFaultSpecification?
    /// Where the device sends GENA events: `subscriber` (the default: only to the address that subscribed)
    /// or `any` (any host a CALLBACK names, for a lab whose event receiver is not its subscriber).
    public var callbackPolicy: String?
    /// How the device sends GENA events: `uda`, or `minidlna-1.3.0` (the initial event's connection opened
    /// and never written to, no event after; the dlna-server profile's default).
    public var eventDelivery: String?
    /// A media server's content, replacing the built-in tree that ContentDirectory browses.
    public var media: [MediaObjectSpecification]?
    /// The apps of the device's DIAL server, replacing the profile's (a DIAL TV's, a Roku's, a Chromecast's).
    public var dialApps: [DIALAppSpecification]?
    /// Captured answers the device replays instead of answering from its advertisements (`ssdp-sim import`).
    public var replay: ReplaySpecification?
    /// A real device as `ssdp-sim record` met it: its answers by search target and its HTTP responses, played
    /// byte for byte (`RecordingSpecification`).
    public var recording: RecordingSpecification?

    /// An entry with these fields and the others left out, as a program writes one (`ssdp-sim import`:
    /// a device that replays a capture).
    package init(
        profile: String? = nil,
        udn: String? = nil,
        deviceType: String? = nil,
        services: [String]? = nil,
        server: String? = nil,
        replay: ReplaySpecification? = nil
    ) {
        self.profile = profile
        self.udn = udn
        self.deviceType = deviceType
        self.services = services
        self.server = server
        self.replay = replay
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case profile, count, udn, deviceType, friendlyName, manufacturer, modelName, services, embeddedDevices
        case server, maxAge, bootId, configId, extraTargets, headers, responseHeaders, behaviour, quirks, address
        case actions, serviceDescriptions, httpFaults, callbackPolicy, eventDelivery, media, dialApps, replay
        case recording
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

    /// The devices this entry describes, numbered from `firstNumber`. Errors name the field relative to
    /// the entry (`behaviour.delay`).
    public func makeDevices(firstNumber: Int, seed: UInt64) throws(SSDPConfigurationError) -> [SimulatedDevice] {
        let profile = try SimulatorProfile.named(self.profile ?? "generic")
        let count = self.count ?? 1
        guard (1...10_000).contains(count) else {
            throw SSDPConfigurationError(field: "count", value: "\(count)", reason: "must be 1...10000")
        }
        if replay != nil, count > 1 {
            throw SSDPConfigurationError(
                field: "count",
                value: "\(count)",
                reason: "a replay is one captured device: count 1"
            )
        }
        if recording != nil, count > 1 {
            throw SSDPConfigurationError(
                field: "count",
                value: "\(count)",
                reason: "a recording is one device: count 1"
            )
        }
        if recording != nil, replay != nil {
            throw SSDPConfigurationError(
                field: "recording",
                value: "",
                reason: "a device plays a recording or replays a capture, not both (replay)"
            )
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
            if let actions {
                device.web.actionResponses = try ActionResponseSpecification.makeResponses(actions)
            }
            for (serviceType, specification) in serviceDescriptions ?? [:] {
                device.web.serviceDescriptions[serviceType] = try SSDPServiceDescription(
                    notation: specification.actions ?? [],
                    variables: specification.variables ?? [],
                    field: "serviceDescriptions[\(serviceType)]"
                )
            }
            if let httpFaults {
                device.web.httpFaults = try httpFaults.makeFaults(field: "httpFaults")
            }
            if let callbackPolicy {
                device.web.callbackPolicy = try Self.choice(callbackPolicy, field: "callbackPolicy")
            }
            if let eventDelivery {
                device.web.eventDelivery = try Self.choice(eventDelivery, field: "eventDelivery")
            }
            if let dialApps {
                guard device.web.dial != nil else {
                    throw SSDPConfigurationError(
                        field: "dialApps",
                        value: profile.name,
                        reason:
                            "the device has no DIAL server (the profiles with one: dial-tv, roku, roku-tv, chromecast-legacy)"
                    )
                }
                device.web.dial?.apps = try DIALAppSpecification.makeApps(dialApps, field: "dialApps")
            }
            if let media {
                device.web.mediaLibrary = try MediaObjectSpecification.makeLibrary(media, field: "media")
            }
            if let replay {
                device.behaviour.replay = try replay.makeReplay()
                device.web.descriptionPath = try replay.descriptionPath() ?? device.web.descriptionPath
            }
            if let recording {
                try play(recording, on: &device)
            }
            try device.validate()
            return device
        }
    }

    /// `device` as it plays `recording`: its answers and responses, its description at the recorded path and
    /// its HTTP side on the recorded port, and the device tree its recorded description gives (what its
    /// NOTIFY messages advertise, and where its family's control and eventing answer), with the targets its
    /// recorded answers to `ssdp:all` name beyond the tree.
    private func play(
        _ recording: RecordingSpecification,
        on device: inout SimulatedDevice
    )
        throws(SSDPConfigurationError)
    {
        let named: [(String, String?)] = [
            ("udn", udn), ("deviceType", deviceType), ("friendlyName", friendlyName), ("manufacturer", manufacturer),
            ("modelName", modelName), ("services", services?.joined(separator: ", ")),
            ("embeddedDevices", embeddedDevices.map { _ in "…" }),
            ("extraTargets", extraTargets?.joined(separator: ", ")),
        ]
        if case (let field, let value?)? = named.first(where: { $0.1 != nil }) {
            throw SSDPConfigurationError(
                field: field,
                value: value,
                reason: "a recorded device is as its recorded description says: leave \(field) out"
            )
        }
        let (origin, path, port) = try recording.location()
        let answers = try recording.makeAnswers()
        let http = try recording.makeHTTP()
        let description = http.exchanges.first { $0.method == "GET" && $0.target == path }?.response ?? []
        guard
            let tree = SSDPDevice(
                description: Array(description[(HTTPRecording.headEnd(description) ?? 0)...]),
                origin: origin,
                path: path
            )
        else {
            throw SSDPConfigurationError(
                field: "recording.http",
                value: path,
                reason: "the GET of the description is not a UPnP description with a device, a UDN and a type"
            )
        }
        device.device = tree
        // Calls are checked against the SCPDs the device served, as the device checked them.
        for service in tree.allDevices.flatMap(\.services) {
            guard let path = service.urls?.scpd,
                let response = http.exchanges.first(where: { $0.method == "GET" && $0.target == path })?.response,
                let scpd = SSDPServiceDescription(scpd: Array(response[(HTTPRecording.headEnd(response) ?? 0)...]))
            else { continue }
            device.web.serviceDescriptions[service.serviceType] = scpd
        }
        // A Roku's family answers ECP as the recorded Roku once it has changed: its identity and channels.
        device.web.roku?.takeState(from: http)
        device.web.hue?.takeState(from: http)
        device.extraHeaders = Self.recordedValues(of: device.extraHeaders, in: answers)
        // Its NOTIFYs as it wrote and sent them, where they were heard (`record --listen`).
        if let heard = SSDPNotifyHeaders(heard: try recording.makeNotifications(), otherwise: device.notifyHeaders) {
            device.notifyHeaders = heard
        }
        device.behaviour.recorded = answers
        device.web.recording = http
        device.web.descriptionPath = path
        device.web.realPort = port
        device.extraTargets = Self.extraTargets(answers.answers(to: "ssdp:all") ?? [], beyond: device, path: path)
    }

    /// The family's own headers (a Roku's WAKEUP, a Sonos household, a Hue bridge id) with the values the
    /// recorded answers carried, so that the NOTIFY messages the family sends name the recorded device; a
    /// header whose value follows the running device (`{bootId}`) or that no answer carried is as it was.
    private static func recordedValues(
        of headers: [SSDPHeaderField],
        in answers: SSDPRecordedAnswers
    ) -> [SSDPHeaderField] {
        let recorded = answers.targets.lazy.flatMap(\.answers).compactMap { try? SSDPParser.parseMessage($0.bytes) }
        return headers.map { header in
            guard !header.value.contains("{"),
                let value = recorded.lazy.compactMap({ $0.headers[header.name] }).first
            else { return header }
            return SSDPHeaderField(name: header.name, value: value)
        }
    }

    /// The targets the answers to `ssdp:all` name that `device`'s tree does not advertise (a router's
    /// WANIPv6FirewallControl, a Roku's `roku:ecp`), each with the USN and LOCATION path it was answered with.
    private static func extraTargets(
        _ answers: [SSDPRecordedAnswers.Answer],
        beyond device: SimulatedDevice,
        path: String
    ) -> [SSDPExtraTarget] {
        var advertised: Set<String> = ["upnp:rootdevice"]
        for member in device.device.allDevices {
            advertised.insert(member.udn)
            for type in [member.deviceType] + member.services.map(\.serviceType) {
                advertised.insert(type)
                advertised.insert(device.advertisedTypes[type] ?? type)
            }
        }
        var extra: [SSDPExtraTarget] = []
        for answer in answers {
            guard let headers = (try? SSDPParser.parseMessage(answer.bytes))?.headers, let st = headers["ST"],
                !advertised.contains(st), !extra.contains(where: { $0.target == st })
            else { continue }
            let location = headers["LOCATION"].map {
                String($0.dropFirst(DeviceResponder.schemeAndAuthority(of: $0).count))
            }
            extra.append(SSDPExtraTarget(st, usn: headers["USN"], location: location == path ? nil : location))
        }
        return extra
    }

    /// The case of `Choice` that `value` names, or an error naming `field` and every case.
    private static func choice<Choice: RawRepresentable & CaseIterable>(
        _ value: String,
        field: String
    ) throws(SSDPConfigurationError) -> Choice where Choice.RawValue == String {
        guard let choice = Choice(rawValue: value) else {
            throw SSDPConfigurationError(
                field: field,
                value: value,
                reason: "must be \(Choice.namedChoices)"
            )
        }
        return choice
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

/// A device's HTTP-side faults in a device file, the texts as the serve flags take them:
/// `{ "description": ["503:2", "delay:1.5"], "serviceDescriptions": ["malformed"], "eventLoss": 0.5,
/// "eventDelay": 2 }`.
public struct HTTPFaultSpecification: Codable, Sendable {
    /// Faults of the device description at LOCATION, applied in order: `503:N`, `delay:SECONDS`, `hang`, `truncated`,
    /// `empty`, `malformed`.
    public var description: [String]?
    /// Faults of every service description (SCPD), in the same texts as `description`.
    public var serviceDescriptions: [String]?
    /// The probability, 0...1, that an event message (GENA NOTIFY) is never sent.
    public var eventLoss: Double?
    /// Seconds, 0...600, that each event message waits before it is sent.
    public var eventDelay: Double?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case description, serviceDescriptions, eventLoss, eventDelay
    }

    /// Faults built in code (the serve flags); `nil` fields leave the base faults as they are.
    public init(
        description: [String]? = nil,
        serviceDescriptions: [String]? = nil,
        eventLoss: Double? = nil,
        eventDelay: Double? = nil
    ) {
        self.description = description
        self.serviceDescriptions = serviceDescriptions
        self.eventLoss = eventLoss
        self.eventDelay = eventDelay
    }

    /// The faults, each text read by `HTTPFaults.document`; errors name `field` and the entry.
    public func makeFaults(field: String, base: HTTPFaults = HTTPFaults()) throws(SSDPConfigurationError) -> HTTPFaults
    {
        var faults = base
        if let description {
            faults.description = try description.enumerated().map { (index, text) throws(SSDPConfigurationError) in
                try HTTPFaults.document(text, field: "\(field).description[\(index)]")
            }
        }
        if let serviceDescriptions {
            faults.serviceDescriptions = try serviceDescriptions.enumerated().map {
                (index, text) throws(SSDPConfigurationError) in
                try HTTPFaults.document(text, field: "\(field).serviceDescriptions[\(index)]")
            }
        }
        if let eventLoss {
            guard (0...1).contains(eventLoss) else {
                throw SSDPConfigurationError(
                    field: "\(field).eventLoss",
                    value: "\(eventLoss)",
                    reason: "must be a probability 0...1"
                )
            }
            faults.eventLoss = eventLoss
        }
        if let eventDelay {
            guard (0...600).contains(eventDelay) else {
                throw SSDPConfigurationError(
                    field: "\(field).eventDelay",
                    value: "\(eventDelay)",
                    reason: "must be 0...600 seconds"
                )
            }
            faults.eventDelay = .milliseconds(Int64(eventDelay * 1_000))
        }
        return faults
    }
}

/// A service description (SCPD) in a device file, in the catalog's notation: `{ "actions": ["GetMode: ->
/// Mode=Mode"], "variables": ["Mode string default=On values=On|Off events"] }`.
public struct ServiceDescriptionSpecification: Codable, Sendable {
    /// `Name` or `Name: In=Variable … -> Out=Variable …`, in the SCPD's order.
    public var actions: [String]?
    /// `Name type` and any of `events`, `default=VALUE`, `values=A|B`, `range=MIN...MAX`, `step=N`.
    public var variables: [String]?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case actions, variables
    }
}

/// A device's answer for one SOAP action in a device file: `{ "action": "AddPortMapping", "fault": 718 }`,
/// or `{ "action": "GetExternalIPAddress", "service": "WANIPConnection", "response": { "NewExternalIPAddress":
/// "" } }` (out-arguments not given keep the device's own values).
public struct ActionResponseSpecification: Codable, Sendable {
    /// The SOAP action's name (`AddPortMapping`).
    public var action: String
    /// The service's type or its short name (`WANIPConnection`); absent, the action of any service.
    public var service: String?
    /// The out-arguments of a successful answer, by name; give either this or `fault`.
    public var response: [String: String]?
    /// A UPnP error code, 400...999, to answer with a fault instead; give either this or `response`.
    public var fault: Int?
    /// The fault's error description; absent, the text real devices send for the code.
    public var description: String?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case action, service, response, fault, description
    }

    /// The answers of a device's `actions`, errors naming the entry (`actions[1].fault`).
    static func makeResponses(_ actions: [Self]) throws(SSDPConfigurationError) -> [ActionResponse] {
        try actions.enumerated().map { (index, action) throws(SSDPConfigurationError) in
            try action.makeResponse(field: "actions[\(index)]")
        }
    }

    func makeResponse(field: String) throws(SSDPConfigurationError) -> ActionResponse {
        guard !action.isEmpty else {
            throw SSDPConfigurationError(field: "\(field).action", value: action, reason: "must name an action")
        }
        switch (response, fault) {
        case (let response?, nil):
            let arguments = response.sorted { $0.key < $1.key }.map { SOAPArgument($0.key, $0.value) }
            return ActionResponse(action: action, service: service, outcome: .success(arguments))
        case (nil, let code?):
            guard (400...999).contains(code) else {
                throw SSDPConfigurationError(
                    field: "\(field).fault",
                    value: "\(code)",
                    reason: "a UPnP error code is 400...999"
                )
            }
            let error = description.map { UPnPError(code: code, description: $0) } ?? UPnPError(code: code)
            return ActionResponse(action: action, service: service, outcome: .failure(error))
        default:
            throw SSDPConfigurationError(field: field, value: action, reason: "give either response or fault")
        }
    }
}

/// One app of a device's DIAL server in a device file: `{ "name": "YouTube", "allowStop": false, "origins":
/// ["https://youtube.com", "https://*.youtube.com", "package:*"] }`. A stop is allowed and every origin taken
/// unless the entry says otherwise; origins match as the reference server matches them (`DIALApp.allows`).
public struct DIALAppSpecification: Codable, Sendable {
    /// The name in the app's URL (`YouTube`).
    public var name: String
    /// Whether a client may stop it; absent, it may.
    public var allowStop: Bool?
    /// The web origins requests with an `Origin` header may come from; absent or empty, any.
    public var origins: [String]?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case name, allowStop, origins
    }

    /// The apps, errors naming the entry (`dialApps[1].name`): each name once, a URL path segment of
    /// letters, digits, `.`, `-` and `_` (not `system`, DIAL 2.2's own); each origin a word without spaces.
    static func makeApps(_ specifications: [Self], field: String) throws(SSDPConfigurationError) -> [DIALApp] {
        var apps: [DIALApp] = []
        for (index, specification) in specifications.enumerated() {
            let path = "\(field)[\(index)]"
            let name = specification.name
            guard !name.isEmpty, name != "system",
                name.unicodeScalars.allSatisfy({
                    $0.isASCII && ($0.properties.isAlphabetic || "0123456789.-_".unicodeScalars.contains($0))
                })
            else {
                throw SSDPConfigurationError(
                    field: "\(path).name",
                    value: name,
                    reason: "must be letters, digits, '.', '-' and '_' (and not system, DIAL's own)"
                )
            }
            guard !apps.contains(where: { $0.name == name }) else {
                throw SSDPConfigurationError(field: "\(path).name", value: name, reason: "names an app already listed")
            }
            let origins = specification.origins ?? []
            if let bad = origins.firstIndex(where: { $0.isEmpty || $0.contains(where: \.isWhitespace) }) {
                throw SSDPConfigurationError(
                    field: "\(path).origins[\(bad)]",
                    value: origins[bad],
                    reason: "must be an origin (https://host[:port], https://*.domain, package:*, …) without spaces"
                )
            }
            apps.append(DIALApp(name: name, allowStop: specification.allowStop ?? true, allowedOrigins: origins))
        }
        return apps
    }
}

/// One container or item of a media server's content in a device file, the built-in tree's fields:
/// `{ "id": "1$7", "parentID": "1", "title": "Jazz", "class": "object.container.storageFolder" }`, or an item
/// with `"artist"`, `"album"`, `"creator"`, `"date"` and `"resource": { "path": "/MediaItems/30.mp3",
/// "protocolInfo": "http-get:*:audio/mpeg:*", "size": 4000000, "duration": "0:03:00.000" }`.
public struct MediaObjectSpecification: Codable, Sendable {
    /// The object as the file gives it; `makeLibrary` checks it against the others.
    public var object: MediaObject

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id, parentID, title
        case upnpClass = "class"
        case creator, artist, album, date, resource
    }

    /// An item's `resource`, its fields checked as strictly as the object's.
    struct Resource: Codable {
        var resource: MediaResource

        init(_ resource: MediaResource) {
            self.resource = resource
        }

        enum CodingKeys: String, CodingKey, CaseIterable {
            case path, protocolInfo, size, duration, resolution
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            resource = MediaResource(
                path: try container.decode(String.self, forKey: .path),
                protocolInfo: try container.decode(String.self, forKey: .protocolInfo),
                size: try container.decodeIfPresent(Int.self, forKey: .size),
                duration: try container.decodeIfPresent(String.self, forKey: .duration),
                resolution: try container.decodeIfPresent(String.self, forKey: .resolution)
            )
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(resource.path, forKey: .path)
            try container.encode(resource.protocolInfo, forKey: .protocolInfo)
            try container.encodeIfPresent(resource.size, forKey: .size)
            try container.encodeIfPresent(resource.duration, forKey: .duration)
            try container.encodeIfPresent(resource.resolution, forKey: .resolution)
        }
    }

    /// Writes the object as a file gives it.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(object.id, forKey: .id)
        try container.encode(object.parentID, forKey: .parentID)
        try container.encode(object.title, forKey: .title)
        try container.encode(object.upnpClass, forKey: .upnpClass)
        try container.encodeIfPresent(object.creator, forKey: .creator)
        try container.encodeIfPresent(object.artist, forKey: .artist)
        try container.encodeIfPresent(object.album, forKey: .album)
        try container.encodeIfPresent(object.date, forKey: .date)
        try container.encodeIfPresent(object.resource.map(Resource.init), forKey: .resource)
    }

    /// Reads one object (`StrictDecoder` rejects unknown fields in it and in its `resource`).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        object = MediaObject(
            id: try container.decode(String.self, forKey: .id),
            parentID: try container.decode(String.self, forKey: .parentID),
            title: try container.decode(String.self, forKey: .title),
            upnpClass: try container.decode(String.self, forKey: .upnpClass),
            creator: try container.decodeIfPresent(String.self, forKey: .creator),
            artist: try container.decodeIfPresent(String.self, forKey: .artist),
            album: try container.decodeIfPresent(String.self, forKey: .album),
            date: try container.decodeIfPresent(String.self, forKey: .date),
            resource: try container.decodeIfPresent(Resource.self, forKey: .resource)?.resource
        )
    }

    /// The library: the root (`0`) first, as MiniDLNA has it, unless the file gives one; every id once, every
    /// parent a container of the library, every item with a resource.
    static func makeLibrary(
        _ specifications: [MediaObjectSpecification],
        field: String
    ) throws(SSDPConfigurationError) -> MediaLibrary {
        let objects = specifications.map(\.object)
        var library = MediaLibrary(objects: [])
        if !objects.contains(where: { $0.id == "0" }) {
            library.objects.append(.container(id: "0", parentID: "-1", title: "root"))
        }
        for (index, object) in objects.enumerated() {
            let path = "\(field)[\(index)]"
            guard !object.id.isEmpty, library.object(object.id) == nil else {
                throw SSDPConfigurationError(
                    field: "\(path).id",
                    value: object.id,
                    reason: "must be a new, non-empty id"
                )
            }
            guard object.upnpClass.hasPrefix("object.container") || object.upnpClass.hasPrefix("object.item") else {
                throw SSDPConfigurationError(
                    field: "\(path).class",
                    value: object.upnpClass,
                    reason: "must be a UPnP class, object.container… or object.item…"
                )
            }
            guard object.isContainer == (object.resource == nil) else {
                throw SSDPConfigurationError(
                    field: "\(path).resource",
                    value: object.id,
                    reason: object.isContainer ? "a container has no resource" : "an item needs a resource"
                )
            }
            library.objects.append(object)
        }
        for (index, object) in objects.enumerated() where object.id != "0" {
            guard library.object(object.parentID)?.isContainer == true else {
                throw SSDPConfigurationError(
                    field: "\(field)[\(index)].parentID",
                    value: object.parentID,
                    reason: "must be the id of a container in media (0 is the root)"
                )
            }
        }
        return library
    }
}

/// An embedded device in a device file: type, names, services and its own embedded devices.
public struct EmbeddedDeviceSpecification: Codable, Sendable {
    /// The embedded device's UDN, `uuid:…`; drawn from the seed when absent.
    public var udn: String?
    /// The embedded device's type, `urn:DOMAIN:device:TYPE:VERSION`; required.
    public var deviceType: String
    /// The name shown in the description; `ssdp-sim embedded device` when absent.
    public var friendlyName: String?
    /// The embedded device's service types; none when absent.
    public var services: [String]?
    /// Devices embedded in this one.
    public var embeddedDevices: [EmbeddedDeviceSpecification]?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case udn, deviceType, friendlyName, services, embeddedDevices
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
public struct BehaviourSpecification: Codable, Sendable {
    /// When answers leave: `uniform`, `immediate`, `fixed:SECONDS` or `late:SECONDS`.
    public var delay: String?
    /// The probability, 0...1, that the device does not hear a search.
    public var searchLoss: Double?
    /// The probability, 0...1, that each answer datagram (each copy) is lost.
    public var responseLoss: Double?
    /// How many of the first searches the device does not hear.
    public var ignoreFirst: Int?
    /// How many times each answer is sent (1 = once).
    public var duplicates: Int?
    /// Ways of answering what was not asked: `any-target`, `wrong-target`, `notifies`.
    public var chatty: [String]?
    /// Malformations applied to every answer (`lf-only`, `missing-ext`, …).
    public var malformed: [String]?
    /// Windows in which the device answers nothing, `FROM-UNTIL` in seconds from its start (`2-5`).
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

    /// The behaviour these texts describe, not yet validated: `base` (a profile's quirks, or a well-behaved
    /// device) with every field given here replaced. Errors name the field as `behaviour.FIELD`.
    public func makeBehaviour(base: SSDPDeviceBehaviour = .init()) throws(SSDPConfigurationError) -> SSDPDeviceBehaviour
    {
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
                    try texts.map { (text) throws(SSDPConfigurationError) in
                        try SSDPDeviceBehaviour.SilentWindow(text: text)
                    }
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

extension CaseIterable where Self: RawRepresentable, RawValue == String {
    /// The cases as a device file names them, for an error: `as-recorded or within-mx`.
    static var namedChoices: String { allCases.map(\.rawValue).joined(separator: " or ") }
}
