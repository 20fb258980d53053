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

/// Which journal entries a query or a wait is about: every condition must hold.
public struct JournalFilter: Hashable, Sendable, CustomStringConvertible {
    /// The entry's kind, when given.
    public var kind: JournalEntry.Kind?
    /// The device, by number (from 1) or UDN, when given.
    public var device: String?
    /// Only entries after this sequence number (0: all).
    public var since: Int
    /// Fields of the event, each equal (as text) to a value: `path` → `/keypress/Home`; a dotted name
    /// reaches into an object (`arguments.NewExternalPort` → `8080`).
    public var fields: [Field]

    /// One `name=value` condition on the event's fields.
    public struct Field: Hashable, Sendable {
        /// The field's name, dotted for a member of an object.
        public var name: String
        /// The text it must equal.
        public var value: String

        /// The condition that `name` equals `value`.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// A filter of the given conditions; none: every entry.
    public init(kind: JournalEntry.Kind? = nil, device: String? = nil, since: Int = 0, fields: [Field] = []) {
        self.kind = kind
        self.device = device
        self.since = since
        self.fields = fields
    }

    /// The conditions in the query's words: `kind=http path=/keypress/Home`.
    public var description: String {
        let conditions =
            [kind.map { "kind=\($0.rawValue)" }, device.map { "device=\($0)" }].compactMap { $0 }
            + fields.map { "\($0.name)=\($0.value)" }
        return conditions.isEmpty ? "any entry" : conditions.joined(separator: " ")
    }

    /// Whether `entry` meets every condition (`since` included).
    public func matches(_ entry: JournalEntry) -> Bool {
        entry.seq > since && mismatches(of: entry).isEmpty
    }

    /// The conditions `entry` does not meet (`since` aside), each with what the entry has instead.
    public func mismatches(of entry: JournalEntry) -> [JournalMismatch] {
        var mismatches: [JournalMismatch] = []
        if let kind, entry.kind != kind {
            mismatches.append(JournalMismatch(field: "kind", expected: kind.rawValue, actual: entry.kind.rawValue))
        }
        if let device, !entry.isDevice(device) {
            let several =
                entry.severalDevices.isEmpty ? nil : entry.severalDevices.map(String.init).joined(separator: ",")
            let actual = entry.device.map(String.init) ?? entry.fields["udn"]?.scalarText ?? several
            mismatches.append(JournalMismatch(field: "device", expected: device, actual: actual))
        }
        for field in fields {
            let actual = entry.field(field.name)?.scalarText
            if actual != field.value {
                mismatches.append(JournalMismatch(field: field.name, expected: field.value, actual: actual))
            }
        }
        return mismatches
    }

    /// How many conditions there are (`since` aside).
    var conditionCount: Int {
        (kind == nil ? 0 : 1) + (device == nil ? 0 : 1) + fields.count
    }
}

/// A condition an entry did not meet: what was asked for, and what the entry has (`nil`: no such field).
public struct JournalMismatch: Hashable, Sendable {
    /// The condition's field: `kind`, `device`, or an event field's (dotted) name.
    public var field: String
    /// The value asked for.
    public var expected: String
    /// The entry's value, as text; `nil` when it has no such field.
    public var actual: String?

    /// As JSON: `{"field": …, "expected": …, "actual": …}`.
    public var json: JSONValue {
        JSONValue([
            "field": .string(field), "expected": .string(expected), "actual": actual.map { .string($0) } ?? .null,
        ])
    }
}

extension JournalEntry {
    /// The event's field `name`: a top-level one, else a dotted path into objects (`arguments.NewExternalPort`).
    public func field(_ name: String) -> JSONValue? {
        if let value = fields[name] { return value }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count > 1, var value = fields[parts[0]] else { return nil }
        for part in parts.dropFirst() {
            guard let member = value[part] else { return nil }
            value = member
        }
        return value
    }

    /// Whether the entry is about the device `id` (a number from 1, or a UDN), alone or among others.
    func isDevice(_ id: String) -> Bool {
        if let number = Int(id) { return device == number || severalDevices.contains(number) }
        return fields["udn"]?.scalarText == id || udn == id || severalUDNs.contains(id)
    }
}
