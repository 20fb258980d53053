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

/// Encodes an `Encodable` value straight into a `JSONValue`, with no JSON text in between: how an event's
/// fields are made, so that their names are its `CodingKeys` and every event is encoded at the rate the
/// simulator makes them. Objects have their members in the order of their names (as `JSONValue(_:)`); an
/// optional that is `nil` is left out (what synthesized `Encodable` does); a `JSONValue` inside is kept as
/// it is. A number that is not finite is `null`.
public struct JSONValueEncoder: Sendable {
    /// An encoder; it has no options.
    public init() {}

    /// The JSON value of `value`.
    public func encode(_ value: some Encodable) throws -> JSONValue {
        try Node.child(value, codingPath: []).value
    }

    /// The members of `value`, which encodes as an object, by name (none when it is not an object): an
    /// event's fields as the journal keeps them, without ordering them first.
    public func encodeMembers(_ value: some Encodable) throws -> [String: JSONValue] {
        guard case .node(let node) = try Node.child(value, codingPath: []) else { return [:] }
        return node.members
    }
}

/// One value being encoded: a scalar, or the members or elements that containers add to it. A scalar member
/// or element is kept as its value; only what is encoded through its own `encode(to:)` gets a node.
private final class Node {
    enum Child {
        case value(JSONValue)
        case node(Node)

        var value: JSONValue {
            switch self {
            case .value(let value): value
            case .node(let node): node.value
            }
        }
    }

    /// An object's members are kept in the order they came, a name given twice twice (the last counts):
    /// appending is cheaper than hashing each name, and most objects are an event's few fields.
    private enum Content {
        case scalar(JSONValue)
        case object([Member])
        case array([Child])
    }

    /// A member as it came (a struct, not a tuple: an array of tuples is destroyed through their metadata).
    private struct Member {
        let name: String
        let child: Child
    }

    private var content = Content.scalar(.null)

    var value: JSONValue {
        switch content {
        case .scalar(let value): return value
        case .array(let elements): return .array(elements.map(\.value))
        case .object(let members):
            return .object(JSONValue.byName(members.map { JSONValue.Member($0.name, $0.child.value) }))
        }
    }

    /// An object's members by name (the last of a name given twice); none when this is not an object.
    var members: [String: JSONValue] {
        guard case .object(let members) = content else { return [:] }
        var byName: [String: JSONValue] = [:]
        byName.reserveCapacity(members.count)
        for member in members { byName[member.name] = member.child.value }
        return byName
    }

    var count: Int {
        if case .array(let elements) = content { return elements.count }
        return 0
    }

    func set(_ value: JSONValue) {
        content = .scalar(value)
    }

    func becomeObject() {
        if case .object = content { return }
        content = .object([])
    }

    func becomeArray() {
        if case .array = content { return }
        content = .array([])
    }

    /// Sets member `name` (the node an object first, if it is not one).
    func setMember(_ name: String, _ child: Child) {
        guard case .object(var members) = content else {
            content = .object([Member(name: name, child: child)])
            return
        }
        content = .scalar(.null)  // so that `members` is the only reference, and grows in place
        members.append(Member(name: name, child: child))
        content = .object(members)
    }

    /// Adds a last element (the node an array first, if it is not one).
    func append(_ child: Child) {
        guard case .array(var elements) = content else {
            content = .array([child])
            return
        }
        content = .scalar(.null)
        elements.append(child)
        content = .array(elements)
    }

    /// `value` as a child: a `JSONValue` as it is, anything else through its `encode(to:)` into a node.
    static func child<Value: Encodable>(_ value: Value, codingPath: [any CodingKey]) throws -> Child {
        // A comparison of types, not a cast: a cast of every value encoded costs more than the encoding.
        if Value.self == JSONValue.self, let json = value as? JSONValue { return .value(json) }
        let node = Node()
        try value.encode(to: NodeEncoder(node: node, codingPath: codingPath))
        return .node(node)
    }

    /// A new node, set as member `name`.
    func newMember(_ name: String) -> Node {
        let node = Node()
        setMember(name, .node(node))
        return node
    }

    /// A new node, added as the last element.
    func newElement() -> Node {
        let node = Node()
        append(.node(node))
        return node
    }
}

