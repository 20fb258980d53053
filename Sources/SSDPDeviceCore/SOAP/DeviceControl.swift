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

/// The control side of one device (UDA §3): its services' state, and what each action call does to it and
/// answers. Pure: time and the caller's address are arguments; the NIO layer only reads the HTTP request
/// and writes the answer.
///
/// A call is checked against the service's SCPD first (unknown action → 401; an in-argument missing or not
/// of its variable's type → 402, a value outside the allowed list → 600, outside the range → 601; the
/// services of miniupnpd and MiniDLNA check no lists and ranges, as those stacks do not: `ArgumentCheck`),
/// then answered by what the user set for that action (`ActionResponse`), else by the service's behaviour
/// where its kind has one (`ServiceBehaviour`: the IGD's port mappings, a media server's content, a
/// renderer's transport, Sonos's household), else from the state variables: a `Set…` action stores its
/// in-arguments in their variables, and every action answers each out-argument from its variable.
public struct DeviceControl: Sendable {
    /// The device's services with their current state; a call names one by its index here.
    public var services: [ControlledService]
    /// What the device knows of its surroundings (external address, Sonos household, media library).
    public var environment: ControlEnvironment
    /// The user's answers for chosen actions (device files and scenarios), before any behaviour.
    public var responses: [ActionResponse]
    /// The stack whose services these are: ssdp-sim's own, or gmrender-resurrect's (`GMRender`).
    public let stack: ControlStack
    let startedAt: SSDPInstant

    /// The control side of a device whose services start in the real device's state where that differs from
    /// their SCPD defaults (an IGD is connected); `startedAt` is when the device started, for uptimes. Each
    /// service's behaviour comes from `registry` (`ServiceRegistry.builtIn`, in SSDPDevices, for ssdp-sim's
    /// own families).
    public init(
        services: [ControlledService],
        environment: ControlEnvironment = ControlEnvironment(),
        responses: [ActionResponse] = [],
        stack: ControlStack = .uda,
        registry: ServiceRegistry,
        startedAt: SSDPInstant
    ) {
        self.services = services
        self.environment = environment
        self.responses = responses
        self.stack = stack
        self.startedAt = startedAt
        let kinds = Set(services.map(\.kind))
        for index in self.services.indices {
            self.services[index].behaviour = registry.behaviour(
                for: self.services[index].kind,
                on: kinds,
                stack: stack
            )
        }
        for index in self.services.indices {
            let service = self.services[index]
            let initial = service.behaviour.initialValues(of: service, in: self)
            self.services[index].values.merge(initial) { set, _ in set }
        }
    }

    /// The index of the service whose control URL is `path`.
    public func service(atControlPath path: String) -> Int? {
        services.firstIndex { $0.controlPath == path }
    }

    /// The index of the service whose event URL is `path`.
    public func service(atEventPath path: String) -> Int? {
        services.firstIndex { $0.eventPath == path }
    }

    /// Runs `call` on service `index` for a control point at `client` (its IPv4 address).
    public mutating func call(
        _ call: SOAPActionCall,
        service index: Int,
        client: String,
        at now: SSDPInstant
    ) -> ActionResult {
        let description = services[index].description
        guard let action = description.action(named: call.actionName) else {
            return ActionResult(outcome: .failure(services[index].behaviour.unknownAction))
        }
        if let error = services[index].check(call, against: action) {
            return ActionResult(outcome: .failure(error))
        }
        if let response = responses.first(where: { $0.matches(call, serviceType: services[index].serviceType) }) {
            // A response answers every out-argument in the SCPD's order, the user's values over the device's.
            let outcome = response.outcome.map { given in
                services[index].outArguments(of: action, Dictionary(given.map { ($0.name, $0.value) }) { $1 })
            }
            return ActionResult(outcome: outcome)
        }
        // The behaviour answers as the only owner of its state (an IGD's table of up to 1,024 mappings is
        // changed in place, not copied), so it leaves the device while it does.
        var behaviour = services[index].behaviour
        services[index].behaviour = StateVariableService()
        let context = ActionContext(device: self, client: client, now: now)
        var service = services[index]
        let outcome =
            behaviour.answer(call, service: &service, context: context) ?? service.generic(call, action: action)
        service.behaviour = behaviour
        let changed = description.stateVariables.map(\.name).filter { service.values[$0] != services[index].values[$0] }
        services[index] = service
        return ActionResult(outcome: outcome, changedVariables: changed)
    }

