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
import SSDPHarness
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// The report files: JUnit XML that parses, JSON that reads back, pcap files that tcpdump reads, all
/// written whole.
@Suite struct ReportTests {
    /// One passing and one failing run of the same scenario (the failing one expects a device too many).
    static func results() async throws -> [ScenarioResult] {
        let passing = try HarnessFixtures.scenario(HarnessFixtures.chattyPair)
        var failing = passing
        failing.name = "pair-<&\"expecting>-three"
        failing.description = "it's a bell: \u{07}"  // an apostrophe, and a character XML 1.0 cannot carry
        failing.expect.found = FoundExpectation(services: nil, count: CountExpectation(3...3))
        return [
            await ScenarioRunner(trace: .everyDatagram).run(passing),
            await ScenarioRunner(seed: 11, trace: .everyDatagram).run(failing),
        ]
    }

    @Test func junitIsWellFormedXMLWithASuitePerRunAndACasePerCheck() async throws {
        let results = try await Self.results()
        let xml = Reports.junit(results, title: "virtual")
        let elements = try XMLElementCounter.count(xml)
        let checks = results.map(\.checks.count).reduce(0, +)

        #expect(elements["testsuites"] == 1)
        #expect(elements["testsuite"] == 2)
        #expect(elements["testcase"] == checks)
        #expect(elements["failure"] == 1)
        #expect(elements["skipped"] == nil)
        #expect(xml.contains(#"<testsuite name="pair-&lt;&amp;&quot;expecting&gt;-three [seed 11]""#))
        // One escaper for every XML the tool writes: `check`'s JUnit and the descriptions write these so too.
        #expect(xml.contains("<system-out>it&apos;s a bell: \u{FFFD}</system-out>"))
        #expect(xml.contains(#"name="found count"><failure message="expected 3 services reported; got 2 reported"#))
        #expect(
            xml.contains(#"<testsuites name="virtual" tests="\#(checks)" failures="1" errors="0" skipped="0""#)
        )
        // Times are plain decimals, never 2.1e-05, which JUnit schemas reject.
        let times = xml.split(separator: "time=\"").dropFirst().map { $0.prefix { $0 != "\"" } }
        #expect(times.count == 3)
        #expect(times.allSatisfy { $0.wholeMatch(of: /[0-9]+\.[0-9]{6}/) != nil })
    }

    /// An external client's drop counters and stop reason cannot be seen: JUnit says so with `<skipped>`,
    /// JSON with `"status": "skipped"`, and neither counts them as passes.
    @Test func checksAnExternalClientCannotShowAreSkippedNotPassed() async throws {
        let scenario = try HarnessFixtures.scenario(
            HarnessFixtures.chattyPair.replacingOccurrences(
                of: #""expect": {"#,
                with: #""expect": {"dropped": {"duplicates": {"min": 1}}, "#
            )
        )
        #expect(!scenario.expect.dropped.isEmpty)
        let client = "python3 '\(try HarnessFixtures.client("client.py"))'"
        let result = await ScenarioRunner(mode: .externalClient(command: client)).run(scenario)
        #expect(result.passed, "\(Reports.failureLines(result))")
        let skipped = result.skippedChecks.map { $0.name }
        #expect(skipped.contains("stop reason") && skipped.contains("found at the stop"), "\(skipped)")
        #expect(scenario.expect.dropped.keys.allSatisfy { skipped.contains("dropped \($0)") })

        let xml = Reports.junit([result], title: "client")
        let elements = try XMLElementCounter.count(xml)
        #expect(elements["skipped"] == skipped.count)
        #expect(xml.contains(#"name="stop reason"><skipped message="an external client&apos;s stop is its exit"#))
        #expect(xml.contains(#"skipped="\#(skipped.count)""#))
        let object = try JSONSerialization.jsonObject(with: try Reports.json([result])) as? [String: Any]
        #expect(object?["checksSkipped"] as? Int == skipped.count)
        let runs = try #require(object?["scenarios"] as? [[String: Any]])
        let statuses = (runs[0]["checks"] as? [[String: Any]] ?? []).filter { $0["status"] as? String == "skipped" }
        #expect(statuses.count == skipped.count)
    }

