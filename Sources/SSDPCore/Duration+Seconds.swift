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
    /// Whole milliseconds, truncated toward zero.
    package var milliseconds: Int64 {
        components.seconds * 1_000 + components.attoseconds / 1_000_000_000_000_000
    }

    /// Seconds as a `Double`, exact to the attosecond as far as a `Double` goes.
    package var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) * 1e-18
    }

    /// Seconds with three decimals, as reports and output print them: `9.100`, `-0.250`.
    package var secondsText: String {
        let sign = milliseconds < 0 ? "-" : ""
        let magnitude = abs(milliseconds)
        return "\(sign)\(magnitude / 1_000).\(Self.threeDigits(magnitude % 1_000))"
    }

    /// Seconds with only the decimals needed, at most three, as flags and files spell them: `1.5`, `2`.
    package var shortSecondsText: String {
        let text = secondsText
        guard text.hasSuffix(".000") else {
            return String(text.reversed().drop { $0 == "0" }.reversed())
        }
        return String(text.dropLast(4))
    }

    private static func threeDigits(_ value: Int64) -> String {
        let digits = String(value)
        return String(repeating: "0", count: 3 - digits.count) + digits
    }
}