    /// Sets state variable `name` to `value` on every service that has it, as the device itself would (its
    /// WAN side gets a new address, its volume is turned up by hand): `ExternalIPAddress` also changes what
    /// GetExternalIPAddress answers. Returns, per service that changed, its index and the variables that
    /// changed (for its subscribers' events); or why not: no service has the variable, or `value` is not
    /// of its type, outside its range or its allowed list.
    public mutating func set(
        _ name: String,
        to value: String
    ) -> Result<[(service: Int, changed: [String])], ValueError> {
        let holders = services.indices.filter { services[$0].description.stateVariable(named: name) != nil }
        guard !holders.isEmpty else {
            let names = Set(services.flatMap { $0.description.stateVariables.map(\.name) })
                .filter { !$0.hasPrefix("A_ARG_TYPE_") }.sorted()
            return .failure(
                ValueError(
                    reason: names.isEmpty
                        ? "the device has no service with state variables"
                        : "no service of the device has this state variable (they have: \(names.joined(separator: ", ")))"
                )
            )
        }
        for index in holders {
            if let variable = services[index].description.stateVariable(named: name),
                let error = variable.check(value)
            {
                let reason =
                    switch error.code {
                    case 600: "not one of its allowed values (\(variable.allowedValues.joined(separator: ", ")))"
                    case 601: "outside its range \(variable.allowedRange.map { "\($0.minimum)...\($0.maximum)" } ?? "")"
                    default: "not a value of its type, \(variable.dataType)"
                    }
                return .failure(ValueError(reason: "\"\(value)\": \(reason)"))
            }
        }
        for index in holders { services[index].behaviour.valueWasSet(name, to: value, in: &environment) }
        var changes: [(service: Int, changed: [String])] = []
        for index in holders where services[index].value(of: name) != value {
            services[index].values[name] = value
            changes.append((index, [name]))
        }
        return .success(changes)
    }

    /// Why a state variable cannot take a value.
    public struct ValueError: Error, Hashable, Sendable {
        /// In words a user can act on.
        public var reason: String
    }

    /// The variables to send subscribers of service `index`, with their values: every evented one for the
    /// initial event (`changed` nil); after a call, those `changed` touched. A service with `LastChange`
    /// (AVTransport, RenderingControl) reports its other variables inside it (after-discovery.md §2.3); one
    /// without sends its whole evented set on any change, as miniupnpd does.
    public func eventProperties(service index: Int, changed: [String]? = nil) -> [SOAPArgument] {
        let service = services[index]
        let evented = service.description.eventedVariables.map(\.name)
        let computed = service.behaviour.computedValues(of: service, in: self)
        let property = { (name: String) in SOAPArgument(name, computed[name] ?? service.value(of: name)) }
        if evented.contains("LastChange") {
            let reported = service.lastChangeVariables.filter { changed?.contains($0) ?? true }
            let others = evented.filter { $0 != "LastChange" && (changed?.contains($0) ?? true) }
            guard changed == nil || !reported.isEmpty || !others.isEmpty else { return [] }
            let lastChange = service.behaviour.lastChange(reported, of: service)
            return [SOAPArgument("LastChange", lastChange)] + others.map(property)
        }
        guard changed == nil || changed!.contains(where: evented.contains) else { return [] }
        return evented.map(property)
    }

    /// Whole seconds since the device started.
    func uptime(at now: SSDPInstant) -> Int {
        Int((now - startedAt).components.seconds)
    }
}

/// What an action call did: its answer, and the state variables it changed (for eventing).
public struct ActionResult: Sendable {
    /// The out-arguments in the SCPD's order, or the UPnP error the call is refused with.
    public var outcome: Result<[SOAPArgument], UPnPError>
    /// The state variables the call changed, in the service state table's order; empty when it was refused
    /// or answered by a user's `ActionResponse`.
    public var changedVariables: [String]

    /// A result; `changedVariables` is empty unless given.
    public init(outcome: Result<[SOAPArgument], UPnPError>, changedVariables: [String] = []) {
        self.outcome = outcome
        self.changedVariables = changedVariables
    }
}

/// A user's answer for one action: a response with chosen out-arguments, or a fault with a chosen code.
public struct ActionResponse: Hashable, Sendable {
    /// The action's name, `GetExternalIPAddress`.
    public var action: String
    /// The service type or its short name (`WANIPConnection:1`, `WANIPConnection`); `nil` for any service.
    public var service: String?
    /// The out-arguments to answer with (the device's values fill in the rest), or the error to fault with.
    public var outcome: Result<[SOAPArgument], UPnPError>

