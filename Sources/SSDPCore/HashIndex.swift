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

/// Positions by a hash the caller has already computed (`mixHash`, `ResponseFingerprint.hash`), found by
/// open addressing: a `Dictionary` keyed by such a hash hashes it again (SipHash, about a hundred
/// instructions a lookup), on every answer a search receives.
///
/// A key's slot is the key mixed with a seed of the index's own, drawn at random, so that answers made to
/// collide in one search's slots do not collide in another's: the keys are not secret, the slots are. An
/// index keeps the first position stored for a key, and its callers confirm a match by comparing bytes, so
/// two keys that are equal by chance cost a missed shortcut, never a wrong answer. Slots double when half
/// are taken.
struct HashIndex: Sendable {
    /// The key in each slot and the position stored for it, plus one: 0 marks an empty slot. One array, so
    /// that growing allocates and clears once, and a probe reads both from one place.
    private var slots: [(key: Int, position: Int)] = []
    /// The keys stored.
    private(set) var count = 0
    /// What a key is mixed with to choose its slot.
    private let seed = UInt64.random(in: .min ... .max)

    /// An empty index, which allocates at its first key.
    init() {}

    /// The position stored for `key`, or `nil` when there is none.
    @inline(__always)
    func position(of key: Int) -> Int? {
        guard !slots.isEmpty else { return nil }
        return slots.withUnsafeBufferPointer { slots in
            let mask = slots.count &- 1
            var slot = self.slot(of: key, mask: mask)
            while true {
                let stored = slots[slot]
                if stored.position == 0 { return nil }
                if stored.key == key { return stored.position &- 1 }
                slot = (slot &+ 1) & mask
            }
        }
    }

    /// Stores `position` for `key`, unless a position is stored for it already; whether it stored it.
    @discardableResult
    mutating func insert(_ position: Int, for key: Int) -> Bool {
        if (count &+ 1) &* 2 > slots.count { grow() }
        let mask = slots.count &- 1
        var slot = self.slot(of: key, mask: mask)
        while slots[slot].position != 0 {
            if slots[slot].key == key { return false }
            slot = (slot &+ 1) & mask
        }
        slots[slot] = (key, position &+ 1)
        count &+= 1
        return true
    }

    /// The slot where the search for `key` starts, among `mask + 1` (a power of two).
    @inline(__always)
    private func slot(of key: Int, mask: Int) -> Int {
        let product = (UInt64(bitPattern: Int64(key)) ^ seed).multipliedFullWidth(by: 0x9E37_79B9_7F4A_7C15)
        return Int(truncatingIfNeeded: product.high ^ product.low) & mask
    }

    /// Twice the slots (16 at first), every key moved to its slot among them.
    private mutating func grow() {
        let old = slots
        slots = Array(repeating: (0, 0), count: Swift.max(16, slots.count &* 2))
        count = 0
        for stored in old where stored.position != 0 {
            insert(stored.position &- 1, for: stored.key)
        }
    }
}
