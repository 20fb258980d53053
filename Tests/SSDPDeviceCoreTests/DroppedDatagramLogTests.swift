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
import SSDPDeviceCore
import Testing

@Suite struct DroppedDatagramLogTests {
    @Test func theFirstDropOfEachReasonIsLoggedThenOneASecondWithTheCountUnlogged() {
        var log = DroppedDatagramLog()
        let start = SSDPInstant.zero
        #expect(log.drop(.source, at: start) == 0)
        // Another reason has a second of its own.
        #expect(log.drop(.malformed, at: start) == 0)
        for step in 1...9 {
            #expect(log.drop(.source, at: start + .milliseconds(100 * step)) == nil)
        }
        // A second after the last line: a line, which says nine went unlogged.
        #expect(log.drop(.source, at: start + .seconds(1)) == 9)
        #expect(log.drop(.source, at: start + .milliseconds(1_500)) == nil)
        #expect(log.drop(.source, at: start + .seconds(3)) == 1)
        #expect(log.drop(.malformed, at: start + .seconds(3)) == 0)
    }

    @Test func onlyASourceDropHasAnOptionThatLetsItIn() {
        #expect(DroppedDatagramReason.source.remedy == "--allow-any-source")
        #expect(DroppedDatagramReason.oversized.remedy == nil)
        #expect(DroppedDatagramReason.malformed.remedy == nil)
    }
}
