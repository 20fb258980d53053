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

/// A small seeded random number generator (SplitMix64, Steele, Lea and Flood 2014).
///
/// Every random choice the simulator makes (response delays, loss, re-advertising times) draws from one of
/// these, so a run replays exactly from its seed. Not for anything that needs unpredictability.
public struct SSDPRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator whose whole sequence is fixed by `seed`.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits (one SplitMix64 step).
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// A generator for a part of the run (one device, say) derived from this one's seed and `stream`,
    /// so that adding a device does not change the choices of the others.
    public static func derived(seed: UInt64, stream: UInt64) -> SSDPRandom {
        var mixer = SSDPRandom(seed: seed ^ (stream &* 0xD1B5_4A32_D192_ED03))
        return SSDPRandom(seed: mixer.next())
    }

    /// A seed for a part of the run, derived like `derived(seed:stream:)`.
    public static func derivedSeed(seed: UInt64, stream: UInt64) -> UInt64 {
        var random = derived(seed: seed, stream: stream)
        return random.next()
    }

    /// True with probability `probability` (0 never, 1 always).
    public mutating func chance(_ probability: Double) -> Bool {
        guard probability > 0 else { return false }
        guard probability < 1 else { return true }
        return Double(next() >> 11) * 0x1.0p-53 < probability
    }

    /// A duration drawn uniformly from `0...upperBound`, to the microsecond.
    public mutating func duration(upTo upperBound: Duration) -> Duration {
        let microseconds = upperBound.microseconds
        guard microseconds > 0 else { return .zero }
        return .microseconds(Int64.random(in: 0...microseconds, using: &self))
    }
}

extension SSDPRandom {
    /// A version 4 UUID in 8-4-4-4-12 form (UDA 1.1 §1.1.4), drawn from this generator: lower-case hex
    /// digits written straight into the string (loading a scenario draws one per device).
    public mutating func uuid() -> String {
        let high = (next() & 0xFFFF_FFFF_FFFF_0FFF) | 0x4000
        let low = (next() & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
        return String(unsafeUninitializedCapacity: 36) { text in
            var count = 0
            for digit in 0..<32 {
                if digit == 8 || digit == 12 || digit == 16 || digit == 20 {
                    text[count] = UInt8(ascii: "-")
                    count += 1
                }
                let word = digit < 16 ? high : low
                let nibble = UInt8(truncatingIfNeeded: word >> UInt64(60 - 4 * (digit % 16))) & 0xF
                text[count] = nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
                count += 1
            }
            return count
        }
    }
}