    /// An answer for calls of `action` on `service`, or on any service when `service` is `nil`.
    public init(action: String, service: String? = nil, outcome: Result<[SOAPArgument], UPnPError>) {
        self.action = action
        self.service = service
        self.outcome = outcome
    }

    package func matches(_ call: SOAPActionCall, serviceType: String) -> Bool {
        guard call.actionName == action else { return false }
        guard let service else { return true }
        return serviceType == service || serviceType.hasSuffix(":service:" + service)
            || ControlledService.baseType(of: serviceType) == service
    }
}

/// What the device knows of its surroundings, for the answers that name them: its own UDN and name here,
/// and what a family adds through a key of its own (an IGD's external address, a Sonos household, a media
/// server's library), as `extension ControlEnvironment { var … { self[Key.self] } }` in the family's folder.
public struct ControlEnvironment: Hashable, Sendable {
    /// The device's UDN and name, for answers that carry them (Sonos zone names).
    public var udn = ""
    /// The device's friendly name; a Sonos player's zone name when the household does not list it.
    public var friendlyName = ""
    /// The families' values, by key; a key not here reads as its default.
    private var values: [ObjectIdentifier: Value] = [:]

    /// An environment with every key at its default.
    public init() {}

    /// The value of `key`, or its default when none was set. A value equal to the default is not kept,
    /// so two environments are equal when every key reads the same.
    public subscript<Key: ControlEnvironmentKey>(key: Key.Type) -> Key.Value {
        get { values[ObjectIdentifier(key)]?.base as? Key.Value ?? Key.defaultValue }
        set { values[ObjectIdentifier(key)] = newValue == Key.defaultValue ? nil : Value(base: newValue) }
    }

    /// One family's value. Sendable because only `Hashable & Sendable` values are put in it (the
    /// subscript's `Key.Value`); `AnyHashable` itself does not say so.
    private struct Value: Hashable, @unchecked Sendable {
        var base: AnyHashable
    }
}

/// A value a family keeps in `ControlEnvironment`, and what it is until set.
public protocol ControlEnvironmentKey {
    associatedtype Value: Hashable, Sendable
    static var defaultValue: Value { get }
}

/// One service of a controlled device: where its control and event URLs are, its SCPD, and the current
/// value of each state variable.
public struct ControlledService: Sendable {
    /// The full service type, `urn:schemas-upnp-org:service:WANIPConnection:1`.
    public var serviceType: String
    /// The service ID from the description, `urn:upnp-org:serviceId:WANIPConn1`.
    public var serviceID: String
    /// The server paths of its control URL and event URL.
    public var controlPath: String
    /// The server path of its event URL, where GENA subscriptions arrive.
    public var eventPath: String
    /// The service's SCPD, which calls are checked against and answered from.
    public var description: SSDPServiceDescription
    /// The current values by variable name; a variable not here has its default.
    public var values: [String: String] = [:]
    /// What the service does beyond its SCPD, chosen by its kind when its device is built (`ServiceRegistry`).
    public internal(set) var behaviour: any ServiceBehaviour = StateVariableService()

    /// A service whose state variables all start at their defaults.
    public init(
        serviceType: String,
        serviceID: String,
        controlPath: String,
        eventPath: String,
        description: SSDPServiceDescription
    ) {
        self.serviceType = serviceType
        self.serviceID = serviceID
        self.controlPath = controlPath
        self.eventPath = eventPath
        self.description = description
    }

    /// The service's kind: `WANIPConnection` for `urn:schemas-upnp-org:service:WANIPConnection:1`.
    public var kind: String {
        Self.baseType(of: serviceType)
    }

    /// `WANIPConnection` for `urn:schemas-upnp-org:service:WANIPConnection:1`.
    static func baseType(of serviceType: String) -> String {
        let parts = serviceType.split(separator: ":")
        return parts.count >= 2 ? String(parts[parts.count - 2]) : serviceType
    }

    /// The current value of variable `name`: set, else its default, else the zero of its type.
    public func value(of name: String) -> String {
        if let value = values[name] { return value }
        guard let variable = description.stateVariable(named: name) else { return "" }
        if let value = variable.defaultValue { return value }
        if variable.isNumber || variable.dataType == "boolean" { return "0" }
        return variable.allowedValues.first ?? ""
    }

