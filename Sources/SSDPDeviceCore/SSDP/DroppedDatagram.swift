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

/// Why a simulator dropped a datagram before any device heard it. A search the devices heard and refused
/// (a wrong MAN, no MX) is a search with its rejection, not a drop.
public enum DroppedDatagramReason: String, Sendable, Hashable, CaseIterable {
    /// Its source is not loopback, private or link-local: a spoofed source of a reflection attack, or a
    /// client somewhere a device on a LAN would never hear from.
    case source
    /// Larger than a search can be (a simulator reads 8 KiB: `DeviceSimulator.maximumDatagramSize`).
    case oversized
    /// Not a message the parser can read.
    case malformed

    /// The reason in words, for the log and the journal.
    public var explanation: String {
        switch self {
        case .source: "its source is not a loopback, private or link-local address"
        case .oversized: "larger than a search can be"
        case .malformed: "not an SSDP message"
        }
    }

    /// The option of `serve` that lets such a datagram in, when one does.
    public var remedy: String? {
        self == .source ? "--allow-any-source" : nil
    }
}

/// Which dropped datagrams get a line in the log: the first of each reason, then at most one a second
/// for each reason, which says how many went unlogged since the last. A flood of spoofed searches costs a
/// line a second, not a line a datagram; the counters and the journal keep every one.
public struct DroppedDatagramLog: Sendable {
    /// The least time between two lines of one reason.
    public static let interval = Duration.seconds(1)

    private var lastLine: [DroppedDatagramReason: SSDPInstant] = [:]
    private var unlogged: [DroppedDatagramReason: Int] = [:]

    /// A log that has logged nothing.
    public init() {}

    /// A datagram dropped for `reason` at `now`: `nil` when it gets no line, else how many of that reason
    /// went unlogged before it.
    public mutating func drop(_ reason: DroppedDatagramReason, at now: SSDPInstant) -> Int? {
        if let last = lastLine[reason], now < last + Self.interval {
            unlogged[reason, default: 0] += 1
            return nil
        }
        lastLine[reason] = now
        return unlogged.removeValue(forKey: reason) ?? 0
    }
}
