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

/// All the devices of one simulator, answering datagrams as one host.
///
/// Each datagram is parsed once and an M-SEARCH is checked against the acceptance rules once
/// (`SSDPSearchRequest.accept`); then each device decides its own answers (`DeviceResponder`). Two limits
/// apply to the sum: a per-source rate limit (no reflection amplifier) and a cap on answers waiting for
/// their delay (no unbounded memory). What they cut is counted, never queued. The devices are asked in
/// their order only until the source has as many answers as the limit lets it have for now: the answers
/// to that datagram are the ones asking every device would have kept, but a flood from one source, or a
/// search of thousands of devices, costs what the limit lets out. A device not asked does not count the
/// search (`DeviceResponder.Statistics`, `ignoredSearches`, a replay's next capture) nor draws for it.
///
/// No I/O and no clock: the live simulator and the harness's virtual network drive the same value.
public struct SimulatorResponder: Sendable {
    /// The host-wide rules.
    public struct Configuration: Hashable, Sendable {
        /// How closely an M-SEARCH is held to UDA 1.1 before any device sees it (`SSDPSearchRequest.accept`).
        public var strictness: SSDPSearchRequest.Strictness
        /// Answers per second to any one source.
        public var answersPerSourcePerSecond: Int
        /// Answers that may wait for their delay at once.
        public var maximumPendingAnswers: Int

        /// Rules with the defaults: strict acceptance, 1000 answers per source per second, at most 10000 pending.
        public init(
            strictness: SSDPSearchRequest.Strictness = .strict,
            answersPerSourcePerSecond: Int = 1_000,
            maximumPendingAnswers: Int = 10_000
        ) {
            self.strictness = strictness
            self.answersPerSourcePerSecond = answersPerSourcePerSecond
            self.maximumPendingAnswers = maximumPendingAnswers
        }
    }

    /// What one datagram was, and what to send because of it.
    public struct Reception: Sendable {
        /// What kind of datagram it was.
        public enum Kind: Sendable {
            /// An M-SEARCH the host accepted.
            case search(SSDPSearchRequest)
            /// An M-SEARCH dropped by the acceptance rules.
            case rejected(SSDPSearchRequest.Rejection)
            /// A NOTIFY from another device.
            case notification
            /// A search response, which a device has no use for.
            case response
            /// Not SSDP at all.
            case malformed(SSDPParseError)
        }

        /// What the datagram was, with the accepted search or the reason it was dropped.
        public var kind: Kind
        /// The parsed message, unless it was malformed.
        public var message: SSDPMessage?
        /// The answers to send, each with the index of the device that sends it.
        public var answers: [(device: Int, answer: ScheduledAnswer)]
        /// Why the devices that send nothing sent nothing.
        public var unanswered = Unanswered()
    }

    /// How many devices sent no answer to one datagram, by why, and the answers the host cut.
    public struct Unanswered: Hashable, Sendable {
        /// Devices that did not hear it (search loss, the first searches ignored).
        public var notHeard = 0
        /// Devices in a silent window.
        public var silent = 0
        /// Devices with nothing that matches its target.
        public var noMatch = 0
        /// Devices that are gone.
        public var gone = 0
        /// Devices whose every answer was lost (response loss).
        public var lost = 0
        /// Answers cut by the per-source rate limit: what the last device asked gave beyond it.
        public var rateLimited = 0
        /// Answers cut because too many were waiting.
        public var overflowed = 0
        /// Devices not asked, because the answers decided before them were all the rate limit lets the
        /// search's source have for now (what they would have answered is not in `rateLimited`).
        public var notAsked = 0

        /// Nothing left unanswered.
        public init() {}

        /// Why no answer went out, in words (`2 devices have no match for the target, 1 is gone`), or `nil`
        /// when nothing is to be said.
        public var reason: String? {
            let parts = [
                (noMatch, "no match for the target"), (gone, "gone"), (notHeard, "did not hear it"),
                (silent, "in a silent window"), (lost, "lost every answer"),
                (notAsked, "not asked, past the source's rate limit"),
            ].filter { $0.0 > 0 }.map { "\($0.0) \($0.0 == 1 ? "device" : "devices"): \($0.1)" }
            let cut = [(rateLimited, "cut by the rate limit"), (overflowed, "cut: too many waiting")]
                .filter { $0.0 > 0 }.map { "\($0.0) answers \($0.1)" }
            let all = parts + cut
            return all.isEmpty ? nil : all.joined(separator: ", ")
        }
    }

    /// Counts over the whole host. They add up: every datagram is exactly one of searches accepted,
    /// searches rejected, notifications, responses or malformed.
    public struct Counters: Hashable, Sendable {
        /// Every datagram received.
        public var datagrams = 0
        /// Datagrams that were not SSDP.
        public var malformed = 0
        /// M-SEARCHes the acceptance rules let through.
        public var searchesAccepted = 0
        /// M-SEARCHes the acceptance rules dropped.
        public var searchesRejected = 0
        /// NOTIFY messages from other devices.
        public var notifications = 0
        /// Search responses, which no device answers.
        public var responses = 0
        /// Answers cut by the per-source rate limit (what the last device asked about a search gave beyond it).
        public var answersRateLimited = 0
        /// Searches accepted that left devices unasked: their source had no more answers left under the
        /// rate limit than the devices before them gave (none, in a flood past it). What the others would
        /// have answered is not in `answersRateLimited`.
        public var searchesRateLimited = 0
        /// Answers cut because too many were already waiting.
        public var answersOverflowed = 0
        /// Answers handed out to send.
        public var answersScheduled = 0

