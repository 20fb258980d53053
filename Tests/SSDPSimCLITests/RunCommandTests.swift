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

/// `ssdp-sim run` as a user meets it: the main job, exit statuses, the failure report and the files.
@Suite struct RunCommandTests {
    static let scenarios = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Scenarios").path

    /// A directory that is removed when the test ends.
    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("run-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test func theMainJobPassesEveryShippedScenarioAndWritesItsReports() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let junit = directory.appendingPathComponent("junit.xml").path
        let json = directory.appendingPathComponent("report.json").path
        let traces = directory.appendingPathComponent("traces").path

        let output = try await CommandRunner.ssdpSim(
            "run",
            Self.scenarios,
            "--junit",
            junit,
            "--json-report",
            json,
            "--trace",
            traces
        )

        #expect(output.status == 0, "\(output.standardOutput)\(output.standardError)")
        let count = try FileManager.default.contentsOfDirectory(atPath: Self.scenarios)
            .filter { $0.hasSuffix(".json") && !$0.hasSuffix(".schema.json") }.count
        #expect(output.standardOutput.contains("\(count) passed, 0 failed, 0 skipped"))
        #expect(output.standardOutput.contains("[ 1/\(count)] pass "))
        #expect(FileManager.default.fileExists(atPath: junit))
        let report =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as? [String: Any]
        #expect(report?["passed"] as? Int == count)
        let traceFiles = try FileManager.default.contentsOfDirectory(atPath: traces)
        #expect(traceFiles.filter { $0.hasSuffix(".pcap") }.count == count)
        #expect(traceFiles.filter { $0.hasSuffix(".timeline.txt") }.count == count)
    }

