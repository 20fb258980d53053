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

/// Dates as HTTP writes them (RFC 9110 §5.6.7, IMF-fixdate): `Thu, 26 Nov 2026 15:32:59 GMT`, always 29
/// characters, so a date can be written over another in place.
public enum HTTPDate {
    /// The first second of 1970: what a message made ahead of time carries until it is sent
    /// (`ScheduledAnswer.dated(secondsSince1970:)`), and what a virtual run's answers keep.
    public static let epoch = "Thu, 01 Jan 1970 00:00:00 GMT"

    /// The IMF-fixdate of `seconds` after 1970-01-01 00:00:00 UTC (0 or more).
    public static func string(secondsSince1970 seconds: Int) -> String {
        let days = max(seconds, 0) / 86_400
        let second = max(seconds, 0) % 86_400
        let (year, month, day) = civilDate(daysSince1970: days)
        // 1970-01-01 was a Thursday.
        let weekday = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"][days % 7]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        return "\(weekday), \(twoDigits(day)) \(months[month - 1]) \(year) \(twoDigits(second / 3600)):"
            + "\(twoDigits(second / 60 % 60)):\(twoDigits(second % 60)) GMT"
    }

    /// `seconds` after 1970-01-01 00:00:00 UTC (0 or more) as ISO 8601 writes a date and time without a
    /// zone, `2026-11-26T21:00:00`: a Hue bridge's `UTC`.
    public static func isoString(secondsSince1970 seconds: Int) -> String {
        let second = max(seconds, 0) % 86_400
        let (year, month, day) = civilDate(daysSince1970: max(seconds, 0) / 86_400)
        return "\(year)-\(twoDigits(month))-\(twoDigits(day))T\(twoDigits(second / 3600)):"
            + "\(twoDigits(second / 60 % 60)):\(twoDigits(second % 60))"
    }

    /// Year, month (1–12) and day (1–31) of a day counted from 1970-01-01, in the proleptic Gregorian calendar
    /// (Howard Hinnant's `civil_from_days`, for days from 1970 on).
    static func civilDate(daysSince1970 days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468  // days since 0000-03-01
        let era = shifted / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153  // March is 0
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func twoDigits(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}
