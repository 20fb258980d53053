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

@testable import SSDPHarness

/// An external client's scenario events count from its first M-SEARCH, and are scheduled as it is heard:
/// the recorder calls its hook on the thread that heard it, before `search` returns, not when a task that
/// looks for it wakes (on a busy machine more than a second later: CI's byebye-mid-search found the device
/// whose byebye came after its answer).
@Suite struct LiveRecorderTests {
    /// What a hook was called with: the hook runs on the caller's thread here, one call at a time.
    final class Calls: @unchecked Sendable {
        var instants: [ContinuousClock.Instant] = []
    }

    static let search: SSDPHeaders = ["HOST": "127.0.0.1:1900", "MAN": "\"ssdp:discover\"", "ST": "ssdp:all"]

    @Test func theFirstSearchOfAClientCallsItsHookAsItIsHeardAndOnlyIt() {
        let recorder = LiveRecorder(mode: .externalClient, seed: 1, tracing: false)
        let calls = Calls()
        recorder.onFirstClientSearch { calls.instants.append($0) }
        let before = ContinuousClock.now
        #expect(calls.instants.isEmpty, "not before the search")
        recorder.search(Self.search)
        #expect(calls.instants.count == 1, "as the search is heard, before search(_:) returns")
        #expect(calls.instants.first.map { $0 >= before && $0 <= .now } == true)
        #expect(recorder.clientSearchStart == calls.instants.first, "the instant the search's clock starts at")
        recorder.search(Self.search)
        #expect(calls.instants.count == 1, "once")
        // A hook given after the first search is called at once, with that search's instant.
        let late = Calls()
        recorder.onFirstClientSearch { late.instants.append($0) }
        #expect(late.instants == calls.instants)
    }

    @Test func theRunsOwnSessionIsNotAClientWhoseSearchStartsTheClock() {
        let recorder = LiveRecorder(mode: .live, seed: 1, tracing: false)
        let calls = Calls()
        recorder.onFirstClientSearch { calls.instants.append($0) }
        recorder.search(Self.search)
        #expect(calls.instants.isEmpty && recorder.clientSearchStart == nil)
    }
}