        /// Counters with every count at zero.
        public init() {}
    }

    /// The host-wide rules, fixed at creation.
    public let configuration: Configuration
    /// Each device's responder; answers and `receive`'s `device` name a device by its index here.
    public var devices: [DeviceResponder]
    /// The devices that are gone (`DeviceLifecycle`): they hear no search and answer nothing.
    public var absentDevices: Set<Int> = []
    /// What the host has received and handed out so far.
    public private(set) var counters = Counters()
    /// Answers handed out whose `answerFinished()` has not been called yet.
    public private(set) var pendingAnswers = 0
    private var limiter: SSDPRateLimiter
    /// Reads the bytes handed to `receive(_:from:at:device:)`: a client repeats a search byte for byte.
    private var reader = Reader()

    /// A host of `devices` answering under `configuration`.
    public init(configuration: Configuration, devices: [DeviceResponder]) {
        self.configuration = configuration
        self.devices = devices
        self.limiter = SSDPRateLimiter(rate: configuration.answersPerSourcePerSecond)
    }

    /// A datagram read once: parsed and, if it is an M-SEARCH, held to the acceptance rules. A network
    /// that hands the same bytes to many hosts (the harness's multicast) reads them once for all of them.
    ///
    /// A class, immutable: handing one to each of a thousand hosts costs a retain each, where a copy of the
    /// message and the search it holds cost a dozen.
    public final class Datagram: Sendable {
        /// The parsed message, or why the bytes are not SSDP.
        public let message: Result<SSDPMessage, SSDPParseError>
        /// The rules `search` was decided under.
        public let strictness: SSDPSearchRequest.Strictness
        /// For an M-SEARCH, the accepted search or why it was dropped; `nil` for any other message.
        public let search: Result<SSDPSearchRequest, SSDPSearchRequest.Rejection>?

        /// Whether the message starts with UDA's own start line, `M-SEARCH * HTTP/1.1`, rather than one the
        /// parser understood anyway (`M-SEARCH / HTTP/1.0`).
        private let standardStartLine: Bool

        /// `bytes` parsed, an M-SEARCH held to the rules of `strictness`.
        public convenience init(_ bytes: [UInt8], strictness: SSDPSearchRequest.Strictness) {
            self.init(
                message: Result { () throws(SSDPParseError) in try SSDPParser.parseMessage(bytes) },
                standardStartLine: SSDPSearchRequest.hasStandardStartLine(bytes),
                strictness: strictness
            )
        }

        private init(
            message: Result<SSDPMessage, SSDPParseError>,
            standardStartLine: Bool,
            strictness: SSDPSearchRequest.Strictness
        ) {
            self.message = message
            self.standardStartLine = standardStartLine
            self.strictness = strictness
            if case .success(let parsed) = message, parsed.kind == .search {
                search =
                    strictness == .strict && !standardStartLine
                    ? .failure(.nonStandardStartLine) : SSDPSearchRequest.accept(parsed, strictness: strictness)
            } else {
                search = nil
            }
        }

        /// The same datagram held to the rules of `strictness`.
        fileprivate func held(to strictness: SSDPSearchRequest.Strictness) -> Datagram {
            strictness == self.strictness
                ? self : Datagram(message: message, standardStartLine: standardStartLine, strictness: strictness)
        }
    }

    /// Reads bytes into a `Datagram`, and bytes equal to the last ones read only once: a client repeats its
    /// search byte for byte (a flood sends nothing else), and a multicast search reaches every host of a
    /// network with the same bytes. Comparing equal bytes costs a hundredth of reading them.
    public struct Reader: Sendable {
        private var lastBytes: [UInt8]?
        private var lastRead: Datagram?

        /// A reader that has read nothing yet.
        public init() {}

        /// `bytes` read as `Datagram(bytes, strictness:)` reads them.
        public mutating func read(_ bytes: [UInt8], strictness: SSDPSearchRequest.Strictness) -> Datagram {
            if let lastRead, lastRead.strictness == strictness, lastBytes == bytes {
                lastBytes = bytes  // the same array next time, most likely: equal at a glance, not byte by byte
                return lastRead
            }
            // The same bytes under other rules are not parsed again, only accepted again.
            let datagram = lastBytes == bytes ? lastRead?.held(to: strictness) : nil
            let read = datagram ?? Datagram(bytes, strictness: strictness)
            (lastBytes, lastRead) = (bytes, read)
            return read
        }
    }

