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
import SSDPDeviceCore

// JUnit XML, as CI systems read it.

extension Reports {
    /// JUnit XML as CI systems read it: one test suite per scenario run and one test case per check, a
    /// `<failure>` for a failed check, `<skipped>` with the reason for a check the mode cannot observe (an
    /// external client's drop counters) and for a run that did not apply, `<error>` for a run the harness
    /// could not make.
    /// `title` names the whole report (`ssdp-sim run in virtual time`).
    public static func junit(_ results: [ScenarioResult], title: String) -> String {
        let cases = results.map { result in
            result.skipped != nil || result.harnessError != nil ? 1 : max(result.checks.count, 1)
        }.reduce(0, +)
        let failures = results.map(\.failedChecks.count).reduce(0, +)
        let errors = results.filter { $0.harnessError != nil }.count
        let skipped = results.map { $0.skipped != nil ? 1 : $0.skippedChecks.count }.reduce(0, +)
        let time = decimal(results.reduce(.zero) { $0 + $1.elapsed })
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml +=
            "<testsuites name=\"\(escape(title))\" tests=\"\(cases)\" failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"\(skipped)\" time=\"\(time)\">\n"
        for result in results {
            let name = escape(caseName(result))
            let failed = result.failedChecks.count
            let skippedHere = result.skipped != nil ? 1 : result.skippedChecks.count
            let tests = result.skipped != nil || result.harnessError != nil ? 1 : max(result.checks.count, 1)
            xml +=
                "  <testsuite name=\"\(name)\" file=\"\(escape(result.scenario.file))\" tests=\"\(tests)\" failures=\"\(failed)\""
            xml +=
                " errors=\"\(result.harnessError == nil ? 0 : 1)\" skipped=\"\(skippedHere)\" time=\"\(decimal(result.elapsed))\">\n"
            xml +=
                "    <properties><property name=\"seed\" value=\"\(result.seed)\"/><property name=\"mode\" value=\"\(result.mode.rawValue)\"/>"
            xml += "<property name=\"ssdp-sim\" value=\"\(ToolVersion.current)\"/></properties>\n"
            let classname = "scenarios.\(result.mode.rawValue).\(escape(result.scenario.name))"
            if let reason = result.skipped {
                xml +=
                    "    <testcase classname=\"\(classname)\" name=\"run\"><skipped message=\"\(escape(reason))\"/></testcase>\n"
            } else if let error = result.harnessError {
                xml +=
                    "    <testcase classname=\"\(classname)\" name=\"run\"><error message=\"\(escape(error))\"/></testcase>\n"
            } else {
                for check in result.checks {
                    xml += "    <testcase classname=\"\(classname)\" name=\"\(escape(check.name))\">"
                    switch check.status {
                    case .passed:
                        break
                    case .failed:
                        let line = "expected \(check.expected); got \(check.actual)"
                        xml +=
                            "<failure message=\"\(escape(line))\" type=\"expectation\">\(escape(line + "\nseed \(result.seed)"))</failure>"
                    case .skipped:
                        xml += "<skipped message=\"\(escape(check.actual))\"/>"
                    }
                    xml += "</testcase>\n"
                }
            }
            xml += "    <system-out>\(escape(result.scenario.description))</system-out>\n"
            xml += "  </testsuite>\n"
        }
        xml += "</testsuites>\n"
        return xml
    }

    /// Each failed expectation as one line: name, expected, actual.
    public static func failureLines(_ result: ScenarioResult) -> [String] {
        if let error = result.harnessError { return ["could not run: \(error)"] }
        return result.failedChecks.map { "\($0.name): expected \($0.expected); got \($0.actual)" }
    }

    static func caseName(_ result: ScenarioResult) -> String {
        result.seed == result.scenario.seed ? result.scenario.name : "\(result.scenario.name) [seed \(result.seed)]"
    }

    /// Seconds with six decimals and never an exponent, as JUnit's `xs:decimal` times need.
    static func decimal(_ duration: Duration) -> String {
        String(format: "%.6f", duration.inSeconds)
    }

    /// XML's five entities, and what XML cannot carry replaced: the one escaper `check`'s JUnit and the
    /// device descriptions use too.
    private static func escape(_ text: String) -> String {
        SSDPRootDevice.escaped(text)
    }
}
