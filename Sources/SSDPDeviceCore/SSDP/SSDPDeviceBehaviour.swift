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

/// How a simulated device departs from a well-behaved one: timing, loss, duplicates, chatter, malformed
/// answers and silence. The default is a device that follows UDA 1.1 to the letter.
///
/// Every random choice is drawn from the device's seeded generator, so a seed replays the same timeline.
public struct SSDPDeviceBehaviour: Hashable, Sendable {
    /// When an answer leaves, measured from the search that asked for it.
    public enum Delay: Hashable, Sendable {
        /// Uniform in [0, MX] for each answer, as UDA 1.1 §1.3.3 asks (MX clamped to 5; 1 s for unicast).
        case uniform
        /// At once, ignoring MX (the DIAL reference server, node-ssdp).
        case immediate
        /// Always this long.
        case fixed(Duration)
        /// This long after the MX window has closed: too late for a control point that waits only MX.
        case late(Duration)
        /// As libupnp 1.8 answers (ssdp_device.c): every answer to a search together, after a whole number
        /// of seconds drawn from 0 ..< MX − max(1, MX / 10), so at once for MX 1 and 2, and at once or a
        /// second later for MX 3 (gmrender-resurrect, the renderer profile).
        case wholeSeconds
    }

    /// Ways of answering what was not asked. The raw values are the names device files and flags use.
    public enum Chatter: String, Hashable, Sendable, CaseIterable {
        /// Answers every search with the root's own three targets, whatever the ST (Hue, cling, fHDHR).
        case anyTarget = "any-target"
        /// Answers matching searches with a different ST than the one asked for (ESP32SSDP).
        case wrongTarget = "wrong-target"
        /// Answers NOTIFY messages as if they were searches.
        case notifies
    }

    /// A stretch of time, from the device's start, in which it answers nothing.
    public struct SilentWindow: Hashable, Sendable {
        /// When the window opens, measured from the device's start.
        public var start: Duration
        /// When the window closes; the end itself is outside it.
        public var end: Duration

        /// The window `start..<end`; `validate()` checks that `start` is 0 or later and before `end`.
        public init(start: Duration, end: Duration) {
            self.start = start
            self.end = end
        }

        /// Whether `elapsed`, the time since the device started, falls in the window.
        public func contains(_ elapsed: Duration) -> Bool { start <= elapsed && elapsed < end }
    }

    /// When answers leave; `uniform` within MX by default.
    public var delay: Delay
    /// Probability that the device does not hear a search at all.
    public var searchLoss: Double
    /// Probability that each answer datagram (each copy) is lost on the way.
    public var responseLoss: Double
    /// The first this many searches are not heard: a deterministic loss pattern.
    public var ignoredSearches: Int
    /// How many times each answer is sent (1 = once).
    public var duplicates: Int
    /// The ways the device answers what it was not asked; empty for none.
    public var chatter: Set<Chatter>
    /// Applied to every answer the device sends.
    public var malformations: Set<SSDPMalformation>
    /// The stretches of time in which the device answers nothing.
    public var silentWindows: [SilentWindow]
    /// Captured answers to replay instead of answering from the device's advertisements (`ssdp-sim
    /// import`); the other fields then do not apply to searches.
    public var replay: SSDPReplay?
    /// A recorded device's answers, by the search target asked (`ssdp-sim record`), instead of answers made
    /// from its advertisements; search loss, ignored searches, silent windows, duplicates and response
    /// loss still apply.
    public var recorded: SSDPRecordedAnswers?

    /// A behaviour; the defaults are a device that follows UDA 1.1 to the letter. Values a user gave are
    /// checked with `validate()`.
    public init(
        delay: Delay = .uniform,
        searchLoss: Double = 0,
        responseLoss: Double = 0,
        ignoredSearches: Int = 0,
        duplicates: Int = 1,
        chatter: Set<Chatter> = [],
        malformations: Set<SSDPMalformation> = [],
        silentWindows: [SilentWindow] = [],
        replay: SSDPReplay? = nil
    ) {
        self.delay = delay
        self.searchLoss = searchLoss
        self.responseLoss = responseLoss
        self.ignoredSearches = ignoredSearches
        self.duplicates = duplicates
        self.chatter = chatter
        self.malformations = malformations
        self.silentWindows = silentWindows
        self.replay = replay
    }

    /// Checks the values a user gave; the error names the field.
    public func validate() throws(SSDPConfigurationError) {
        do throws(SSDPConfigurationError) {
            try replay?.validate()
        } catch {
            throw SSDPConfigurationError(field: "replay.\(error.field)", value: error.value, reason: error.reason)
        }
        for (field, probability) in [("searchLoss", searchLoss), ("responseLoss", responseLoss)]
        where !(0...1).contains(probability) {
            throw SSDPConfigurationError(field: field, value: "\(probability)", reason: "a probability must be 0...1")
        }
        guard ignoredSearches >= 0 else {
            throw SSDPConfigurationError(
                field: "ignoredSearches",
                value: "\(ignoredSearches)",
                reason: "must be 0 or more"
            )
        }
        guard (1...10).contains(duplicates) else {
            throw SSDPConfigurationError(field: "duplicates", value: "\(duplicates)", reason: "must be 1...10")
        }
        switch delay {
        case .fixed(let duration), .late(let duration):
            guard duration >= .zero, duration <= .seconds(60) else {
                throw SSDPConfigurationError(field: "delay", value: "\(duration)", reason: "must be 0...60 seconds")
            }
        case .uniform, .immediate, .wholeSeconds:
            break
        }
        for window in silentWindows where !(window.start >= .zero && window.start < window.end) {
            throw SSDPConfigurationError(
                field: "silent",
                value: "\(window.start)..<\(window.end)",
                reason: "a window must start at 0 s or later and end after it starts"
            )
        }
    }
}
