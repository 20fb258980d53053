import SSDPCore

/// A UPnP service description (SCPD, UDA 1.1 §2.5): the actions a control point may call, each with its
/// arguments, and the state variables the arguments take their types from.
///
/// The catalog (`SSDPServiceDescription.builtIn(for:)`) holds the descriptions real devices serve, from
/// their sources (miniupnpd's and MiniDLNA's `upnpdescgen.c`, the UPnP AV templates, Sonos's services as
/// SoCo calls them). A later SOAP dispatcher checks a call's arguments against the same value.
public struct SSDPServiceDescription: Hashable, Sendable {
    /// One action, with its arguments in the order the SCPD lists them.
    public struct Action: Hashable, Sendable {
        public var name: String
        public var arguments: [Argument]

        public init(name: String, arguments: [Argument]) {
            self.name = name
            self.arguments = arguments
        }
    }

    /// One argument of an action: its direction and the state variable that gives its type.
    public struct Argument: Hashable, Sendable {
        public enum Direction: String, Hashable, Sendable {
            case `in`, out
        }

        public var name: String
        public var direction: Direction
        public var relatedStateVariable: String

        public init(name: String, direction: Direction, relatedStateVariable: String) {
            self.name = name
            self.direction = direction
            self.relatedStateVariable = relatedStateVariable
        }
    }

    /// One state variable: its UPnP data type, whether changes are evented, and its values.
    public struct StateVariable: Hashable, Sendable {
        public var name: String
        /// `string`, `ui4`, `i4`, `ui2`, `boolean`, `bin.base64`, …
        public var dataType: String
        public var sendEvents: Bool
        public var defaultValue: String?
        public var allowedValues: [String]
        /// `minimum...maximum`, for numbers that have a range.
        public var allowedRange: ClosedRange<Int>?

        public init(
            name: String,
            dataType: String,
            sendEvents: Bool = false,
            defaultValue: String? = nil,
            allowedValues: [String] = [],
            allowedRange: ClosedRange<Int>? = nil
        ) {
            self.name = name
            self.dataType = dataType
            self.sendEvents = sendEvents
            self.defaultValue = defaultValue
            self.allowedValues = allowedValues
            self.allowedRange = allowedRange
        }
    }

    public var actions: [Action]
    public var stateVariables: [StateVariable]

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

    /// The variables whose changes are sent to subscribers (GENA).
    public var eventedVariables: [StateVariable] {
        stateVariables.filter(\.sendEvents)
    }
}
