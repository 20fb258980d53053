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

import Foundation
import SSDPCore
import Testing

@testable import SSDPHarness

/// A client is held to the search policy it declares (`run --client-policy`), and to the groups of checks
/// asked for (`--checks`): a right client with a policy of its own passes, a wrong one still fails by the
/// check made for its mistake, and a scenario the policy cannot make sense of is skipped with its reason.
@Suite struct SearchPolicyTests {
    @Test(arguments: [
        ("design", SearchPolicy.design),
        ("searches=1,mx=3,stop=idle:2", SearchPolicy(searches: 1, mx: 3, stop: .idle(.seconds(2)))),
        ("searches=1,mx=4,stop=after:4", SearchPolicy(searches: 1, mx: 4, stop: .after(.seconds(4)))),
        ("searches=3,spacing=0,st=urn:x:1", SearchPolicy(searches: 3, spacing: .every(.zero), target: "urn:x:1")),
        ("spacing=any,stop=any", SearchPolicy(spacing: .unjudged, stop: .unjudged)),
        ("stop=after:0.25", SearchPolicy(stop: .after(.milliseconds(250)))),
    ])
    func aPolicyReadsAsWrittenAndWritesBackTheSame(text: String, policy: SearchPolicy) throws {
        #expect(try SearchPolicy(parsing: text) == policy)
        #expect(try SearchPolicy(parsing: policy.description) == policy)
    }

    @Test(arguments: [
        ("mx=0", "mx=0: must be a whole number 1...120"),
        ("searches=many", "searches=many: must be a whole number 1...100"),
        ("stop=idle", "stop=idle: expected designed, after:SECONDS, idle:SECONDS or any"),
        ("stop=idle:-1", "stop=idle:-1: expected seconds, 0...3600"),
        ("retries=2", "retries=2: unknown name (searches, spacing, mx, st, stop)"),
        ("mx=3,mx=4", "mx=4: given twice"),
        ("mx", "mx: expected NAME=VALUE"),
    ])
    func aPolicyThatCannotBeReadNamesItsPartAndWhy(text: String, message: String) {
        #expect(throws: RunOptionError.self) { try SearchPolicy(parsing: text) }
        do {
            _ = try SearchPolicy(parsing: text)
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func aScenarioForAnotherTargetOrForNoSearchIsSkippedWithItsReason() throws {
        let scenario = try HarnessFixtures.scenario(HarnessFixtures.chattyPair)
        #expect(SearchPolicy(searches: 1).reasonToSkip(scenario) == nil)
        #expect(
            SearchPolicy(target: "roku:ecp").reasonToSkip(scenario)
                == "the client searches roku:ecp; the scenario expects what a search for upnp:rootdevice finds"
        )
        let none = try HarnessFixtures.scenario(
            HarnessFixtures.chattyPair.replacingOccurrences(of: #""requests": 3"#, with: #""requests": 0"#)
        )
        #expect(SearchPolicy.design.reasonToSkip(none) == nil)
        #expect(
            SearchPolicy(searches: 1).reasonToSkip(none)
                == "the scenario holds a session that sends no search; the client's policy sends 1"
        )
    }

    /// A client that stops a quiet time after the last answer: on time 2 s after the last answer the devices
    /// sent it, early when it gave up while they were still answering.
    @Test func anIdleStopIsJudgedFromTheLastAnswerSentToTheClient() throws {
        let policy = SearchPolicy(searches: 1, mx: 3, stop: .idle(.seconds(2)))
        let onTime = try Self.checks(policy: policy, answers: [0.4, 1.3], stop: 3.4)
        #expect(onTime.first { $0.name == "stop" }?.passed == true, "\(onTime)")
        #expect(onTime.first { $0.name == "stop" }?.expected.contains("2.000 s after the last answer") == true)
        let early = try Self.checks(policy: policy, answers: [0.4, 2.9], stop: 2.0)
        #expect(early.first { $0.name == "stop" }?.failed == true)
        // The design's stop for the same run: 3 searches of MX 1, at 3.1 s.
        let designed = try Self.checks(policy: .design, answers: [0.4, 1.3], stop: 3.4)
        #expect(designed.first { $0.name == "M-SEARCH count" }?.failed == true, "one search, not three")
    }

    @Test func aStopLeftToTheClientIsNotJudgedButWhatItFoundIs() throws {
        let results = try Self.checks(policy: SearchPolicy(searches: 1, stop: .unjudged), answers: [0.2], stop: 60)
        #expect(results.first { $0.name == "stop" }?.skipped == true)
        #expect(results.first { $0.name == "found services" }?.passed == true)
    }

    @Test func checksOutsideTheGroupsAskedForAreSkippedAndTheRestStillJudge() throws {
        let results = try Self.checks(
            policy: .design,
            answers: [0.2],
            stop: 60,
            reports: ["uuid:11111111-0000-4000-8000-000000000001"],
            selection: [.found, .once]
        )
        let stop = try #require(results.first { $0.name == "stop" })
        #expect(stop.skipped && stop.actual == "not among the checks asked for")
        #expect(results.first { $0.name == "M-SEARCH count" }?.skipped == true)
        #expect(results.first { $0.name == "found services" }?.failed == true, "one of two found")
        #expect(results.first { $0.name == "each service reported once" }?.passed == true)
    }

    @Test func checkGroupsAreReadByName() throws {
        #expect(try CheckGroup.parse("found,once,as-sent") == [.found, .once, .asSent])
        #expect(throws: RunOptionError.self) { try CheckGroup.parse("found,timing") }
    }

    /// The checks of an external client's run of the chatty pair: one M-SEARCH at 0, answers at `answers`
    /// seconds, the services of `reports` reported (both honest devices by default), and its exit at `stop`.
    static func checks(
        policy: SearchPolicy,
        answers: [Double],
        stop: Double,
        reports: [String] = [
            "uuid:11111111-0000-4000-8000-000000000001", "uuid:11111111-0000-4000-8000-000000000002",
        ],
        selection: Set<CheckGroup>? = nil
    ) throws -> [CheckResult] {
        let scenario = try HarnessFixtures.scenario(HarnessFixtures.chattyPair)
        var record = RunRecord(mode: .externalClient, seed: 5)
        let search: SSDPHeaders = [
            "HOST": "127.0.0.1:1900", "MAN": "\"ssdp:discover\"", "MX": "\(policy.mx ?? 1)", "ST": "upnp:rootdevice",
        ]
        record.searches = [RunRecord.Search(at: .zero, headers: search)]
        record.answers = answers.map { .milliseconds(Int($0 * 1_000)) }
        for (index, udn) in reports.enumerated() {
            let service = ReportedService(usn: "\(udn)::upnp:rootdevice", st: "upnp:rootdevice")
            record.record(.found(service), at: .milliseconds(100 * (index + 1)))
        }
        record.record(.stopped(reason: .exited, found: reports.count), at: .milliseconds(Int(stop * 1_000)))
        var checks = ScenarioChecks(
            scenario: scenario,
            record: record,
            tolerance: .milliseconds(500),
            searchHost: "127.0.0.1:1900"
        )
        checks.policy = policy
        checks.selection = selection
        return checks.evaluate()
    }
}
