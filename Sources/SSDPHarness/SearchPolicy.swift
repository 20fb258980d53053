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

/// How a client searches and when it stops, as the harness holds it to: the original design's by default
/// (the scenario's N searches MX apart, one stop at N × MX + 0.1 s), or the policy a client declares
/// (`run --client-policy`). python-roku sends one search with MX 3 and stops after 2 s without an answer;
/// async-upnp-client sends one with MX 4 and stops 4 s after it. Held to its own policy, a client fails only
/// where it misses a device, reports one twice, or reports what it did not search.
package struct SearchPolicy: Sendable, Hashable {
    /// When the client's search ends.
    package enum Stop: Sendable, Hashable {
        /// The original design's: N × MX + 0.1 s after the first search.
        case designed
        /// This long after the first search.
        case after(Duration)
        /// This long after the last answer the devices sent it (after the first search when none).
        case idle(Duration)
        /// Whenever it likes: the stop is not judged.
        case unjudged
    }

    /// How the client's searches are spaced.
    package enum Spacing: Sendable, Hashable {
        /// As the original design spaces the scenario's searches.
        case designed
        /// This long apart (zero: all at once).
        case every(Duration)
        /// Not judged.
        case unjudged
    }

    /// How many M-SEARCH messages it sends; `nil`: the scenario's.
    package var searches: Int?
    /// How they are spaced.
    package var spacing: Spacing
    /// The MX it writes; `nil`: the scenario's.
    package var mx: Int?
    /// The ST it searches; `nil`: the scenario's (`SSDP_ST`).
    package var target: String?
    /// When it stops.
    package var stop: Stop

    /// A policy; by default the original design's in every respect.
    package init(
        searches: Int? = nil,
        spacing: Spacing = .designed,
        mx: Int? = nil,
        target: String? = nil,
        stop: Stop = .designed
    ) {
        self.searches = searches
        self.spacing = spacing
        self.mx = mx
        self.target = target
        self.stop = stop
    }

    /// The original design's policy: what the built-in session does, and what a client is held to unless it
    /// declares another.
    package static let design = SearchPolicy()

    /// Why `scenario` says nothing about a client with this policy, if it does not: its expectations are
    /// those of a search this client cannot make. `nil` when it runs.
    package func reasonToSkip(_ scenario: Scenario) -> String? {
        if let target, target != scenario.search.target {
            return
                "the client searches \(target); the scenario expects what a search for \(scenario.search.target) finds"
        }
        if scenario.search.requests == 0, (searches ?? 0) > 0 {
            return "the scenario holds a session that sends no search; the client's policy sends \(searches ?? 0)"
        }
        return nil
    }

    /// How many searches the client must send in `scenario`.
    func expectedSearches(search: SearchSpecification, expect: Expectations) -> Int {
        searches ?? expect.searchesSent ?? search.requests
    }

    /// When search `index` (from 0) should go, from the first; `nil` when the spacing is not judged.
    func offset(of index: Int, in search: SearchSpecification) -> Duration? {
        switch spacing {
        case .designed: search.designedOffset(index)
        case .every(let interval): interval * index
        case .unjudged: nil
        }
    }

    /// When the client should stop, from its first search, given when the devices' answers to it left;
    /// `nil` when the stop is not judged.
    func stopTime(in search: SearchSpecification, answers: [Duration]) -> Duration? {
        switch stop {
        case .designed: search.designedStop
        case .after(let duration): duration
        case .idle(let duration): max(.zero, answers.max() ?? .zero) + duration
        case .unjudged: nil
        }
    }
}

extension SearchPolicy: CustomStringConvertible {
    /// The policy as `--client-policy` takes it: `searches=1,spacing=any,mx=3,stop=idle:2`.
    package var description: String {
        var parts: [String] = []
        if let searches { parts.append("searches=\(searches)") }
        switch spacing {
        case .designed: break
        case .every(let interval): parts.append("spacing=\(interval.secondsText)")
        case .unjudged: parts.append("spacing=any")
        }
        if let mx { parts.append("mx=\(mx)") }
        if let target { parts.append("st=\(target)") }
        switch stop {
        case .designed: break
        case .after(let duration): parts.append("stop=after:\(duration.secondsText)")
        case .idle(let duration): parts.append("stop=idle:\(duration.secondsText)")
        case .unjudged: parts.append("stop=any")
        }
        return parts.isEmpty ? "design" : parts.joined(separator: ",")
    }
}

