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

@testable import SSDPDeviceCore

/// The event queue of the virtual network and the simulator's answers: earliest first, ties in the order scheduled, slots reused.
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

    /// Scheduling and taking interleaved at random, with many ties, against a plain model (a list kept sorted
    /// by instant, an event after those already due at its instant): every event comes out when and in the
    /// order the model says.
    @Test func interleavedSchedulingGivesTiesInTheOrderScheduled() {
        var queue = EventQueue<Int>()
        var model: [(at: SSDPInstant, event: Int)] = []
        var random = SSDPRandom(seed: 11)
        var now = SSDPInstant.zero
        var scheduled = 0
        for _ in 0..<5_000 {
            for _ in 0..<(model.isEmpty ? 1 : Int(random.next() % 4)) {
                let at = now + .milliseconds(Int(random.next() % 4))
                queue.schedule(scheduled, at: at)
                model.insert((at, scheduled), at: model.firstIndex { $0.at > at } ?? model.count)
                scheduled += 1
            }
            guard let (at, event) = queue.next() else {
                Issue.record("the queue is empty with \(model.count) events to come")
                return
            }
            let expected = model.removeFirst()
            #expect(at == expected.at && event == expected.event)
            now = at
        }
        #expect(queue.count == model.count)
    }

    @Test func givesOnlyWhatIsDueByAnInstant() {
        var queue = EventQueue<Int>()
        for (index, milliseconds) in [30, 10, 20, 10].enumerated() {
            queue.schedule(index, at: SSDPInstant(offset: .milliseconds(milliseconds)))
        }
        #expect(queue.nextInstant == SSDPInstant(offset: .milliseconds(10)))
        var due: [Int] = []
        while let (_, index) = queue.next(dueBy: SSDPInstant(offset: .milliseconds(20))) { due.append(index) }
        #expect(due == [1, 3, 2])
        #expect(queue.count == 1)
        #expect(queue.nextInstant == SSDPInstant(offset: .milliseconds(30)))
        #expect(queue.next(dueBy: SSDPInstant(offset: .milliseconds(29))) == nil)
        #expect(queue.count == 1)
    }
}
