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

/// The one way ssdp-sim reads a file model from JSON: as `JSONDecoder` does, but a field the model does not
/// read is an error naming its JSON path, at every level, so that a misspelt field is never silently
/// ignored. A type opts in by giving its coding keys `CaseIterable` (its fields are then exactly those
/// keys); its `Decodable` conformance can be the synthesized one.
///
/// It wraps the decoder a type is given, and every container and nested decoder it hands out, so that the
/// check reaches each nested model; values are still read by `JSONDecoder`, with its errors.
struct StrictDecoder: Decoder {
    let base: any Decoder

    var codingPath: [any CodingKey] { base.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { base.userInfo }

    /// `Value` decoded strictly from `data`.
    static func decode<Value: Decodable>(_ type: Value.Type, from data: Data) throws -> Value {
        try JSONDecoder().decode(Strict<Value>.self, from: data).value
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        if let strict = Key.self as? any (CodingKey & CaseIterable).Type {
            let fields = Self.fields(strict)
            let all = try base.container(keyedBy: AnyCodingKey.self)
            if let unknown = all.allKeys.first(where: { !fields.contains($0.stringValue) }) {
                throw DecodingError.dataCorruptedError(
                    forKey: unknown,
                    in: all,
                    debugDescription: fields.isEmpty
                        ? "unknown field (it takes none)" : "unknown field (fields: \(fields.joined(separator: ", ")))"
                )
            }
        }
        return KeyedDecodingContainer(StrictKeyedContainer(base: try base.container(keyedBy: type)))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        StrictUnkeyedContainer(base: try base.unkeyedContainer())
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        StrictSingleValueContainer(base: try base.singleValueContainer(), decoder: self)
    }

    /// Whether `JSONDecoder` reads `type` its own way (`Data` from base64, `Date`, `URL` from a string,
    /// `Decimal`), which only its own containers know.
    static func isJSONDecoders(_ type: Any.Type) -> Bool {
        type == Data.self || type == Date.self || type == URL.self || type == Decimal.self
    }

    /// The fields a strict model's keys name, in their order.
    private static func fields<Key: CodingKey & CaseIterable>(_ type: Key.Type) -> [String] {
        Key.allCases.map(\.stringValue)
    }

    /// What `JSONDecoder` decodes at the top, to hand the value a strict decoder.
    private struct Strict<Value: Decodable>: Decodable {
        let value: Value

        init(from decoder: any Decoder) throws {
            value = try Value(from: StrictDecoder(base: decoder))
        }
    }
}

/// A keyed container whose nested values are decoded strictly too.
private struct StrictKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let base: KeyedDecodingContainer<Key>

    var codingPath: [any CodingKey] { base.codingPath }
    var allKeys: [Key] { base.allKeys }

    func contains(_ key: Key) -> Bool { base.contains(key) }
    func decodeNil(forKey key: Key) throws -> Bool { try base.decodeNil(forKey: key) }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try base.decode(type, forKey: key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try base.decode(type, forKey: key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try base.decode(type, forKey: key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try base.decode(type, forKey: key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try base.decode(type, forKey: key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try base.decode(type, forKey: key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try base.decode(type, forKey: key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try base.decode(type, forKey: key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try base.decode(type, forKey: key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try base.decode(type, forKey: key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try base.decode(type, forKey: key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try base.decode(type, forKey: key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try base.decode(type, forKey: key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try base.decode(type, forKey: key) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        // As JSONDecoder says it: a missing field is `keyNotFound`, not a null found under it.
        guard base.contains(key) else {
            throw DecodingError.keyNotFound(
                key,
                DecodingError.Context(codingPath: codingPath, debugDescription: "No value associated with key \(key).")
            )
        }
        guard !StrictDecoder.isJSONDecoders(type) else { return try base.decode(type, forKey: key) }
        return try T(from: StrictDecoder(base: try base.superDecoder(forKey: key)))
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type,
        forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try StrictDecoder(base: try base.superDecoder(forKey: key)).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        StrictUnkeyedContainer(base: try base.nestedUnkeyedContainer(forKey: key))
    }

    func superDecoder() throws -> any Decoder { StrictDecoder(base: try base.superDecoder()) }
    func superDecoder(forKey key: Key) throws -> any Decoder { StrictDecoder(base: try base.superDecoder(forKey: key)) }
}

/// A list whose elements are decoded strictly too.
private struct StrictUnkeyedContainer: UnkeyedDecodingContainer {
    var base: any UnkeyedDecodingContainer

    var codingPath: [any CodingKey] { base.codingPath }
    var count: Int? { base.count }
    var isAtEnd: Bool { base.isAtEnd }
    var currentIndex: Int { base.currentIndex }

    mutating func decodeNil() throws -> Bool { try base.decodeNil() }
    mutating func decode(_ type: Bool.Type) throws -> Bool { try base.decode(type) }
    mutating func decode(_ type: String.Type) throws -> String { try base.decode(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try base.decode(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try base.decode(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try base.decode(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try base.decode(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try base.decode(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try base.decode(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try base.decode(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try base.decode(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try base.decode(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try base.decode(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try base.decode(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try base.decode(type) }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        guard !StrictDecoder.isJSONDecoders(type) else { return try base.decode(type) }
        return try T(from: StrictDecoder(base: try base.superDecoder()))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try StrictDecoder(base: try base.superDecoder()).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        StrictUnkeyedContainer(base: try base.nestedUnkeyedContainer())
    }

    mutating func superDecoder() throws -> any Decoder { StrictDecoder(base: try base.superDecoder()) }
}

/// A single value decoded strictly when it is a model.
private struct StrictSingleValueContainer: SingleValueDecodingContainer {
    let base: any SingleValueDecodingContainer
    let decoder: StrictDecoder

    var codingPath: [any CodingKey] { base.codingPath }

    func decodeNil() -> Bool { base.decodeNil() }
    func decode(_ type: Bool.Type) throws -> Bool { try base.decode(type) }
    func decode(_ type: String.Type) throws -> String { try base.decode(type) }
    func decode(_ type: Double.Type) throws -> Double { try base.decode(type) }
    func decode(_ type: Float.Type) throws -> Float { try base.decode(type) }
    func decode(_ type: Int.Type) throws -> Int { try base.decode(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try base.decode(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try base.decode(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try base.decode(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try base.decode(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try base.decode(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try base.decode(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try base.decode(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try base.decode(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try base.decode(type) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        guard !StrictDecoder.isJSONDecoders(type) else { return try base.decode(type) }
        return try T(from: decoder)
    }
}