extension SearchPolicy {
    /// A policy as `--client-policy` writes it: `design`, or comma-separated `searches=N`,
    /// `spacing=SECONDS|any`, `mx=N`, `st=TARGET`, `stop=designed|after:SECONDS|idle:SECONDS|any`; what is not
    /// named stays the design's.
    package init(parsing text: String) throws(RunOptionError) {
        self.init()
        guard text != "design" else { return }
        var seen: Set<Substring> = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let pair = part.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, !pair[1].isEmpty else {
                throw RunOptionError(part: String(part), reason: "expected NAME=VALUE")
            }
            let (name, value) = (pair[0], String(pair[1]))
            guard seen.insert(name).inserted else { throw RunOptionError(part: String(part), reason: "given twice") }
            switch name {
            case "searches": searches = try Self.count(value, part: part, range: 1...100)
            case "mx": mx = try Self.count(value, part: part, range: 1...120)
            case "st": target = value
            case "spacing": spacing = value == "any" ? .unjudged : .every(try Self.seconds(value, part: part))
            case "stop": stop = try Self.stop(value, part: part)
            default:
                throw RunOptionError(part: String(part), reason: "unknown name (searches, spacing, mx, st, stop)")
            }
        }
    }

    private static func count(
        _ value: String,
        part: Substring,
        range: ClosedRange<Int>
    ) throws(RunOptionError)
        -> Int
    {
        guard let number = Int(value), range.contains(number) else {
            throw RunOptionError(
                part: String(part),
                reason: "must be a whole number \(range.lowerBound)...\(range.upperBound)"
            )
        }
        return number
    }

    private static func seconds(_ value: String, part: Substring) throws(RunOptionError) -> Duration {
        guard let seconds = Double(value), seconds.isFinite, (0...3_600).contains(seconds) else {
            throw RunOptionError(part: String(part), reason: "expected seconds, 0...3600")
        }
        return .milliseconds((seconds * 1_000).rounded())
    }

    private static func stop(_ value: String, part: Substring) throws(RunOptionError) -> Stop {
        switch value {
        case "designed": return .designed
        case "any": return .unjudged
        default:
            let pair = value.split(separator: ":", maxSplits: 1)
            guard pair.count == 2, ["after", "idle"].contains(pair[0]) else {
                throw RunOptionError(
                    part: String(part),
                    reason: "expected designed, after:SECONDS, idle:SECONDS or any"
                )
            }
            let duration = try seconds(String(pair[1]), part: part)
            return pair[0] == "after" ? .after(duration) : .idle(duration)
        }
    }
}

/// A `--client-policy` or `--checks` that cannot be read: which part, and why.
package struct RunOptionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The part of the policy at fault (`mx=0`).
    package var part: String
    /// What is wrong with it.
    package var reason: String

    /// `mx=0: must be a whole number 1...120`.
    package var description: String { "\(part): \(reason)" }
}

/// A group of the checks a run is held to, as `run --checks` names it: a client judged only by what it
/// found, say, is `--checks found,once,target`.
package enum CheckGroup: String, Sendable, Hashable, CaseIterable {
    /// One stop at its time, nothing reported after it, its reason and count (the session's).
    case stop
    /// Each service reported once.
    case once
    /// Only the searched target reported.
    case target
    /// Each report as a device sent it (USN, ST, LOCATION, SERVER).
    case asSent = "as-sent"
    /// The found set: the services, those included, the count.
    case found
    /// The number of M-SEARCH messages.
    case searches
    /// Their spacing.
    case spacing
    /// Their HOST, MAN, MX and ST.
    case headers
    /// Every device heard every search the network delivered (virtual runs).
    case heard
    /// What the client did over HTTP after discovery.
    case http
    /// The session's drop counters (the built-in session's).
    case dropped
    /// The error expected, or none.
    case error

    /// `--checks found,once,target`: the groups named, each once.
    package static func parse(_ text: String) throws(RunOptionError) -> Set<CheckGroup> {
        var groups: Set<CheckGroup> = []
        for name in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let group = CheckGroup(rawValue: String(name)) else {
                let names = allCases.map(\.rawValue).joined(separator: ", ")
                throw RunOptionError(part: String(name), reason: "no such group of checks (\(names))")
            }
            groups.insert(group)
        }
        return groups
    }
}
