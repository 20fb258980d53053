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

import SSDPDeviceCore

/// A light paired with a Hue bridge: what it is, as the bridge describes it (laid out as node-hue-api's
/// recordings of a real bridge write a light), and its state, which apps change.
public struct HueLight: Hashable, Sendable {
    /// The light's id on the bridge (`1`).
    public var id: String
    /// Its name, as the apps show it (`Hue color lamp 1`).
    public var name: String
    /// What lamp it is.
    public var kind: Kind
    /// The light's Zigbee address and endpoint (`00:17:88:01:02:03:04:05-0b`).
    public var uniqueID: String
    /// What it shows now.
    public var state: State

    /// The two kinds of Philips light the bridge's recordings show.
    public enum Kind: String, Hashable, Sendable {
        /// A Hue color lamp (LCT001): brightness, hue and saturation, xy (gamut B), colour temperature.
        case extendedColor
        /// A Hue white lamp (LWB004): brightness only.
        case dimmable

        var type: String { self == .extendedColor ? "Extended color light" : "Dimmable light" }
        var modelID: String { self == .extendedColor ? "LCT001" : "LWB004" }
        var productName: String { self == .extendedColor ? "Hue color lamp" : "Hue white lamp" }
        var swVersion: String { self == .extendedColor ? "5.127.1.26581" : "5.127.1.26420" }
        var hasColour: Bool { self == .extendedColor }
    }

    /// A light's state: what `PUT /lights/ID/state` changes.
    public struct State: Hashable, Sendable {
        /// Whether it is on.
        public var on = false
        /// `bri`, 1 to 254.
        public var brightness = 254
        /// `hue`, 0 to 65535.
        public var hue = 8418
        /// `sat`, 0 to 254.
        public var saturation = 140
        /// `xy`, the colour's CIE 1931 coordinates.
        public var xy = [0.4573, 0.41]
        /// `ct`, in mireds.
        public var colourTemperature = 366
        /// `alert`: `none`, `select` or `lselect`.
        public var alert = "none"
        /// `effect`: `none` or `colorloop`.
        public var effect = "none"
        /// `colormode`: which of `hs`, `xy` and `ct` was set last.
        public var colourMode = "ct"
        /// Whether the bridge reaches it.
        public var reachable = true

        /// A lamp's state as it leaves the factory: off, warm white, full brightness.
        public init() {}
    }

    /// A light with this id, name, kind, Zigbee address and state.
    public init(id: String, name: String, kind: Kind, uniqueID: String, state: State = State()) {
        self.id = id
        self.name = name
        self.kind = kind
        self.uniqueID = uniqueID
        self.state = state
    }

    /// The colour temperatures the colour lamp takes, in mireds.
    static let colourTemperatures = 153...500

    /// The light as `GET /api/KEY/lights/ID` answers it.
    var json: JSONValue {
        var state: [JSONValue.Member] = [.init("on", .bool(self.state.on)), .init("bri", .int(self.state.brightness))]
        if kind.hasColour {
            state += [
                .init("hue", .int(self.state.hue)), .init("sat", .int(self.state.saturation)),
                .init("effect", .string(self.state.effect)), .init("xy", .array(self.state.xy.map(JSONValue.double))),
                .init("ct", .int(self.state.colourTemperature)),
            ]
        }
        state += [.init("alert", .string(self.state.alert))]
        if kind.hasColour { state.append(.init("colormode", .string(self.state.colourMode))) }
        state += [.init("mode", .string("homeautomation")), .init("reachable", .bool(self.state.reachable))]
        var control: [JSONValue.Member] = [
            .init("mindimlevel", .int(kind.hasColour ? 5000 : 2000)),
            .init("maxlumen", .int(kind.hasColour ? 600 : 750)),
        ]
        if kind.hasColour {
            let gamut = [[0.675, 0.322], [0.409, 0.518], [0.167, 0.04]]
            control += [
                .init("colorgamuttype", .string("B")),
                .init("colorgamut", .array(gamut.map { .array($0.map(JSONValue.double)) })),
                .init(
                    "ct",
                    .object([
                        .init("min", .int(Self.colourTemperatures.lowerBound)),
                        .init("max", .int(Self.colourTemperatures.upperBound)),
                    ])
                ),
            ]
        }
        return .object([
            .init("state", .object(state)),
            .init("swupdate", .object([.init("state", .string("noupdates")), .init("lastinstall", .null)])),
            .init("type", .string(kind.type)),
            .init("name", .string(name)),
            .init("modelid", .string(kind.modelID)),
            .init("manufacturername", .string("Philips")),
            .init("productname", .string(kind.productName)),
            .init(
                "capabilities",
                .object([
                    .init("certified", .bool(true)), .init("control", .object(control)),
                    .init(
                        "streaming",
                        .object([.init("renderer", .bool(kind.hasColour)), .init("proxy", .bool(false))])
                    ),
                ])
            ),
            .init(
                "config",
                .object([
                    .init("archetype", .string("sultanbulb")),
                    .init("function", .string(kind.hasColour ? "mixed" : "functional")),
                    .init("direction", .string("omnidirectional")),
                ])
            ),
            .init("uniqueid", .string(uniqueID)),
            .init("swversion", .string(kind.swVersion)),
        ])
    }

