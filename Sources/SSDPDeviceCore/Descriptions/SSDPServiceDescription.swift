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

/// A UPnP service description (SCPD, UDA 1.1 §2.5): the actions a control point may call, each with its
/// arguments, and the state variables the arguments take their types, allowed values and defaults from.
///
/// The catalog holds the descriptions real devices serve, copied from their sources (miniupnpd's and
/// MiniDLNA's `upnpdescgen.c`, a Sonos One's own SCPDs, the UPnP AV templates); `standard(for:)` finds one
/// by service type. A SOAP dispatcher checks a call against the same value: the action exists, its
/// in-arguments are known and their values fit the related variables; it answers each out-argument, in
/// order, from its variable (`defaultValue` when nothing more specific is known).
public struct SSDPServiceDescription: Hashable, Sendable {
    /// One action, with its arguments in the order the SCPD lists them (in-arguments first).
    public struct Action: Hashable, Sendable {
        /// The action's name, `GetExternalIPAddress`.
        public var name: String
        /// The in- and out-arguments, in the SCPD's order.
        public var arguments: [Argument]

        /// An action with its arguments in the SCPD's order.
        public init(name: String, arguments: [Argument]) {
            self.name = name
            self.arguments = arguments
        }
    }

    /// One argument of an action: its direction and the state variable that gives its type.
    public struct Argument: Hashable, Sendable {
        /// Whether the control point sends the argument (`in`) or the device answers it (`out`).
        public enum Direction: String, Hashable, Sendable {
            /// `in` from the control point, `out` from the device, as the SCPD's `<direction>` writes them.
            case `in`, out
        }

        /// The argument's name, `NewExternalPort`; also its element's name in the SOAP body.
        public var name: String
        /// Who sends it: the control point (`in`) or the device (`out`).
        public var direction: Direction
        /// The state variable that gives its type and allowed values, and an out-argument's answer.
        public var relatedStateVariable: String

        /// An argument as the SCPD lists it.
        public init(name: String, direction: Direction, relatedStateVariable: String) {
            self.name = name
            self.direction = direction
            self.relatedStateVariable = relatedStateVariable
        }
    }

    /// One state variable: its UPnP data type, whether changes are evented, and the values it may take.
    public struct StateVariable: Hashable, Sendable {
        /// The variable's name, `PortMappingNumberOfEntries`; `A_ARG_TYPE_…` for one that only types arguments.
        public var name: String
        /// `string`, `boolean`, `ui2`, `ui4`, `i2`, `i4`, `int`, `bin.base64`, … as the SCPD writes it.
        public var dataType: String
        /// Whether a change is sent to subscribers (GENA); `sendEvents="yes"`.
        public var sendEvents: Bool
        /// The SCPD's `<defaultValue>`, or `nil` when it gives none (the value is then the zero of the type or the
        /// first allowed value).
        public var defaultValue: String?
        /// The only values a string may take, in the SCPD's order; empty when any value is allowed.
        public var allowedValues: [String]
        /// The bounds of a number, when the SCPD gives them.
        public var allowedRange: AllowedValueRange?

        /// A variable as the SCPD lists it; by default not evented, with no default and any value allowed.
        public init(
            name: String,
            dataType: String,
            sendEvents: Bool = false,
            defaultValue: String? = nil,
            allowedValues: [String] = [],
            allowedRange: AllowedValueRange? = nil
        ) {
            self.name = name
            self.dataType = dataType
            self.sendEvents = sendEvents
            self.defaultValue = defaultValue
            self.allowedValues = allowedValues
            self.allowedRange = allowedRange
        }
    }

    /// An `<allowedValueRange>`: the least and greatest value, and the step between values if there is one.
    public struct AllowedValueRange: Hashable, Sendable {
        /// The least value allowed.
        public var minimum: Int
        /// The greatest value allowed.
        public var maximum: Int
        /// The step between allowed values, or `nil` when the SCPD gives none.
        public var step: Int?

        /// A range from `minimum` to `maximum`, both included.
        public init(minimum: Int, maximum: Int, step: Int? = nil) {
            self.minimum = minimum
            self.maximum = maximum
            self.step = step
        }
    }

    /// The actions in the SCPD's order; empty for a service without SOAP actions, whose SCPD then has no
    /// `<actionList>`.
    public var actions: [Action]
    /// The service state table in the SCPD's order.
    public var stateVariables: [StateVariable]
    /// The minor version of UDA the SCPD's `specVersion` names: 0, or 1 where the real device writes 1.1.
    public var specVersionMinor = 0
    /// How the document is laid out on lines: UDA's indented layout, or a real stack's.
    public var style = SSDPDescriptionLayout.Style.indented

    /// A description with these actions and state variables, each in the SCPD's order.
    public init(actions: [Action], stateVariables: [StateVariable]) {
        self.actions = actions
        self.stateVariables = stateVariables
    }

    /// The action named `name`, if the service has it.
    public func action(named name: String) -> Action? {
        actions.first { $0.name == name }
    }

    /// The state variable named `name`, if the service has it.
    public func stateVariable(named name: String) -> StateVariable? {
        stateVariables.first { $0.name == name }
    }

    /// The variables whose changes are sent to subscribers (GENA), in table order.
    public var eventedVariables: [StateVariable] {
        stateVariables.filter(\.sendEvents)
    }
}
