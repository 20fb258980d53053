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
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// `ssdp-sim check` as a device team runs it: against a device `serve` runs on loopback, with its text,
/// JSON lines, JUnit and JSON reports and exit codes.
@Suite struct CheckCommandTests {
    /// Serves one device of `profile` and returns its LOCATION and UDP port.
    private func serve(_ profile: String) async throws -> (RunningCommand, String, Int) {
        let (serve, port, started) = try await RunningCommand.serveOnLoopback(["--profile", profile, "--seed", "2"])
        let devices = try #require(started["devices"] as? [[String: Any]])
        let location = try #require(devices.first?["location"] as? String)
        return (serve, location, port)
    }

    private func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("check-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test func aConformantDeviceExitsZeroWithEveryReport() async throws {
        let (serve, location, port) = try await serve("generic")
        defer { serve.kill() }
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let junit = directory.appendingPathComponent("check.xml")
        let report = directory.appendingPathComponent("check.json")
        let output = try await CommandRunner.ssdpSim(
            "check",
            location,
            "--port",
            "\(port)",
            "--control",
            "--timeout",
            "2",
            "--json",
            "--junit",
            junit.path,
            "--json-report",
            report.path
        )
        #expect(output.status == 0, "\(output.standardOutput)\n\(output.standardError)")
        let checks = output.jsonLines.filter { $0["event"] as? String == "check" }
        #expect(checks.count > 80)
        #expect(checks.allSatisfy { ["passed", "skipped"].contains($0["outcome"] as? String) })
        let summary = try #require(output.jsonLines.last)
        #expect(summary["event"] as? String == "summary")
        #expect(summary["failed"] as? Int == 0)
        #expect((summary["passed"] as? Int ?? 0) + (summary["skipped"] as? Int ?? 0) == checks.count)

        // The JUnit report is XML a CI reads: one test case per check.
        let parser = XMLParser(data: try Data(contentsOf: junit))
        let counter = TestCaseCounter()
        parser.delegate = counter
        #expect(parser.parse())
        #expect(counter.testCases == checks.count)
        #expect(counter.failures == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any])
        #expect((json["results"] as? [[String: Any]])?.count == checks.count)
        #expect(json["failed"] as? Int == 0)
        serve.kill()
    }

    /// Two runs against devices whose HTTP ports the system picks (`--http-port any`) name every JUnit test
    /// case alike, so that a CI follows each check from run to run.
    @Test func junitNamesAreTheSameAcrossRunsWhateverThePort() async throws {
        var runs: [[String]] = []
        for _ in 0..<2 {
            let (serve, _, port) = try await serve("generic")
            defer { serve.kill() }
            let directory = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let junit = directory.appendingPathComponent("check.xml")
            let output = try await CommandRunner.ssdpSim(
                "check",
                "127.0.0.2",
                "--port",
                "\(port)",
                "--junit",
                junit.path
            )
            #expect(output.status == 0, "\(output.standardOutput)")
            let xml = try String(contentsOf: junit, encoding: .utf8)
            runs.append(try DocsTests.captures(of: #"(<testcase classname="[^"]*" name="[^"]*")"#, in: xml))
            serve.kill()
        }
        #expect(runs[0].count > 80)
        #expect(runs[0] == runs[1])
        #expect(
            runs[0].contains(
                #"<testcase classname="http://127.0.0.2/description.xml" name="description.fetch http://127.0.0.2/description.xml""#
            )
        )
    }

    /// One quirk, one exchange to read: a renderer that answers every fault with 501 shows the evidence of
    /// the first such failure of each check, and says how many it left out; `--verbose` shows each.
    @Test func evidenceIsShownOnceForEachCheckUnlessVerbose() async throws {
        let (serve, location, port) = try await serve("renderer")
        defer { serve.kill() }
        let arguments = ["check", location, "--port", "\(port)", "--control", "--skip", "discovery", "--skip", "gena"]
        let brief = try await CommandRunner.run(CommandRunner.ssdpSim, arguments)
        let verbose = try await CommandRunner.run(CommandRunner.ssdpSim, arguments + ["--verbose"])
        #expect(brief.status == 1 && verbose.status == 1)
        let evidence = { (output: CommandRunner.Output) in
            output.standardOutput.split(separator: "\n").filter { $0.hasPrefix("     | HTTP/1.1 500") }.count
        }
        #expect(evidence(brief) == 2, "one each for unknown-action and missing-argument\n\(brief.standardOutput)")
        #expect(evidence(verbose) == 6, "\(verbose.standardOutput)")
        #expect(
            brief.standardOutput.contains(
                "control.unknown-action: evidence shown for the first of 3; --verbose shows each"
            )
        )
        #expect(!verbose.standardOutput.contains("--verbose shows each"))
        serve.kill()
    }