    /// The first problem with `call`'s in-arguments as the behaviour's `argumentCheck` has it, or `nil` when
    /// every one is present and fits its variable. Arguments the action does not declare are ignored, as
    /// miniupnpd and MiniDLNA ignore them (SoCo sends `Channel` with GetPositionInfo).
    func check(_ call: SOAPActionCall, against action: SSDPServiceDescription.Action) -> UPnPError? {
        let check = behaviour.argumentCheck
        guard check != .none else { return nil }
        for argument in action.arguments where argument.direction == .in {
            guard let value = call.argument(argument.name) else {
                if behaviour.optionalInArguments.contains(argument.name) { continue }
                return .invalidArgs
            }
            guard let variable = description.stateVariable(named: argument.relatedStateVariable) else { continue }
            if let error = variable.check(value, values: check == .uda) { return error }
        }
        return nil
    }

    /// The answer from the state variables: a `Set…` action stores its in-arguments (those not of an
    /// `A_ARG_TYPE_` variable) first; then each out-argument is its variable's value.
    mutating func generic(
        _ call: SOAPActionCall,
        action: SSDPServiceDescription.Action
    ) -> Result<[SOAPArgument], UPnPError> {
        if action.name.hasPrefix("Set") {
            for argument in action.arguments
            where argument.direction == .in && !argument.relatedStateVariable.hasPrefix("A_ARG_TYPE_") {
                values[argument.relatedStateVariable] = call.argument(argument.name)
            }
        }
        return .success(outArguments(of: action))
    }

    /// Each out-argument of `call`'s action from its variable: the value in `computed` if there is one, else
    /// the variable's, else (set by nothing and without an SCPD default) the one in `unset`, which is what the
    /// real device answers where its SCPD gives no default (Sonos's).
    package func answer(
        _ call: SOAPActionCall,
        computed: [String: String] = [:],
        unset: [String: String] = [:]
    ) -> [SOAPArgument] {
        let arguments = description.action(named: call.actionName)?.arguments ?? []
        return arguments.filter { $0.direction == .out }.map { argument in
            let name = argument.relatedStateVariable
            let value =
                computed[name] ?? values[name] ?? description.stateVariable(named: name)?.defaultValue
                ?? unset[name] ?? value(of: name)
            return SOAPArgument(argument.name, value)
        }
    }

    /// Each out-argument of `action` with its variable's value, overridden by `values` where given.
    package func outArguments(
        of action: SSDPServiceDescription.Action,
        _ values: [String: String] = [:]
    ) -> [SOAPArgument] {
        action.arguments.filter { $0.direction == .out }.map {
            SOAPArgument($0.name, values[$0.name] ?? value(of: $0.relatedStateVariable))
        }
    }

    /// The variables a `LastChange` event reports: every one but the `A_ARG_TYPE_`s and the evented ones.
    var lastChangeVariables: [String] {
        description.stateVariables.filter { !$0.sendEvents && !$0.name.hasPrefix("A_ARG_TYPE_") }.map(\.name)
    }

    /// The `LastChange` document for `names`, escaped by the caller's writer: `<Event>` in the service's
    /// metadata namespace, instance 0, one element with `val` per variable, `channel="Master"` on the
    /// per-channel ones (after-discovery.md §2.3).
    func lastChange(_ names: [String]) -> String {
        let namespace = Self.baseType(of: serviceType) == "RenderingControl" ? "RCS" : "AVT"
        var xml = #"<Event xmlns="urn:schemas-upnp-org:metadata-1-0/\#(namespace)/"><InstanceID val="0">"#
        for name in names {
            let channel = ["Volume", "Mute", "VolumeDB", "Loudness"].contains(name) ? #" channel="Master""# : ""
            xml += #"<\#(name)\#(channel) val="\#(SSDPRootDevice.escaped(value(of: name)))"/>"#
        }
        return xml + "</InstanceID></Event>"
    }
}

extension SSDPServiceDescription.StateVariable {
    /// Whether the variable holds an integer.
    var isNumber: Bool {
        UPnPIntegerType.range(of: dataType) != nil
    }

    /// Why `value` cannot be this variable's, or `nil` when it can: not of its type, an integer outside
    /// what its type holds among them (402); with `values`, outside its range (601) or its allowed list (600).
    func check(_ value: String, values: Bool = true) -> UPnPError? {
        if let type = UPnPIntegerType.range(of: dataType) {
            guard let number = UPnPIntegerType.value(of: value, in: type) else { return .invalidArgs }
            if values, let range = allowedRange, !(range.minimum...range.maximum).contains(number) {
                return UPnPError(code: 601)
            }
        } else if dataType == "boolean" {
            guard ["0", "1", "true", "false", "yes", "no"].contains(value.lowercased()) else { return .invalidArgs }
        } else if values, !allowedValues.isEmpty, !allowedValues.contains(value) {
            return UPnPError(code: 600)
        }
        return nil
    }
}
