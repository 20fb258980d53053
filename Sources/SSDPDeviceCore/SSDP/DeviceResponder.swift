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

/// How one simulated root device answers searches: which answers, when, and how they are spoiled.
///
/// A value with no I/O: the caller hands it each accepted search (`SSDPSearchRequest`) and the time, and
/// gets back the answers to send, each with its delay and its bytes. The live simulator schedules them on
/// an event loop; the harness schedules them on a virtual clock. The only state is the device's seeded
/// generator and how many searches it has heard, so a seed replays the same timeline.
public struct DeviceResponder: Sendable {
    /// What became of one search.
    public enum Outcome: Hashable, Sendable {
        /// Answers to send (none when every one of them was lost on the way).
        case answered([ScheduledAnswer])
        /// The device did not hear the search: search loss, or one of the first searches it ignores.
        case notHeard
        /// The search came in a silent window.
        case silent
        /// Nothing the device has matches the search target.
        case noMatch
    }

    /// Counts of what the device did, for reports and for checking that counts add up.
    public struct Statistics: Hashable, Sendable {
        /// Searches that reached the device, heard or not.
        public var searchesReceived = 0
        /// Searches not heard (search loss or ignored first searches).
        public var searchesNotHeard = 0
        /// Searches (and, for a device chatty about NOTIFYs, notifications) heard in a silent window and left
        /// unanswered.
        public var searchesWhileSilent = 0
        /// Searches heard whose target matches nothing the device advertises.
        public var searchesUnmatched = 0
        /// Answer datagrams handed back to send, copies included.
        public var answersScheduled = 0
        /// Answer datagrams lost to response loss.
        public var answersLost = 0

        /// Statistics with every count at zero.
        public init() {}
    }

    /// The device answering; a change drops its cached answers.
    public var device: SSDPRootDevice {
        didSet { (answerCache, replayCache, recordedCache) = ([], nil, []) }
    }
    /// How the device departs from UDA 1.1; a change drops its cached answers, and a new `ignoredSearches`
    /// counts from the next search.
    public var behaviour: SSDPDeviceBehaviour {
        didSet {
            (answerCache, replayCache, recordedCache) = ([], nil, [])
            if behaviour.ignoredSearches != oldValue.ignoredSearches { searchesBefore = statistics.searchesReceived }
        }
    }
    /// What the device has done with the searches so far.
    public private(set) var statistics = Statistics()
    /// When the device started (or `restart`ed); silent windows are measured from here.
    public private(set) var startedAt: SSDPInstant
    /// The searches received before the ignored ones count (`behaviour.ignoredSearches` changed, or a restart).
    private var searchesBefore = 0
    private var random: SSDPRandom
    /// Where replayed LOCATIONs point (see `init`).
    public let replayLocations: SSDPReplay.Locations
    /// The answers to each question asked so far as they go out (chatter and malformations applied), made
    /// at its first asking and dropped when `device` or `behaviour` changes: listing and serializing them
    /// was most of the cost of answering. At most `maximumCachedQuestions` are kept, so searches for ever
    /// new targets cannot grow it without bound. A list, not a dictionary: a device is asked one or two
    /// questions, and comparing them costs less than hashing one.
    private var answerCache: [(question: Question, answers: [Answer])] = []
    /// A replaying device's answers to each captured search as they go out (relocated, with the ST and USN
    /// read from them), made at the first search and dropped with `answerCache`.
    private var replayCache: [[ScheduledAnswer]]?
    /// A recorded device's answers to each target asked so far as they go out (relocated), at most
    /// `maximumCachedQuestions` of them; `nil` answers for a target the recording lacks.
    private var recordedCache: [(target: String, answers: [ScheduledAnswer]?)] = []

    private static let maximumCachedQuestions = 16

    /// What a device is asked; its answers depend on nothing else.
    private enum Question: Equatable {
        /// A search for this target.
        case search(SSDPSearchTarget)
        /// A NOTIFY, which a device chatty about notifications answers.
        case notification
    }

    /// One answer: what it announces, and its datagram.
    private struct Answer {
        var advertisement: SSDPAdvertisement
        var bytes: [UInt8]
        var dateOffset: Int?
    }

    /// A responder for `device`, which started at `startedAt`; `seed` fixes every random choice (loss,
    /// delays), so a run replays.
    ///
    /// A replaying device (`SSDPDeviceBehaviour.replay`) points the LOCATIONs it replays where
    /// `replayLocations` says: by default at itself; a simulator of several replaying devices passes one
    /// table for all (`SSDPReplay.Locations.relocated(_:)`), and a virtual network, which reaches no real
    /// address, `.asCaptured`.
    public init(
        device: SSDPRootDevice,
        behaviour: SSDPDeviceBehaviour = .init(),
        startedAt: SSDPInstant,
        seed: UInt64,
        replayLocations: SSDPReplay.Locations = .relocated([:])
    ) {
        self.device = device
        self.behaviour = behaviour
        self.startedAt = startedAt
        self.random = SSDPRandom(seed: seed)
        self.replayLocations = replayLocations
    }