    /// `PUT /api/KEY/lights/ID/state`: each parameter in the order sent, a success or an error for each,
    /// as the bridge answers; the values that succeed change the state. A light that is off takes only
    /// `on`, `alert` and `transitiontime` unless the same request turns it on (error 201). Returns the
    /// answer and the parameters that took.
    mutating func change(_ parameters: [JSONValue.Member]) -> (JSONValue, changed: [JSONValue.Member]) {
        let address = "/lights/\(id)/state"
        let turnsOn = parameters.contains { $0.name == "on" && $0.value == .bool(true) }
        var answers: [JSONValue] = []
        var changed: [JSONValue.Member] = []
        for parameter in parameters {
            let name = parameter.name
            let path = "\(address)/\(name)"
            guard Self.parameters.contains(name), kind.hasColour || !Self.colourParameters.contains(name) else {
                answers.append(HueBridge.failure(6, path, "parameter, \(name), not available"))
                continue
            }
            if !state.on, !turnsOn, !["on", "alert", "transitiontime"].contains(name) {
                let reason = "parameter, \(name), is not modifiable. Device is set to off."
                answers.append(HueBridge.failure(201, path, reason))
                continue
            }
            guard apply(name, parameter.value) else {
                let reason = "invalid value, \(parameter.value.text), for parameter, \(name)"
                answers.append(HueBridge.failure(7, path, reason))
                continue
            }
            answers.append(HueBridge.success([.init(path, parameter.value)]))
            changed.append(parameter)
        }
        return (.array(answers), changed)
    }

    private static let parameters: Set = ["on", "bri", "hue", "sat", "xy", "ct", "alert", "effect", "transitiontime"]
    private static let colourParameters: Set = ["hue", "sat", "xy", "ct", "effect"]

    /// Sets parameter `name` to `value` when the value is one the bridge takes; false when it is not.
    private mutating func apply(_ name: String, _ value: JSONValue) -> Bool {
        let whole = { (range: ClosedRange<Int>) -> Int? in
            guard case .int(let number) = value, range.contains(number) else { return nil }
            return number
        }
        switch name {
        case "on":
            guard case .bool(let on) = value else { return false }
            state.on = on
        case "bri":
            guard let brightness = whole(1...254) else { return false }
            state.brightness = brightness
        case "hue", "sat":
            guard let number = whole(name == "hue" ? 0...65535 : 0...254) else { return false }
            if name == "hue" { state.hue = number } else { state.saturation = number }
            state.colourMode = "hs"
        case "xy":
            guard case .array(let values) = value else { return false }
            let xy = values.compactMap(\.number)
            guard values.count == 2, xy.count == 2, xy.allSatisfy({ (0...1).contains($0) }) else { return false }
            state.xy = xy
            state.colourMode = "xy"
        case "ct":
            guard let mireds = whole(Self.colourTemperatures) else { return false }
            state.colourTemperature = mireds
            state.colourMode = "ct"
        case "alert", "effect":
            guard case .string(let word) = value,
                (name == "alert" ? ["none", "select", "lselect"] : ["none", "colorloop"]).contains(word)
            else { return false }
            if name == "alert" { state.alert = word } else { state.effect = word }
        case "transitiontime":
            return whole(0...65535) != nil
        default:
            return false
        }
        return true
    }

    /// `PUT /api/KEY/lights/ID {"name": …}`: a new name of 1 to 32 characters.
    mutating func rename(_ parameters: [JSONValue.Member]) -> (JSONValue, changed: [JSONValue.Member]) {
        var changed: [JSONValue.Member] = []
        let answers = parameters.map { parameter in
            let path = "/lights/\(id)/\(parameter.name)"
            guard parameter.name == "name" else {
                return HueBridge.failure(6, path, "parameter, \(parameter.name), not available")
            }
            guard case .string(let name) = parameter.value, (1...32).contains(name.count) else {
                let reason = "invalid value, \(parameter.value.text), for parameter, name"
                return HueBridge.failure(7, path, reason)
            }
            self.name = name
            changed.append(parameter)
            return HueBridge.success([.init(path, parameter.value)])
        }
        return (.array(answers), changed)
    }
}
