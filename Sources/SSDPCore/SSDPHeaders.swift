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
///
/// The headers hold their text as bytes, not as a `String` per name and value: parsed headers are the
/// datagram's bytes, copied once, and each field is a pair of ranges into them. Lookups compare bytes; a
/// `String` is made only when a value is read (`headers["ST"]`, `fields`, iteration). Names and values are
/// always valid UTF-8 (the parser replaces undecodable bytes with U+FFFD), and equality compares them byte
/// for byte.
public struct SSDPHeaders: Sendable {
    /// The bytes that the fields' names and values are ranges of. Appending adds at the end; removing a
    /// field leaves its text in place, unreferenced. Only the ranges are ever read: what lies between and
    /// after them (a parsed datagram's start line and line ends, and whatever follows its last value when
    /// the headers keep the datagram's own array) is never read, and need not be UTF-8.
    private var text: [UInt8]
    /// Where each field's name and value are in `text`, in the order written.
    private var spans: [Span]

    /// One field's name and value as byte ranges of `text`. 32-bit offsets: a datagram is at most 64 KiB.
    struct Span: Sendable {
        private var nameStart: UInt32
        private var nameEnd: UInt32
        private var valueStart: UInt32
        private var valueEnd: UInt32

        /// A span of these ranges, which must be below 4 GiB (a datagram's are: at most 64 KiB).
        init(name: Range<Int>, value: Range<Int>) {
            nameStart = UInt32(truncatingIfNeeded: name.lowerBound)
            nameEnd = UInt32(truncatingIfNeeded: name.upperBound)
            valueStart = UInt32(truncatingIfNeeded: value.lowerBound)
            valueEnd = UInt32(truncatingIfNeeded: value.upperBound)
        }

        var name: Range<Int> { Int(nameStart)..<Int(nameEnd) }
        var nameLength: Int { Int(nameEnd &- nameStart) }
        var value: Range<Int> { Int(valueStart)..<Int(valueEnd) }
    }

    /// Headers over `text` with fields at `spans`: the parser's and the search session's, which pass the
    /// datagram's own array, whole, when they were handed one (the session keeps it in `reportingDatagrams`
    /// too).
    init(text: [UInt8], spans: [Span]) {
        self.text = text
        self.spans = spans
    }

    /// Headers over a copy of `buffer`'s bytes up to the last value, with fields at `spans`, ranges of `buffer`.
    init(copying buffer: UnsafeBufferPointer<UInt8>, spans: [Span]) {
        let end = spans.last?.value.upperBound ?? 0
        self.init(text: Array(UnsafeBufferPointer(rebasing: buffer[..<end])), spans: spans)
    }

    /// Headers made of `fields`, in order; empty by default.
    public init(_ fields: [SSDPHeaderField] = []) {
        self.init(pairs: fields.lazy.map { ($0.name, $0.value) })
    }

    /// Builds headers from `(name, value)` pairs, in order.
    public init(_ pairs: KeyValuePairs<String, String>) {
        self.init(pairs: pairs.lazy.map { ($0.key, $0.value) })
    }

    /// Headers of these names and values, in order.
    private init(pairs: some Collection<(String, String)>) {
        self.init(text: [], spans: [])
        guard !pairs.isEmpty else { return }
        // One allocation each for the text and the spans, rather than one per doubling as fields are added,
        // with room for the few fields a message appends after its literal (a device's BOOTID and CONFIGID).
        text.reserveCapacity(pairs.reduce(64) { $0 + $1.0.utf8.count + $1.1.utf8.count })
        spans.reserveCapacity(pairs.count + 4)
        for (name, value) in pairs { append(name: name, value: value) }
    }

    /// Every field in the order it was written, made afresh on each call (two `String`s per field): to find
    /// one field, look it up by name instead.
    public var fields: [SSDPHeaderField] { Array(self) }

    /// The value of the first field called `name`, ignoring case, or `nil` when there is none.
    public subscript(name: String) -> String? {
        firstSpan(named: name).map { string(at: $0.value) }
    }

