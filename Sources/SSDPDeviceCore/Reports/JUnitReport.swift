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

/// A report as JUnit XML, the form CI systems read: suites of test cases, each passed, failed, skipped
/// or in error. The one writer of both reports that give JUnit (`ssdp-sim run`'s scenarios and
/// `ssdp-sim check`'s rules): each says what its suites and cases are, and the counts, the escaping and
/// the layout are written here, once.
package struct JUnitReport: Sendable {
    /// How one test case went.
    package enum Outcome: Sendable {
        case passed
        /// `message` is the one line a CI page shows; `text` the whole story.
        case failed(message: String, type: String? = nil, text: String)
        case skipped(message: String)
        /// The case could not be run at all.
        case error(message: String)
    }

    package struct TestCase: Sendable {
        package var className: String
        package var name: String
        package var outcome: Outcome
        /// What the case printed (a warning of a case that passed).
        package var output: String?

        package init(className: String, name: String, outcome: Outcome, output: String? = nil) {
            self.className = className
            self.name = name
            self.outcome = outcome
            self.output = output
        }
    }

    package struct Suite: Sendable {
        package var name: String
        package var file: String?
        /// How long it took, when measured.
        package var time: Duration?
        package var properties: [(name: String, value: String)] = []
        package var cases: [TestCase]
        /// What the suite printed (a scenario's description).
        package var output: String?

        package init(
            name: String,
            file: String? = nil,
            time: Duration? = nil,
            properties: [(name: String, value: String)] = [],
            cases: [TestCase],
            output: String? = nil
        ) {
            self.name = name
            self.file = file
            self.time = time
            self.properties = properties
            self.cases = cases
            self.output = output
        }
    }

    /// The whole report's name (`ssdp-sim run in virtual time`).
    package var name: String
    package var suites: [Suite]

    package init(name: String, suites: [Suite]) {
        self.name = name
        self.suites = suites
    }

    /// The report as an XML document: `<testsuites>` with the counts of every suite together, then each
    /// `<testsuite>` with its own counts, its properties, its cases and its output.
    package var xml: String {
        let all = suites.flatMap(\.cases)
        let time = suites.compactMap(\.time)
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        let total = time.isEmpty ? nil : time.reduce(Duration.zero, +)
        xml += "<testsuites \(Self.attributes(name: name, counting: all, time: total))>\n"
        for suite in suites {
            xml +=
                "  <testsuite \(Self.attributes(name: suite.name, file: suite.file, counting: suite.cases, time: suite.time))>\n"
            if !suite.properties.isEmpty {
                xml += "    <properties>"
                for property in suite.properties {
                    xml +=
                        #"<property name="\#(Self.escaped(property.name))" value="\#(Self.escaped(property.value))"/>"#
                }
                xml += "</properties>\n"
            }
            for testCase in suite.cases { xml += Self.element(testCase) }
            if let output = suite.output { xml += "    <system-out>\(Self.escaped(output))</system-out>\n" }
            xml += "  </testsuite>\n"
        }
        return xml + "</testsuites>\n"
    }

    /// `name="…" tests="…" failures="…" errors="…" skipped="…"`, with `file="…"` after the name and
    /// `time="…"` at the end when there are.
    private static func attributes(
        name: String,
        file: String? = nil,
        counting cases: [TestCase],
        time: Duration?
    ) -> String {
        var (failures, errors, skipped) = (0, 0, 0)
        for testCase in cases {
            switch testCase.outcome {
            case .passed: break
            case .failed: failures += 1
            case .skipped: skipped += 1
            case .error: errors += 1
            }
        }
        let counts = #"tests="\#(cases.count)" failures="\#(failures)" errors="\#(errors)" skipped="\#(skipped)""#
        let filed = file.map { #" file="\#(escaped($0))""# } ?? ""
        return #"name="\#(escaped(name))"\#(filed) "# + counts
            + (time.map { #" time="\#($0.microsecondsText)""# } ?? "")
    }

    private static func element(_ testCase: TestCase) -> String {
        let open = #"    <testcase classname="\#(escaped(testCase.className))" name="\#(escaped(testCase.name))""#
        var body = ""
        switch testCase.outcome {
        case .passed:
            break
        case .failed(let message, let type, let text):
            let typed = type.map { #" type="\#(escaped($0))""# } ?? ""
            body = #"<failure message="\#(escaped(message))"\#(typed)>\#(escaped(text))</failure>"#
        case .skipped(let message):
            body = #"<skipped message="\#(escaped(message))"/>"#
        case .error(let message):
            body = #"<error message="\#(escaped(message))"/>"#
        }
        if let output = testCase.output { body += "<system-out>\(escaped(output))</system-out>" }
        return body.isEmpty ? open + "/>\n" : open + ">" + body + "</testcase>\n"
    }

    /// XML's five entities, and what XML cannot carry replaced: the project's one escaper.
    private static func escaped(_ text: String) -> String {
        SSDPRootDevice.escaped(text)
    }
}
