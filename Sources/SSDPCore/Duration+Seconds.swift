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

/// The one way ssdp-sim turns a duration into numbers and text, so that reports, logs, flags, files and
/// JSON all agree (to the millisecond, as every duration a user gives or reads is).
extension Duration {
    /// `components`, read without its 128-bit arithmetic when the duration is from 0 to 18 seconds (below
    /// 2⁶⁴ attoseconds), as nearly every duration a run deals in is: a virtual run reads hundreds of
    /// thousands, and `components` is a call into the standard library that multiplies 128-bit numbers.
    package var secondsAndAttoseconds: (seconds: Int64, attoseconds: Int64) {
        guard _high == 0 else { return components }
        let attosecondsPerSecond: UInt64 = 1_000_000_000_000_000_000
        return (Int64(_low / attosecondsPerSecond), Int64(_low % attosecondsPerSecond))
    }

    /// Whole milliseconds, truncated toward zero.
    package var milliseconds: Int64 {
        let (seconds, attoseconds) = secondsAndAttoseconds
        return seconds * 1_000 + attoseconds / 1_000_000_000_000_000
    }

    /// Whole microseconds, truncated toward zero.
    package var microseconds: Int64 {
        let (seconds, attoseconds) = secondsAndAttoseconds
        return seconds * 1_000_000 + attoseconds / 1_000_000_000_000
    }

    /// Seconds as a `Double`, exact to the attosecond as far as a `Double` goes.
    package var inSeconds: Double {
        let (seconds, attoseconds) = secondsAndAttoseconds
        return Double(seconds) + Double(attoseconds) * 1e-18
    }

    /// Seconds with three decimals, as reports and output print them: `9.100`, `-0.250`.
    package var secondsText: String { Self.decimalText(milliseconds, decimals: 3) }

    /// Seconds with six decimals, never an exponent, as JUnit's `xs:decimal` times need: `0.000021`.
    package var microsecondsText: String { Self.decimalText(microseconds, decimals: 6) }

    /// Seconds with only the decimals needed, at most three, as flags and files spell them: `1.5`, `2`.
    package var shortSecondsText: String {
        let text = secondsText
        guard text.hasSuffix(".000") else {
            return String(text.reversed().drop { $0 == "0" }.reversed())
        }
        return String(text.dropLast(4))
    }

    /// `units` (thousandths or millionths of a second) as seconds with that many `decimals`.
    private static func decimalText(_ units: Int64, decimals: Int) -> String {
        var perSecond: Int64 = 1
        for _ in 0..<decimals { perSecond *= 10 }
        let fraction = String(units.magnitude % UInt64(perSecond))
        let whole = units.magnitude / UInt64(perSecond)
        return (units < 0 ? "-" : "") + "\(whole)." + String(repeating: "0", count: decimals - fraction.count)
            + fraction
    }
}
