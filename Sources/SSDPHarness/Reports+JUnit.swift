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

// JUnit XML, as CI systems read it.

extension Reports {
    /// JUnit XML as CI systems read it: one test suite per scenario run and one test case per check, a
    /// `<failure>` for a failed check, `<skipped>` with the reason for a check the mode cannot observe (an
    /// external client's drop counters) and for a run that did not apply, `<error>` for a run the harness
    /// could not make.
    /// `title` names the whole report (`ssdp-sim run in virtual time`).
    package static func junit(_ results: [ScenarioResult], title: String) -> String {
        JUnitReport(name: title, suites: results.map(junitSuite)).xml
    }

    /// One scenario run as a JUnit suite: its checks as cases, or one case `run` that was skipped or could
    /// not be made.
    static func junitSuite(_ result: ScenarioResult) -> JUnitReport.Suite {
        let className = "scenarios.\(result.mode.rawValue).\(result.scenario.name)"
        let cases: [JUnitReport.TestCase]
        if let reason = result.skipped {
            cases = [JUnitReport.TestCase(className: className, name: "run", outcome: .skipped(message: reason))]
        } else if let error = result.harnessError {
            cases = [JUnitReport.TestCase(className: className, name: "run", outcome: .error(message: error))]
        } else {
            cases = result.checks.map { check in
                let outcome: JUnitReport.Outcome
                switch check.status {
                case .passed:
                    outcome = .passed
                case .failed:
                    let line = "expected \(check.expected); got \(check.actual)"
                    outcome = .failed(message: line, type: "expectation", text: line + "\nseed \(result.seed)")
                case .skipped:
                    outcome = .skipped(message: check.actual)
                }
                return JUnitReport.TestCase(className: className, name: check.name, outcome: outcome)
            }
        }
        return JUnitReport.Suite(
            name: caseName(result),
            file: result.scenario.file,
            time: result.elapsed,
            properties: [
                ("seed", "\(result.seed)"), ("mode", result.mode.rawValue), ("ssdp-sim", ToolVersion.current),
            ],
            cases: cases,
            output: result.scenario.description
        )
    }

    /// Each failed expectation as one line: name, expected, actual.
    package static func failureLines(_ result: ScenarioResult) -> [String] {
        if let error = result.harnessError { return ["could not run: \(error)"] }
        return result.failedChecks.map { "\($0.name): expected \($0.expected); got \($0.actual)" }
    }

    static func caseName(_ result: ScenarioResult) -> String {
        result.seed == result.scenario.seed ? result.scenario.name : "\(result.scenario.name) [seed \(result.seed)]"
    }
}
