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

/// What a recorded device (`ssdp-sim record`) answers to searches: for each search target it was asked,
/// the datagrams it sent, byte for byte, each with the time it took.
///
/// A search for a target the recording holds gets those answers at their recorded delays; the LOCATION's
/// `http://host:port` becomes the playing device's own (as a replay's does, `SSDPReplay.relocating`), and a
/// DATE is written anew as the answer leaves. A search for a target never recorded gets nothing, as a search
/// for a target a device does not have. Unlike a replay (`ssdp-sim import`), which answers the n-th search
/// as the capture's n-th was answered, whatever it asks, a recording answers by what is asked.
public struct SSDPRecordedAnswers: Hashable, Sendable {
    /// One recorded answer.
    public struct Answer: Hashable, Sendable {
        /// How long after the search it arrived.
        public var delay: Duration
        /// The datagram as it arrived.
        public var bytes: [UInt8]

        /// An answer that arrived `delay` after the search.
        public init(delay: Duration, bytes: [UInt8]) {
            self.delay = delay
            self.bytes = bytes
        }
    }

    /// The answers to each search target, in the order recorded.
    public var targets: [(target: String, answers: [Answer])]

    /// The recorded answers to each of `targets`.
    public init(targets: [(target: String, answers: [Answer])]) {
        self.targets = targets
    }

    /// The answers to a search for `target`: those recorded for it as written, else for it in another case
    /// (`ssdp:all` written `SSDP:ALL`); `nil` when it was never asked.
    public func answers(to target: String) -> [Answer]? {
        targets.first { $0.target == target }?.answers
            ?? targets.first { $0.target.equalsIgnoringASCIICase(target) }?.answers
    }

    /// Equal when they hold the same targets, in the same order, with the same answers.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.targets.elementsEqual(rhs.targets) { $0.target == $1.target && $0.answers == $1.answers }
    }

    /// Hashes the targets and their answers, in order.
    public func hash(into hasher: inout Hasher) {
        for (target, answers) in targets {
            hasher.combine(target)
            hasher.combine(answers)
        }
    }

    /// The answers to `target` as a device at `own` (`http://host:port`) sends them, each dated at
    /// `HTTPDate.epoch` where it carries a DATE (`ScheduledAnswer.dated` writes the time it leaves), or
    /// with its LOCATION as recorded when `locations` is `.asCaptured` (a virtual network).
    public func scheduled(
        to target: String,
        own: String,
        locations: SSDPReplay.Locations
    ) -> [ScheduledAnswer]? {
        answers(to: target)?.map { answer in
            var bytes = SSDPReplay.relocating(answer.bytes, locations, own: own)
            let dateRange = HTTPRecording.dateValueRange(in: bytes)
            if let dateRange { bytes.replaceSubrange(dateRange, with: Array(HTTPDate.epoch.utf8)) }
            let headers = (try? SSDPParser.parseMessage(bytes))?.headers
            var scheduled = ScheduledAnswer(
                delay: answer.delay,
                advertisement: SSDPAdvertisement(target: headers?["ST"] ?? "", usn: headers?["USN"] ?? ""),
                bytes: bytes
            )
            scheduled.dateOffset = dateRange?.lowerBound
            return scheduled
        }
    }
}
