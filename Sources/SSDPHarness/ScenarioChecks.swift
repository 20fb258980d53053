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

/// One expectation checked against one run: passed, failed, or skipped because the run's mode cannot
/// observe it (an external client's drop counters), never counted as a pass.
package struct CheckResult: Sendable, Hashable, Codable {
    /// Whether a check passed, failed, or was skipped because the run cannot observe it.
    package enum Status: String, Sendable, Hashable, Codable {
        case passed, failed, skipped
    }

    /// The check's name in reports (`stop`, `found services`, `dropped duplicates`).
    package var name: String
    /// The verdict.
    package var status: Status
    /// What the scenario expects, in words for the report.
    package var expected: String
    /// What happened; for a skipped check, why it could not be observed.
    package var actual: String
    /// What in the run the verdict rests on, for a report to point at (not in the JSON report).
    package var evidence = CheckEvidence()

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case name, status, expected, actual
    }

    /// A check that passed or failed; `skipped(_:expected:because:)` makes a skipped one.
    package init(name: String, passed: Bool, expected: String, actual: String) {
        self.name = name
        self.status = passed ? .passed : .failed
        self.expected = expected
        self.actual = actual
    }

    /// A check this mode cannot observe, and why.
    package static func skipped(_ name: String, expected: String, because reason: String) -> CheckResult {
        var result = CheckResult(name: name, passed: false, expected: expected, actual: reason)
        result.status = .skipped
        return result
    }

    /// Whether the check passed.
    package var passed: Bool { status == .passed }
    /// Whether the check failed; a skipped check has neither passed nor failed.
    package var failed: Bool { status == .failed }
    /// Whether the run could not observe what the check needs.
    package var skipped: Bool { status == .skipped }
}

/// What a check's verdict rests on, as places in the run's record: the HTML report links a failed check to
/// the messages these name.
package struct CheckEvidence: Sendable, Hashable {
    /// Indices into `RunRecord.searches`: the M-SEARCH messages the check judged.
    package var searches: [Int] = []
    /// Indices into `RunRecord.reports`: the services reported that the check judged.
    package var reports: [Int] = []
    /// Whether the check judged how (and when) the client stopped or failed.
    package var ending = false
    /// Indices into `HTTPActivity.requests`: the HTTP requests the check judged.
    package var requests: [Int] = []

    /// Evidence naming these searches, reports, requests and the ending.
    package init(searches: [Int] = [], reports: [Int] = [], ending: Bool = false, requests: [Int] = []) {
        self.searches = searches
        self.reports = reports
        self.ending = ending
        self.requests = requests
    }

    /// Whether it names nothing.
    package var isEmpty: Bool { searches.isEmpty && reports.isEmpty && !ending && requests.isEmpty }
}

extension CheckResult {
    /// The same verdict, resting on `evidence`.
    package func resting(on evidence: CheckEvidence) -> CheckResult {
        var result = self
        result.evidence = evidence
        return result
    }
}

