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

/// Events in time order; events at the same instant keep the order they were scheduled in.
///
/// The virtual network's clock and the live simulator's answers both wait here: the simulator keeps its
/// pending answers in one queue under one event-loop timer, rather than a timer per answer.
public struct EventQueue<Event> {
    /// What the heap orders: plain values, so that sifting moves no reference-counted payloads (moving
    /// the events themselves was 40 % of a 1,000-device run). The event waits in `events[slot]`.
    @usableFromInline
    struct Entry: Sendable {
        @usableFromInline var at: SSDPInstant
        @usableFromInline var sequence: Int
        @usableFromInline var slot: Int

        @inlinable
        init(at: SSDPInstant, sequence: Int, slot: Int) {
            self.at = at
            self.sequence = sequence
            self.slot = slot
        }
    }

    @usableFromInline var heap: [Entry] = []
    @usableFromInline var events: [Event?] = []
    @usableFromInline var freeSlots: [Int] = []
    @usableFromInline var sequence = 0

    /// An empty queue.
    @inlinable
    public init() {}

    /// Whether no event waits.
    @inlinable
    public var isEmpty: Bool { heap.isEmpty }

    /// How many events wait.
    @inlinable
    public var count: Int { heap.count }

    /// When the earliest event is due, or `nil` when none waits.
    @inlinable
    public var nextInstant: SSDPInstant? { heap.first?.at }

    /// The earliest event if it is due at or before `instant`, else `nil` (and the queue is unchanged).
    @inlinable
    public mutating func next(dueBy instant: SSDPInstant) -> (SSDPInstant, Event)? {
        guard let first = heap.first, first.at <= instant else { return nil }
        return next()
    }

    /// Adds `event`, due at `instant`, after any event already due at the same instant.
    @inlinable
    public mutating func schedule(_ event: Event, at instant: SSDPInstant) {
        sequence += 1
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
            events[slot] = event
        } else {
            slot = events.count
            events.append(event)
        }
        heap.append(Entry(at: instant, sequence: sequence, slot: slot))
        heap.withUnsafeMutableBufferPointer { Self.siftUp($0) }
    }

    /// Removes and returns the earliest event, or `nil` when none waits.
    @inlinable
    public mutating func next() -> (SSDPInstant, Event)? {
        guard !heap.isEmpty else { return nil }
        heap.swapAt(0, heap.count - 1)
        let first = heap.removeLast()
        heap.withUnsafeMutableBufferPointer { Self.siftDown($0) }
        guard let event = events[first.slot].take() else { preconditionFailure("an event slot was empty") }
        freeSlots.append(first.slot)
        return (first.at, event)
    }

    // The heap is four-ary: each entry has up to four children, so it is half as deep as a binary heap and
    // an entry moves half as often (the four children sit side by side in memory). It is sifted through its
    // buffer, an entry held aside while the ones in its way move into the hole it leaves: a subscript of the
    // array would check its bounds and its uniqueness at every step.

    /// Moves the last entry of `heap` up to its place.
    @inlinable
    static func siftUp(_ heap: UnsafeMutableBufferPointer<Entry>) {
        var child = heap.count - 1
        let entry = heap[child]
        while child > 0 {
            let parent = (child - 1) / 4
            guard precedes(entry, heap[parent]) else { break }
            heap[child] = heap[parent]
            child = parent
        }
        heap[child] = entry
    }

    /// Moves the first entry of `heap` down to its place.
    @inlinable
    static func siftDown(_ heap: UnsafeMutableBufferPointer<Entry>) {
        guard !heap.isEmpty else { return }
        let entry = heap[0]
        var parent = 0
        while true {
            let first = 4 * parent + 1
            guard first < heap.count else { break }
            var earliest = first
            for child in first + 1..<Swift.min(first + 4, heap.count) where precedes(heap[child], heap[earliest]) {
                earliest = child
            }
            guard precedes(heap[earliest], entry) else { break }
            heap[parent] = heap[earliest]
            parent = earliest
        }
        heap[parent] = entry
    }

    /// Whether `a` is due before `b`: earlier, or at the same instant and scheduled first.
    @inlinable
    static func precedes(_ a: Entry, _ b: Entry) -> Bool {
        a.at != b.at ? a.at < b.at : a.sequence < b.sequence
    }
}

extension EventQueue: Sendable where Event: Sendable {}
