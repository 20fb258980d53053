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

/// When one root device multicasts NOTIFY alive, update and byebye (UDA 1.1 §1.2.2–§1.2.4).
///
/// States:
/// - `idle`: created, nothing sent.
/// - `running`: a round of the alive set is due at `next.at`; `next.copiesLeft` sends of the set remain in
///   this round. The first round starts a random 0–100 ms after `start`, each round sends the whole set
///   `copies` times `copySpacing` apart, and the next round follows after a random time below max-age/2,
///   so control points never see an advertisement expire. `lastAlive` is when the set last went out.
/// - `stopped`: after `stop`, which returns one byebye per advertisement that is still valid.
///
/// Like every state machine here it reads no clock: the caller passes `now` and arms a timer for
/// `nextDeadline`. A `timerFired` before the deadline does nothing.
public struct DeviceAdvertiser: Sendable {
    private enum State: Sendable {
        case idle
        case running(next: Round, lastAlive: SSDPInstant?)
        case stopped
    }

    private struct Round: Sendable {
        var at: SSDPInstant
        var copiesLeft: Int
    }

    /// The device advertised; its BOOTID moves on with `update`.
    public private(set) var device: SSDPRootDevice
    /// How many times each round sends the alive set (UDA 1.1: more than once, at most 3).
    public let copies: Int
    /// The `copies` asked for, which a recorded device's own number overrides (`SSDPNotifyHeaders.aliveCopies`).
    public let askedCopies: Int
    /// The pause between two sends of the set within a round.
    public let copySpacing: Duration
    /// The HOST header of every NOTIFY.
    public let host: String
    private var state: State = .idle
    private var random: SSDPRandom
    /// The max-age the last alive set announced: its advertisements stay valid that long, whatever a
    /// `reconfigure` made of the device's since.
    private var announcedMaxAge = 0

    /// The largest delay before the first alive set (UDA 1.1 §1.2.2: a random 0–100 ms).
    public static let maximumStartDelay = Duration.milliseconds(100)

    /// An advertiser for `device`, idle until `start`. `copies` must be 1...3; `seed` fixes the random start
    /// delays and re-advertising times, so a run replays.
    public init(
        device: SSDPRootDevice,
        copies: Int = 2,
        copySpacing: Duration = .milliseconds(200),
        host: String = SSDPRootDevice.multicastHost,
        seed: UInt64
    ) {
        precondition((1...3).contains(copies), "UDA 1.1 §1.2.2 sends an advertisement set 1 to 3 times")
        self.device = device
        // A recorded device sends its set as many times as it was heard to.
        self.copies = device.notifyHeaders?.aliveCopies.map { min(max($0, 1), 3) } ?? copies
        askedCopies = copies
        self.copySpacing = copySpacing
        self.host = host
        self.random = SSDPRandom(seed: seed)
    }

    /// When `timerFired` next has something to send, or `nil` when nothing is scheduled.
    public var nextDeadline: SSDPInstant? {
        guard case .running(let next, _) = state else { return nil }
        return next.at
    }

    /// Starts advertising: the first alive set is due a random 0–100 ms from `now`.
    public mutating func start(at now: SSDPInstant) {
        guard case .idle = state else { return }
        state = .running(
            next: Round(at: now + random.duration(upTo: Self.maximumStartDelay), copiesLeft: copies),
            lastAlive: nil
        )
    }

    /// The alive messages due at `now` (the whole set, or nothing). A device that says byebye at start
    /// (`SSDPNotifyHeaders.byebyeAtStart`) sends its byebye sets before its first alive set.
    public mutating func timerFired(at now: SSDPInstant) -> [SSDPMessage] {
        guard case .running(var next, let lastAlive) = state, now >= next.at else { return [] }
        let byebyes =
            lastAlive == nil && next.copiesLeft == copies && device.notifyHeaders?.byebyeAtStart == true
            ? byebyeSets(atStart: true) : []
        next.copiesLeft -= 1
        if next.copiesLeft > 0 {
            next.at = now + copySpacing
        } else {
            next = Round(at: now + reAdvertisingInterval(), copiesLeft: copies)
        }
        state = .running(next: next, lastAlive: now)
        announcedMaxAge = device.maxAge
        return byebyes + device.advertisements.map { device.alive($0, host: host) }
    }

