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

    @Test func encodesScalarsAndArraysAtTheTop() throws {
        #expect(try JSONValueEncoder().encode(5) == .int(5))
        #expect(try JSONValueEncoder().encode("text") == .string("text"))
        #expect(try JSONValueEncoder().encode([true, false]) == .array([.bool(true), .bool(false)]))
        #expect(try JSONValueEncoder().encode([[1], [2, 3]]) == .array([.array([1]), .array([2, 3])]))
        #expect(try JSONValueEncoder().encode(Optional<Int>.none) == .null)
    }
}
