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
import SSDPHarness
import Testing

/// `run --html` and `import --html` as a person sees them: Debian's Chromium, headless, with the network off
/// (a namespace of its own), opens the report from a file:// URL, and `scripts/report-in-browser` reads back
/// what the page shows and clicks as a mouse would. CI installs Chromium (scripts/install-interop) and
/// requires these tests to run.
@Suite(.serialized, .enabled(if: Browser.isAvailable || Browser.isRequired, "needs chromium, root and aiohttp"))
struct HTMLReportBrowserTests {
    /// The shipped scenarios with one made to fail (lossy-network expecting 9 M-SEARCH of its 10): the report
    /// opens on the failure, draws a lifeline per device and crosses the lost datagrams, a click on a message
    /// shows its bytes, and the failed check's link leads to the M-SEARCH it judged.
    @Test func theShippedScenariosReportOpensOnTheFailureAndAClickShowsTheBytes() async throws {
        let directory = try Self.scenariosWithOneFailure()
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = directory.appendingPathComponent("report.html").path
        let run = try await CommandRunner.ssdpSim("run", directory.path, "--html", report)
        #expect(run.status == 1, "\(run.standardOutput)\(run.standardError)")
        #expect(run.standardOutput.contains("HTML report: \(report) ("))

        let seen = try await Browser.open(report, "--click", "lost")
        let runs = try #require(seen["runs"] as? [[String: Any]])
        #expect(runs.count == 25)
        #expect(runs.first?["id"] as? String == "lossy-network" && runs.first?["status"] as? String == "failed")
        #expect(runs.first?["open"] as? Bool == true)
        #expect(runs.dropFirst().allSatisfy { $0["status"] as? String == "passed" && $0["open"] as? Bool == false })
        #expect(seen["diagramOf"] as? String == "lossy-network")
        #expect(
            seen["lanes"] as? [String] == ["client", "multicast group", "Lossy 1", "Lossy 2", "Lossy 3", "Lossy 4"]
        )
        #expect((seen["crosses"] as? Int ?? 0) >= (seen["lost"] as? Int ?? 0) && (seen["lost"] as? Int ?? 0) > 0)
        #expect(seen["failedChecks"] as? [String] == ["M-SEARCH count"])
        let clicked = try #require(seen["clicked"] as? [String: Any])
        #expect(clicked["visible"] as? Bool == true && clicked["selected"] as? String == clicked["id"] as? String)
        #expect((clicked["raw"] as? String)?.hasPrefix("HTTP/1.1 200 OK\r\n") == true, "\(clicked)")
        #expect((clicked["text"] as? String)?.contains("lost") == true)
        #expect(seen["requests"] as? [String] == [URL(fileURLWithPath: report).absoluteString])
        print("html report: run Scenarios drawn in \(seen["drawnMs"] ?? "?") ms")

