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

import Foundation

/// A JSON value: an event's fields as `serve --json` prints them and the journal keeps them, and the
/// control API's requests and answers.
///
/// Objects are dictionaries: an encoder with `.sortedKeys` writes them in a stable order.
public enum SSDPJSONValue: Hashable, Sendable, Codable {
    /// A string.
    case string(String)
    /// A whole number.
    case int(Int)
    /// A number with a fraction.
    case double(Double)
    /// `true` or `false`.
    case bool(Bool)
    /// `null`.
    case null
    /// An array.
    case array([SSDPJSONValue])
    /// An object.
    case object([String: SSDPJSONValue])

    /// The value of anything `Encodable`, through its JSON form (`SimulatorCounters`); `null` when it
    /// cannot be encoded.
    public init(encoding value: some Encodable) {
        guard let data = try? JSONEncoder().encode(value),
            let decoded = try? JSONDecoder().decode(SSDPJSONValue.self, from: data)
        else {
            self = .null
            return
        }
        self = decoded
    }

    /// Reads any JSON value: a whole number as `int`, another number as `double`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let int = try? container.decode(Int.self) {
            self = .int(int)
        } else if let double = try? container.decode(Double.self) {
            self = .double(double)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let array = try? container.decode([SSDPJSONValue].self) {
            self = .array(array)
        } else {
            self = .object(try container.decode([String: SSDPJSONValue].self))
        }
    }

    /// Writes the value as JSON.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        case .null: try container.encodeNil()
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// The value as text, for comparing with a query's `field=value`: a string as it is, a number or a
    /// boolean as JSON writes it; `nil` for `null`, arrays and objects.
    public var text: String? {
        switch self {
        case .string(let value): value
        case .int(let value): String(value)
        case .double(let value): String(value)
        case .bool(let value): value ? "true" : "false"
        case .null, .array, .object: nil
        }
    }

    /// The member called `key` of an object; `nil` for anything else.
    public subscript(key: String) -> SSDPJSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    /// The value as one line of JSON with sorted keys (`serve --json`, the control API).
    public var jsonText: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
    }
}

extension SSDPJSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByDictionaryLiteral
{
    /// `"text"` as a string.
    public init(stringLiteral value: String) { self = .string(value) }
    /// `5` as a whole number.
    public init(integerLiteral value: Int) { self = .int(value) }
    /// `true` as a boolean.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// `["key": value]` as an object.
    public init(dictionaryLiteral elements: (String, SSDPJSONValue)...) {
        self = .object(Dictionary(elements) { $1 })
    }
}
