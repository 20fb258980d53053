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

/// One header line of an SSDP message, as the sender spelled it.
public struct SSDPHeaderField: Hashable, Sendable {
    /// The field name with its original spelling (`Location`, `LOCATION`, `hue-bridgeid`).
    public var name: String
    /// The field value with surrounding spaces and tabs removed.
    public var value: String

    /// A field called `name` with `value`, both kept as given.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// The header fields of an SSDP message.
///
/// Fields keep their order, their original spelling and any duplicates, because devices differ in all three
/// and the harness lints them. Lookup by name ignores ASCII case, as UDA 1.1 §1.1.2 requires; where a name
/// appears more than once, lookup returns the first.
public struct SSDPHeaders: Hashable, Sendable {
    /// Every field in the order it was written.
    public private(set) var fields: [SSDPHeaderField]

    /// Headers made of `fields`, in order; empty by default.
    public init(_ fields: [SSDPHeaderField] = []) {
        self.fields = fields
    }

    /// Empty headers with room for `capacity` fields.
    init(reservingCapacity capacity: Int) {
        self.fields = []
        fields.reserveCapacity(capacity)
    }

    /// Builds headers from `(name, value)` pairs, in order.
    public init(_ pairs: KeyValuePairs<String, String>) {
        self.fields = pairs.map { SSDPHeaderField(name: $0.key, value: $0.value) }
    }

    /// The value of the first field called `name`, ignoring case, or `nil` when there is none.
    public subscript(name: String) -> String? {
        fields.first { $0.name.equalsIgnoringASCIICase(name) }?.value
    }

    /// Every value of the fields called `name`, ignoring case, in order.
    public func values(for name: String) -> [String] {
        fields.filter { $0.name.equalsIgnoringASCIICase(name) }.map(\.value)
    }

    /// Whether a field called `name` exists, ignoring case.
    public func contains(_ name: String) -> Bool {
        fields.contains { $0.name.equalsIgnoringASCIICase(name) }
    }

    /// Appends a field at the end, keeping any field of the same name.
    public mutating func append(name: String, value: String) {
        fields.append(SSDPHeaderField(name: name, value: value))
    }

    /// Removes every field called `name`, ignoring case.
    public mutating func removeAll(named name: String) {
        fields.removeAll { $0.name.equalsIgnoringASCIICase(name) }
    }

    /// The number of fields, duplicates included.
    public var count: Int { fields.count }
    /// Whether there are no fields at all.
    public var isEmpty: Bool { fields.isEmpty }
}

extension SSDPHeaders: Sequence {
    /// Iterates the fields in the order they were written.
    public func makeIterator() -> IndexingIterator<[SSDPHeaderField]> {
        fields.makeIterator()
    }
}

extension SSDPHeaders: ExpressibleByDictionaryLiteral {
    /// Builds headers from a literal such as `["ST": "ssdp:all", "MX": "3"]`, in the literal's order.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.fields = elements.map { SSDPHeaderField(name: $0.0, value: $0.1) }
    }
}