    /// The device starts over at `now`, as after a power cycle that keeps its identity: its silent windows
    /// and the searches it ignores count from now; its statistics go on.
    public mutating func restart(at now: SSDPInstant) {
        startedAt = now
        searchesBefore = statistics.searchesReceived
    }

    /// Decides the answers to `search`, heard at `now`.
    public mutating func receive(_ search: SSDPSearchRequest, at now: SSDPInstant) -> Outcome {
        let index = statistics.searchesReceived
        statistics.searchesReceived += 1
        if let replay = behaviour.replay {
            let scheduled = replayAnswers(replay)[min(index, replay.searches - 1)]
            statistics.answersScheduled += scheduled.count
            return .answered(scheduled)
        }
        if index - searchesBefore < behaviour.ignoredSearches || random.chance(behaviour.searchLoss) {
            statistics.searchesNotHeard += 1
            return .notHeard
        }
        if isSilent(at: now) {
            statistics.searchesWhileSilent += 1
            return .silent
        }
        if let recorded = behaviour.recorded {
            guard let answers = recordedAnswers(recorded, to: search.target.rawValue) else {
                statistics.searchesUnmatched += 1
                return .noMatch
            }
            let window: Duration? = recorded.drawsDelaysWithinMX ? search.responseWindow : nil
            return .answered(scheduleRecorded(answers, drawingWithin: window))
        }
        let answers = answers(to: .search(search.target))
        guard !answers.isEmpty else {
            statistics.searchesUnmatched += 1
            return .noMatch
        }
        return .answered(schedule(answers, window: search.responseWindow))
    }

    /// A recorded device's answers to `target` as it sends them: from the cache, or made and kept.
    private mutating func recordedAnswers(_ recorded: SSDPRecordedAnswers, to target: String) -> [ScheduledAnswer]? {
        if let cached = recordedCache.first(where: { $0.target == target }) { return cached.answers }
        let made = recorded.scheduled(
            to: target,
            own: Self.schemeAndAuthority(of: device.location),
            bootID: device.bootID,
            locations: replayLocations
        )
        if recordedCache.count >= Self.maximumCachedQuestions { recordedCache.removeAll(keepingCapacity: true) }
        recordedCache.append((target, made))
        return made
    }

    /// Recorded answers at their recorded delays, or each at a delay drawn within `window` where one is
    /// given, each sent `duplicates` times unless lost.
    private mutating func scheduleRecorded(
        _ answers: [ScheduledAnswer],
        drawingWithin window: Duration?
    ) -> [ScheduledAnswer] {
        var scheduled: [ScheduledAnswer] = []
        for var answer in answers {
            if let window { answer.delay = random.duration(upTo: window) }
            for _ in 0..<behaviour.duplicates {
                if random.chance(behaviour.responseLoss) {
                    statistics.answersLost += 1
                } else {
                    scheduled.append(answer)
                }
            }
        }
        statistics.answersScheduled += scheduled.count
        return scheduled
    }

    /// Decides the answers to a NOTIFY: none, unless the device is chatty about notifications, in which
    /// case it answers as if asked for `upnp:rootdevice` by unicast.
    public mutating func receiveNotification(at now: SSDPInstant) -> Outcome {
        guard behaviour.chatter.contains(.notifies) else { return .noMatch }
        guard !isSilent(at: now) else {
            statistics.searchesWhileSilent += 1
            return .silent
        }
        return .answered(schedule(answers(to: .notification), window: .seconds(1)))
    }

    private func isSilent(at now: SSDPInstant) -> Bool {
        let elapsed = now - startedAt
        return behaviour.silentWindows.contains { $0.contains(elapsed) }
    }

    /// The answers to `question`, chatter and malformations applied: from the cache, or made and kept.
    private mutating func answers(to question: Question) -> [Answer] {
        if let cached = answerCache.first(where: { $0.question == question }) { return cached.answers }
        let dated = device.responseHeaders?.contains { $0.value.contains("{date}") } == true
        let answers = advertisements(answering: question).map { advertisement in
            let bytes =
                behaviour.malformations.isEmpty
                ? device.searchResponseBytes(for: advertisement)
                : SSDPMalformation.bytes(for: device.searchResponse(for: advertisement), with: behaviour.malformations)
            return Answer(
                advertisement: advertisement,
                bytes: bytes,
                dateOffset: dated ? bytes.firstOffset(of: HTTPDate.epoch) : nil
            )
        }
        if answerCache.count >= Self.maximumCachedQuestions { answerCache.removeAll(keepingCapacity: true) }
        answerCache.append((question, answers))
        return answers
    }

    /// The advertisements to answer `question` with, chatter applied.
    private func advertisements(answering question: Question) -> [SSDPAdvertisement] {
        guard case .search(let target) = question else { return Array(device.advertisements.prefix(3)) }
        var answers = device.answers(to: target)
        if behaviour.chatter.contains(.anyTarget), target != .all {
            answers = Array(device.advertisements.prefix(3))
        }
        if behaviour.chatter.contains(.wrongTarget), target != .all {
            answers = answers.map { answer in
                let wrong = answer.target == device.device.deviceType ? "upnp:rootdevice" : device.device.deviceType
                return SSDPAdvertisement(target: wrong, usn: answer.usn)
            }
        }
        return answers
    }