    /// Handles one datagram from `source` (its address, the rate limiter's key) at `now`. A datagram sent to
    /// the address of one device (`device`, its index) is that device's alone; one sent to the group or to
    /// the host (`nil`) reaches every device, each asked while the source's rate limit has answers left.
    public mutating func receive(
        _ bytes: [UInt8],
        from source: String,
        at now: SSDPInstant,
        device: Int? = nil
    ) -> Reception {
        receive(reader.read(bytes, strictness: configuration.strictness), from: source, at: now, device: device)
    }

    /// Handles a datagram read already, as `receive(_:from:at:device:)` handles its bytes.
    public mutating func receive(
        _ datagram: Datagram,
        from source: String,
        at now: SSDPInstant,
        device: Int? = nil
    ) -> Reception {
        counters.datagrams += 1
        let datagram = datagram.held(to: configuration.strictness)
        let message: SSDPMessage
        switch datagram.message {
        case .failure(let error):
            counters.malformed += 1
            return Reception(kind: .malformed(error), message: nil, answers: [])
        case .success(let parsed):
            message = parsed
        }
        switch message.kind {
        case .response:
            counters.responses += 1
            return Reception(kind: .response, message: message, answers: [])
        case .notify:
            counters.notifications += 1
            var unanswered = Unanswered()
            let answers = collect(from: source, at: now, devices: device, unanswered: &unanswered) {
                $0.receiveNotification(at: now)
            }
            return Reception(kind: .notification, message: message, answers: answers, unanswered: unanswered)
        case .search:
            switch datagram.search ?? .failure(.notASearch) {
            case .failure(let rejection):
                counters.searchesRejected += 1
                return Reception(kind: .rejected(rejection), message: message, answers: [])
            case .success(let search):
                counters.searchesAccepted += 1
                var unanswered = Unanswered()
                let answers = collect(from: source, at: now, devices: device, unanswered: &unanswered) {
                    $0.receive(search, at: now)
                }
                if unanswered.notAsked > 0 { counters.searchesRateLimited += 1 }
                return Reception(kind: .search(search), message: message, answers: answers, unanswered: unanswered)
            }
        }
    }

    /// Says that an answer handed out by `receive` has been sent (or given up), freeing its place.
    public mutating func answerFinished() {
        precondition(pendingAnswers > 0, "answerFinished() without a pending answer")
        pendingAnswers -= 1
    }

    /// Every device's statistics added up.
    public var deviceStatistics: DeviceResponder.Statistics {
        devices.reduce(into: DeviceResponder.Statistics()) { sum, device in
            let statistics = device.statistics
            sum.searchesReceived += statistics.searchesReceived
            sum.searchesNotHeard += statistics.searchesNotHeard
            sum.searchesWhileSilent += statistics.searchesWhileSilent
            sum.searchesUnmatched += statistics.searchesUnmatched
            sum.answersScheduled += statistics.answersScheduled
            sum.answersLost += statistics.answersLost
        }
    }

    /// Asks the devices (`only` that one, when given) in order what they answer, until they have decided as
    /// many answers as the rate limit lets `source` have (the rest are not asked: `unanswered.notAsked`,
    /// counted without a walk over them); then applies the rate limit and the pending cap to those answers,
    /// the first ones kept. The answers are those asking every device would have kept, but a flood from one
    /// source, or a search of thousands of devices, costs what the limit lets out, not every decision.
    private mutating func collect(
        from source: String,
        at now: SSDPInstant,
        devices only: Int?,
        unanswered: inout Unanswered,
        _ decide: (inout DeviceResponder) -> DeviceResponder.Outcome
    ) -> [(device: Int, answer: ScheduledAnswer)] {
        let budget = limiter.available(for: source, at: now)
        var answers: [(device: Int, answer: ScheduledAnswer)] = []
        let asked = only.map { $0..<$0 + 1 } ?? devices.indices
        for index in asked {
            if !absentDevices.isEmpty, absentDevices.contains(index) {
                unanswered.gone += 1
                continue
            }
            guard answers.count < budget else {
                let rest = index..<asked.upperBound
                let gone = absentDevices.isEmpty ? 0 : absentDevices.count(where: { rest.contains($0) })
                unanswered.gone += gone
                unanswered.notAsked += rest.count - gone
                break
            }
            switch decide(&devices[index]) {
            case .answered(let scheduled):
                if scheduled.isEmpty { unanswered.lost += 1 }
                // The first answering device sizes the list; later ones grow it geometrically (reserving
                // `count + scheduled.count` at every device would copy the list once per device).
                if answers.isEmpty { answers.reserveCapacity(scheduled.count) }
                for answer in scheduled { answers.append((index, answer)) }
            case .notHeard: unanswered.notHeard += 1
            case .silent: unanswered.silent += 1
            case .noMatch: unanswered.noMatch += 1
            }
        }
        guard !answers.isEmpty else { return [] }
        let granted = limiter.take(answers.count, for: source, at: now)
        counters.answersRateLimited += answers.count - granted
        unanswered.rateLimited = answers.count - granted
        let room = max(0, configuration.maximumPendingAnswers - pendingAnswers)
        let kept = min(granted, room)
        counters.answersOverflowed += granted - kept
        unanswered.overflowed = granted - kept
        answers.removeLast(answers.count - kept)
        pendingAnswers += kept
        counters.answersScheduled += kept
        return answers
    }
}