    @Test func aDeviceThatBreaksARuleExitsOneAndShowsTheEvidence() async throws {
        let (serve, location, port) = try await serve("hue")
        defer { serve.kill() }
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let junit = directory.appendingPathComponent("check.xml")
        let output = try await CommandRunner.ssdpSim("check", location, "--port", "\(port)", "--junit", junit.path)
        #expect(output.status == 1, "\(output.standardOutput)")
        let lines = output.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
        let failure = try #require(lines.firstIndex { $0.hasPrefix("FAIL discovery.unknown-uuid  uuid:") })
        #expect(lines[failure].contains("a device must ignore this search"))
        // The answer it should not have sent, line by line under the failure.
        #expect(lines[failure + 1].hasPrefix("     | from 127.0.0."))
        #expect(lines[failure + 2] == "     | HTTP/1.1 200 OK")
        let parser = XMLParser(data: try Data(contentsOf: junit))
        let counter = TestCaseCounter()
        parser.delegate = counter
        #expect(parser.parse())
        #expect(counter.failures > 0)

        // Skipping the group that fails it, the Hue passes.
        let skipped = try await CommandRunner.ssdpSim(
            "check",
            location,
            "--port",
            "\(port)",
            "--skip",
            "DISCOVERY",
            "--skip",
            "gena"
        )
        #expect(skipped.status == 0, "\(skipped.standardOutput)")
        #expect(skipped.standardOutput.contains("SKIP discovery  (skipped as asked (--skip))"))
        serve.kill()
    }

    @Test func warningsFailOnlyAStrictCheck() async throws {
        let (serve, location, port) = try await serve("roku")  // Cache-Control:, as a Roku spells it
        defer { serve.kill() }
        let lenient = try await CommandRunner.ssdpSim("check", location, "--port", "\(port)")
        #expect(lenient.status == 0, "\(lenient.standardOutput)")
        #expect(lenient.standardOutput.contains("WARN discovery.headers  upnp:rootdevice  (allowed, but clients"))
        #expect(lenient.standardOutput.contains("Cache-Control not in capitals, as UDA writes it (UDA 1.1 §1.1.2)"))
        let strict = try await CommandRunner.ssdpSim("check", location, "--port", "\(port)", "--strict")
        #expect(strict.status == 1)
        serve.kill()
    }

    @Test func anAddressIsSearchedAndEachRootDeviceThatAnswersIsChecked() async throws {
        // Two devices sharing 127.0.0.1, as a gateway and a media server on one box.
        let (serve, port, _) = try await RunningCommand.serveOnLoopback([
            "--profile", "generic", "--count", "2", "--seed", "2", "--shared-address",
        ])
        defer { serve.kill() }
        let output = try await CommandRunner.ssdpSim(
            "check",
            "127.0.0.1",
            "--port",
            "\(port)",
            "--skip",
            "gena",
            "--json"
        )
        #expect(output.status == 0, "\(output.standardOutput)")
        let locations = Set(output.jsonLines.compactMap { $0["location"] as? String }.filter { !$0.isEmpty })
        #expect(locations.count == 2, "\(locations)")
        serve.kill()
    }

