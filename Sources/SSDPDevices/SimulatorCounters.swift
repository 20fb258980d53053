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
import SSDPDeviceCore

/// What a running simulator has done, host-wide. Every datagram received falls in exactly one of
/// `oversized`, `sourcesRejected`, `networkLostIncoming`, `malformed`, `searchesAccepted`, `searchesRejected`,
/// `notifications` and `responses`, so they add up to `datagramsReceived`.
public struct SimulatorCounters: Hashable, Sendable, Codable {
    /// Every datagram that reached the simulator's UDP sockets.
    public var datagramsReceived = 0
    /// Larger than a search can be (`DeviceSimulator.maximumDatagramSize`).
    public var oversized = 0
    /// From a source the address policy does not answer.
    public var sourcesRejected = 0
    /// Not SSDP at all.
    public var malformed = 0
    /// M-SEARCH messages that passed the acceptance rules and went to the devices (as many of them as the
    /// rate limit lets the source have answers from: `searchesRateLimited`).
    public var searchesAccepted = 0
    /// M-SEARCH dropped by the acceptance rules (missing MX, wrong MAN, …).
    public var searchesRejected = 0
    /// NOTIFY messages received, which devices ignore unless they are chatty about them.
    public var notifications = 0
    /// Search responses received, which no device has a use for.
    public var responses = 0
    /// Device-level: searches a device did not hear (loss, ignored first searches). This and the three
    /// after it count the devices asked: a search past the source's rate limit asks only the first ones.
    public var searchesNotHeard = 0
    /// Device-level: searches (and NOTIFYs a chatty device would answer) that came in a silent window.
    public var searchesWhileSilent = 0
    /// Device-level: searches heard for a target the device does not have.
    public var searchesUnmatched = 0
    /// Answers lost to response loss.
    public var answersLost = 0
    /// Answers cut by the per-source rate limit: what the last device asked about a search gave beyond it.
    public var answersRateLimited = 0
    /// Searches accepted that left devices unasked: their source had no more answers left under the rate
    /// limit than the devices before them gave (none, in a flood past it). What the others would have
    /// answered is not in `answersRateLimited`. Part of `searchesAccepted`.
    public var searchesRateLimited = 0
    /// Answers cut because too many were waiting.
    public var answersOverflowed = 0
    /// Answers handed to the socket.
    public var answersSent = 0
    /// NOTIFY messages handed to the socket (alive, update and byebye).
    public var notificationsSent = 0
    /// Datagrams heard that the network faults (`PUT /network`, a scenario's `network`) lost on the way in.
    public var networkLostIncoming = 0
    /// Datagrams (answers and NOTIFYs, each copy) that the network faults lost on the way out.
    public var networkLostOutgoing = 0
    /// Extra copies the network faults sent of a datagram.
    public var networkDuplicated = 0
    /// HTTP connections closed as they came because every place in the connection table held one being
    /// answered (`HTTPConnectionLimiter`).
    public var httpConnectionsRefused = 0
    /// HTTP connections closed, before their request, to make room in a full table for a newcomer: the
    /// longest-waiting of the client holding the most.
    public var httpConnectionsDisplaced = 0

    /// Every counter at zero.
    public init() {}

    /// The sum the categories must add up to.
    public var datagramsAccountedFor: Int {
        oversized + sourcesRejected + networkLostIncoming + malformed + searchesAccepted + searchesRejected
            + notifications + responses
    }

    package init(
        responder: SimulatorResponder,
        oversized: Int,
        sourcesRejected: Int,
        answersSent: Int,
        notificationsSent: Int,
        network: (lostIncoming: Int, lostOutgoing: Int, duplicated: Int) = (0, 0, 0)
    ) {
        let host = responder.counters
        let devices = responder.deviceStatistics
        self.oversized = oversized
        self.sourcesRejected = sourcesRejected
        self.datagramsReceived = host.datagrams + oversized + sourcesRejected + network.lostIncoming
        (networkLostIncoming, networkLostOutgoing, networkDuplicated) = network
        self.malformed = host.malformed
        self.searchesAccepted = host.searchesAccepted
        self.searchesRejected = host.searchesRejected
        self.notifications = host.notifications
        self.responses = host.responses
        self.searchesNotHeard = devices.searchesNotHeard
        self.searchesWhileSilent = devices.searchesWhileSilent
        self.searchesUnmatched = devices.searchesUnmatched
        self.answersLost = devices.answersLost
        self.answersRateLimited = host.answersRateLimited
        self.searchesRateLimited = host.searchesRateLimited
        self.answersOverflowed = host.answersOverflowed
        self.answersSent = answersSent
        self.notificationsSent = notificationsSent
    }
}

extension SimulatorCounters {
    /// Every counter, for adding up.
    private static var fields: [WritableKeyPath<SimulatorCounters, Int>] {
        [
            \.datagramsReceived, \.oversized, \.sourcesRejected, \.malformed, \.searchesAccepted, \.searchesRejected,
            \.notifications, \.responses, \.searchesNotHeard, \.searchesWhileSilent, \.searchesUnmatched, \.answersLost,
            \.answersRateLimited, \.searchesRateLimited, \.answersOverflowed, \.answersSent, \.notificationsSent,
            \.networkLostIncoming,
            \.networkLostOutgoing, \.networkDuplicated, \.httpConnectionsRefused, \.httpConnectionsDisplaced,
        ]
    }

    /// The counters of a simulator's links (one per interface and scope) added up.
    package static func sum(_ parts: [SimulatorCounters]) -> SimulatorCounters {
        var total = SimulatorCounters()
        for part in parts {
            for field in fields { total[keyPath: field] += part[keyPath: field] }
        }
        return total
    }
}
