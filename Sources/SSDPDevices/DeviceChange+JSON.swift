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

extension DeviceChange {
    /// The state's values as text: a string as it is, a number or a boolean as JSON writes it.
    fileprivate static func state(_ values: [String: JSONValue]) throws(SSDPConfigurationError) -> [String: String] {
        var state: [String: String] = [:]
        for (name, value) in values.sorted(by: { $0.key < $1.key }) {
            switch value {
            case .string(let text): state[name] = text
            case .int(let number): state[name] = String(number)
            case .bool(let flag): state[name] = flag ? "1" : "0"
            default:
                throw SSDPConfigurationError(
                    field: "state.\(name)",
                    value: value.jsonText,
                    reason: "must be a string, a whole number or true/false"
                )
            }
        }
        return state
    }

    /// The fields a change takes, as a device file spells them (a `PATCH` body, a scenario event's `set`):
    /// `friendlyName`, `maxAge`, `behaviour`, `httpFaults` and `actions` as a device file writes them, and
    /// `state` as names and values (`{"ExternalIPAddress": "198.51.100.7", "Volume": 30}`). `behaviour` and
    /// `httpFaults` change only the parts they name, laid over the device as it is when the change is made.
    public struct Specification: Codable, Sendable {
        var friendlyName: String?
        var maxAge: Int?
        var behaviour: BehaviourSpecification?
        var httpFaults: HTTPFaultSpecification?
        var actions: [ActionResponseSpecification]?
        var state: [String: JSONValue]?

        enum CodingKeys: String, CodingKey, CaseIterable {
            case friendlyName, maxAge, behaviour, httpFaults, actions, state
        }

        /// Reads a change from JSON; errors name `source`, the JSON path and the reason, as a bad device
        /// file's do.
        public static func decode(_ data: Data, source: String) throws(SimulatorInputError) -> Specification {
            try InputFile.decode(Specification.self, from: data, file: source)
        }

        /// The change, its `behaviour` and `httpFaults` laid over `current`'s; errors name the field
        /// (`behaviour.searchLoss`).
        public func make(current: SimulatedDevice) throws(SSDPConfigurationError) -> DeviceChange {
            DeviceChange(
                friendlyName: friendlyName,
                maxAge: maxAge,
                behaviour: try behaviour?.makeBehaviour(base: current.behaviour),
                httpFaults: try httpFaults?.makeFaults(field: "httpFaults", base: current.web.httpFaults),
                actions: try actions.map(ActionResponseSpecification.makeResponses),
                state: try state.map(DeviceChange.state) ?? [:]
            )
        }
    }
}

extension SimulatedDevice {
    /// The device with `change`'s fields applied (its live `state` aside, which is its HTTP side's), and
    /// the next CONFIGID when its description changes; checked as a device file's device is.
    public func changed(by change: DeviceChange) throws(SSDPConfigurationError) -> SimulatedDevice {
        var device = self
        device.device.friendlyName = change.friendlyName ?? device.device.friendlyName
        device.maxAge = change.maxAge ?? device.maxAge
        device.behaviour = change.behaviour ?? device.behaviour
        device.web.httpFaults = change.httpFaults ?? device.web.httpFaults
        device.web.actionResponses = change.actions ?? device.web.actionResponses
        if change.changesDescription { device.configID = DeviceChange.nextConfigID(after: device.configID) }
        try device.validate()
        return device
    }
}

extension SSDPDeviceBehaviour {
    /// The behaviour as a device file writes it (`{"delay": "uniform", "searchLoss": 0, …}`), every field given.
    public var json: JSONValue {
        JSONValue([
            "delay": .string(delay.text), "searchLoss": .double(searchLoss), "responseLoss": .double(responseLoss),
            "ignoreFirst": .int(ignoredSearches), "duplicates": .int(duplicates),
            "chatty": .array(chatter.map(\.rawValue).sorted().map { .string($0) }),
            "malformed": .array(malformations.map(\.rawValue).sorted().map { .string($0) }),
            "silent": .array(silentWindows.map { .string("\($0.start.shortSecondsText)-\($0.end.shortSecondsText)") }),
        ])
    }
}

extension HTTPFaults {
    /// The faults as a device file writes them (`{"description": ["503:2"], "eventLoss": 0, …}`), every
    /// field given.
    public var json: JSONValue {
        JSONValue([
            "description": .array(description.map { .string($0.text) }),
            "serviceDescriptions": .array(serviceDescriptions.map { .string($0.text) }),
            "eventLoss": .double(eventLoss), "eventDelay": .double(eventDelay.inSeconds),
        ])
    }
}

extension HTTPFaults.DocumentFault {
    /// The text `HTTPFaults.document` reads: `503:N`, `delay:SECONDS`, `hang`, `truncated`, `empty`, `malformed`.
    public var text: String {
        switch self {
        case .unavailable(let first): "503:\(first)"
        case .delayed(let delay): "delay:\(delay.shortSecondsText)"
        case .hanging: "hang"
        case .truncated: "truncated"
        case .empty: "empty"
        case .malformed: "malformed"
        }
    }
}