/// The expectations of a scenario, checked against what a run recorded. The same checks serve every
/// mode; the ones that need the session's insides (drop counters, what each device heard) apply only
/// where the record has them.
package struct ScenarioChecks {
    /// The search the run made, as designed.
    package var search: SearchSpecification
    /// What must happen.
    package var expect: Expectations
    /// What the run recorded.
    package var record: RunRecord {
        didSet { reportedServices = record.reports.map(\.service) }
    }
    /// The services the client reported, in order: read from `record` once, for the checks that go through
    /// them (a thousand reports are a thousand copies per read).
    private var reportedServices: [ReportedService]
    /// How far times may stray from the design.
    package var tolerance: Duration
    /// The HOST header the searches must carry.
    package var searchHost: String
    /// How the client searches and stops: the timing, count and headers of its searches are held to it.
    package var policy: SearchPolicy = .design
    /// The groups of checks to make; the others are skipped. `nil`: every check.
    package var selection: Set<CheckGroup>?

    /// The checks of one run; `tolerance` is raised to the scenario's own `stopTolerance` when that is larger.
    package init(scenario: Scenario, record: RunRecord, tolerance: Duration, searchHost: String) {
        self.search = scenario.search
        self.expect = scenario.expect
        self.record = record
        self.reportedServices = record.reports.map(\.service)
        self.tolerance = max(tolerance, expect.stopTolerance ?? .zero)
        self.searchHost = searchHost
    }

    /// The checks of a search of a network the harness does not run (`ssdp-sim search --expect`): only
    /// `evaluateReports()` applies, since nothing is seen on the devices' side.
    package init(search: SearchSpecification, expect: Expectations, record: RunRecord) {
        self.search = search
        self.expect = expect
        self.record = record
        self.reportedServices = record.reports.map(\.service)
        self.tolerance = .zero
        self.searchHost = ""
    }

    /// Every check, in a fixed order; those of a group not in `selection` skipped.
    package func evaluate() -> [CheckResult] {
        let groups: [(CheckGroup, [CheckResult])] = [
            (.stop, [stop(), stopReason(), nothingAfterStop()]), (.once, [eachServiceOnce()]),
            (.target, [onlySearchedTarget()]), (.asSent, [asAdvertised()]), (.searches, [searchesSent()]),
            (.spacing, searchSpacing()), (.headers, searchHeaders()), (.heard, [hearings()]),
            (.stop, [foundAtStop()]), (.found, found()), (.dropped, dropped()), (.http, http()), (.error, [error()]),
        ]
        return groups.flatMap { group, results in
            guard let selection, !selection.contains(group) else { return results }
            return results.map { .skipped($0.name, expected: $0.expected, because: "not among the checks asked for") }
        }
    }

    /// The checks that need only what the client reported and the session's counters, in the order
    /// `evaluate()` gives them: what a search of someone else's network can be held to. The stop's timing,
    /// the M-SEARCH messages, what each device heard and the reports against what the devices sent are
    /// judged on the devices' side, so they are not among them.
    package func evaluateReports() -> [CheckResult] {
        [stopReason(), nothingAfterStop(), eachServiceOnce(), onlySearchedTarget(), foundAtStop()]
            + found() + dropped() + [error()]
    }

    // MARK: - Stop and timeout

    private func stop() -> CheckResult {
        guard let designed = policy.stopTime(in: search, answers: record.answers) else {
            return .skipped("stop", expected: "one stop", because: "the client's policy leaves its stop unjudged")
        }
        let within = tolerance == .zero ? "" : " ± \(tolerance.secondsText) s"
        let idle: String =
            if case .idle(let idle) = policy.stop {
                " (\(idle.secondsText) s after the last answer sent to it, at \((designed - idle).secondsText) s)"
            } else { "" }
        let expected = "one stop at \(designed.secondsText) s\(within)\(idle)"
        let endings = record.endings
        let actual =
            endings.isEmpty
            ? "no stop"
            : endings.map { "\(describe($0.outcome)) at \($0.at.secondsText) s" }.joined(separator: "; ")
        guard endings.count == 1, let ending = endings.first else {
            return CheckResult(name: "stop", passed: false, expected: expected, actual: actual)
                .resting(on: CheckEvidence(ending: true))
        }
        let onTime = distance(ending.at, designed) <= tolerance
        let passed: Bool
        switch ending.outcome {
        case .stopped: passed = onTime
        // An expected error ends the search whenever it happens; the error check says whether it was the one.
        case .failed: passed = expect.error != nil && ending.at <= designed + tolerance
        case .found: passed = false
        }
        return CheckResult(name: "stop", passed: passed, expected: expected, actual: actual)
            .resting(on: CheckEvidence(ending: true))
    }

    /// Why the session stopped, as the scenario expects (`timedOut` unless it sends no searches).
    private func stopReason() -> CheckResult {
        let expected: RunRecord.StopReason = expect.stopReason ?? (search.requests == 0 ? .noSearchRequests : .timedOut)
        guard record.mode != .externalClient else {
            return .skipped(
                "stop reason",
                expected: expected.rawValue,
                because: "an external client's stop is its exit, which carries no reason"
            )
        }
        // Each stop's reason: an optional inside compactMap's optional, since a stop may give no reason
        // (nil) while an ending that is not a stop is left out.
        let reasons = record.endings.compactMap { ending -> RunRecord.StopReason?? in
            if case .stopped(let reason, _) = ending.outcome { reason } else { nil }
        }
        // An expected error ends the search with no stop reason; the error check judges it.
        if reasons.isEmpty, expect.error != nil {
            return .skipped(
                "stop reason",
                expected: expected.rawValue,
                because: "the search ended in the expected error"
            )
        }
        return CheckResult(
            name: "stop reason",
            passed: reasons == [expected],
            expected: expected.rawValue,
            actual: reasons.isEmpty ? "no stop" : reasons.map(RunRecord.StopReason.describe).joined(separator: ", ")
        ).resting(on: CheckEvidence(ending: true))
    }

    /// The number of services the stop says were found is the number reported.
    private func foundAtStop() -> CheckResult {
        let expected = "the stop counts every service reported"
        guard record.mode != .externalClient else {
            return .skipped(
                "found at the stop",
                expected: expected,
                because: "an external client's stop carries no count"
            )
        }
        let counts = record.endings.compactMap { ending -> Int? in
            if case .stopped(_, let found) = ending.outcome { found } else { nil }
        }
        guard let count = counts.first else {
            return .skipped(
                "found at the stop",
                expected: expected,
                because: "the search did not stop (see the stop check)"
            )
        }
        return CheckResult(
            name: "found at the stop",
            passed: count == reportedServices.count,
            expected: "\(reportedServices.count) found at the stop, as reported",
            actual: "\(count) found at the stop"
        ).resting(on: CheckEvidence(ending: true))
    }

    private func nothingAfterStop() -> CheckResult {
        let firstEnding = record.outcomes.firstIndex { !$0.outcome.isReport }
        let after =
            firstEnding.map {
                record.outcomes[($0 + 1)...].filter(\.outcome.isReport)
            } ?? []
        let late = record.statistics.map { ", \($0.notSearching) datagrams arrived after it" } ?? ""
        let reportsBefore = firstEnding.map { record.outcomes[..<$0].filter { $0.outcome.isReport }.count }
        return CheckResult(
            name: "nothing reported after the stop",
            passed: after.isEmpty,
            expected: "no service reported after the stop",
            actual: after.isEmpty
                ? "none\(late)"
                : "\(after.count) reported after it, first \(describe(after[0].outcome)) at \(after[0].at.secondsText) s"
        ).resting(
            on: CheckEvidence(
                reports: reportsBefore.map { Array($0..<($0 + after.count)) } ?? [],
                ending: !after.isEmpty
            )
        )
    }

    // MARK: - What was reported

    private func eachServiceOnce() -> CheckResult {
        var seen: [FoundExpectation.Service: Int] = [:]
        seen.reserveCapacity(reportedServices.count)
        for report in reportedServices {
            seen[FoundExpectation.Service(usn: report.usn, st: report.st), default: 0] += 1
        }
        let repeated = seen.filter { $0.value > 1 }.sorted { $0.key < $1.key }
        let repeatedKeys = Set(repeated.map(\.key))
        let repeatedReports = reportedServices.indices.filter {
            repeatedKeys.contains(FoundExpectation.Service(usn: reportedServices[$0].usn, st: reportedServices[$0].st))
        }
        let arrived = record.statistics.map { ", \($0.duplicates) duplicate answers dropped" } ?? ""
        return CheckResult(
            name: "each service reported once",
            passed: repeated.isEmpty,
            expected: "no (USN, ST) reported twice",
            actual: repeated.isEmpty
                ? "\(Self.services(seen.count)), each once\(arrived)"
                : repeated.prefix(3).map { "\($0.key) reported \($0.value) times" }.joined(separator: "; ")
                    + (repeated.count > 3 ? "; and \(repeated.count - 3) more" : "")
        ).resting(on: CheckEvidence(reports: repeatedReports))
    }

    private func onlySearchedTarget() -> CheckResult {
        // A device must echo the searched ST (UDA 1.1 §1.3.2, §1.3.3), so the check asks for equality, as the
        // session does (the original design's `contains` would keep a `:10` answer to a `:1` search; README).
        let target = search.target
        let wrongReports = reportedServices.indices.filter {
            target != "ssdp:all" && reportedServices[$0].st != target
        }
        let wrong = wrongReports.map { reportedServices[$0] }
        let dropped = record.statistics.map { ", \($0.wrongSearchTarget) wrong-target answers dropped" } ?? ""
        return CheckResult(
            name: "only the searched target reported",
            passed: wrong.isEmpty,
            expected: target == "ssdp:all" ? "any ST (ssdp:all)" : "every reported ST is \(target)",
            actual: wrong.isEmpty
                ? "all \(reportedServices.count) match\(dropped)"
                : "\(wrong.count) do not, first \(wrong[0].usn) with ST \(wrong[0].st)"
        ).resting(on: CheckEvidence(reports: wrongReports))
    }

    /// Each reported service is one a device sent: its USN, and the ST, LOCATION and SERVER the client gave
    /// with it, exactly as in one of the answers or alive NOTIFYs on the wire (any device, any copy).
    private func asAdvertised() -> CheckResult {
        // A report that gives every field and matches an advertisement exactly passes; only the others are
        // held against the device's advertisements field by field, to say which field differs.
        var byUSN: [String: [Advertisement]]?
        var wrong: [String] = []
        var wrongReports: [Int] = []
        for (index, report) in reportedServices.enumerated() {
            if report.stGiven, let location = report.location, let server = report.server,
                record.advertised.contains(
                    Advertisement(usn: report.usn, st: report.st, location: location, server: server)
                )
            {
                continue
            }
            if byUSN == nil { byUSN = Dictionary(grouping: record.advertised, by: \.usn) }
            guard var copies = byUSN?[report.usn] else {
                wrong.append("\(report.usn): no device sent this USN")
                wrongReports.append(index)
                continue
            }
            let fields: [(name: String, reported: String?, sent: (Advertisement) -> String?)] = [
                ("ST", report.stGiven ? report.st : nil, \.st),
                ("LOCATION", report.location, \.location),
                ("SERVER", report.server, \.server),
            ]
            for field in fields {
                guard let reported = field.reported else { continue }
                let matching = copies.filter { field.sent($0) == reported }
                guard matching.isEmpty else {
                    copies = matching
                    continue
                }
                let sent = Set(copies.map { field.sent($0) ?? "none" }).sorted().prefix(2).joined(separator: " or ")
                wrong.append("\(report.usn): \(field.name) \(reported), the device sent \(sent)")
                wrongReports.append(index)
                break
            }
        }
        return CheckResult(
            name: "reported as a device sent it",
            passed: wrong.isEmpty,
            expected: "USN, ST, LOCATION and SERVER of each report as a device sent them",
            actual: wrong.isEmpty
                ? "all \(reportedServices.count) as sent (\(record.advertised.count) distinct advertisements on the wire)"
                : wrong.prefix(3).joined(separator: "; ") + (wrong.count > 3 ? "; and \(wrong.count - 3) more" : "")
        ).resting(on: CheckEvidence(reports: wrongReports))
    }

    private func found() -> [CheckResult] {
        guard let expectation = expect.found else { return [] }
        var results: [CheckResult] = []
        let reported = Set(reportedServices.map { FoundExpectation.Service(usn: $0.usn, st: $0.st) })
        if let services = expectation.services {
            let expected = Set(services)
            let missing = expected.subtracting(reported).sorted()
            let extra = reported.subtracting(expected).sorted()
            var actual: [String] = []
            if !missing.isEmpty { actual.append("missing \(list(missing))") }
            if !extra.isEmpty { actual.append("unexpected \(list(extra))") }
            results.append(
                CheckResult(
                    name: "found services",
                    passed: missing.isEmpty && extra.isEmpty,
                    expected: "exactly \(Self.services(expected.count))",
                    actual: actual.isEmpty ? "exactly those \(expected.count)" : actual.joined(separator: "; ")
                ).resting(on: CheckEvidence(reports: reports(of: Set(extra))))
            )
        }
        if let including = expectation.including {
            let missing = Set(including).subtracting(reported).sorted()
            results.append(
                CheckResult(
                    name: "found services included",
                    passed: missing.isEmpty,
                    expected: "these \(Self.services(including.count)) among those reported",
                    actual: missing.isEmpty
                        ? "all \(Set(including).count) among the \(reported.count) reported"
                        : "missing \(list(missing))"
                )
            )
        }
        if let count = expectation.count {
            results.append(
                CheckResult(
                    name: "found count",
                    passed: count.accepts(reportedServices.count),
                    expected: "\(count) \(count.description == "1" ? "service" : "services") reported",
                    actual: "\(reportedServices.count) reported (\(reported.count) distinct)"
                )
            )
        }
        return results
    }

    /// The indices of the reports of these services.
    private func reports(of services: Set<FoundExpectation.Service>) -> [Int] {
        reportedServices.indices.filter {
            services.contains(FoundExpectation.Service(usn: reportedServices[$0].usn, st: reportedServices[$0].st))
        }
    }

    /// "1 service", "3 services".
    static func services(_ count: Int) -> String { count == 1 ? "1 service" : "\(count) services" }

    private func list(_ services: [FoundExpectation.Service]) -> String {
        services.prefix(3).map(\.description).joined(separator: ", ")
            + (services.count > 3 ? " and \(services.count - 3) more" : "")
    }

    // MARK: - What was sent

    private func searchesSent() -> CheckResult {
        let expected = policy.expectedSearches(search: search, expect: expect)
        return CheckResult(
            name: "M-SEARCH count",
            passed: record.searches.count == expected,
            expected: "\(expected) M-SEARCH messages",
            actual: "\(record.searches.count) sent"
        ).resting(on: CheckEvidence(searches: Array(record.searches.indices)))
    }

    private func searchSpacing() -> [CheckResult] {
        guard !record.searches.isEmpty, record.searches.count <= policy.searches ?? search.requests else { return [] }
        let offsets = record.searches.indices.map { policy.offset(of: $0, in: search) }
        let designed = offsets.compactMap { $0 }
        guard designed.count == offsets.count else { return [] }
        let actual = record.searches.map(\.at)
        let worst = zip(designed, actual).map { distance($0, $1) }.max() ?? .zero
        return [
            CheckResult(
                name: "M-SEARCH spacing",
                passed: worst <= tolerance,
                expected: "at " + designed.map(\.secondsText).joined(separator: ", ") + " s",
                actual: "at " + actual.map(\.secondsText).joined(separator: ", ") + " s"
            ).resting(
                on: CheckEvidence(searches: actual.indices.filter { distance(designed[$0], actual[$0]) > tolerance })
            )
        ]
    }

    private func searchHeaders() -> [CheckResult] {
        let expected: [(String, String)] = [
            ("HOST", searchHost), ("MAN", "\"ssdp:discover\""), ("MX", "\(policy.mx ?? search.mx)"),
            ("ST", policy.target ?? search.target),
        ]
        var wrong: [String] = []
        var wrongSearches: [Int] = []
        for (index, sent) in record.searches.enumerated() {
            for (name, value) in expected where sent.headers[name] != value {
                wrong.append("#\(index + 1) \(name) \(sent.headers[name].map { "\"\($0)\"" } ?? "missing")")
                if wrongSearches.last != index { wrongSearches.append(index) }
            }
        }
        guard !record.searches.isEmpty else { return [] }
        return [
            CheckResult(
                name: "M-SEARCH headers",
                passed: wrong.isEmpty,
                expected: expected.map { "\($0.0): \($0.1)" }.joined(separator: ", "),
                actual: wrong.isEmpty
                    ? "all \(record.searches.count) as expected" : wrong.prefix(4).joined(separator: "; ")
            ).resting(on: CheckEvidence(searches: wrongSearches))
        ]
    }

    private func hearings() -> CheckResult {
        let name = "every device heard the searches"
        let expected = "each device accepts every M-SEARCH the network delivers"
        guard let hearings = record.hearings else {
            return .skipped(
                name,
                expected: expected,
                because: "only the virtual network knows what it delivered to each device"
            )
        }
        let deaf = hearings.filter { $0.heard != $0.delivered }
        let lost = hearings.reduce(0) { $0 + max(0, record.searches.count - $1.delivered) }
        return CheckResult(
            name: name,
            passed: deaf.isEmpty,
            expected: expected,
            actual: deaf.isEmpty
                ? "\(hearings.count) devices heard \(hearings.map(\.heard).reduce(0, +)) (\(lost) lost on the way)"
                : deaf.prefix(3).map { "device \($0.device) heard \($0.heard) of \($0.delivered)" }.joined(
                    separator: "; "
                )
        )
    }

    // MARK: - After discovery

    /// The client's HTTP behaviour, where it is watched (an external client): how often it fetched each
    /// LOCATION, and the actions it called. Elsewhere there is nothing to check (the session fetches nothing).
    private func http() -> [CheckResult] {
        guard let expectation = expect.http else { return [] }
        guard let activity = record.http else {
            let names =
                (expectation.locationFetches == nil ? [] : ["LOCATION fetches"])
                + expectation.actions.map { "called \($0.action)" }
            return names.map { name in
                .skipped(
                    name,
                    expected: "an external client's HTTP requests",
                    because: "the project's own session fetches nothing; run with --client"
                )
            }
        }
        var results: [CheckResult] = []
        if let count = expectation.locationFetches {
            // The devices' LOCATIONs the client reported or fetched: a device it rightly ignored (another
            // target) need not be fetched.
            let reported = Set(
                record.outcomes.compactMap { entry -> String? in
                    if case .found(let service) = entry.outcome { service.location } else { nil }
                }
            )
            let fetches = activity.locations.map { location in
                (
                    location,
                    activity.requests.filter { ($0.method == "GET" || $0.method == "HEAD") && $0.url == location }.count
                )
            }.filter { reported.contains($0.0) || $0.1 > 0 }
            let wrong = fetches.filter { !count.accepts($0.1) }
            results.append(
                CheckResult(
                    name: "LOCATION fetches",
                    passed: !fetches.isEmpty && wrong.isEmpty,
                    expected:
                        "each LOCATION reported or fetched is fetched \(count) \(count.range == 1...1 ? "time" : "times")",
                    actual: fetches.isEmpty
                        ? "no LOCATION reported or fetched"
                        : wrong.isEmpty
                            ? "\(fetches.count) LOCATIONs, fetched \(fetches.map { String($0.1) }.joined(separator: ", ")) times"
                            : wrong.prefix(3).map { "\($0.0) fetched \($0.1) times" }.joined(separator: "; ")
                ).resting(
                    on: CheckEvidence(
                        requests: activity.requests.indices.filter {
                            let request = activity.requests[$0]
                            return (request.method == "GET" || request.method == "HEAD")
                                && wrong.contains { $0.0 == request.url }
                        }
                    )
                )
            )
        }
        for expected in expectation.actions {
            let calls = activity.actions.filter { call in
                call.action == expected.action && expected.arguments.allSatisfy { call.arguments[$0.key] == $0.value }
            }
            let with = expected.arguments.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(
                separator: " "
            )
            let others = activity.actions.filter { $0.action == expected.action }.count - calls.count
            results.append(
                CheckResult(
                    name: "called \(expected.action)",
                    passed: expected.count.accepts(calls.count),
                    expected: "\(expected.action)\(with.isEmpty ? "" : " with \(with)") called \(expected.count) times",
                    actual: "\(calls.count) such calls" + (others > 0 ? ", \(others) with other arguments" : "")
                )
            )
        }
        return results
    }

    // MARK: - Drops and errors

    private func dropped() -> [CheckResult] {
        expect.dropped.sorted { $0.key.rawValue < $1.key.rawValue }.map { drop, count in
            let name = "dropped \(drop.rawValue)"
            guard let statistics = record.statistics else {
                return .skipped(
                    name,
                    expected: "\(count)",
                    because: "an external client's drop counters cannot be seen"
                )
            }
            let value = statistics[drop]
            return CheckResult(name: name, passed: count.accepts(value), expected: "\(count)", actual: "\(value)")
        }
    }

    private func error() -> CheckResult {
        let errors = record.outcomes.compactMap { entry -> String? in
            guard case .failed(let reason) = entry.outcome else { return nil }
            return reason
        }
        guard let expected = expect.error else {
            return CheckResult(
                name: "error",
                passed: errors.isEmpty,
                expected: "no error",
                actual: errors.isEmpty ? "none" : errors.joined(separator: "; ")
            ).resting(on: CheckEvidence(ending: !errors.isEmpty))
        }
        return CheckResult(
            name: "error",
            passed: errors.count == 1 && errors[0].contains(expected),
            expected: "one error containing \"\(expected)\"",
            actual: errors.isEmpty ? "none" : errors.joined(separator: "; ")
        ).resting(on: CheckEvidence(ending: true))
    }

    private func distance(_ a: Duration, _ b: Duration) -> Duration {
        a > b ? a - b : b - a
    }

    private func describe(_ outcome: RunRecord.Outcome) -> String {
        switch outcome {
        case .found(let service): "\(service)"
        case .stopped(let reason, let found): "stop (\(RunRecord.StopReason.describe(reason)), \(found) found)"
        case .failed(let reason): "error \"\(reason)\""
        }
    }
}
