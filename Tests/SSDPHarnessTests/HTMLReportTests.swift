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
import SSDPDevices
import SSDPHarness
import SSDPSimulator
import Testing

/// The HTML report's data: what the page draws must be what the run did. (What a person sees of it in a
/// browser is SSDPSimCLITests' `HTMLReportBrowserTests`.)
@Suite struct HTMLReportTests {
    /// A traced virtual run of `scenario` as `run` gives it, judged by the harness's checks.
    static func result(_ scenario: Scenario, faults: SessionFaults = []) throws -> ScenarioResult {
        let record = try VirtualRun.run(scenario, trace: .everyDatagram, faults: faults)
        let host = "\(VirtualRun.searchDestination(scenario.search))"
        let checks = ScenarioChecks(scenario: scenario, record: record, tolerance: .zero, searchHost: host).evaluate()
        return ScenarioResult(scenario: scenario, seed: scenario.seed, checks: checks, record: record)
    }

    static func report(_ results: [ScenarioResult]) -> HTMLReport {
        HTMLReport(results, title: "test", command: "ssdp-sim run Scenarios") { "ssdp-sim run \($0.scenario.file)" }
    }

    /// Every shipped scenario: the client's verdict on each datagram it was given, as the page shows it, adds
    /// up to the session's own counters, reason by reason; and each report is drawn from an answer with its USN.
    @Test func theClientsVerdictsAddUpToTheSessionsCountersInEveryShippedScenario() throws {
        for scenario in try HarnessFixtures.shippedScenarios() {
            let result = try Self.result(scenario)
            let run = try #require(Self.report([result]).runs.first)
            let statistics = try #require(result.record.statistics)
            let verdicts = run.messages.compactMap(\.verdict).flatMap { $0.components(separatedBy: "; ") }
            func count(_ prefix: String) -> Int { verdicts.filter { $0.hasPrefix(prefix) }.count }
            #expect(count("reported") == statistics.servicesReported, "\(scenario.name)")
            #expect(count("dropped: duplicate") == statistics.duplicates, "\(scenario.name)")
            #expect(count("dropped: wrong target") == statistics.wrongSearchTarget, "\(scenario.name)")
            #expect(count("dropped: unparseable") == statistics.unparseable, "\(scenario.name)")
            #expect(count("dropped: incomplete") == statistics.incomplete, "\(scenario.name)")
            #expect(count("dropped: not a response") == statistics.notResponses, "\(scenario.name)")
            #expect(count("dropped: after the stop") == statistics.notSearching, "\(scenario.name)")
            let found = run.marks.filter { $0.kind == "found" }
            #expect(found.count == result.record.reports.count, "\(scenario.name)")
            for mark in found {
                #expect(!mark.from.isEmpty, "\(scenario.name): \(mark.text) is drawn from no answer")
                for id in mark.from {
                    let answer = try #require(run.messages.first { $0.id == id })
                    #expect(
                        answer.kind == "answer" && mark.text.contains(Self.usn(of: answer) ?? "?"),
                        "\(scenario.name)"
                    )
                }
            }
        }
    }

    /// Each device is one lifeline, its embedded devices' USNs included; searches go to devices and answers
    /// come from them, never from or to the client's lifeline, in every shipped scenario.
    @Test func eachDeviceIsOneLifelineAndNothingIsDrawnToTheWrongOne() throws {
        for scenario in try HarnessFixtures.shippedScenarios() {
            let run = try #require(Self.report([try Self.result(scenario)]).runs.first)
            for message in run.messages where message.kind == "M-SEARCH" {
                #expect(message.from == 0 && !message.copies.contains { $0.to == 0 }, "\(scenario.name): \(message.id)")
            }
            for message in run.messages where message.kind == "answer" {
                #expect(message.from != 0 && message.to == 0, "\(scenario.name): \(message.id)")
            }
            let named = run.lanes.filter { lane in scenario.devices.contains { $0.device.friendlyName == lane.name } }
            #expect(named.count <= scenario.devices.count, "\(scenario.name): a device on two lifelines")
            if scenario.name == "igd-ssdp-all" || scenario.name == "uuid-embedded" {
                #expect(run.lanes.filter { $0.role == "device" }.count == scenario.devices.count, "\(scenario.name)")
            }
        }
    }

    /// A lost datagram is one whose every copy is lost; a partly lost multicast search names the devices it
    /// reached; the lifelines are the client, the group and each device by its friendly name.
    @Test func lostCopiesAndLifelinesAreThoseOfTheRun() throws {
        let scenario = try #require(try HarnessFixtures.shippedScenarios().first { $0.name == "lossy-network" })
        let result = try Self.result(scenario)
        let run = try #require(Self.report([result]).runs.first)
        #expect(run.lanes.map(\.name) == ["client", "multicast group"] + scenario.devices.map(\.device.friendlyName))
        #expect(run.lanes.dropFirst(2).map(\.address) == ["10.0.1.1", "10.0.1.2", "10.0.1.3", "10.0.1.4"])
        let lost = run.messages.filter { $0.outcome == "lost" }
        #expect(!lost.isEmpty)
        #expect(lost.allSatisfy { message in message.copies.allSatisfy { $0.at == nil } })
        let lostInTrace = result.record.trace.filter {
            $0.copies.allSatisfy { $0.arrival == nil } && !$0.copies.isEmpty
        }
        #expect(lost.count == lostInTrace.count)
        let searches = run.messages.filter { $0.kind == "M-SEARCH" }
        #expect(searches.count == result.record.searches.count)
        #expect(searches.allSatisfy { Set($0.copies.map(\.to)) == [2, 3, 4, 5] })
        #expect(run.bands.filter { $0.kind == "mx" }.count == searches.count)
    }

    /// A broken session's failed check points at the reports it judged and the answers behind them: the
    /// duplicate report and the two answers it came from.
    @Test func aFailedCheckLinksTheDuplicateReportsAndTheAnswersBehindThem() throws {
        var failing: ScenarioResult?
        for scenario in try HarnessFixtures.shippedScenarios() {
            let result = try Self.result(scenario, faults: .keepsDuplicates)
            if result.checks.contains(where: { $0.failed && $0.name == "each service reported once" }) {
                failing = result
                break
            }
        }
        let failed = try #require(failing)
        let passing = try Self.result(
            try #require(try HarnessFixtures.shippedScenarios().first { $0.name == "zero-requests" })
        )
        let report = Self.report([passing, failed])
        #expect((report.passed, report.failed, report.skipped) == (1, 1, 0))
        #expect(report.runs.map(\.status) == [.failed, .passed], "failures first")
        let run = report.runs[0]
        #expect(run.reproduce == "ssdp-sim run \(failed.scenario.file)")
        let check = try #require(run.checks.first { $0.name == "each service reported once" })
        #expect(check.status == .failed)
        let marks = check.evidence.compactMap { id in run.marks.first { $0.id == id } }
        let byUSN = Dictionary(grouping: marks) { $0.text }
        #expect(byUSN.values.contains { $0.count >= 2 }, "a service reported twice is linked twice")
        for mark in marks {
            #expect(mark.kind == "found")
            #expect(mark.from.allSatisfy(check.evidence.contains), "the answers behind \(mark.text) are linked too")
        }
        let answers = check.evidence.compactMap { id in run.messages.first { $0.id == id } }
        #expect(answers.count >= 2 && answers.allSatisfy { $0.kind == "answer" })
        let stop = try #require(run.checks.first { $0.name == "stop" })
        #expect(stop.evidence.allSatisfy { id in run.marks.contains { $0.id == id && $0.kind == "stop" } })
        #expect(!stop.evidence.isEmpty)
    }

    /// An external client's HTTP side: its description fetch, SOAP action and SUBSCRIBE drawn from the
    /// client to the device it asked (by LOCATION, devices sharing one server told apart by path), the
    /// device's event drawn back, and a LOCATION-fetch check linked to the fetch it judged.
    @Test func anExternalClientsRequestsAndTheDevicesEventsAreDrawnBetweenTheRightLifelines() throws {
        let scenario = try #require(try HarnessFixtures.shippedScenarios().first { $0.name == "profiles-living-room" })
        var result = try Self.result(scenario)
        let run0 = try #require(Self.report([result]).runs.first)
        let lanes = run0.lanes
        let second = try #require(scenario.devices.dropFirst().first)
        let secondLane = try #require(lanes.firstIndex { $0.name == second.device.friendlyName })
        let locations = scenario.devices.indices.map { "http://10.0.1.9:80/device/\($0 + 1)/description.xml" }
        let at = Duration.milliseconds(500)
        result.record.http = HTTPActivity(
            locations: locations,
            requests: [
                .init(at: at, method: "GET", url: locations[1], status: 200),
                .init(
                    at: at + .milliseconds(10),
                    method: "POST",
                    url: "http://10.0.1.9:80/device/2/control",
                    status: 500
                ),
                .init(
                    at: at + .milliseconds(20),
                    method: "SUBSCRIBE",
                    url: "http://10.0.1.9:80/device/2/event",
                    status: 200
                ),
            ],
            actions: [
                .init(
                    at: at + .milliseconds(10),
                    udn: second.device.udn,
                    action: "GetVolume",
                    arguments: [:],
                    errorCode: 401
                )
            ],
            events: [
                .init(
                    at: at + .milliseconds(30),
                    udn: second.device.udn,
                    serviceType: "urn:schemas-upnp-org:service:RenderingControl:1",
                    sid: "uuid:sub-1",
                    callback: "http://10.0.0.1:9999/cb",
                    sequence: 0,
                    body: "<e:propertyset/>",
                    status: 200
                )
            ]
        )
        result.checks.append(
            CheckResult(name: "LOCATION fetches", passed: false, expected: "1", actual: "2")
                .resting(on: CheckEvidence(requests: [0]))
        )
        let run = try #require(Self.report([result]).runs.first)
        let http = run.messages.filter { $0.proto != "ssdp" }
        #expect(http.map(\.proto) == ["http", "soap", "gena", "gena"])
        #expect(http.map(\.kind) == ["GET", "POST", "SUBSCRIBE", "event"])
        #expect(http.prefix(3).allSatisfy { $0.from == 0 && $0.to == secondLane }, "\(http.map { ($0.from, $0.to) })")
        #expect(http[3].from == secondLane && http[3].to == 0)
        #expect(http[1].raw.contains("SOAP action GetVolume() → UPnP error 401"))
        #expect(http[3].label == "NOTIFY event RenderingControl SEQ 0 → 200")
        let check = try #require(run.checks.first { $0.name == "LOCATION fetches" })
        #expect(check.evidence == [http[0].id])
    }

    /// A capture's text reaches the page only as data: a SERVER header holding `</script>` and `"></svg>`
    /// cannot close the data's script element or open one of its own, and reads back as it was.
    @Test func hostileTextInACaptureStaysText() throws {
        let hostile = #"</script><script>window.__pwned=true</script>"></svg><img src=x onerror="window.__pwned=true">"#
        let answer =
            "HTTP/1.1 200 OK\r\nCACHE-CONTROL: max-age=1800\r\nLOCATION: http://10.9.0.2/\"><svg onload=alert(1)>\r\n"
            + "SERVER: \(hostile)\r\nST: upnp:rootdevice\r\nUSN: uuid:x<b>bold</b>::upnp:rootdevice\r\n\r\n"
        let search =
            "M-SEARCH * HTTP/1.1\r\nHOST: 239.255.255.250:1900\r\nMAN: \"ssdp:discover\"\r\nMX: 1\r\nST: upnp:rootdevice\r\n\r\n"
        let client = SSDPEndpoint(address: "10.9.0.1", port: 50000)
        let device = SSDPEndpoint(address: "10.9.0.2", port: 1900)
        let report = HTMLReport(
            capture: "<script>name</script>",
            description: hostile + "\u{2028}line\u{2029}",
            datagrams: [
                TraceEntry(
                    at: .zero,
                    source: client,
                    destination: SSDPEndpoint(address: "239.255.255.250", port: 1900),
                    bytes: Array(search.utf8),
                    fate: "captured"
                ),
                TraceEntry(
                    at: .milliseconds(40),
                    source: device,
                    destination: client,
                    bytes: Array(answer.utf8),
                    fate: "captured"
                ),
            ],
            command: "ssdp-sim import '<x>.pcap'"
        )
        let page = try Reports.html(report)
        #expect(page.components(separatedBy: "<script").count - 1 == 2, "the page's own two script elements alone")
        #expect(!page.contains("</svg>") && !page.contains("<img") && !page.contains("<b>"))
        let data = try #require(Self.data(of: page))
        #expect(!data.contains("<") && !data.contains(">") && !data.contains("&"))
        let decoded = try #require(try JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any])
        let run = try #require((decoded["runs"] as? [[String: Any]])?.first)
        #expect(run["description"] as? String == hostile + "\u{2028}line\u{2029}")
        #expect(!data.contains("\u{2028}") && data.contains(#"\u2028line\u2029"#))
        let messages = try #require(run["messages"] as? [[String: Any]])
        #expect((messages[1]["raw"] as? String) == answer)
        #expect(page.contains("<title>ssdp-sim import: &lt;script&gt;name&lt;/script&gt;"))
    }

    /// The page fetches nothing: no element or style that loads a URL, and a content security policy that
    /// forbids it anyway.
    @Test func thePageLoadsNothingFromAnywhere() throws {
        let scenario = try #require(try HarnessFixtures.shippedScenarios().first { $0.name == "profiles-living-room" })
        let page = try Reports.html(Self.report([try Self.result(scenario)]))
        let data = try #require(Self.data(of: page))
        // `url(#arrow)` names the page's own arrowhead.
        let shell = page.replacingOccurrences(of: data, with: "").replacingOccurrences(of: "url(#", with: "")
        for loader in ["src=", "href=", "url(", "@import", "<link", "fetch(", "XMLHttpRequest", "WebSocket", "import("]
        {
            #expect(!shell.contains(loader), "\(loader)")
        }
        #expect(page.contains(#"<meta http-equiv="Content-Security-Policy" content="default-src 'none';"#))
    }

    /// The Markdown summary: the counts, each failed run with its failed checks and the command to run it
    /// again, table cells that cannot break the table.
    @Test func theMarkdownSummaryNamesEachFailureAndHowToReproduceIt() throws {
        var failed = try Self.result(
            try #require(try HarnessFixtures.shippedScenarios().first { $0.name == "lossy-network" })
        )
        failed.checks.append(CheckResult(name: "a | b", passed: false, expected: "<x>", actual: "y\nz"))
        let passing = try Self.result(
            try #require(try HarnessFixtures.shippedScenarios().first { $0.name == "zero-requests" })
        )
        let summary = Reports.markdownSummary(Self.report([passing, failed]))
        #expect(summary.contains("**1 failed**, 1 passed, 0 skipped"))
        #expect(summary.contains("### ❌ lossy-network (seed 3030, virtual)"))
        #expect(summary.contains("| a \\| b | &lt;x&gt; | y z |"))
        #expect(summary.contains("Reproduce: `ssdp-sim run \(failed.scenario.file)`"))
        #expect(summary.contains("| zero-requests | passed |"))
        #expect(!summary.contains("| lossy-network | passed |"))
    }

    /// The JSON inside the page's data element.
    static func data(of page: String) -> String? {
        let open = #"<script type="application/json" id="report-data">"#
        guard let start = page.range(of: open),
            let end = page.range(of: "</script>", range: start.upperBound..<page.endIndex)
        else { return nil }
        return String(page[start.upperBound..<end.lowerBound])
    }

    static func usn(of message: HTMLReport.Message) -> String? {
        message.headers.first { $0.first?.uppercased() == "USN" }?.last
    }
}
