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

/// CACHE-CONTROL values as real devices write them (reference §3 'max-age = N').
@Suite struct SSDPCacheControlTests {
    @Test(
        arguments: [
            ("max-age=1800", 1800, false, []),
            ("max-age = 1800", 1800, true, []),
            ("max-age =1800", 1800, true, []),
            ("max-age\t=\t60", 60, true, []),
            ("MAX-AGE=1800", 1800, false, []),
            ("Max-Age=100", 100, false, []),
            ("no-cache=\"Ext\", max-age = 5000", 5000, true, ["no-cache=\"Ext\""]),
            ("public, max-age=60", 60, false, ["public"]),
            ("max-age=1800, max-age=60", 1800, false, []),
            ("max-age=0", 0, false, []),
            ("max-age=99999999999", Int(Int32.max), false, []),
            ("max-age=2147483648", Int(Int32.max), false, []),
        ] as [(String, Int, Bool, [String])]
    )
    func readsMaxAge(value: String, maxAge: Int, spaced: Bool, otherDirectives: [String]) {
        let cacheControl = SSDPCacheControl(value)
        #expect(cacheControl.maxAge == maxAge)
        #expect(cacheControl.hasSpacesAroundEquals == spaced)
        #expect(cacheControl.otherDirectives == otherDirectives)
    }

    @Test(
        arguments: [
            ("", []),
            ("max-age=", []),
            ("max-age=:1800", []),
            ("max-age=-5", []),
            ("max-age=18OO", []),
            ("max-age", []),
            ("1800", ["1800"]),
            ("no-cache", ["no-cache"]),
            ("max-ager=5", ["max-ager=5"]),
            ("s-maxage=60", ["s-maxage=60"]),
        ] as [(String, [String])]
    )
    func findsNoReadableMaxAge(value: String, otherDirectives: [String]) {
        let cacheControl = SSDPCacheControl(value)
        #expect(cacheControl.maxAge == nil)
        #expect(cacheControl.otherDirectives == otherDirectives)
    }

    @Test func readsALaterMaxAgeAfterAnUnreadableOne() {
        #expect(SSDPCacheControl("max-age=abc, max-age=60").maxAge == 60)
    }
}
