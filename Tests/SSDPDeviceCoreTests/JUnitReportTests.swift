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
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// The one JUnit writer that `run`'s and `check`'s reports share: counts, escaping and times.
@Suite struct JUnitReportTests {
    static let report = JUnitReport(
        name: "a <run>",
        suites: [
            JUnitReport.Suite(
                name: "first",
                file: "dir/it's.json",
                time: .microseconds(21),
                properties: [("seed", "7")],
                cases: [
                    JUnitReport.TestCase(className: "c", name: "passes", outcome: .passed),
                    JUnitReport.TestCase(className: "c", name: "warns", outcome: .passed, output: "warning: spelt so"),
                    JUnitReport.TestCase(
                        className: "c",
                        name: "fails",
                        outcome: .failed(message: "expected 3; got 2", type: "expectation", text: "a & b\u{1}")
                    ),
                ],
                output: "what it was"
            ),
            JUnitReport.Suite(
                name: "second",
                time: .seconds(2),
                cases: [
                    JUnitReport.TestCase(className: "d", name: "skips", outcome: .skipped(message: "not seen")),
                    JUnitReport.TestCase(className: "d", name: "run", outcome: .error(message: "no socket")),
                ]
            ),
        ]
    )

    @Test func countsEachOutcomeInItsSuiteAndInTheWhole() throws {
        let xml = Self.report.xml
        #expect(
            xml.contains(
                #"<testsuites name="a &lt;run&gt;" tests="5" failures="1" errors="1" skipped="1" time="2.000021">"#
            )
        )
        #expect(
            xml.contains(
                #"<testsuite name="first" file="dir/it&apos;s.json" tests="3" failures="1" errors="0" skipped="0" time="0.000021">"#
            )
        )
        #expect(
            xml.contains(#"<testsuite name="second" tests="2" failures="0" errors="1" skipped="1" time="2.000000">"#)
        )
        // A warning passes and says so; the failure's text is escaped, a control character replaced.
        #expect(xml.contains(#"name="warns"><system-out>warning: spelt so</system-out></testcase>"#))
        #expect(
            xml.contains(
                #"<failure message="expected 3; got 2" type="expectation">a &amp; b"# + "\u{FFFD}</failure>"
            )
        )
        #expect(xml.contains(#"<testcase classname="c" name="passes"/>"#))
        #expect(xml.contains(#"<properties><property name="seed" value="7"/></properties>"#))
        #expect(xml.contains("<system-out>what it was</system-out>\n  </testsuite>"))
        #expect(XMLParser(data: Data(xml.utf8)).parse())
    }

    @Test func aReportWithoutTimesHasNone() {
        let report = JUnitReport(
            name: "check",
            suites: [JUnitReport.Suite(name: "gena", cases: [])]
        )
        #expect(!report.xml.contains("time="))
        #expect(report.xml.contains(#"<testsuite name="gena" tests="0" failures="0" errors="0" skipped="0">"#))
    }

    @Test(arguments: [
        (Duration.zero, "0.000000"), (.microseconds(21), "0.000021"), (.milliseconds(9_100), "9.100000"),
        (.nanoseconds(1_234_567_892_999), "1234.567892"), (.microseconds(-250), "-0.000250"),
    ])
    func timesArePlainDecimalsToTheMicrosecond(time: Duration, written: String) {
        let report = JUnitReport(name: "t", suites: [JUnitReport.Suite(name: "s", time: time, cases: [])])
        #expect(
            report.xml.contains(
                #"<testsuite name="s" tests="0" failures="0" errors="0" skipped="0" time="\#(written)">"#
            )
        )
    }
}