    @Test func jsonReadsBackWithChecksAndCounts() async throws {
        let results = try await Self.results()
        let object = try JSONSerialization.jsonObject(with: try Reports.json(results)) as? [String: Any]
        let runs = try #require(object?["scenarios"] as? [[String: Any]])

        #expect(object?["passed"] as? Int == 1)
        #expect(object?["failed"] as? Int == 1)
        #expect(runs[0]["searchesSent"] as? Int == 3)
        #expect(runs[0]["reported"] as? Int == 2)
        #expect(runs[0]["stopSeconds"] as? Double == 3.1)
        #expect((runs[0]["statistics"] as? [String: Int])?["wrongSearchTarget"] ?? 0 > 0)
        #expect(runs[1]["seed"] as? Int == 11)
        #expect((runs[1]["checks"] as? [[String: Any]])?.contains { $0["status"] as? String == "failed" } == true)
    }

    @Test func tcpdumpReadsThePcapBack() async throws {
        let result = try await Self.results()[0]
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("trace-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("pair.pcap").path
        try Reports.writeAtomically(Data(Reports.pcap(result.record.trace)), to: file)

        let tcpdump = try #require(
            ["/usr/bin/tcpdump", "/usr/sbin/tcpdump"].first { FileManager.default.isExecutableFile(atPath: $0) },
            "tcpdump is not installed (apt-get install tcpdump; .ci/run installs it)"
        )
        let output = try Self.run(tcpdump, ["-r", file, "-n", "-tt", "-A"])
        let packets = output.split(separator: "\n").filter { $0.contains(" IP ") }

        #expect(packets.count == result.record.trace.count)
        #expect(packets.first?.hasPrefix("0.000000 IP 10.0.0.1.40000 > 239.255.255.250.1900: UDP") == true)
        #expect(output.contains("M-SEARCH * HTTP/1.1"))
        #expect(output.contains("USN: uuid:11111111-0000-4000-8000-000000000001::upnp:rootdevice"))
        #expect(!output.contains("bad"))  // tcpdump flags bad checksums and lengths
    }

    @Test func theTimelineListsDatagramsAndWhatTheClientReported() async throws {
        let result = try await Self.results()[0]
        let timeline = Reports.timeline(result)

        #expect(timeline.hasPrefix("# pair (virtual, seed 5): two honest devices and a chatty one\n"))
        #expect(
            timeline.contains(
                "     0.000  10.0.0.1:40000 → 239.255.255.250:1900  M-SEARCH ST=upnp:rootdevice MX=1  [to 3 devices: 3 copies delivered, 0 lost]"
            )
        )
        #expect(
            timeline.contains(
                "client reports uuid:11111111-0000-4000-8000-000000000001::upnp:rootdevice (ST upnp:rootdevice)"
            )
        )
        #expect(timeline.contains("client stops: timedOut, 2 found"))
        #expect(timeline.contains("# pass each service reported once"))
    }

    @Test func filesAreReplacedWholeAndNoTemporaryIsLeft() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("atomic-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("report.json").path

        try Reports.writeAtomically(Data("old".utf8), to: file)
        try Reports.writeAtomically(Data("new".utf8), to: file)

        #expect(FileManager.default.contents(atPath: file) == Data("new".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["report.json"])
        #expect(throws: HarnessError.self) {
            try Reports.writeAtomically(
                Data("x".utf8),
                to: directory.appendingPathComponent("missing/report.json").path
            )
        }
    }

    /// What `executable` printed (standard output and error together).
    static func run(_ executable: String, _ arguments: [String]) throws -> String {
        try runWithStatus(executable, arguments).output
    }

    /// What `executable` printed (standard output and error together) and its exit status.
    static func runWithStatus(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.runWithNoSignalBlocked()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}

/// Parses XML and counts its elements by name; throws if the XML is not well formed.
final class XMLElementCounter: NSObject, XMLParserDelegate {
    private var counts: [String: Int] = [:]

    static func count(_ xml: String) throws -> [String: Int] {
        let counter = XMLElementCounter()
        let parser = XMLParser(data: Data(xml.utf8))
        parser.delegate = counter
        guard parser.parse() else {
            throw HarnessError(reason: "not well-formed XML: \(parser.parserError.map { "\($0)" } ?? "?")")
        }
        return counter.counts
    }

    func parser(
        _ parser: XMLParser,
        didStartElement elementName: String,
        namespaceURI: String?,
        qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        counts[elementName, default: 0] += 1
    }
}
