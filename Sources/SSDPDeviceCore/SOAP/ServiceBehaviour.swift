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

/// What one kind of service does beyond its SCPD (an IGD's port mappings, a renderer's transport, a Sonos
/// player's household): the state its real device keeps and its answers to actions. `DeviceControl` chooses
/// one for each service when the device is built (`ServiceRegistry`), and calls it after the SCPD check and the
/// user's answers; an action it leaves (`nil`) is answered from the state variables.
///
/// Every requirement has a default: a kind names only where its real device differs from the state-variable
/// answer.
public protocol ServiceBehaviour: Sendable {
    /// How a call's in-arguments are checked against the SCPD before the service answers.
    var argumentCheck: ArgumentCheck { get }

    /// The in-arguments the real service goes on without, though its SCPD declares them.
    var optionalInArguments: Set<String> { get }

    /// What the service answers for an action its SCPD does not declare.
    var unknownAction: UPnPError { get }

    /// The values the real service starts with where they differ from its SCPD's defaults.
    func initialValues(of service: ControlledService, in device: DeviceControl) -> [String: String]

    /// The real device's answer to `call`, which the service's SCPD declares and whose in-arguments it has
    /// checked, or `nil` to answer from the state variables. It may change `service`'s values.
    mutating func answer(
        _ call: SOAPActionCall,
        service: inout ControlledService,
        context: ActionContext
    ) -> Result<[SOAPArgument], UPnPError>?

    /// The evented values the service works out rather than stores, by variable (a Sonos household's zone
    /// group, from the players around it).
    func computedValues(of service: ControlledService, in device: DeviceControl) -> [String: String]

    /// The `LastChange` document for the variables `names` of a service that has one.
    func lastChange(_ names: [String], of service: ControlledService) -> String

    /// What the device's surroundings learn when the service's variable `name` is set to `value` from
    /// outside (the control API, a device file): an IGD's external address follows its variable.
    func valueWasSet(_ name: String, to value: String, in environment: inout ControlEnvironment)
}

extension ServiceBehaviour {
    /// UDA's check, by default.
    public var argumentCheck: ArgumentCheck { .uda }

    /// None, by default.
    public var optionalInArguments: Set<String> { [] }

    /// 401 Invalid Action, by default.
    public var unknownAction: UPnPError { .invalidAction }

    /// The SCPD's defaults, by default.
    public func initialValues(of service: ControlledService, in device: DeviceControl) -> [String: String] {
        [:]
    }

    /// The state-variable answer, by default.
    public mutating func answer(
        _ call: SOAPActionCall,
        service: inout ControlledService,
        context: ActionContext
    ) -> Result<[SOAPArgument], UPnPError>? {
        nil
    }

    /// Nothing worked out, by default.
    public func computedValues(of service: ControlledService, in device: DeviceControl) -> [String: String] {
        [:]
    }

    /// The AV templates' `LastChange`, by default.
    public func lastChange(_ names: [String], of service: ControlledService) -> String {
        service.lastChange(names)
    }

    /// Nothing learnt, by default.
    public func valueWasSet(_ name: String, to value: String, in environment: inout ControlEnvironment) {}
}

/// What an action call knows beyond its service: the device it is on (its other services and its
/// surroundings, as they were when the call came), who called, and when.
public struct ActionContext: Sendable {
    /// The device the call is on, as it was when the call came.
    public let device: DeviceControl
    /// The control point's IPv4 address.
    public let client: String
    /// When the call came.
    public let now: SSDPInstant

    /// What the device knows of its surroundings.
    public var environment: ControlEnvironment { device.environment }

    /// Whole seconds since the device started.
    public var uptime: Int { device.uptime(at: now) }
}

/// How a service checks a call's in-arguments against its SCPD before it answers.
public enum ArgumentCheck: Sendable {
    /// UDA's: each in-argument present (402), of its variable's type (402), in its allowed list (600) and
    /// range (601).
    case uda
    /// Present and of its type only, as miniupnpd's and MiniDLNA's handlers read each argument themselves (an
    /// IGD:1 takes a lease past the SCPD's range as it comes; a Browse with a flag it does not know is 402).
    case typesOnly
    /// None: the service reads the arguments it needs as it goes (gmrender-resurrect).
    case none
}

/// A service with no behaviour of its own: every action answers from the state variables.
public struct StateVariableService: ServiceBehaviour {
    /// A service that answers from its state variables and checks arguments as UDA has it.
    public init() {}
}
