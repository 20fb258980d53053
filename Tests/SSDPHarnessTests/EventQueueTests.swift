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

@testable import SSDPHarness

/// The virtual network's event queue: earliest first, ties in the order scheduled, slots reused.
@Suite struct EventQueueTests {
    @Test func givesEventsInTimeOrderAndTiesInTheOrderScheduled() {
        var queue = EventQueue<String>()
        var random = SSDPRandom(seed: 5)
        var expected: [(SSDPInstant, Int, String)] = []
        for index in 0..<500 {
            let at = SSDPInstant(offset: .milliseconds(Int(random.next() % 50)))  // many ties
            queue.schedule("event \(index)", at: at)
            expected.append((at, index, "event \(index)"))
        }
        expected.sort { ($0.0, $0.1) < ($1.0, $1.1) }
        var got: [String] = []
        while let (_, event) = queue.next() { got.append(event) }
        #expect(got == expected.map(\.2))
        #expect(queue.isEmpty)
    }

    @Test func interleavedSchedulingKeepsOrderAndPayloads() {
        var queue = EventQueue<[Int]>()
        var now = SSDPInstant.zero
        var seen: [SSDPInstant] = []
        queue.schedule([0], at: now)
        var scheduled = 1
        while let (at, payload) = queue.next() {
            #expect(at >= now)
            #expect(payload == [payload[0]])
            now = at
            seen.append(at)
            // Each event schedules up to two more, some at the same instant, so slots are freed and reused.
            for step in 0..<2 where scheduled < 1_000 {
                queue.schedule([scheduled], at: now + .milliseconds((scheduled * 7 + step) % 3))
                scheduled += 1
            }
        }
        #expect(seen.count == 1_000)
        #expect(seen == seen.sorted())
    }
}
