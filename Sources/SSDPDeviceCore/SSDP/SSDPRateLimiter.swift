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

/// A token bucket per source: at most `rate` answers per second to any one source, in bursts of at most
/// `rate`. This is what keeps a simulator from being a reflection amplifier: a spoofed search can make it
/// send only so much to its victim.
///
/// The table of sources is bounded. When it is full, sources whose buckets have refilled (idle for a
/// second or more) are forgotten, at most once a second so that a flood of new sources costs little;
/// until some are forgotten, a new source gets nothing.
public struct SSDPRateLimiter: Sendable {
    private struct Bucket: Sendable {
        var tokens: Double
        var updatedAt: SSDPInstant
    }

    /// Answers per second per source; also the largest burst.
    public let rate: Int
    /// How many sources are tracked at once.
    public let maximumSources: Int
    /// The first source tracked and its bucket, held inline: most simulators answer one client, and are
    /// spared a table (and its hashing) altogether.
    private var first: (source: String, bucket: Bucket)?
    /// Every other source tracked.
    private var others: [String: Bucket] = [:]
    private var lastSweep: SSDPInstant?

    /// A limiter of `rate` answers per second per source that tracks at most `maximumSources` sources; both
    /// must be positive.
    public init(rate: Int, maximumSources: Int = 4_096) {
        precondition(rate > 0 && maximumSources > 0)
        self.rate = rate
        self.maximumSources = maximumSources
    }

    /// How many sources are tracked.
    private var sources: Int { (first == nil ? 0 : 1) + others.count }

    /// Takes up to `count` tokens for `source` at `now` and returns how many it got.
    public mutating func take(_ count: Int, for source: String, at now: SSDPInstant) -> Int {
        guard count > 0 else { return 0 }
        if first?.source == source {
            return Self.take(count, from: &first!.bucket, rate: rate, at: now)
        }
        // One lookup for a source already known (the bucket is changed in place), two for a new one.
        if let index = others.index(forKey: source) {
            return Self.take(count, from: &others.values[index], rate: rate, at: now)
        }
        if sources >= maximumSources { forgetIdleSources(at: now) }
        guard sources < maximumSources else { return 0 }
        var bucket = Bucket(tokens: Double(rate), updatedAt: now)
        let granted = Self.take(count, from: &bucket, rate: rate, at: now)
        if first == nil {
            first = (source, bucket)
        } else {
            others[source] = bucket
        }
        return granted
    }

    /// How many answers `take` would give `source` at `now` at most: its bucket's whole answers, `rate` for a
    /// new source, 0 for a new one when the table is full even after forgetting idle sources. Takes nothing.
    ///
    /// Asked before the devices decide their answers to a search, so that only as many are asked as can
    /// answer: a flood from one source, or a search of thousands of devices, costs what the limit lets out.
    public mutating func available(for source: String, at now: SSDPInstant) -> Int {
        if let first, first.source == source { return Int(Self.refilled(first.bucket, rate: rate, at: now)) }
        if let bucket = others[source] { return Int(Self.refilled(bucket, rate: rate, at: now)) }
        if sources >= maximumSources { forgetIdleSources(at: now) }
        return sources < maximumSources ? rate : 0
    }

    private static func take(_ count: Int, from bucket: inout Bucket, rate: Int, at now: SSDPInstant) -> Int {
        bucket.tokens = refilled(bucket, rate: rate, at: now)
        bucket.updatedAt = now
        let granted = min(count, Int(bucket.tokens))
        bucket.tokens -= Double(granted)
        return granted
    }

    private static func refilled(_ bucket: Bucket, rate: Int, at now: SSDPInstant) -> Double {
        let elapsed = now - bucket.updatedAt
        return min(Double(rate), bucket.tokens + max(0, elapsed.inSeconds) * Double(rate))
    }

    private mutating func forgetIdleSources(at now: SSDPInstant) {
        if let lastSweep, now - lastSweep < .seconds(1) { return }
        lastSweep = now
        let rate = rate
        func isBusy(_ bucket: Bucket) -> Bool { Self.refilled(bucket, rate: rate, at: now) < Double(rate) }
        if let bucket = first?.bucket, !isBusy(bucket) { first = nil }
        others = others.filter { isBusy($0.value) }
    }
}