    /// Every value of the fields called `name`, ignoring case, in order.
    public func values(for name: String) -> [String] {
        withUTF8(of: name) { name in
            text.withUnsafeBufferPointer { text in
                spans.filter { equalsIgnoringASCIICase(text[$0.name], name) }
            }
        }.map { string(at: $0.value) }
    }

    /// Whether a field called `name` exists, ignoring case.
    public func contains(_ name: String) -> Bool {
        firstSpan(named: name) != nil
    }

    /// Appends a field at the end, keeping any field of the same name.
    public mutating func append(name: String, value: String) {
        let nameStart = text.count
        withUTF8(of: name) { text.append(contentsOf: $0) }
        let valueStart = text.count
        withUTF8(of: value) { text.append(contentsOf: $0) }
        precondition(text.count <= UInt32.max, "SSDPHeaders hold at most 4 GiB of names and values")
        spans.append(Span(name: nameStart..<valueStart, value: valueStart..<text.count))
    }

    /// Removes every field called `name`, ignoring case.
    public mutating func removeAll(named name: String) {
        self = removingAll(named: [name])
    }

    /// The number of fields, duplicates included.
    public var count: Int { spans.count }
    /// Whether there are no fields at all.
    public var isEmpty: Bool { spans.isEmpty }

    // MARK: Bytes

    /// Calls `body` with the bytes of the first value called `name`, ignoring case; `nil` when there is none.
    package func withValueBytes<Result>(
        named name: String,
        _ body: (UnsafeBufferPointer<UInt8>) throws -> Result
    ) rethrows -> Result? {
        guard let span = firstSpan(named: name) else { return nil }
        return try text.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[span.value])) }
    }

    /// Calls `body` with the name and value bytes of the field at `position`.
    package func withBytes<Result>(
        at position: Int,
        _ body: (_ name: UnsafeBufferPointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>) throws -> Result
    ) rethrows -> Result {
        let span = spans[position]
        return try text.withUnsafeBufferPointer { text in
            try body(UnsafeBufferPointer(rebasing: text[span.name]), UnsafeBufferPointer(rebasing: text[span.value]))
        }
    }

    /// Calls `body` with the text and the fields' ranges of it.
    func withStorage<Result>(
        _ body: (_ text: UnsafeBufferPointer<UInt8>, _ spans: UnsafeBufferPointer<Span>) throws -> Result
    ) rethrows -> Result {
        try text.withUnsafeBufferPointer { text in try spans.withUnsafeBufferPointer { try body(text, $0) } }
    }

    /// Calls `body` with the name and value bytes of each field, in order.
    package func forEachField(
        _ body: (_ name: UnsafeBufferPointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>) throws -> Void
    ) rethrows {
        try text.withUnsafeBufferPointer { text in
            for span in spans {
                try body(
                    UnsafeBufferPointer(rebasing: text[span.name]),
                    UnsafeBufferPointer(rebasing: text[span.value])
                )
            }
        }
    }

    /// The headers without the fields called any of `names`, ignoring case; the text is shared, not copied.
    package func removingAll(named names: [String]) -> SSDPHeaders {
        removingAll { name in names.contains { withUTF8(of: $0) { equalsIgnoringASCIICase(name, $0) } } }
    }

    /// The headers without the fields called any of `names`, in any case; the text is shared, not copied.
    /// Each field's name is recognised once, not compared with each of `names`.
    package func removingAll(_ names: WellKnownNames) -> SSDPHeaders {
        removingAll { name in WellKnownName(spelledBy: name).map(names.contains) ?? false }
    }

    /// The headers without the fields whose name's bytes `isRemoved`; the text is shared, not copied.
    private func removingAll(where isRemoved: (UnsafeBufferPointer<UInt8>) -> Bool) -> SSDPHeaders {
        var kept: [Span] = []
        kept.reserveCapacity(spans.count)
        text.withUnsafeBufferPointer { text in
            for span in spans where !isRemoved(UnsafeBufferPointer(rebasing: text[span.name])) {
                kept.append(span)
            }
        }
        return SSDPHeaders(text: text, spans: kept)
    }

    /// The position of the first field called `name`, ignoring case, or `nil` when there is none.
    package func firstIndex(named name: String) -> Int? {
        withUTF8(of: name) { name in
            text.withUnsafeBufferPointer { text in
                spans.firstIndex { equalsIgnoringASCIICase(text[$0.name], name) }
            }
        }
    }

    /// The position of the first field called `name`, in any case, or `nil` when there is none.
    package func firstIndex(of name: WellKnownName) -> Int? {
        let length = name.spelling.count
        return text.withUnsafeBufferPointer { text in
            spans.withUnsafeBufferPointer { spans in
                // Only a name of the same length can match: most fields are passed over on that alone.
                for position in spans.indices where spans[position].nameLength == length {
                    if name.isSpelled(by: UnsafeBufferPointer(rebasing: text[spans[position].name])) { return position }
                }
                return nil
            }
        }
    }

    /// The value of the first field called `name`, in any case, or `nil` when there is none.
    package subscript(name: WellKnownName) -> String? {
        firstIndex(of: name).map { string(at: spans[$0].value) }
    }

    /// Calls `body` with the bytes of the first value called `name`, in any case; `nil` when there is none.
    package func withValueBytes<Result>(
        of name: WellKnownName,
        _ body: (UnsafeBufferPointer<UInt8>) throws -> Result
    ) rethrows -> Result? {
        guard let position = firstIndex(of: name) else { return nil }
        return try withBytes(at: position) { try body($1) }
    }

    /// The name of the field at `position`, as the sender spelled it.
    package func name(at position: Int) -> String {
        string(at: spans[position].name)
    }

    private func firstSpan(named name: String) -> Span? {
        firstIndex(named: name).map { spans[$0] }
    }

    private func string(at range: Range<Int>) -> String {
        text.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[range]), as: UTF8.self) }
    }
}