private struct NodeEncoder: Encoder {
    let node: Node
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        node.becomeObject()
        return KeyedEncodingContainer(KeyedNodeContainer<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        node.becomeArray()
        return UnkeyedNodeContainer(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleNodeContainer(node: node, codingPath: codingPath)
    }
}

/// The scalars every container writes alike, each as a `JSONValue`: what `SingleValueEncodingContainer` and
/// `UnkeyedEncodingContainer` ask for, written once here.
private protocol ScalarWriting {
    /// Writes `value` where the writer writes next (containers hold a reference: nothing of theirs changes).
    func put(_ value: JSONValue)
}

extension ScalarWriting {
    func encodeNil() { put(.null) }
    func encode(_ value: Bool) { put(.bool(value)) }
    func encode(_ value: String) { put(.string(value)) }
    func encode(_ value: Double) { put(value.isFinite ? .double(value) : .null) }
    func encode(_ value: Float) { encode(Double(value)) }
    func encode(_ value: Int) { put(.int(value)) }
    func encode(_ value: Int8) { put(whole: value) }
    func encode(_ value: Int16) { put(whole: value) }
    func encode(_ value: Int32) { put(whole: value) }
    func encode(_ value: Int64) { put(whole: value) }
    func encode(_ value: UInt) { put(whole: value) }
    func encode(_ value: UInt8) { put(whole: value) }
    func encode(_ value: UInt16) { put(whole: value) }
    func encode(_ value: UInt32) { put(whole: value) }
    func encode(_ value: UInt64) { put(whole: value) }

    /// A whole number, as a `double` when it does not fit an `Int`.
    private func put(whole value: some BinaryInteger) {
        put(Int(exactly: value).map(JSONValue.int) ?? .double(Double(value)))
    }
}

private struct SingleNodeContainer: SingleValueEncodingContainer, ScalarWriting {
    let node: Node
    let codingPath: [any CodingKey]

    func put(_ value: JSONValue) { node.set(value) }
    mutating func encode(_ value: some Encodable) throws {
        switch try Node.child(value, codingPath: codingPath) {
        case .value(let json): node.set(json)
        case .node(let child): node.set(child.value)
        }
    }
}

private struct UnkeyedNodeContainer: UnkeyedEncodingContainer, ScalarWriting {
    let node: Node
    let codingPath: [any CodingKey]
    var count: Int { node.count }

    func put(_ value: JSONValue) { node.append(.value(value)) }
    mutating func encode(_ value: some Encodable) throws {
        node.append(try Node.child(value, codingPath: codingPath))
    }

    mutating func nestedContainer<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        NodeEncoder(node: node.newElement(), codingPath: codingPath).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        NodeEncoder(node: node.newElement(), codingPath: codingPath).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { NodeEncoder(node: node.newElement(), codingPath: codingPath) }
}

/// Writes scalars as member `name` (not nested in the generic container: its type would be made anew for
/// each key type at every use).
private struct MemberWriter: ScalarWriting {
    let node: Node
    let name: String
    func put(_ value: JSONValue) { node.setMember(name, .value(value)) }
}

private struct KeyedNodeContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: Node
    let codingPath: [any CodingKey]

    private func member(_ key: Key) -> MemberWriter { MemberWriter(node: node, name: key.stringValue) }

    mutating func encodeNil(forKey key: Key) { member(key).encodeNil() }
    mutating func encode(_ value: Bool, forKey key: Key) { member(key).encode(value) }
    mutating func encode(_ value: String, forKey key: Key) { member(key).encode(value) }
    mutating func encode(_ value: Double, forKey key: Key) { member(key).encode(value) }
    mutating func encode(_ value: Float, forKey key: Key) { member(key).encode(value) }
    mutating func encode(_ value: Int, forKey key: Key) { member(key).encode(value) }
    mutating func encode(_ value: Int8, forKey key: Key) { member(key).encode(value) }
    mutating func encode(_ value: Int16, forKey key: Key) { member(key).encode(value) }
    mutating func encode(_ value: Int32, forKey key: Key) { member(key).encode(value) }
    mutating func encode(_ value: Int64, forKey key: Key) { member(key).encode(value) }
    mutating func encode(_ value: UInt, forKey key: Key) { member(key).encode(value) }
    mutating func encode(_ value: UInt8, forKey key: Key) { member(key).encode(value) }
    mutating func encode(_ value: UInt16, forKey key: Key) { member(key).encode(value) }
    mutating func encode(_ value: UInt32, forKey key: Key) { member(key).encode(value) }
    mutating func encode(_ value: UInt64, forKey key: Key) { member(key).encode(value) }

    mutating func encode(_ value: some Encodable, forKey key: Key) throws {
        node.setMember(key.stringValue, try Node.child(value, codingPath: codingPath + [key]))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type,
        forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        NodeEncoder(node: node.newMember(key.stringValue), codingPath: codingPath + [key]).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        NodeEncoder(node: node.newMember(key.stringValue), codingPath: codingPath + [key]).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        NodeEncoder(node: node.newMember("super"), codingPath: codingPath)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        NodeEncoder(node: node.newMember(key.stringValue), codingPath: codingPath + [key])
    }
}
