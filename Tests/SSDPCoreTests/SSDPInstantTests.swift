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

import SSDPCore
import Testing

@Suite struct SSDPInstantTests {
    /// Offsets either side of zero, of a second, and of the carry from the low word to the high one.
    static let offsets: [Duration] = [
        .zero, .nanoseconds(1), .nanoseconds(-1), .milliseconds(500), .seconds(1), .seconds(-1), .seconds(1) / 3,
        .seconds(18), .seconds(-18), .seconds(19), .seconds(3_600 * 24 * 365 * 100), .seconds(-3_600 * 24 * 365 * 100),
        Duration(_high: 0, low: .max), Duration(_high: 1, low: 0), Duration(_high: -1, low: .max),
        Duration(_high: -1, low: 0), Duration(_high: .min, low: 0), Duration(_high: .max, low: .max),
    ]

    /// `SSDPInstant` compares the words of its offset itself: it must agree with `Duration` on every pair.
    @Test func instantsCompareAsTheirOffsetsDo() {
        for left in Self.offsets {
            for right in Self.offsets {
                let (a, b) = (SSDPInstant(offset: left), SSDPInstant(offset: right))
                #expect((a == b) == (left == right), "\(left) == \(right)")
                #expect((a < b) == (left < right), "\(left) < \(right)")
                #expect((a <= b) == (left <= right), "\(left) <= \(right)")
            }
        }
    }

    /// `Duration`'s reading in whole seconds and attoseconds, taken without 128-bit arithmetic below 2⁶⁴
    /// attoseconds, agrees with `components` on every offset, and so do the figures read from it.
    @Test func secondsAndAttosecondsAgreeWithComponents() {
        // The extreme offsets have more seconds than an `Int64` holds: `components` itself traps on them.
        let representable = Duration.seconds(-1_000_000_000_000)...Duration.seconds(1_000_000_000_000)
        for offset in Self.offsets where representable.contains(offset) {
            let (seconds, attoseconds) = offset.secondsAndAttoseconds
            #expect(seconds == offset.components.seconds && attoseconds == offset.components.attoseconds, "\(offset)")
            #expect(
                offset.microseconds == offset.components.seconds &* 1_000_000 &+ offset.components.attoseconds
                    / 1_000_000_000_000
            )
            #expect(
                offset.milliseconds == offset.components.seconds &* 1_000 &+ offset.components.attoseconds
                    / 1_000_000_000_000_000
            )
        }
    }
}
