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

import Testing

@testable import SSDPCore

/// `isValidUTF8`, which the parser checks a line that is not ASCII with (an `invalidUTF8` diagnostic, and
/// which names and values it decodes): it must say what `String(validating:as:)` says of any bytes.
@Suite struct UTF8ValidationTests {
    static func agrees(_ bytes: [UInt8]) -> Bool {
        let valid = bytes.withUnsafeBufferPointer(isValidUTF8)
        return valid == (String(validating: bytes, as: UTF8.self) != nil)
    }

    /// Every sequence of one and two bytes.
    @Test func agreesOnEveryOneAndTwoByteSequence() {
        var disagreements: [[UInt8]] = []
        for first in 0...255 {
            if !Self.agrees([UInt8(first)]) { disagreements.append([UInt8(first)]) }
            for second in 0...255 where !Self.agrees([UInt8(first), UInt8(second)]) {
                disagreements.append([UInt8(first), UInt8(second)])
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(10))")
    }

    /// Every lead byte from C0 with a second byte at each edge of the ranges table 3-7 allows (00, 7F, 80,
    /// 8F, 90, 9F, A0, BF, C0, FF), then the bytes at each edge of the continuation range (7F, 80, BF, C0);
    /// and each such sequence cut short, after ASCII text of lengths that put it at each place of the
    /// eight-byte ASCII steps.
    @Test func agreesOnLongerSequencesAtEveryPlace() {
        let edges: [UInt8] = [0x7F, 0x80, 0xBF, 0xC0]
        var disagreements: [[UInt8]] = []
        for lead in 0xC0...0xFF {
            for second in [0x00, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xFF] {
                for third in edges {
                    for fourth in edges {
                        let sequence = [UInt8(lead), UInt8(second), third, fourth]
                        for length in 1...4 {
                            for padding in [0, 3, 7, 8, 17] {
                                let bytes =
                                    Array(repeating: UInt8(ascii: "a"), count: padding) + sequence.prefix(length)
                                if !Self.agrees(bytes) { disagreements.append(bytes) }
                            }
                        }
                    }
                }
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(10))")
    }

    /// Text that is UTF-8, in one to four bytes a scalar, is valid; with any one byte changed it is what
    /// `String(validating:)` says.
    @Test func agreesOnTextWithOneByteChanged() {
        let text = Array("SERVER: Linux/5.10 UPnP/1.0 Caf\u{E9} \u{20AC} \u{1F4FA} r\u{E9}cepteur".utf8)
        #expect(text.withUnsafeBufferPointer(isValidUTF8))
        var random = SplitMix64(seed: 0x0F8)
        for _ in 0..<20_000 {
            var bytes = text
            bytes[Int(random.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: random.next())
            #expect(Self.agrees(bytes), "\(bytes)")
        }
    }
}