        let evidence = try await Browser.open(report, "--click", "evidence:M-SEARCH count", "--mermaid")
        let search = try #require(evidence["clicked"] as? [String: Any])
        #expect((search["raw"] as? String)?.hasPrefix("M-SEARCH * HTTP/1.1\r\n") == true, "\(search)")
        // The Mermaid export: the lifelines as participants, a lost datagram with Mermaid's lost arrow.
        let mermaid = try #require(evidence["mermaid"] as? String).split(separator: "\n").map(String.init)
        #expect(mermaid.first == "sequenceDiagram")
        #expect(mermaid.dropFirst().first == "  participant L0 as client 10.0.0.1", "\(mermaid.prefix(3))")
        #expect(mermaid.contains { $0.hasPrefix("  L0->>L") && $0.contains("M-SEARCH ST=upnp rootdevice MX=1") })
        #expect(mermaid.contains { $0.contains("-xL0: ") && $0.hasSuffix("(lost)") }, "no lost answer exported")
        #expect(mermaid.contains { $0.hasPrefix("  Note over L0: found uuid") })
    }

    /// A run of 500 devices stays usable: 30 lifelines and one for the rest, said on the page, and rows in pages.
    @Test func fiveHundredDevicesArePagedAndShareALastLifeline() async throws {
        let directory = try RunCommandTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let scenario = Lab.repository.appendingPathComponent("Scenarios/load-500-devices.json").path
        let run = try await CommandRunner.ssdpSim("run", scenario, "--html", directory.path + "/")
        #expect(run.status == 0, "\(run.standardError)")
        let index = try String(contentsOf: directory.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(index.contains(#"<a href="load-500-devices.html">load-500-devices</a>"#))
        let page = directory.appendingPathComponent("load-500-devices.html").path
        let seen = try await Browser.open(page, "--fragment", "scenario=load-500-devices")
        let lanes = try #require(seen["lanes"] as? [String])
        #expect(lanes.count == 2 + 30 + 1 && lanes.last == "other devices", "\(lanes)")
        let text = try #require(seen["bodyText"] as? String)
        #expect(text.contains("Lifelines are drawn for 30 devices; 470 more share the last one"))
        #expect(text.contains("rows 1–400 of"))
        print("html report: load-500-devices drawn in \(seen["drawnMs"] ?? "?") ms")
    }

    /// A capture whose SERVER and LOCATION hold markup: `import --html` and the imported scenario's `run --html`
    /// show it as text, and no script of it runs.
    @Test func markupInACapturedAnswerIsShownAsText() async throws {
        let directory = try RunCommandTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let server =
            #"Linux/6.1 UPnP/1.1 <script>window.__pwned=true</script>"></svg><img src=x onerror="window.__pwned=true">"#
        let client = SSDPEndpoint(address: "192.168.7.10", port: 50000)
        let device = SSDPEndpoint(address: "192.168.7.20", port: 1900)
        let group = SSDPEndpoint(address: "239.255.255.250", port: 1900)
        let search =
            "M-SEARCH * HTTP/1.1\r\nHOST: 239.255.255.250:1900\r\nMAN: \"ssdp:discover\"\r\nMX: 1\r\nST: upnp:rootdevice\r\n\r\n"
        let answer =
            "HTTP/1.1 200 OK\r\nCACHE-CONTROL: max-age=1800\r\nEXT:\r\nLOCATION: http://192.168.7.20:8080/d.xml\r\n"
            + "SERVER: \(server)\r\nST: upnp:rootdevice\r\nUSN: uuid:0b5c0000-0000-4000-8000-000000000001::upnp:rootdevice\r\n\r\n"
        let trace = [
            TraceEntry(at: .zero, source: client, destination: group, bytes: Array(search.utf8), fate: ""),
            TraceEntry(
                at: .milliseconds(120),
                source: device,
                destination: client,
                bytes: Array(answer.utf8),
                fate: ""
            ),
        ]
        let capture = directory.appendingPathComponent("hostile.pcap")
        try Data(Reports.pcap(trace, startingAt: 1_790_000_000)).write(to: capture)
        let imported = directory.appendingPathComponent("hostile.json").path
        let captureReport = directory.appendingPathComponent("capture.html").path
        let runReport = directory.appendingPathComponent("run.html").path
        let importing = try await CommandRunner.ssdpSim(
            "import",
            capture.path,
            "--output",
            imported,
            "--html",
            captureReport
        )
        #expect(importing.status == 0, "\(importing.standardError)")
        let running = try await CommandRunner.ssdpSim("run", imported, "--html", runReport)
        #expect(running.status == 0, "\(running.standardOutput)\(running.standardError)")

        for (report, run) in [(captureReport, "hostile"), (runReport, "hostile")] {
            let seen = try await Browser.open(report, "--fragment", "scenario=\(run)", "--click", "answer")
            #expect(seen["pwned"] as? Bool == false, "\(report)")
            #expect(seen["scripts"] as? Int == 2, "\(report)")
            let clicked = try #require(seen["clicked"] as? [String: Any], "\(report)")
            #expect((clicked["text"] as? String)?.contains("SERVER:\t\(server)") == true, "\(report): \(clicked)")
            #expect((clicked["raw"] as? String)?.contains(server) == true, "\(report)")
            #expect(seen["requests"] as? [String] == [URL(fileURLWithPath: report).absoluteString])
        }
    }

    /// The shipped scenarios copied into a new directory, lossy-network expecting 9 M-SEARCH instead of its 10.
    static func scenariosWithOneFailure() throws -> URL {
        let directory = try RunCommandTests.temporaryDirectory()
        let scenarios = Lab.repository.appendingPathComponent("Scenarios")
        for file in try FileManager.default.contentsOfDirectory(atPath: scenarios.path)
        where file.hasSuffix(".json") && file != "scenario.schema.json" {
            var text = try String(contentsOf: scenarios.appendingPathComponent(file), encoding: .utf8)
            if file == "lossy-network.json" {
                text = text.replacingOccurrences(of: #""sent": 10"#, with: #""sent": 9"#)
            }
            try text.write(to: directory.appendingPathComponent(file), atomically: true, encoding: .utf8)
        }
        return directory
    }
}

/// Headless Chromium through `scripts/report-in-browser`.
enum Browser {
    static let script = Lab.repository.appendingPathComponent("scripts/report-in-browser")
    static let isRequired = UPnPClientLibrary.isRequired
    static let isAvailable =
        getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium")
        && UPnPClientLibrary.isAvailable

    /// What the page at `report` shows, as the script prints it.
    static func open(_ report: String, _ arguments: String...) async throws -> [String: Any] {
        let output = try await CommandRunner.run(
            URL(fileURLWithPath: "/usr/bin/python3"),
            [script.path, report] + arguments,
            environment: UPnPClientLibrary.environment,
            timeout: .seconds(120)
        )
        guard output.status == 0,
            let seen = jsonObject(output.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))
        else {
            throw RunningCommand.CommandFailure("report-in-browser failed (\(output.status)): \(output.standardError)")
        }
        return seen
    }
}
