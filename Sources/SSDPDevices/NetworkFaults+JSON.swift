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

/// Network faults as scenario files (`network`) and the control API (`PUT /network`) write them:
///
/// ```json
/// { "latency": {"min": 0.01, "max": 0.2}, "loss": 0.1, "duplicate": 0.05,
///   "answerLoss": {"probability": 1, "times": 2}, "reorder": 0.2, "reorderDelay": 0.1 }
/// ```
///
/// A fault is a probability, or an object with its `probability` (1 when absent) and a window: `after`
/// (datagrams it lets pass first) and `times` (datagrams it hits at most). Latency is seconds, or
/// `{"min", "max"}`, with the same window fields. Unknown fields are errors (read through `StrictDecoder`).
public struct NetworkFaultsSpecification: Codable, Sendable {
    var latency: Latency?
    var loss: Rate?
    var answerLoss: Rate?
    var duplicate: Rate?
    var reorder: Rate?
    var reorderDelay: Double?

    /// The longest latency or hold-back: an hour, as scenario files allow.
    public static let maximumSeconds = 3_600.0

    enum CodingKeys: String, CodingKey, CaseIterable {
        case latency, loss, answerLoss, duplicate, reorder, reorderDelay
    }

    /// The faults, checked; an error names the field (`loss.probability`, `latency.min`).
    public func make() throws(SSDPConfigurationError) -> NetworkFaults {
        var faults = NetworkFaults()
        if let latency {
            let lower = try Self.seconds(latency.min, field: "latency.min")
            let upper = try Self.seconds(latency.max, field: "latency.max")
            guard lower <= upper else {
                throw SSDPConfigurationError(
                    field: "latency",
                    value: "\(latency.min)",
                    reason: "min must not be above max"
                )
            }
            faults.latency = lower...upper
            faults.windows[.latency] = try latency.window?.make(field: "latency")
        }
        let rates: [(NetworkFaults.Fault, Rate?, WritableKeyPath<NetworkFaults, Double>)] = [
            (.loss, loss, \.loss), (.answerLoss, answerLoss, \.answerLoss), (.duplicate, duplicate, \.duplicate),
            (.reorder, reorder, \.reorder),
        ]
        for (fault, rate, keyPath) in rates {
            guard let rate else { continue }
            let field = fault.rawValue + (rate.isObject ? ".probability" : "")
            guard rate.probability.isFinite, (0...1).contains(rate.probability) else {
                throw SSDPConfigurationError(
                    field: field,
                    value: "\(rate.probability)",
                    reason: "a probability must be 0...1"
                )
            }
            faults[keyPath: keyPath] = rate.probability
            faults.windows[fault] = try rate.window?.make(field: fault.rawValue)
        }
        if let reorderDelay {
            faults.reorderDelay = try Self.seconds(reorderDelay, field: "reorderDelay")
        }
        return faults
    }

    /// Reads and checks faults from JSON; errors name `source`, the JSON path and the reason.
    public static func decode(_ data: Data, source: String) throws(SimulatorInputError) -> NetworkFaults {
        let specification = try InputFile.decode(Self.self, from: data, file: source)
        do throws(SSDPConfigurationError) {
            return try specification.make()
        } catch {
            throw SimulatorInputError(file: source, path: "$.\(error.field)", reason: error.reason(quoting: true))
        }
    }

    private static func seconds(_ value: Double, field: String) throws(SSDPConfigurationError) -> Duration {
        guard value.isFinite, (0...maximumSeconds).contains(value) else {
            throw SSDPConfigurationError(field: field, value: "\(value)", reason: "must be 0...3600 seconds")
        }
        return .milliseconds(Int64((value * 1_000).rounded()))
    }

    /// A fault's window as written: `after` and `times`.
    struct WindowFields {
        var after: Int?
        var times: Int?

        func make(field: String) throws(SSDPConfigurationError) -> NetworkFaults.Window? {
            guard after != nil || times != nil else { return nil }
            if let after, after < 0 {
                throw SSDPConfigurationError(field: "\(field).after", value: "\(after)", reason: "must be 0 or more")
            }
            if let times, times < 1 {
                throw SSDPConfigurationError(field: "\(field).times", value: "\(times)", reason: "must be 1 or more")
            }
            return NetworkFaults.Window(after: after ?? 0, times: times)
        }
    }

    /// A probability, or `{"probability", "after", "times"}`.
    struct Rate: Codable {
        var probability: Double
        var window: WindowFields?
        var isObject = false

        enum CodingKeys: String, CodingKey, CaseIterable {
            case probability, after, times
        }

        init(from decoder: any Decoder) throws {
            if let value = try? decoder.singleValueContainer().decode(Double.self) {
                probability = value
                return
            }
            let container = try decoder.container(keyedBy: CodingKeys.self)
            probability = try container.decodeIfPresent(Double.self, forKey: .probability) ?? 1
            window = WindowFields(
                after: try container.decodeIfPresent(Int.self, forKey: .after),
                times: try container.decodeIfPresent(Int.self, forKey: .times)
            )
            isObject = true
        }

        /// The probability, or the object it came as.
        func encode(to encoder: any Encoder) throws {
            guard isObject else {
                var container = encoder.singleValueContainer()
                return try container.encode(probability)
            }
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(probability, forKey: .probability)
            try container.encodeIfPresent(window?.after, forKey: .after)
            try container.encodeIfPresent(window?.times, forKey: .times)
        }
    }

    /// Seconds, or `{"min", "max", "after", "times"}`.
    struct Latency: Codable {
        var min: Double
        var max: Double
        var window: WindowFields?

        enum CodingKeys: String, CodingKey, CaseIterable {
            case min, max, after, times
        }

        init(from decoder: any Decoder) throws {
            if let value = try? decoder.singleValueContainer().decode(Double.self) {
                (min, max) = (value, value)
                return
            }
            let container = try decoder.container(keyedBy: CodingKeys.self)
            min = try container.decode(Double.self, forKey: .min)
            max = try container.decode(Double.self, forKey: .max)
            window = WindowFields(
                after: try container.decodeIfPresent(Int.self, forKey: .after),
                times: try container.decodeIfPresent(Int.self, forKey: .times)
            )
        }

        /// Seconds when it is one value without a window, else the object.
        func encode(to encoder: any Encoder) throws {
            guard min != max || window != nil else {
                var container = encoder.singleValueContainer()
                return try container.encode(min)
            }
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(min, forKey: .min)
            try container.encode(max, forKey: .max)
            try container.encodeIfPresent(window?.after, forKey: .after)
            try container.encodeIfPresent(window?.times, forKey: .times)
        }
    }
}

extension NetworkFaults {
    /// The faults as `NetworkFaultsSpecification` reads them, every field given.
    public var json: JSONValue {
        func rate(_ fault: Fault) -> JSONValue {
            var members: [String: JSONValue] = ["probability": .double(probability(of: fault))]
            if let window = windows[fault] {
                members["after"] = .int(window.after)
                members["times"] = window.times.map { .int($0) }
            }
            return JSONValue(members)
        }
        var latency: [String: JSONValue] = [
            "min": .double(self.latency.lowerBound.inSeconds), "max": .double(self.latency.upperBound.inSeconds),
        ]
        if let window = windows[.latency] {
            latency["after"] = .int(window.after)
            latency["times"] = window.times.map { .int($0) }
        }
        return JSONValue([
            "latency": JSONValue(latency), "loss": rate(.loss), "answerLoss": rate(.answerLoss),
            "duplicate": rate(.duplicate), "reorder": rate(.reorder), "reorderDelay": .double(reorderDelay.inSeconds),
        ])
    }
}
