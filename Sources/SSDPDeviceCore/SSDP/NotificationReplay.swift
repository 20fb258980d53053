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

/// When a replaying device (`SSDPReplay`) multicasts its captured NOTIFY messages: each at its captured
/// time from the device's start, byte for byte. It takes the place of the device's `DeviceAdvertiser`.
///
/// Like every state machine here it reads no clock: the caller passes `now` and arms a timer for
/// `nextDeadline`.
public struct NotificationReplay: Sendable {
    /// When the device started: the captured times count from here.
    public let startedAt: SSDPInstant
    private let notifications: [SSDPReplay.Notification]
    private var next = 0

    /// The captured NOTIFY messages of `replay`, counted from `startedAt`, their LOCATIONs pointed where
    /// `locations` says (`own`: the device's `http://host:port`), as the device's answers are.
    public init(_ replay: SSDPReplay, startedAt: SSDPInstant, locations: SSDPReplay.Locations, own: String) {
        self.startedAt = startedAt
        // Stable: messages captured at one instant keep their order.
        self.notifications = replay.notifications.enumerated()
            .sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }
            .map {
                SSDPReplay.Notification(
                    at: $0.element.at,
                    bytes: SSDPReplay.relocating($0.element.bytes, locations, own: own)
                )
            }
    }

    /// When `due` next has something to send, or `nil` when every message has been sent.
    public var nextDeadline: SSDPInstant? {
        next < notifications.count ? startedAt + notifications[next].at : nil
    }

    /// The messages due by `now`, in order, each once.
    public mutating func due(at now: SSDPInstant) -> [[UInt8]] {
        var due: [[UInt8]] = []
        while next < notifications.count, startedAt + notifications[next].at <= now {
            due.append(notifications[next].bytes)
            next += 1
        }
        return due
    }
}