    private mutating func schedule(_ answers: [Answer], window: Duration) -> [ScheduledAnswer] {
        var scheduled: [ScheduledAnswer] = []
        scheduled.reserveCapacity(answers.count * behaviour.duplicates)
        // libupnp draws one delay for all the answers to a search.
        let together = behaviour.delay == .wholeSeconds ? delay(within: window) : nil
        for answer in answers {
            let delay = together ?? delay(within: window)
            for _ in 0..<behaviour.duplicates {
                if random.chance(behaviour.responseLoss) {
                    statistics.answersLost += 1
                } else {
                    var scheduledAnswer = ScheduledAnswer(
                        delay: delay,
                        advertisement: answer.advertisement,
                        bytes: answer.bytes
                    )
                    scheduledAnswer.dateOffset = answer.dateOffset
                    scheduled.append(scheduledAnswer)
                }
            }
        }
        statistics.answersScheduled += scheduled.count
        return scheduled
    }

    /// The captured answers to each search of `replay`, relocated where `replayLocations` says (`SSDPReplay`):
    /// read and rewritten once, not at every search.
    private mutating func replayAnswers(_ replay: SSDPReplay) -> [[ScheduledAnswer]] {
        if let replayCache { return replayCache }
        let own = Self.schemeAndAuthority(of: device.location)
        let made = (0..<replay.searches).map { search in
            replay.answers(toSearch: search).map { answer in
                let bytes = SSDPReplay.relocating(answer.bytes, replayLocations, own: own)
                let headers = (try? SSDPParser.parseMessage(bytes))?.headers
                let advertisement = SSDPAdvertisement(target: headers?["ST"] ?? "", usn: headers?["USN"] ?? "")
                return ScheduledAnswer(delay: answer.delay, advertisement: advertisement, bytes: bytes)
            }
        }
        replayCache = made
        return made
    }

    /// `http://host:port` of a URL: everything before the path.
    public static func schemeAndAuthority(of url: String) -> String {
        var afterScheme = url.startIndex
        if let colon = url.firstIndex(of: ":"), url[colon...].hasPrefix("://") {
            afterScheme = url.index(colon, offsetBy: 3)
        }
        return String(url[..<(url[afterScheme...].firstIndex(of: "/") ?? url.endIndex)])
    }

    private mutating func delay(within window: Duration) -> Duration {
        switch behaviour.delay {
        case .uniform: random.duration(upTo: window)
        case .immediate: .zero
        case .fixed(let delay): delay
        case .late(let extra): window + extra
        case .wholeSeconds: Self.wholeSeconds(within: window, random: &random)
        }
    }

    /// libupnp's answer time (ssdp_device.c): whole seconds in 0 ..< MX − max(1, MX / 10), at least 1.
    private static func wholeSeconds(within window: Duration, random: inout SSDPRandom) -> Duration {
        var mx = Int(window.components.seconds)
        if mx >= 2 { mx -= max(1, mx / 10) }
        return .seconds(Int(random.next() % UInt64(max(mx, 1))))
    }
}

/// One answer datagram to send after `delay`.
public struct ScheduledAnswer: Hashable, Sendable {
    /// How long after the search the answer leaves.
    public var delay: Duration
    /// What the answer announces (its ST and USN before any malformation).
    public var advertisement: SSDPAdvertisement
    /// The datagram as sent, malformations applied.
    public var bytes: [UInt8]
    /// Where its DATE's value starts, when it has one: the answer is made ahead of time with
    /// `HTTPDate.epoch` there, and `dated(secondsSince1970:)` writes the moment it leaves.
    public var dateOffset: Int?

    /// An answer datagram to send `delay` after the search.
    public init(delay: Duration, advertisement: SSDPAdvertisement, bytes: [UInt8]) {
        self.delay = delay
        self.advertisement = advertisement
        self.bytes = bytes
    }

    /// The datagram with the DATE it carries (if any) set to `seconds` after 1970: what a live device sends.
    public func dated(secondsSince1970 seconds: Int) -> [UInt8] {
        guard let dateOffset else { return bytes }
        var bytes = bytes
        bytes.replaceSubrange(
            dateOffset..<dateOffset + HTTPDate.epoch.utf8.count,
            with: Array(
                HTTPDate.string(secondsSince1970: seconds).utf8
            )
        )
        return bytes
    }
}

extension [UInt8] {
    /// Where `text`'s bytes first start in these, if they do.
    package func firstOffset(of text: String) -> Int? {
        let needle = Array(text.utf8)
        guard count >= needle.count else { return nil }
        return (0...(count - needle.count)).first { self[$0..<$0 + needle.count].elementsEqual(needle) }
    }
}