/// Calls `body` with the UTF-8 of `text`: in place for a native string, else from a copy (on the stack for
/// a small string, which has no storage to lend).
func withUTF8<Result>(of text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
    if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
    var text = text
    return text.withUTF8(body)
}

extension SSDPHeaders: RandomAccessCollection {
    /// The position of the first field: 0.
    public var startIndex: Int { 0 }
    /// The position after the last field: `count`.
    public var endIndex: Int { spans.count }

    /// The field at `position`, its name and value made into strings.
    public subscript(position: Int) -> SSDPHeaderField {
        SSDPHeaderField(name: string(at: spans[position].name), value: string(at: spans[position].value))
    }
}

extension SSDPHeaders: Hashable {
    /// Whether both have the same fields in the same order, names and values equal byte for byte.
    public static func == (lhs: SSDPHeaders, rhs: SSDPHeaders) -> Bool {
        guard lhs.spans.count == rhs.spans.count else { return false }
        return lhs.text.withUnsafeBufferPointer { left in
            rhs.text.withUnsafeBufferPointer { right in
                zip(lhs.spans, rhs.spans).allSatisfy { one, other in
                    bytesEqual(
                        UnsafeBufferPointer(rebasing: left[one.name]),
                        UnsafeBufferPointer(rebasing: right[other.name])
                    )
                        && bytesEqual(
                            UnsafeBufferPointer(rebasing: left[one.value]),
                            UnsafeBufferPointer(rebasing: right[other.value])
                        )
                }
            }
        }
    }

    /// Hashes the names and values, each with its length so that the boundaries between them count.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(spans.count)
        func combine(_ part: UnsafeBufferPointer<UInt8>) {
            hasher.combine(part.count)
            hasher.combine(bytes: UnsafeRawBufferPointer(part))
        }
        forEachField { name, value in
            combine(name)
            combine(value)
        }
    }
}

extension SSDPHeaders: ExpressibleByDictionaryLiteral {
    /// Builds headers from a literal such as `["ST": "ssdp:all", "MX": "3"]`, in the literal's order.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(pairs: elements)
    }
}
