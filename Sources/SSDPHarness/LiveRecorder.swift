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
import Logging
import NIOConcurrencyHelpers
import NIOCore
import SSDPCore
import SSDPSearch
import SSDPSimulator

/// Collects a live run's record from the simulator's and the client's threads.
final class LiveRecorder: Sendable {
    private let state: NIOLockedValueBox<(record: RunRecord, start: ContinuousClock.Instant)>
    /// Keep every datagram in the trace (`--trace`).
    private let tracing: Bool
    /// What to do when an external client's first M-SEARCH is heard (`onFirstClientSearch`), until it is.
    private let firstSearchHook = NIOLockedValueBox<(@Sendable (ContinuousClock.Instant) -> Void)?>(nil)

    init(mode: RunMode, seed: UInt64, tracing: Bool) {
        state = NIOLockedValueBox((RunRecord(mode: mode, seed: seed), .now))
        self.tracing = tracing
    }

    /// Makes now the start of the search; what was recorded before it moves to negative times.
    func startClock() {
        state.withLockedValue { Self.moveStart(of: &$0, to: .now) }
    }

    /// An M-SEARCH the simulator heard. An external client's search begins with its first M-SEARCH, not
    /// with its launch: how long a Python or a JVM takes to start is not part of its timing.
    func search(_ headers: SSDPHeaders) {
        let now = ContinuousClock.now
        let first = state.withLockedValue { state in
            let first = state.record.mode == .externalClient && state.record.searches.isEmpty
            if first { Self.moveStart(of: &state, to: now) }
            state.record.searches.append(RunRecord.Search(at: now - state.start, headers: headers))
            return first
        }
        if first, let hook = takeFirstSearchHook() { hook(now) }
    }

    /// Calls `hook` with the instant an external client's first M-SEARCH is heard, once: on the thread that
    /// heard it, as it is heard (at once when it was heard already). What it schedules counts from the
    /// search itself, not from when a task that looks for it wakes up, which on a busy machine is late.
    func onFirstClientSearch(_ hook: @escaping @Sendable (ContinuousClock.Instant) -> Void) {
        firstSearchHook.withLockedValue { $0 = hook }
        guard let start = clientSearchStart, let hook = takeFirstSearchHook() else { return }
        hook(start)
    }

    /// The hook, now no longer kept: whoever takes it calls it, and it is called once.
    private func takeFirstSearchHook() -> (@Sendable (ContinuousClock.Instant) -> Void)? {
        firstSearchHook.withLockedValue { hook in
            defer { hook = nil }
            return hook
        }
    }

    /// Whether the simulator heard an M-SEARCH yet.
    var hasSearch: Bool {
        state.withLockedValue { !$0.record.searches.isEmpty }
    }

    /// When an external client's search began (the simulator heard its first M-SEARCH), or nil before.
    var clientSearchStart: ContinuousClock.Instant? {
        state.withLockedValue { state in
            state.record.mode == .externalClient && !state.record.searches.isEmpty ? state.start : nil
        }
    }

    private static func moveStart(
        of state: inout (record: RunRecord, start: ContinuousClock.Instant),
        to now: ContinuousClock.Instant
    ) {
        state.record.moveStart(later: now - state.start)
        state.start = now
        state.record.startedAt = Date().timeIntervalSince1970
    }

    func record(_ outcome: RunRecord.Outcome, at instant: ContinuousClock.Instant = .now) {
        state.withLockedValue { state in
            state.record.record(outcome, at: instant - state.start)
        }
    }

    /// A datagram the simulator received or sent, with the time it was seen (the simulator's side of the
    /// wire: what it sent is on its way, what it received has arrived). What it sent joins the advertised set.
    func datagram(received: Bool, peer: SocketAddress, local: SocketAddress, bytes: [UInt8]) {
        let endpoint = { (address: SocketAddress) in
            SSDPEndpoint(address: address.ipAddress ?? "0.0.0.0", port: address.port ?? 0)
        }
        let tracing = self.tracing
        state.withLockedValue { state in
            if !received {
                state.record.noteSent(bytes)
                if bytes.starts(with: Self.answerStart) { state.record.answers.append(.now - state.start) }
            }
            guard tracing else { return }
            state.record.trace.append(
                TraceEntry(
                    at: .now - state.start,
                    source: endpoint(received ? peer : local),
                    destination: endpoint(received ? local : peer),
                    bytes: bytes,
                    fate: received ? "received by the simulator" : "sent by the simulator"
                )
            )
        }
    }

    /// What every search answer begins with (`HTTP/1.1 200 OK`), and no NOTIFY.
    private static let answerStart = Array("HTTP/".utf8)

    /// Starts recording the client's HTTP requests (an external client's; the session fetches nothing).
    func watchHTTP(locations: [String]) {
        state.withLockedValue { $0.record.http = HTTPActivity(locations: locations) }
    }

    /// Adds to the HTTP activity, when it is watched, with the time from the start of the search.
    func http(_ change: (inout HTTPActivity, Duration) -> Void) {
        state.withLockedValue { state in
            guard state.record.http != nil else { return }
            change(&state.record.http!, .now - state.start)
        }
    }

    func note(_ text: String) {
        state.withLockedValue { $0.record.notes.append(text) }
    }

    var record: RunRecord {
        state.withLockedValue { state in
            var record = state.record
            record.duration = .now - state.start
            return record
        }
    }
}

/// Records what the real session tells its delegate.
final class RecordingDelegate: SSDPSearchSessionDelegate {
    let recorder: LiveRecorder
    let ended = Completion()

    init(recorder: LiveRecorder) {
        self.recorder = recorder
    }

    func searchSession(_ searchSession: SSDPSearchSession, didFindService service: SSDPService) {
        recorder.record(.found(ReportedService(service)))
    }

    func searchSession(_ searchSession: SSDPSearchSession, didEncounterError error: SSDPSearchSessionError) {
        recorder.record(.failed(error.reason))
        ended.complete()
    }

    func searchSessionDidStopSearch(_ searchSession: SSDPSearchSession, foundServices: [SSDPService]) {
        let reason = searchSession.stopReason.map(RunRecord.StopReason.init)
        recorder.record(.stopped(reason: reason, found: foundServices.count))
        ended.complete()
    }
}