    @Test func aDeviceHeldToAProfileShowsWhatItsClientsWouldMiss() async throws {
        let (roku, rokuLocation, rokuPort) = try await serve("roku")
        defer { roku.kill() }
        let (dial, dialLocation, dialPort) = try await serve("dial-tv")
        defer { dial.kill() }
        let skip = ["--skip", "discovery", "--skip", "gena", "--skip", "scpd"]
        let asRoku = try await CommandRunner.run(
            CommandRunner.ssdpSim,
            ["check", rokuLocation, "--port", "\(rokuPort)", "--profile", "roku"] + skip
        )
        #expect(asRoku.status == 0, "\(asRoku.standardOutput)")
        #expect(asRoku.standardOutput.contains("PASS profile.search  roku:ecp  (1 answer)"))
        #expect(asRoku.standardOutput.contains("PASS profile.path  /query/device-info"))
        #expect(asRoku.standardOutput.contains("PASS ecp.device-info  /query/device-info"))
        // A DIAL TV passed off as a Roku: a Roku client would not find it, nor read its ECP.
        let notRoku = try await CommandRunner.run(
            CommandRunner.ssdpSim,
            ["check", dialLocation, "--port", "\(dialPort)", "--profile", "roku"] + skip
        )
        #expect(notRoku.status == 1)
        #expect(notRoku.standardOutput.contains("FAIL profile.search  roku:ecp  (no answer to roku:ecp"))
        #expect(notRoku.standardOutput.contains("FAIL profile.path  /query/device-info  (GET /query/device-info"))
        #expect(notRoku.standardOutput.contains("PASS dial.app-state  YouTube"))
        roku.kill()
        dial.kill()
    }

    @Test(arguments: [
        (["https://192.0.2.1/"], "TARGET 'https://192.0.2.1/': SSDP devices serve their descriptions over http://"),
        // Not searched for as a target: a URL of another scheme is a mistake, not an ST.
        (["ftp://192.0.2.1/x"], "TARGET 'ftp://192.0.2.1/x' is not an http:// URL (a LOCATION)"),
        (["two words"], "TARGET 'two words' is neither a LOCATION URL, an IP address nor a search target"),
        (["127.0.0.1", "--skip", "nonsense"], "--skip nonsense: not a group"),
        (["127.0.0.1", "--timeout", "0"], "--timeout must be 0.1...60 seconds, got 0.0"),
        (["127.0.0.1", "--host", "example.com"], "--host must be an IPv4 or IPv6 address, got 'example.com'"),
        (["127.0.0.1", "--profile", "toaster"], "--profile toaster: no such profile (profiles: roku,"),
        (
            ["127.0.0.1", "--junit", "/nonexistent/check.xml"],
            "--junit '/nonexistent/check.xml': the directory /nonexistent does not exist"
        ),
        (["127.0.0.1", "--expect-byebye"], "--expect-byebye needs --listen SECONDS"),
        (["127.0.0.1", "--listen", "0"], "--listen must be 1...86400 seconds, got 0.0"),
    ])
    func badInputExits64NamingTheOption(arguments: [String], message: String) async throws {
        let output = try await CommandRunner.run(CommandRunner.ssdpSim, ["check"] + arguments)
        #expect(output.status == 64)
        #expect(output.standardError.contains(message), "\(output.standardError)")
    }

    @Test func nothingAnsweringIsAFailureWithItsReason() async throws {
        let output = try await CommandRunner.ssdpSim("check", "127.0.0.1", "--port", "9")
        #expect(output.status == 1)
        #expect(
            output.standardOutput.contains(
                "FAIL discovery.answers  ssdp:all  (no device answered ssdp:all at 127.0.0.1:9 within 2.5 s: is the device up"
            )
        )
    }
}

private final class TestCaseCounter: NSObject, XMLParserDelegate {
    var testCases = 0
    var failures = 0

    func parser(
        _ parser: XMLParser,
        didStartElement name: String,
        namespaceURI: String?,
        qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        if name == "testcase" { testCases += 1 }
        if name == "failure" { failures += 1 }
    }
}