    /// Announces a new BOOTID: returns the `ssdp:update` set carrying NEXTBOOTID (`nextBootID`, by default
    /// one more), moves the device to that BOOTID, and starts a new round of alive messages with it (UDA 1.1
    /// §1.2.4). A UPnP 1.0 device, which has no `ssdp:update` (nor BOOTID), says byebye instead, as
    /// MiniDLNA does when it reloads, and the new round of alive messages follows.
    public mutating func update(at now: SSDPInstant, to nextBootID: Int? = nil) -> [SSDPMessage] {
        guard case .running(_, let lastAlive) = state else { return [] }
        let nextBootID = nextBootID ?? device.bootID + 1
        let updates =
            device.isUPnP10
            ? byebyeSets() : device.advertisements.map { device.update($0, nextBootID: nextBootID, host: host) }
        device.bootID = nextBootID
        state = .running(
            next: Round(at: now + random.duration(upTo: Self.maximumStartDelay), copiesLeft: copies),
            lastAlive: lastAlive
        )
        return updates
    }

    /// The device comes back with `bootID` (after a byebye, a power cut or a reboot): advertising starts
    /// over, the first alive set due a random 0–100 ms from `now`, as at `start`.
    public mutating func restart(bootID: Int, at now: SSDPInstant) {
        device.bootID = bootID
        state = .idle
        start(at: now)
    }

    /// The device's configuration changed at `now` while it runs (its max-age, CONFIGID or names): the next
    /// messages carry `device`, at the BOOTID it has now. A shorter max-age brings the next alive round
    /// forward to a random 0–100 ms from `now` when it was due later than half the new max-age, so that
    /// control points hear it before their copies expire; the byebye of `stop` still covers the longer
    /// max-age the last alive set announced.
    public mutating func reconfigure(_ device: SSDPRootDevice, at now: SSDPInstant) {
        let bootID = self.device.bootID
        let shorter = device.maxAge < self.device.maxAge
        self.device = device
        self.device.bootID = bootID
        if shorter, case .running(let next, let lastAlive) = state, next.at > now + .seconds(device.maxAge) / 2 {
            state = .running(
                next: Round(at: now + random.duration(upTo: Self.maximumStartDelay), copiesLeft: copies),
                lastAlive: lastAlive
            )
        }
    }

    /// Stops advertising: one byebye per advertisement (each as many times as the device sends them,
    /// `SSDPNotifyHeaders.byebyeCopies`) when the last alive set has not yet expired, else none (UDA 1.1
    /// §1.2.3).
    public mutating func stop(at now: SSDPInstant) -> [SSDPMessage] {
        defer { state = .stopped }
        guard case .running(_, .some(let lastAlive)) = state,
            now - lastAlive < .seconds(max(device.maxAge, announcedMaxAge))
        else {
            return []
        }
        return byebyeSets()
    }

    /// The byebye set, as many times as the device sends it.
    private func byebyeSets(atStart: Bool = false) -> [SSDPMessage] {
        let set = device.advertisements.map { device.byebye($0, host: host) }
        let headers = device.notifyHeaders
        let copies = (atStart ? headers?.byebyeCopiesAtStart : nil) ?? headers?.byebyeCopies ?? 1
        return Array([[SSDPMessage]](repeating: set, count: copies).joined())
    }

    /// A NOTIFY of this advertiser as the device writes it on the wire, each header spelled as it spells it
    /// (`SSDPNotifyHeaders.unspacedNames`).
    public func datagram(_ message: SSDPMessage) -> [UInt8] {
        guard let unspaced = device.notifyHeaders?.unspacedNames, !unspaced.isEmpty else { return message.serialized() }
        return message.serialized(unspaced: unspaced)
    }

    /// A random time in [max-age/3, max-age/2), at least one second.
    private mutating func reAdvertisingInterval() -> Duration {
        let maxAge = Duration.seconds(max(device.maxAge, 2))
        return maxAge / 3 + random.duration(upTo: maxAge / 2 - maxAge / 3 - .milliseconds(1))
    }
}