    @Test func aFailingScenarioExitsOneWithWhatWasExpectedWhatHappenedAndTheSeed() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("too-many.json").path
        try #"""
        { "name": "too-many", "description": "expects three devices where there are two", "seed": 4,
          "search": {"target": "upnp:rootdevice", "mx": 1, "requests": 2},
          "devices": [{"count": 2}], "expect": {"found": {"count": 3}} }
        """#.write(toFile: file, atomically: true, encoding: .utf8)

        let output = try await CommandRunner.ssdpSim("run", file, "--seed", "12")

        #expect(output.status == 1)
        #expect(
            output.standardOutput.contains("FAIL too-many [seed 12] (2 found, 2 M-SEARCH, stop at 2.100 s; seed 12)")
        )
        #expect(
            output.standardOutput.contains("- found count: expected 3 services reported; got 2 reported (2 distinct)")
        )
        #expect(output.standardOutput.contains("ssdp-sim run \(file) --seed 12"))
        #expect(output.standardOutput.contains("0 passed, 1 failed, 0 skipped"))
    }

    /// The command that runs a failed client run again holds the client to the same policy and checks: without
    /// them it would fail on other checks than the ones it failed.
    @Test func theCommandToRunAgainKeepsTheClientsPolicyAndChecks() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("one.json").path
        try #"""
        { "name": "one", "description": "one device, found once", "seed": 4, "tags": ["live"],
          "search": {"target": "upnp:rootdevice", "mx": 1, "requests": 1},
          "devices": [{}], "expect": {"found": {"count": 2}} }
        """#.write(toFile: file, atomically: true, encoding: .utf8)
        let client = "printf \"uuid:a::upnp:rootdevice\\n\""
        let output = try await CommandRunner.ssdpSim(
            "run",
            file,
            "--client",
            client,
            "--client-policy",
            "searches=1,stop=any",
            "--checks",
            "found"
        )
        #expect(output.status == 1, "\(output.standardOutput)")
        #expect(
            output.standardOutput.contains(
                "ssdp-sim run \(file) --seed 4 --client '\(client)' --client-policy searches=1,stop=any --checks found"
            ),
            "\(output.standardOutput)"
        )
    }

    @Test(arguments: [
        (["run", "/no/such/file.json"], "/no/such/file.json: no such file or directory"),
        (["run", "--seeds", "0"], "--seeds must be 1...1000"),
        (["run", "--colour"], "Unknown option '--colour'"),
        (["run", "--live", "--client", "true"], "--live and --client cannot be combined"),
        (["run", "--junit", "/no/such/dir/junit.xml"], "the directory /no/such/dir does not exist"),
        (["run", "--json-report", "/no/such/dir/report.json"], "the directory /no/such/dir does not exist"),
        (
            ["run", "--html", "/no/such/dir/report.html"],
            "--html '/no/such/dir/report.html': the directory /no/such/dir"
        ),
        (["run", "--summary-md", "/no/such/dir/summary.md"], "--summary-md '/no/such/dir/summary.md': the directory"),
        (
            ["run", RunCommandTests.scenarios + "/zero-requests.json", "--html", "/proc/version/reports/"],
            "--html '/proc/version/reports/': cannot create the directory"
        ),
    ])
    func invalidInputExitsWithTheUsageStatusNamingTheProblem(arguments: [String], message: String) async throws {
        let output = try await CommandRunner.run(CommandRunner.ssdpSim, arguments)
        #expect(output.status == 64)
        #expect(output.standardError.contains(message), "stderr: \(output.standardError)")
    }

    /// `--json` means what it means on every command: machine-readable output on standard output.
    @Test func jsonPrintsTheReportOnStandardOutputInsteadOfText() async throws {
        let output = try await CommandRunner.ssdpSim("run", Self.scenarios + "/roku-three-retries.json", "--json")
        #expect(output.status == 0, "\(output.standardError)")
        let report = try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any]
        #expect(report?["passed"] as? Int == 1)
        #expect(!output.standardOutput.contains("Running 1 scenario"))
    }

    @Test func anInvalidScenarioNamesTheFileThePathAndTheReason() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("mx9.json").path
        try #"""
        { "name": "mx9", "description": "d", "seed": 1, "search": {"target": "ssdp:all", "mx": 9}, "devices": [{}] }
        """#.write(toFile: file, atomically: true, encoding: .utf8)

        let output = try await CommandRunner.ssdpSim("run", file)

        #expect(output.status == 64)
        #expect(output.standardError.contains("\(file): $.search.mx: \"9\": MX must be 1...5 seconds"))
        #expect(output.standardOutput.isEmpty)
    }
}

/// `run --live --namespace`: the real session searches by multicast, inside a private network namespace
/// that `ssdp-sim` creates itself, the simulator's devices on 239.255.255.250:1900 of its loopback.
@Suite(.enabled(if: PrivateNamespace.isAvailable, "needs root and unshare -n to create a private network namespace"))
struct RunNamespaceTests {
    @Test func liveScenariosPassByMulticastInAPrivateNamespace() async throws {
        let roku = RunCommandTests.scenarios + "/roku-three-retries.json"
        let empty = RunCommandTests.scenarios + "/zero-requests.json"
        let late = RunCommandTests.scenarios + "/late-responders.json"  // not tagged live: skipped

        let directory = try RunCommandTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let json = directory.appendingPathComponent("report.json").path

        let output = try await CommandRunner.ssdpSim(
            "run",
            roku,
            empty,
            late,
            "--live",
            "--namespace",
            "--json-report",
            json
        )

        #expect(output.status == 0, "\(output.standardOutput)\(output.standardError)")
        #expect(output.standardOutput.contains("live by multicast in a private network namespace, one at a time."))
        #expect(output.standardOutput.contains("pass roku-three-retries (1 found, 3 M-SEARCH"))
        #expect(output.standardOutput.contains("skip late-responders: not tagged live"))
        #expect(output.standardOutput.contains("2 passed, 0 failed, 1 skipped"))
        // The simulator saw each search addressed to the group, not to its own address.
        let report =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as? [String: Any]
        let runs = try #require(report?["scenarios"] as? [[String: Any]])
        let headers = (runs[0]["checks"] as? [[String: Any]])?.first { $0["name"] as? String == "M-SEARCH headers" }
        #expect(headers?["status"] as? String == "passed")
        #expect((headers?["expected"] as? String)?.contains("HOST: 239.255.255.250:1900") == true)
        #expect(headers?["actual"] as? String == "all 3 as expected")
    }
}
