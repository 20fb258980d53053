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
import SSDPDeviceCore
import Testing

@Suite struct JSONValueEncoderTests {
    private struct Event: Encodable {
        enum Outcome: String, Encodable { case answered }

        let event = "search"
        let count: Int
        let delay: Double?
        let lost: Bool?
        let outcome: Outcome
        let devices: [Int]
        let query: [String: String]
        let inner: Inner
        let kept: JSONValue
    }

    private struct Inner: Encodable {
        let big: UInt64
        let small: UInt8
        let ratio: Float
        let nothing: String?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(big, forKey: .big)
            try container.encode(small, forKey: .small)
            try container.encode(ratio, forKey: .ratio)
            try container.encode(nothing, forKey: .nothing)  // `encode`, not `encodeIfPresent`: a null
            var list = container.nestedUnkeyedContainer(forKey: .list)
            try list.encode(Double.infinity)
            try list.encode("x")
            try list.encodeNil()
        }

        enum CodingKeys: String, CodingKey { case big, small, ratio, nothing, list }
    }

    @Test func encodesMembersByNameLeavesOutNilAndKeepsAJSONValueAsItIs() throws {
        let event = Event(
            count: 3,
            delay: 1.5,
            lost: nil,
            outcome: .answered,
            devices: [2, 1],
            query: ["b": "2", "a": "1"],
            inner: Inner(big: .max, small: 7, ratio: 0.5, nothing: nil),
            kept: .object([.init("z", 1), .init("a", 2)])
        )
        let value = try JSONValueEncoder().encode(event)
        let expected: JSONValue = .object([
            .init("count", 3),
            .init("delay", .double(1.5)),
            .init("devices", .array([2, 1])),
            .init("event", "search"),
            .init(
                "inner",
                [
                    "big": .double(Double(UInt64.max)), "small": 7, "ratio": .double(0.5), "nothing": .null,
                    "list": .array([.null, "x", .null]),
                ]
            ),
            .init("kept", .object([.init("z", 1), .init("a", 2)])),
            .init("outcome", "answered"),
            .init("query", ["a": "1", "b": "2"]),
        ])
        #expect(value == expected)
        #expect(value["lost"] == nil, "a nil optional is left out")
    }

    /// A key encoded twice: the last value counts, in the object and in its members.
    private struct Twice: Encodable {
        enum CodingKeys: String, CodingKey { case b, a }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(1, forKey: .b)
            try container.encode(2, forKey: .a)
            try container.encode(3, forKey: .b)
        }
    }

    @Test func keepsTheLastValueOfAKeyEncodedTwice() throws {
        #expect(try JSONValueEncoder().encode(Twice()) == .object([.init("a", 2), .init("b", 3)]))
        #expect(try JSONValueEncoder().encodeMembers(Twice()) == ["a": 2, "b": 3])
    }

    @Test func encodesScalarsAndArraysAtTheTop() throws {
        #expect(try JSONValueEncoder().encode(5) == .int(5))
        #expect(try JSONValueEncoder().encode("text") == .string("text"))
        #expect(try JSONValueEncoder().encode([true, false]) == .array([.bool(true), .bool(false)]))
        #expect(try JSONValueEncoder().encode([[1], [2, 3]]) == .array([.array([1]), .array([2, 3])]))
        #expect(try JSONValueEncoder().encode(Optional<Int>.none) == .null)
    }
}

/// `JSONValue.jsonText`, our own writer, against `JSONEncoder` with `.sortedKeys` and
/// `.withoutEscapingSlashes`, whose bytes `serve --json` and the control API printed before.
@Suite struct JSONTextTests {
    @Test func writesWhatJSONEncoderWritesForAnyValue() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var random = SSDPRandom(seed: 68)
        for _ in 0..<2_000 {
            let value = Self.value(depth: 3, using: &random)
            let expected = String(decoding: try encoder.encode(value), as: UTF8.self)
            #expect(value.jsonText == expected)
        }
    }

    @Test func keepsTheLastOfANameGivenTwiceAndWritesNoNumberThatIsNotFinite() {
        let twice: JSONValue = .object([.init("b", 1), .init("a", 2), .init("b", 3)])
        #expect(twice.jsonText == #"{"a":2,"b":3}"#)
        #expect(
            JSONValue.array([.double(.infinity), .double(-0.0), .double(1e-7), .double(100)]).jsonText
                == "[null,-0,1e-07,100]"
        )
    }

    /// A value with every kind of member, strings from every range that escapes differently.
    static func value(depth: Int, using random: inout SSDPRandom) -> JSONValue {
        switch Int.random(in: depth > 0 ? 0...7 : 0...4, using: &random) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &random))
        case 2:
            return .int(
                [0, -1, .max, .min, Int.random(in: -1_000_000...1_000_000, using: &random)].randomElement(
                    using: &random
                )!
            )
        case 3:
            let doubles: [Double] = [
                0, -0.0, 1, 100, 0.1, 1e-7, 1.23e20, 1e16, 5e-324, .greatestFiniteMagnitude,
                Double.random(in: -1e6...1e6, using: &random), Double(Int.random(in: -1_000...1_000, using: &random)),
            ]
            return .double(doubles.randomElement(using: &random)!)
        case 4: return .string(string(using: &random))
        case 5:
            return .array(
                (0..<Int.random(in: 0...4, using: &random)).map { _ in value(depth: depth - 1, using: &random) }
            )
        default:
            var members: [String: JSONValue] = [:]
            for _ in 0..<Int.random(in: 0...5, using: &random) {
                members[string(using: &random)] = value(depth: depth - 1, using: &random)
            }
            // In the order they came, not by name: the writer must sort them.
            return .object(members.map { JSONValue.Member($0.key, $0.value) }.shuffled(using: &random))
        }
    }

    static func string(using random: inout SSDPRandom) -> String {
        let pieces: [String] = [
            "a", "Z", "_", "-", "9", "10", "/", "\"", "\\", "\n", "\r", "\t", "\u{08}", "\u{0C}", "\u{01}", "\u{1F}",
            "\u{7F}", "é", "Ω", "😀", "\u{2028}", " ", "usn", "uuid:1::upnp:rootdevice",
        ]
        return (0..<Int.random(in: 0...6, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
    }
}
