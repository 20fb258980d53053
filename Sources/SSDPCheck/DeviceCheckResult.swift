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
import SSDPDeviceCore

/// One check made of a device: which rule, about what, how it went, and the evidence of a failure.
package struct DeviceCheckResult: Sendable, Hashable, Codable {
    /// How a check went.
    package enum Outcome: String, Sendable, Hashable, Codable {
        /// The device follows the rule.
        case passed
        /// The device follows the rule, but in a way the specs allow and clients are known to trip on
        /// (`Cache-Control:` where UDA writes `CACHE-CONTROL:`); `detail` says how. Fails a `--strict` run.
        case warned
        /// The device breaks the rule; `detail` says how and `evidence` shows it.
        case failed
        /// The check was not made; `detail` says why (skipped by name, or nothing to check it on).
        case skipped
    }

    /// The check's stable name, `group.rule`: `discovery.answers`, `gena.unknown-sid`.
    package var check: String
    /// The device's LOCATION; empty before one is known.
    package var location: String = ""
    /// What the check was made on: a device's UDN, a service's type, an action; empty for the device as
    /// a whole.
    package var subject: String
    /// How it went.
    package var outcome: Outcome
    /// Why it failed or was skipped; for a pass, what was seen (`"4 answers"`), or empty.
    package var detail: String
    /// The datagram or the HTTP exchange that shows a failure, cut to `maximumEvidence` bytes; empty when
    /// there is nothing to show (no answer at all).
    package var evidence: String

    /// The most evidence one result carries.
    package static let maximumEvidence = 4_096

    /// A result; `evidence` is cut to `maximumEvidence`.
    package init(check: String, subject: String = "", outcome: Outcome, detail: String = "", evidence: String = "") {
        self.check = check
        self.subject = subject
        self.outcome = outcome
        self.detail = detail
        self.evidence =
            evidence.utf8.count > Self.maximumEvidence
            ? String(decoding: evidence.utf8.prefix(Self.maximumEvidence), as: UTF8.self) + "\n… (cut)"
            : evidence
    }

    /// The group the check belongs to: `discovery`, `description`, `scpd`, `gena`, `control`.
    package var group: String { String(check.prefix { $0 != "." }) }

    static func passed(_ check: String, _ subject: String = "", _ detail: String = "") -> Self {
        Self(check: check, subject: subject, outcome: .passed, detail: detail)
    }

    static func failed(_ check: String, _ subject: String = "", _ detail: String, evidence: String = "") -> Self {
        Self(check: check, subject: subject, outcome: .failed, detail: detail, evidence: evidence)
    }

    static func warned(_ check: String, _ subject: String = "", _ detail: String, evidence: String = "") -> Self {
        Self(check: check, subject: subject, outcome: .warned, detail: detail, evidence: evidence)
    }

    static func skipped(_ check: String, _ subject: String = "", _ why: String) -> Self {
        Self(check: check, subject: subject, outcome: .skipped, detail: why)
    }

    /// Passed when `failure` is `nil`, else failed with it.
    static func expect(
        _ check: String,
        _ subject: String = "",
        failure: String?,
        passed detail: String = "",
        evidence: String = ""
    ) -> Self {
        failure.map { .failed(check, subject, $0, evidence: evidence) } ?? .passed(check, subject, detail)
    }
}

/// Everything one `ssdp-sim check` found: the results in the order the checks ran.
package struct DeviceCheckReport: Sendable, Hashable, Codable {
    /// What was checked, as the user named it.
    package var target: String
    /// The results, in the order made.
    package var results: [DeviceCheckResult]

    /// A report of `results` about `target`.
    package init(target: String, results: [DeviceCheckResult]) {
        self.target = target
        self.results = results
    }

    /// How many results had each outcome.
    package var counts: DeviceCheckCounts { DeviceCheckCounts(self) }

    /// How many results had `outcome`.
    package func count(_ outcome: DeviceCheckResult.Outcome) -> Int {
        results.count { $0.outcome == outcome }
    }

    /// Whether nothing failed (nor, when `strict`, warned) and something was checked.
    package func passed(strict: Bool = false) -> Bool {
        count(.failed) == 0 && (!strict || count(.warned) == 0) && count(.passed) + count(.warned) > 0
    }
}

extension DeviceCheckReport {
    /// The report as JUnit XML: one test suite per group of checks, one test case per result, a failure
    /// with its evidence, a skip with its reason. What a device team's CI shows as tests. A test case is
    /// named without the device's HTTP port, which a device (or `serve --http-port any`) may pick anew each
    /// run, so that CI can follow one test across runs.
    package func junit(title: String) -> String {
        var groups: [String] = []
        for result in results where !groups.contains(result.group) { groups.append(result.group) }
        let suites = groups.map { group in
            JUnitReport.Suite(name: group, cases: results.filter { $0.group == group }.map(junitCase))
        }
        return JUnitReport(name: title, suites: suites).xml
    }

    /// One result as a JUnit case, named by its check and subject and classed by its LOCATION, without
    /// the port: a warning is a pass that says so.
    private func junitCase(_ result: DeviceCheckResult) -> JUnitReport.TestCase {
        let stable = Self.withoutPort(of: result.location)
        let name = stable(result.subject.isEmpty ? result.check : "\(result.check) \(result.subject)")
        let className = result.location.isEmpty ? target : stable(result.location)
        switch result.outcome {
        case .passed:
            return JUnitReport.TestCase(className: className, name: name, outcome: .passed)
        case .warned:
            return JUnitReport.TestCase(
                className: className,
                name: name,
                outcome: .passed,
                output: "warning: \(result.detail)"
            )
        case .skipped:
            return JUnitReport.TestCase(className: className, name: name, outcome: .skipped(message: result.detail))
        case .failed:
            let failure = JUnitReport.Outcome.failed(message: result.detail, text: result.evidence)
            return JUnitReport.TestCase(className: className, name: name, outcome: failure)
        }
    }

    /// A function that writes `location`'s origin without its port wherever it appears in a text:
    /// `http://127.0.0.2:41971/description.xml` → `http://127.0.0.2/description.xml`.
    static func withoutPort(of location: String) -> (String) -> String {
        guard let url = URL(string: location), let scheme = url.scheme, let host = url.host, let port = url.port else {
            return { $0 }
        }
        let bracketed = host.contains(":") ? "[\(host)]" : host
        let origin = "\(scheme)://\(bracketed):\(port)"
        return { $0.replacingOccurrences(of: origin, with: "\(scheme)://\(bracketed)") }
    }
}

/// How many checks passed, warned, failed and were skipped: what a report's summary says.
package struct DeviceCheckCounts: Sendable, Hashable, Codable {
    /// Checks the device passed.
    package var passed: Int
    /// Checks it passed with a warning.
    package var warned: Int
    /// Checks it failed.
    package var failed: Int
    /// Checks not made.
    package var skipped: Int

    /// The counts of `report`.
    package init(_ report: DeviceCheckReport) {
        passed = report.count(.passed)
        warned = report.count(.warned)
        failed = report.count(.failed)
        skipped = report.count(.skipped)
    }
}
