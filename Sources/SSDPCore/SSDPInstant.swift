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

/// A point in time on whatever clock drives a state machine: a monotonic clock when live, a virtual
/// clock in the harness.
///
/// The core never reads a clock; callers pass `now` in. Only differences between instants mean
/// anything, so the origin is the caller's choice (live code uses the system's uptime).
public struct SSDPInstant: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Time since the clock's origin.
    public var offset: Duration

    /// The instant `offset` after the clock's origin.
    @inlinable
    public init(offset: Duration) {
        self.offset = offset
    }

    /// The clock's origin: the start of a virtual timeline.
    public static let zero = SSDPInstant(offset: .zero)

    // Equality and order compare the two words of the offset (`Duration` is a 128-bit count of attoseconds)
    // as integers: `Duration`'s own `==` and `<` are calls into the standard library, never inlined, and a
    // virtual run compares instants millions of times.

    /// Whether `lhs` and `rhs` are the same instant.
    @inlinable public static func == (lhs: SSDPInstant, rhs: SSDPInstant) -> Bool {
        lhs.offset._low == rhs.offset._low && lhs.offset._high == rhs.offset._high
    }
    /// Whether `lhs` comes before `rhs`.
    @inlinable public static func < (lhs: SSDPInstant, rhs: SSDPInstant) -> Bool {
        lhs.offset._high != rhs.offset._high ? lhs.offset._high < rhs.offset._high : lhs.offset._low < rhs.offset._low
    }
    /// The instant `rhs` after `lhs`.
    @inlinable public static func + (lhs: SSDPInstant, rhs: Duration) -> SSDPInstant {
        SSDPInstant(offset: lhs.offset + rhs)
    }
    /// The time from `rhs` to `lhs`; negative when `lhs` is earlier.
    @inlinable public static func - (lhs: SSDPInstant, rhs: SSDPInstant) -> Duration { lhs.offset - rhs.offset }

    /// The text form: the offset as `Duration` prints it (`12.5 seconds`).
    public var description: String { "\(offset)" }
}
