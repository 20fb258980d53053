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
import SSDPCore
import Testing

@Suite struct HTTPDateTests {
    @Test(arguments: [
        (0, "Thu, 01 Jan 1970 00:00:00 GMT"),
        (951_782_400, "Tue, 29 Feb 2000 00:00:00 GMT"),  // a leap day of a century's leap year
        (1_795_707_179, "Thu, 26 Nov 2026 15:32:59 GMT"),  // as Debian's MiniDLNA wrote it in the lab
        (4_102_444_799, "Thu, 31 Dec 2099 23:59:59 GMT"),
    ])
    func writesIMFFixdate(seconds: Int, expected: String) {
        #expect(HTTPDate.string(secondsSince1970: seconds) == expected)
    }

    @Test(arguments: [
        (0, "1970-01-01T00:00:00"), (951_782_400, "2000-02-29T00:00:00"), (1_795_707_179, "2026-11-26T15:32:59"),
        (4_102_444_799, "2099-12-31T23:59:59"),
    ])
    func writesISODateAndTime(seconds: Int, expected: String) {
        #expect(HTTPDate.isoString(secondsSince1970: seconds) == expected)
    }

    /// The same as Foundation's ISO 8601 formatter in UTC without a zone, which the Hue bridge's UTC was
    /// written with before.
    @Test func isoDatesAreFoundationsWithoutAZone() {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate, .withTime, .withDashSeparatorInDate, .withColonSeparatorInTime]
        for seconds in stride(from: 0, to: 4_102_444_800, by: 86_399 * 97 + 3_607) {
            let date = Date(timeIntervalSince1970: TimeInterval(seconds))
            #expect(HTTPDate.isoString(secondsSince1970: seconds) == formatter.string(from: date), "\(seconds)")
        }
    }

    @Test func everyDateIsAsLongAsTheEpochsSoOneCanBeWrittenOverAnother() {
        for seconds in stride(from: 0, to: 4_102_444_800, by: 86_399 * 97) {
            #expect(HTTPDate.string(secondsSince1970: seconds).utf8.count == HTTPDate.epoch.utf8.count)
        }
        #expect(HTTPDate.string(secondsSince1970: 0) == HTTPDate.epoch)
    }
}
