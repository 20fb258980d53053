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

/// A JSON value: what a Hue bridge's REST API reads and answers, an event's fields as `serve --json` prints
/// them and the journal keeps them, and the control API's answers. One type for all of them.
///
/// An object keeps its members in order, so that an answer is written in the order the real device writes
/// it (`text`). An object made from a dictionary (`init(_:)`) or decoded (`Decodable`) has its members in
/// the order of their names, so two of them are equal when they have the same members, as dictionaries
/// would be. Numbers are whole (`bri`, a count) or not (`xy`, a time).
public enum JSONValue: Hashable, Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A whole number.
    case int(Int)
    /// A number with a fraction or an exponent.
    case double(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object: its members in order.
    case object([Member])

    /// One member of an object: its name and value.
    public struct Member: Hashable, Sendable {
        /// The member's name.
        public var name: String
        /// The member's value.
        public var value: JSONValue

        /// The member `name` with `value`.
        public init(_ name: String, _ value: JSONValue) {
            self.name = name
            self.value = value
        }
    }

    /// An object with `members`, in the order of their names.
    public init(_ members: [String: JSONValue]) {
        self = .object(members.sorted { $0.key < $1.key }.map { Member($0.key, $0.value) })
    }

    /// The value of member `name`, when this is an object that has one.
    public subscript(name: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.name == name }?.value
    }

    /// The value as text, for comparing with a query's `field=value`: a string as it is, a number or a
    /// boolean as JSON writes it; `nil` for `null`, arrays and objects.
    public var scalarText: String? {
        switch self {
        case .string(let value): value
        case .int(let value): String(value)
        case .double(let value): String(value)
        case .bool(let value): value ? "true" : "false"
        case .null, .array, .object: nil
        }
    }

    /// The number, whole or not.
    public var number: Double? {
        switch self {
        case .int(let value): Double(value)
        case .double(let value): value
        default: nil
        }
    }

    /// The value written as JSON, without spaces, each object's members in their order (as a Hue bridge
    /// writes its answers).
    public var text: String { written(sorted: false) }

    /// The value as one line of JSON, as `JSONEncoder` writes it with `.sortedKeys` and
    /// `.withoutEscapingSlashes` (`serve --json`, the journal's answers, the control API): every object's
    /// members in the order of their names (of a name given twice, the last), a number with no fraction
    /// without `.0`, backspace and form feed as `\b` and `\f`. A number that is not finite is `null`.
    public var jsonText: String { written(sorted: true) }

    /// The value as `text` (`sorted` false) or `jsonText` (`sorted` true) writes it, in UTF-8 bytes first:
    /// a string with nothing to escape is copied whole.
    private func written(sorted: Bool) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256)
        write(to: &bytes, sorted: sorted)
        return String(decoding: bytes, as: UTF8.self)
    }

    private func write(to bytes: inout [UInt8], sorted: Bool) {
        switch self {
        case .null: bytes.append(contentsOf: "null".utf8)
        case .bool(let value): bytes.append(contentsOf: (value ? "true" : "false").utf8)
        case .int(let value): bytes.append(contentsOf: String(value).utf8)
        case .double(let value):
            guard value.isFinite else { return bytes.append(contentsOf: "null".utf8) }
            let number = value.description.utf8
            let wholeSuffix = sorted && number.count > 2 && number.suffix(2).elementsEqual(".0".utf8)
            bytes.append(contentsOf: wholeSuffix ? number.dropLast(2) : number[...])
        case .string(let value): Self.write(value, to: &bytes, sorted: sorted)
        case .array(let values):
            bytes.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                value.write(to: &bytes, sorted: sorted)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            var first = true
            for member in sorted ? Self.byName(members) : members {
                if !first { bytes.append(UInt8(ascii: ",")) }
                first = false
                Self.write(member.name, to: &bytes, sorted: sorted)
                bytes.append(UInt8(ascii: ":"))
                member.value.write(to: &bytes, sorted: sorted)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// `members` in the order of their names; of a name given twice, the last (`jsonText`, and the objects
    /// `JSONValueEncoder` makes).
    static func byName(_ members: [Member]) -> [Member] {
        let ordered = members.indices.sorted { (members[$0].name, $0) < (members[$1].name, $1) }
        return ordered.indices.compactMap { position in
            let next = position + 1
            if next < ordered.count, members[ordered[next]].name == members[ordered[position]].name { return nil }
            return members[ordered[position]]
        }
    }

    /// Writes `string` quoted, escaping `"`, `\` and the control characters; `sorted` (`JSONEncoder`'s way)
    /// writes backspace and form feed as `\b` and `\f`, else (a Hue bridge's) as `\u0008` and `\u000c`.
    private static func write(_ string: String, to bytes: inout [UInt8], sorted: Bool) {
        bytes.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { utf8 in
            var start = 0
            // Only bytes below 0x80 are escaped, and in UTF-8 no other character has one.
            for index in utf8.indices where utf8[index] < 0x20 || utf8[index] == 0x22 || utf8[index] == 0x5C {
                bytes.append(contentsOf: utf8[start..<index])
                start = index + 1
                switch utf8[index] {
                case 0x22: bytes.append(contentsOf: #"\""#.utf8)
                case 0x5C: bytes.append(contentsOf: #"\\"#.utf8)
                case 0x0A: bytes.append(contentsOf: #"\n"#.utf8)
                case 0x0D: bytes.append(contentsOf: #"\r"#.utf8)
                case 0x09: bytes.append(contentsOf: #"\t"#.utf8)
                case 0x08 where sorted: bytes.append(contentsOf: #"\b"#.utf8)
                case 0x0C where sorted: bytes.append(contentsOf: #"\f"#.utf8)
                case let byte:
                    let hex = String(byte, radix: 16)
                    bytes.append(contentsOf: (#"\u"# + String(repeating: "0", count: 4 - hex.count) + hex).utf8)
                }
            }
            bytes.append(contentsOf: utf8[start...])
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Reads a request body: one JSON value, nested at most `maxDepth` deep; `nil` for anything else
    /// (which the bridge answers with error 2, "body contains invalid json").
    public init?(parsing bytes: [UInt8], maxDepth: Int = 16) {
        var reader = Reader(bytes: bytes, maxDepth: maxDepth)
        guard let value = reader.value(depth: 0) else { return nil }
        reader.skipSpace()
        guard reader.index == bytes.count else { return nil }
        self = value
    }

    /// A reader of JSON text, byte by byte; every method returns `nil` at the first byte that does not fit.
    private struct Reader {
        let bytes: [UInt8]
        let maxDepth: Int
        var index = 0

        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        mutating func value(depth: Int) -> JSONValue? {
            skipSpace()
            guard index < bytes.count, depth <= maxDepth else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "{"): return object(depth: depth)
            case UInt8(ascii: "["): return array(depth: depth)
            case UInt8(ascii: "\""): return string().map(JSONValue.string)
            case UInt8(ascii: "t"): return literal("true", .bool(true))
            case UInt8(ascii: "f"): return literal("false", .bool(false))
            case UInt8(ascii: "n"): return literal("null", .null)
            default: return number()
            }
        }

        private mutating func literal(_ word: String, _ value: JSONValue) -> JSONValue? {
            let word = Array(word.utf8)
            guard bytes.count - index >= word.count, Array(bytes[index..<index + word.count]) == word else {
                return nil
            }
            index += word.count
            return value
        }

        private mutating func object(depth: Int) -> JSONValue? {
            index += 1
            var members: [Member] = []
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            }
            while true {
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let name = string() else { return nil }
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
                index += 1
                guard let value = value(depth: depth + 1) else { return nil }
                members.append(Member(name, value))
                skipSpace()
                guard index < bytes.count else { return nil }
                index += 1
                switch bytes[index - 1] {
                case UInt8(ascii: ","): continue
                case UInt8(ascii: "}"): return .object(members)
                default: return nil
                }
            }
        }

        private mutating func array(depth: Int) -> JSONValue? {
            index += 1
            var values: [JSONValue] = []
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(values)
            }
            while true {
                guard let value = value(depth: depth + 1) else { return nil }
                values.append(value)
                skipSpace()
                guard index < bytes.count else { return nil }
                index += 1
                switch bytes[index - 1] {
                case UInt8(ascii: ","): continue
                case UInt8(ascii: "]"): return .array(values)
                default: return nil
                }
            }
        }

        /// A string from its opening quote; escapes decoded, `\u` pairs of surrogates joined.
        private mutating func string() -> String? {
            index += 1
            var scalars = String.UnicodeScalarView()
            var start = index
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                    guard let run = String(validating: bytes[start..<index], as: UTF8.self) else { return nil }
                    scalars.append(contentsOf: run.unicodeScalars)
                    index += 1
                    if byte == UInt8(ascii: "\"") { return String(scalars) }
                    guard let scalar = escape() else { return nil }
                    scalars.append(scalar)
                    start = index
                } else if byte < 0x20 {
                    return nil
                } else {
                    index += 1
                }
            }
            return nil
        }

        private mutating func escape() -> Unicode.Scalar? {
            guard index < bytes.count else { return nil }
            index += 1
            switch bytes[index - 1] {
            case UInt8(ascii: "\""): return "\""
            case UInt8(ascii: "\\"): return "\\"
            case UInt8(ascii: "/"): return "/"
            case UInt8(ascii: "b"): return "\u{08}"
            case UInt8(ascii: "f"): return "\u{0C}"
            case UInt8(ascii: "n"): return "\n"
            case UInt8(ascii: "r"): return "\r"
            case UInt8(ascii: "t"): return "\t"
            case UInt8(ascii: "u"):
                guard let unit = hex4() else { return nil }
                guard (0xD800..<0xDC00).contains(unit) else { return Unicode.Scalar(unit) }
                guard bytes.count - index >= 6, bytes[index] == UInt8(ascii: "\\"),
                    bytes[index + 1] == UInt8(ascii: "u")
                else { return nil }
                index += 2
                guard let low = hex4(), (0xDC00..<0xE000).contains(low) else { return nil }
                return Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
            default: return nil
            }
        }

        private mutating func hex4() -> UInt32? {
            guard bytes.count - index >= 4 else { return nil }
            var value: UInt32 = 0
            for byte in bytes[index..<index + 4] {
                guard let digit = Character(Unicode.Scalar(byte)).hexDigitValue else { return nil }
                value = value * 16 + UInt32(digit)
            }
            index += 4
            return value
        }

        /// A number as JSON writes one: whole when it has no fraction or exponent and fits an `Int`.
        private mutating func number() -> JSONValue? {
            let start = index
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
            let digits = { (reader: inout Reader) -> Int in
                let from = reader.index
                while reader.index < reader.bytes.count, (0x30...0x39).contains(reader.bytes[reader.index]) {
                    reader.index += 1
                }
                return reader.index - from
            }
            let whole = digits(&self)
            guard whole > 0, whole == 1 || bytes[index - whole] != UInt8(ascii: "0") else { return nil }
            var isWhole = true
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                isWhole = false
                guard digits(&self) > 0 else { return nil }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                index += 1
                isWhole = false
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                    index += 1
                }
                guard digits(&self) > 0 else { return nil }
            }
            let text = String(decoding: bytes[start..<index], as: UTF8.self)
            if isWhole, let value = Int(text) { return .int(value) }
            return Double(text).map(JSONValue.double)
        }
    }
}

extension JSONValue: Codable {
    /// Reads any JSON value: a whole number as `int`, another number as `double`, an object's members in
    /// the order of their names.
    public init(from decoder: any Decoder) throws {
        if let object = try? decoder.container(keyedBy: MemberName.self) {
            self = .object(
                try object.allKeys.sorted { $0.stringValue < $1.stringValue }.map { key in
                    Member(key.stringValue, try object.decode(JSONValue.self, forKey: key))
                }
            )
            return
        }
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
        } else {
            self = .array(try container.decode([JSONValue].self))
        }
    }

    /// Writes the value, an object's members in their order (an encoder may sort them: `.sortedKeys`).
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .object(let members):
            var container = encoder.container(keyedBy: MemberName.self)
            for member in members {
                try container.encode(member.value, forKey: MemberName(stringValue: member.name))
            }
        case .array(let values):
            var container = encoder.singleValueContainer()
            try container.encode(values)
        default:
            var container = encoder.singleValueContainer()
            switch self {
            case .string(let value): try container.encode(value)
            case .int(let value): try container.encode(value)
            case .double(let value): try container.encode(value)
            case .bool(let value): try container.encode(value)
            default: try container.encodeNil()
            }
        }
    }

    /// An object member's name as a coding key.
    private struct MemberName: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }

        init(stringValue: String) {
            self.stringValue = stringValue
        }

        init?(intValue: Int) {
            nil
        }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByDictionaryLiteral
{
    /// `"text"` as a string.
    public init(stringLiteral value: String) { self = .string(value) }
    /// `5` as a whole number.
    public init(integerLiteral value: Int) { self = .int(value) }
    /// `true` as a boolean.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// `["key": value]` as an object, its members in the order of their names (a name given twice: the last).
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(Dictionary(elements) { $1 })
    }
}
