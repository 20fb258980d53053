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
import NIOPosix
import SSDPDeviceCore

/// Everything a running simulator did, bounded: the events of its `onEvent` stream as numbered entries, for
/// the control API's queries and waits and for tests.
///
/// It keeps the newest `capacity` entries and counts the ones it dropped. `append` is what the simulator
/// calls for each event (from any thread; it takes a lock for a few microseconds and never waits).
/// `wait(for:count:timeout:)` suspends until enough matching entries exist: it is woken by the append that
/// completes it, not by polling, and at its timeout it answers with the near misses, the entries that met
/// some of its conditions but not all, so that a failing test says what happened instead.
public final class SimulatorJournal: Sendable {
    /// The default bound: ten thousand entries.
    public static let defaultCapacity = 10_000
    /// How many waits may be pending at once; more are answered at once, unsatisfied.
    public static let maximumWaits = 256
    /// How many near misses a wait that timed out reports.
    public static let nearMissLimit = 5

    /// The most entries kept.
    public let capacity: Int
    let state: NIOLockedValueBox<State>
    private let startTime = ContinuousClock.now
    /// Where a wait's timeout is armed.
    let eventLoop: any EventLoop

    /// An empty journal that keeps at most `capacity` entries (at least 1).
    public init(
        capacity: Int = SimulatorJournal.defaultCapacity,
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) {
        self.capacity = max(1, capacity)
        self.eventLoop = eventLoopGroup.any()
        self.state = NIOLockedValueBox(State(capacity: max(1, capacity)))
    }

    /// Takes one event of the simulator (the `onEvent` consumer); `started`, `stopped` and datagrams are
    /// not kept, though `started` tells the journal which device is which.
    @Sendable public func append(_ event: SimulatorEvent) {
        if case .deviceAdded(let status) = event {
            state.withLockedValue {
                $0.devices.add(udn: status.udn, location: status.location, usns: status.advertisements.map(\.usn))
            }
        }
        if case .deviceChanged(let status, _) = event {
            // Its LOCATION may have moved (a reboot onto a new port): its HTTP requests are its still.
            state.withLockedValue { $0.devices.relocate(number: status.number, location: status.location) }
        }
        if case .started(_, _, let devices, let links) = event {
            let known = JournalDevices(started: devices, links: links)
            state.withLockedValue { state in
                state.devices = known
                // A device's first NOTIFYs may come before `started` says whose UDN is whose.
                for index in state.entries.indices {
                    state.entries[index].resolveUDNs(known)
                }
            }
            return
        }
        guard let kind = JournalEntry.kind(of: event) else { return }
        let fields = event.json
        let resolved = state.withLockedValue { state in
            // Read under the lock, so that times grow with sequence numbers.
            let time = ((ContinuousClock.now - startTime) / .microseconds(1)).rounded() / 1_000_000
            let index = state.devices.index(of: event, fields: fields)
            state.lastSeq += 1
            var entry = JournalEntry(
                seq: state.lastSeq,
                time: time,
                kind: kind,
                device: index.map { $0 + 1 },
                udn: index.flatMap(state.devices.udn(at:)),
                fields: fields
            )
            if case .notificationsSent(_, _, let devices) = event, devices.count > 1 {
                entry.severalDevices = devices
                entry.resolveUDNs(state.devices)
            }
            return state.append(entry)
        }
        for (waiter, result) in resolved {
            waiter.timeout?.cancel()
            waiter.continuation.resume(returning: result)
        }
    }

    /// The entries that match `filter`, oldest first, at most `limit` of them.
    public func entries(matching filter: JournalFilter, limit: Int = .max) -> JournalPage {
        state.withLockedValue { state in
            var entries: [JournalEntry] = []
            var truncated = false
            for entry in state.entries where filter.matches(entry) {
                guard entries.count < limit else {
                    truncated = true
                    break
                }
                entries.append(entry)
            }
            let next = truncated ? (entries.last?.seq ?? filter.since) : max(filter.since, state.lastSeq)
            return JournalPage(entries: entries, dropped: state.dropped, next: next)
        }
    }

    /// How many entries were dropped because the journal was full.
    public var dropped: Int { state.withLockedValue { $0.dropped } }

    /// Forgets every entry; sequence numbers go on from where they were, the dropped count stays.
    public func clear() {
        state.withLockedValue { $0.entries.removeAll(keepingCapacity: false) }
    }
}

/// Some entries of a journal, and where to go on from.
public struct JournalPage: Hashable, Sendable {
    /// The entries, oldest first.
    public var entries: [JournalEntry]
    /// How many entries the journal dropped because it was full.
    public var dropped: Int
    /// The `since` that asks for what comes after this page.
    public var next: Int
}

extension SimulatorJournal {
    struct State {
        var entries: CircularBuffer<JournalEntry>
        let capacity: Int
        var lastSeq = 0
        var dropped = 0
        var devices = JournalDevices()
        var waiters: [Int: Waiter] = [:]
        var nextWaiter = 0
        /// Whether `endWaits` was called.
        var waitsEnded = false
        /// Waits begun but not yet registered, and whether their task was cancelled in between.
        var unregistered: [Int: Bool] = [:]

        init(capacity: Int) {
            self.capacity = capacity
            self.entries = CircularBuffer(initialCapacity: min(capacity, 1_024))
        }

        /// Keeps `entry` (dropping the oldest when full), and returns the waits it completes.
        mutating func append(_ entry: JournalEntry) -> [(Waiter, JournalWaitResult)] {
            if entries.count == capacity {
                entries.removeFirst()
                dropped += 1
            }
            entries.append(entry)
            var resolved: [(Waiter, JournalWaitResult)] = []
            for (id, waiter) in waiters where waiter.filter.matches(entry) {
                waiters[id]?.matched.append(entry)
                if let complete = waiters[id], complete.matched.count >= complete.count {
                    waiters[id] = nil
                    resolved.append((complete, JournalWaitResult(outcome: .satisfied, entries: complete.matched)))
                }
            }
            return resolved
        }
    }

    struct Waiter {
        var filter: JournalFilter
        var count: Int
        var matched: [JournalEntry]
        var continuation: CheckedContinuation<JournalWaitResult, Never>
        var timeout: Scheduled<Void>?
    }
}
