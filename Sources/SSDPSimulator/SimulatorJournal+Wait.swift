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

import NIOConcurrencyHelpers
import NIOCore

/// How a wait on the journal ended.
public struct JournalWaitResult: Hashable, Sendable {
    /// Why the wait ended.
    public enum Outcome: Hashable, Sendable {
        /// Enough matching entries exist.
        case satisfied
        /// The timeout came first.
        case timedOut
        /// The waiting task was cancelled, or the journal's waits were ended (`endWaits`, a server shutting
        /// down).
        case cancelled
        /// Too many waits were pending (`SimulatorJournal.maximumWaits`); this one was not started.
        case tooManyWaits
    }

    /// Why the wait ended.
    public var outcome: Outcome
    /// The matching entries, oldest first: `count` of them when satisfied, fewer otherwise.
    public var entries: [JournalEntry]
    /// When not satisfied: the newest entries that met some conditions but not all (of the kind asked
    /// for, when one was), or else the newest entries, oldest first, each with the conditions it missed.
    public var nearMisses: [JournalNearMiss] = []
}

/// An entry that a wait did not take, and the conditions it missed.
public struct JournalNearMiss: Hashable, Sendable {
    /// The entry.
    public var entry: JournalEntry
    /// What it missed.
    public var mismatches: [JournalMismatch]
}

extension SimulatorJournal {
    /// Waits until `count` entries match `filter` (entries after `filter.since`, those already kept
    /// included), or `timeout` passes, or the task is cancelled; it never blocks a thread.
    public func wait(for filter: JournalFilter, count: Int = 1, timeout: Duration) async -> JournalWaitResult {
        let id = state.withLockedValue { state in
            state.nextWaiter += 1
            state.unregistered[state.nextWaiter] = false
            return state.nextWaiter
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                register(id, filter: filter, count: max(1, count), timeout: timeout, continuation: continuation)
            }
        } onCancel: {
            finish(id, .cancelled)
        }
    }

    private func register(
        _ id: Int,
        filter: JournalFilter,
        count: Int,
        timeout: Duration,
        continuation: CheckedContinuation<JournalWaitResult, Never>
    ) {
        let immediate: JournalWaitResult? = state.withLockedValue { state in
            let cancelled = (state.unregistered.removeValue(forKey: id) ?? false) || state.waitsEnded
            let matched = Array(state.entries.lazy.filter(filter.matches).prefix(count))
            if matched.count >= count { return JournalWaitResult(outcome: .satisfied, entries: matched) }
            let outcome: JournalWaitResult.Outcome? =
                cancelled
                ? .cancelled
                : timeout <= .zero ? .timedOut : state.waiters.count >= Self.maximumWaits ? .tooManyWaits : nil
            if let outcome { return state.result(outcome, filter: filter, matched: matched) }
            state.waiters[id] = Waiter(filter: filter, count: count, matched: matched, continuation: continuation)
            return nil
        }
        if let immediate {
            continuation.resume(returning: immediate)
            return
        }
        let scheduled = eventLoop.scheduleTask(in: TimeAmount(timeout)) {
            self.finish(id, .timedOut)
        }
        state.withLockedValue { $0.waiters[id]?.timeout = scheduled }
    }

    /// Ends every pending wait now, unsatisfied (`cancelled`), and every later one as soon as it begins: for a
    /// server that shuts down and answers its waiting clients. Entries are still kept and queried.
    public func endWaits() {
        let ids = state.withLockedValue { state in
            state.waitsEnded = true
            return Array(state.waiters.keys)
        }
        for id in ids { finish(id, .cancelled) }
    }

    /// Ends wait `id` unsatisfied (its timeout, or its task's cancellation), if it is still pending.
    private func finish(_ id: Int, _ outcome: JournalWaitResult.Outcome) {
        let ended = state.withLockedValue { state -> (Waiter, JournalWaitResult)? in
            guard let waiter = state.waiters.removeValue(forKey: id) else {
                if state.unregistered[id] != nil { state.unregistered[id] = true }
                return nil
            }
            return (waiter, state.result(outcome, filter: waiter.filter, matched: waiter.matched))
        }
        guard let (waiter, result) = ended else { return }
        waiter.timeout?.cancel()
        waiter.continuation.resume(returning: result)
    }
}

extension SimulatorJournal.State {
    /// An unsatisfied wait's result, with its near misses.
    func result(
        _ outcome: JournalWaitResult.Outcome,
        filter: JournalFilter,
        matched: [JournalEntry]
    ) -> JournalWaitResult {
        JournalWaitResult(outcome: outcome, entries: matched, nearMisses: nearMisses(of: filter))
    }

    /// The newest entries after `filter.since` that met some of its conditions but not all: of its kind when
    /// it names one, else any that met one; when there are none, the newest entries.
    func nearMisses(of filter: JournalFilter) -> [JournalNearMiss] {
        var near: [JournalNearMiss] = []
        var newest: [JournalNearMiss] = []
        for entry in entries.reversed() {
            guard entry.seq > filter.since, near.count < SimulatorJournal.nearMissLimit else { break }
            let mismatches = filter.mismatches(of: entry)
            guard !mismatches.isEmpty else { continue }
            let miss = JournalNearMiss(entry: entry, mismatches: mismatches)
            if newest.count < SimulatorJournal.nearMissLimit { newest.append(miss) }
            let close = filter.kind.map { $0 == entry.kind } ?? (mismatches.count < filter.conditionCount)
            if close { near.append(miss) }
        }
        return (near.isEmpty ? newest : near).reversed()
    }
}
