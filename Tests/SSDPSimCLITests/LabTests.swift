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

/// `scripts/ssdp-lab`: several hosts on one machine, each in a network namespace of its own, joined by
/// bridges, with real multicast between them. These are CI's multi-host, multi-homed and IPv6 runs;
/// `.ci/run` sets `SSDP_SIM_REQUIRE_LAB=1`, so there they fail rather than skip without root.
enum Lab {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let script = repository.appendingPathComponent("scripts/ssdp-lab")
    static let isRequired = ProcessInfo.processInfo.environment["SSDP_SIM_REQUIRE_LAB"] == "1"
    static let isAvailable =
        getuid() == 0
        && ["/usr/sbin/ip", "/usr/bin/ip", "/sbin/ip"].contains(where: FileManager.default.isExecutableFile)

    static func file(_ name: String) -> String {
        repository.appendingPathComponent("scripts/labs/\(name).json").path
    }

    /// A run id no other test uses, so each run's namespaces are its own.
    static func runID() -> String {
        "t" + String(UUID().uuidString.prefix(8)).lowercased().filter(\.isLetter)
            + String(Int.random(in: 100...999))
    }

    /// The arguments that run `lab` with this build's ssdp-sim, under `runID`, then `command` if any.
    static func arguments(_ lab: String, runID: String, command: [String] = []) -> [String] {
        [script.path, "--ssdp-sim", CommandRunner.ssdpSim.path, "--run-id", runID, lab]
            + (command.isEmpty ? [] : ["--"] + command)
    }

    static func run(_ lab: String, runID: String = runID(), command: [String] = []) async throws -> CommandRunner.Output
    {
        try await CommandRunner.run(
            URL(fileURLWithPath: "/usr/bin/python3"),
            arguments(lab, runID: runID, command: command),
            timeout: .seconds(120)
        )
    }

    /// The lab's namespaces still present for `runID`.
    static func namespaces(of runID: String) async throws -> [String] {
        try await CommandRunner.run(URL(fileURLWithPath: "/usr/bin/env"), ["ip", "netns", "list"]).standardOutput
            .split(separator: "\n").map { String($0.split(separator: " ")[0]) }
            .filter { $0.hasPrefix("ssdplab-\(runID)-") }
    }

    /// The names of the links in this (the machine's own) namespace.
    static func rootLinks() async throws -> Set<String> {
        let output = try await CommandRunner.run(URL(fileURLWithPath: "/usr/bin/env"), ["ip", "-o", "link", "show"])
        return Set(
            output.standardOutput.split(separator: "\n").compactMap { $0.split(separator: ":").dropFirst().first }
                .map { $0.trimmingCharacters(in: .whitespaces) }
        )
    }

    /// The pids the lab reported starting (`started NAME (pid N)`).
    static func startedProcesses(_ standardError: String) -> [Int32] {
        standardError.split(separator: "\n").compactMap { line in
            guard let range = line.range(of: "(pid ") else { return nil }
            return Int32(line[range.upperBound...].prefix { $0.isNumber })
        }
    }

    /// Whether process `pid` still exists.
    static func isAlive(_ pid: Int32) -> Bool {
        kill(pid, 0) == 0 || errno != ESRCH
    }

    /// The rows of the check's table: (interface, status, LOCATION).
    static func rows(_ output: String) -> [(interface: String, status: String, location: String)] {
        output.split(separator: "\n").filter { $0.hasPrefix("eth") }.map { line in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            return (String(fields[0]), String(fields[1]), String(fields.last ?? ""))
        }
    }
}

@Suite(
    .serialized,
    .enabled(if: Lab.isAvailable || Lab.isRequired, "needs root and ip to build namespaces, veths and bridges")
)
struct LabTests {
    @Test func threeDeviceHostsAndAClientOnOneBridgeFindEveryDeviceOnce() async throws {
        let output = try await Lab.run(Lab.file("three-hosts"))
        #expect(output.status == 0, "\(output.standardOutput)\n\(output.standardError)")
        #expect(output.standardOutput.contains("3 devices on 3 hosts"))
        #expect(output.standardOutput.contains("PASS"))
        let rows = Lab.rows(output.standardOutput)
        // A Roku (6 targets, one its roku:ecp), a DIAL TV (4) and a Hue (3, each sent twice): 13.
        #expect(rows.count == 13)
        #expect(rows.allSatisfy { $0.interface == "eth0" && $0.status == "200" })
        #expect(Set(rows.map(\.location)).allSatisfy { $0.hasPrefix("http://10.77.1.") })
        #expect(output.standardError.contains("removed every namespace"))
    }

    @Test func threeRokusOnOneHostAreThreeHostsOnTheRokuPort() async throws {
        let output = try await Lab.run(Lab.file("rokus"))
        #expect(output.status == 0, "\(output.standardOutput)\n\(output.standardError)")
        #expect(output.standardOutput.contains("4 devices on 2 hosts"))
        let rows = Lab.rows(output.standardOutput)
        // Each Roku lives at its own address on :8060, and every one of its 6 targets names that address.
        let rokus = rows.filter { $0.location.contains(":8060/") }
        #expect(rokus.count == 18)
        let hosts = Set(rokus.compactMap { URL(string: $0.location)?.host })
        #expect(hosts == ["10.77.1.101", "10.77.1.102", "10.77.1.103"])
        #expect(rows.allSatisfy { $0.status == "200" })
    }

    @Test func aLabFileWithAddressesOffTheHostsBridgeIsRejected() async throws {
        let lab = FileManager.default.temporaryDirectory.appendingPathComponent("lab-addresses-\(getpid()).json")
        try Data(
            #"{"bridges": ["lan"], "hosts": [{"name": "r", "bridges": ["lan"], "serve": [], "addresses": "10.1.1.101-10.1.1.102"}, {"name": "c", "bridges": ["lan"], "client": true}]}"#
                .utf8
        ).write(to: lab)
        defer { try? FileManager.default.removeItem(at: lab) }
        let output = try await Lab.run(lab.path)
        #expect(output.status == 64)
        #expect(
            output.standardError.contains("$.hosts[0].addresses: must be on the host's bridge"),
            "\(output.standardError)"
        )
    }

    /// A host that runs another program (a real stack beside the fakes, as scripts/dial-conformance runs
    /// Netflix's reference server): started on its host, reachable from the client, stopped at the end.
    @Test func aHostRunsAnotherProgramReachableFromTheClient() async throws {
        let lab = FileManager.default.temporaryDirectory.appendingPathComponent("lab-run-\(getpid()).json")
        try Data(
            #"{"bridges": ["lan"], "hosts": [{"name": "web", "bridges": ["lan"], "run": ["python3", "-m", "http.server", "8080", "--bind", "10.77.1.1"], "ready": "tcp:8080"}, {"name": "c", "bridges": ["lan"], "client": true}]}"#
                .utf8
        ).write(to: lab)
        defer { try? FileManager.default.removeItem(at: lab) }
        // "ready" makes the lab wait until the program listens: the client's one try succeeds.
        let fetch = #"import urllib.request; print(urllib.request.urlopen("http://10.77.1.1:8080/", timeout=2).status)"#
        let output = try await Lab.run(lab.path, command: ["python3", "-c", fetch])
        #expect(output.status == 0, "\(output.standardOutput)\n\(output.standardError)")
        #expect(output.standardOutput.contains("200"), "\(output.standardOutput)")
        #expect(output.standardError.contains("removed every namespace"))

        // "ready" says what to wait for, on a host that runs another program.
        try Data(
            #"{"bridges": ["lan"], "hosts": [{"name": "x", "bridges": ["lan"], "run": ["true"], "ready": "http:80"}, {"name": "c", "bridges": ["lan"], "client": true}]}"#
                .utf8
        ).write(to: lab)
        let unready = try await Lab.run(lab.path)
        #expect(unready.status == 64)
        #expect(
            unready.standardError.contains("$.hosts[0].ready: must be tcp:PORT or udp:PORT"),
            "\(unready.standardError)"
        )

        // A host is one of the three kinds.
        try Data(
            #"{"bridges": ["lan"], "hosts": [{"name": "x", "bridges": ["lan"], "serve": [], "run": ["true"]}, {"name": "c", "bridges": ["lan"], "client": true}]}"#
                .utf8
        ).write(to: lab)
        let both = try await Lab.run(lab.path)
        #expect(both.status == 64)
        #expect(both.standardError.contains("$.hosts[0]: a host is the client"), "\(both.standardError)")
    }

    @Test func aMultiHomedClientFindsDevicesOnBothBridgesOnceReachableWhereSeen() async throws {
        let output = try await Lab.run(Lab.file("multi-homed"))
        #expect(output.status == 0, "\(output.standardOutput)\n\(output.standardError)")
        #expect(output.standardOutput.contains("5 devices on 5 hosts"))
        let rows = Lab.rows(output.standardOutput)
        #expect(rows.allSatisfy { $0.status == "200" })
        // Seen on eth0 means a LOCATION on lan (10.77.1.x), on eth1 one on iot (10.77.2.x): the router,
        // on both, answers each with the address it has there.
        #expect(rows.allSatisfy { ($0.interface == "eth0") == $0.location.hasPrefix("http://10.77.1.") })
        #expect(Set(rows.map(\.interface)) == ["eth0", "eth1"])
        #expect(
            rows.contains { $0.location.hasPrefix("http://10.77.1.5:") || $0.location.hasPrefix("http://10.77.2.5:") }
        )
    }

    @Test func theMultiHomedLabOverIPv6LinkLocal() async throws {
        let output = try await Lab.run(Lab.file("ipv6"))
        #expect(output.status == 0, "\(output.standardOutput)\n\(output.standardError)")
        #expect(output.standardOutput.contains("5 devices on 5 hosts"))
        let rows = Lab.rows(output.standardOutput)
        #expect(!rows.isEmpty)
        #expect(rows.allSatisfy { $0.status == "200" && $0.location.hasPrefix("http://[fe80::") })
        #expect(Set(rows.map(\.interface)) == ["eth0", "eth1"])
    }

    @Test func theCheckFailsWhenADeviceCannotBeFound() async throws {
        // A device that does not join the group cannot be found by a multicast search.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lab-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let lab = directory.appendingPathComponent("deaf.json")
        try Data(
            """
            {"bridges": ["lan"], "hosts": [
              {"name": "tv", "bridges": ["lan"], "serve": ["--profile", "dial-tv"]},
              {"name": "deaf", "bridges": ["lan"], "serve": ["--profile", "roku", "--unicast-only"]},
              {"name": "client", "bridges": ["lan"], "client": true}]}
            """.utf8
        ).write(to: lab)
        let output = try await Lab.run(lab.path)
        #expect(output.status == 1)
        // Judged by ssdp-sim's own check; the lab names the device the missing UDN belongs to.
        let failure = try #require(
            output.standardOutput.split(separator: "\n").first { $0.hasPrefix("FAIL found services included") },
            "\(output.standardOutput)"
        )
        #expect(failure.contains("missing uuid:"))
        #expect(failure.contains("is Roku Ultra 1 on deaf"))
        #expect(!failure.contains("DIAL TV"))
    }

    @Test func aCommandRunsOnTheClientWithTheLabInItsEnvironment() async throws {
        let output = try await Lab.run(
            Lab.file("multi-homed"),
            command: ["sh", "-c", #"echo "interfaces=$SSDP_LAB_INTERFACES"; ip -o -4 addr show dev eth1; exit 3"#]
        )
        #expect(output.status == 3)
        #expect(output.standardOutput.contains("interfaces=eth0,eth1"))
        #expect(output.standardOutput.contains("inet 10.77.2.6/24"))
    }

    @Test(arguments: [(Int32(SIGINT), "client"), (Int32(SIGTERM), "setup")])
    func anInterruptedRunLeavesNothingBehind(signal: Int32, when: String) async throws {
        let runID = Lab.runID()
        let linksBefore = try await Lab.rootLinks()
        let lab = try RunningCommand(
            URL(fileURLWithPath: "/usr/bin/python3"),
            Lab.arguments(Lab.file("multi-homed"), runID: runID, command: ["sleep", "60"])
        )
        // Interrupted while the client's command runs, or while the lab is still being built.
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            let ready =
                await when == "client"
                ? lab.standardError.contains("running on client")
                : !(try Lab.namespaces(of: runID)).isEmpty
            if ready { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        await #expect(try !Lab.namespaces(of: runID).isEmpty, "the lab never started: \(lab.standardError)")
        lab.signal(signal)
        let output = await lab.wait(timeout: .seconds(60))
        #expect(output.status == 130, "\(output.standardError)")
        #expect(output.standardError.contains("stopping"))
        await #expect(try Lab.namespaces(of: runID).isEmpty)
        await #expect(try Lab.rootLinks() == linksBefore)
        let pids = Lab.startedProcesses(output.standardError)
        if when == "client" {
            #expect(pids.count == 6, "5 device hosts and the client's command: \(output.standardError)")
        }
        #expect(pids.allSatisfy { !Lab.isAlive($0) })
    }

    @Test func aBadLabFileIsNamedWithItsFieldAndReason() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lab-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let lab = directory.appendingPathComponent("bad.json")
        try Data(#"{"bridges": ["lan"], "hosts": [{"name": "tv", "bridges": ["wan"], "serve": []}]}"#.utf8).write(
            to: lab
        )
        let output = try await Lab.run(lab.path)
        #expect(output.status == 64)
        #expect(
            output.standardError.contains(
                "\(lab.path): $.hosts[0].bridges: must list one or more of the lab's bridges (lan)"
            )
        )
    }

    @Test func withoutRootItSaysSo() async throws {
        // A copy nobody can read wherever the checkout is (a clean clone may sit in a private directory).
        let directory = URL(fileURLWithPath: "/tmp").appendingPathComponent("lab-\(UUID())")
        try FileManager.default.createDirectory(
            at: directory,
            withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o755]
        )
        defer { try? FileManager.default.removeItem(at: directory) }
        let (script, lab) = (directory.appendingPathComponent("ssdp-lab"), directory.appendingPathComponent("lab.json"))
        try FileManager.default.copyItem(at: Lab.script, to: script)
        try FileManager.default.copyItem(at: URL(fileURLWithPath: Lab.file("three-hosts")), to: lab)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: lab.path)
        let output = try await CommandRunner.run(
            URL(fileURLWithPath: "/usr/bin/setpriv"),
            [
                "--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", script.path,
                "--ssdp-sim", "/bin/true", lab.path,
            ]
        )
        #expect(output.status == 64)
        #expect(output.standardError.contains("needs root to create network namespaces"))
        #expect(output.standardError.contains("sudo"))
    }
}

/// docker/compose.yaml cannot run here (no Docker engine), so CI runs its devices and its harness's
/// command in the lab instead; these tests hold the two files to each other.
@Suite(
    .serialized,
    .enabled(if: Lab.isAvailable || Lab.isRequired, "needs root and ip to build namespaces, veths and bridges")
)
struct ComposeLabTests {
    /// Each compose service's SSDP_SIM_* environment and command, read from the file's plain layout
    /// (`  service:`, `      SSDP_SIM_X: "value"`, `    command: [JSON list]`).
    static func composeServices() throws -> [String: (environment: [String: String], command: [String])] {
        let text = try String(contentsOf: Lab.repository.appendingPathComponent("docker/compose.yaml"), encoding: .utf8)
        var services: [String: (environment: [String: String], command: [String])] = [:]
        var current: String?
        var inServices = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if !line.isEmpty && !line.hasPrefix(" ") { inServices = line == "services:" }
            guard inServices else { continue }
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("  ") && !line.hasPrefix("   ") && trimmed.hasSuffix(":") {
                current = String(trimmed.dropLast())
                services[current!] = ([:], [])
            } else if let service = current, trimmed.hasPrefix("SSDP_SIM_") {
                let parts = trimmed.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                services[service]?.environment[parts[0]] = parts[1].trimmingCharacters(
                    in: CharacterSet(charactersIn: "\"")
                )
            } else if let service = current, trimmed.hasPrefix("command:") {
                let list = Data(trimmed.dropFirst("command:".count).utf8)
                services[service]?.command = try JSONDecoder().decode([String].self, from: list)
            }
        }
        return services
    }

    @Test func theLabHasTheComposeFilesDevicesWithTheirEnvironments() throws {
        let services = try Self.composeServices()
        let lab =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: Lab.file("compose")))
            ) as? [String: Any]
        let hosts = lab?["hosts"] as? [[String: Any]] ?? []
        let devices = services.filter { !$0.value.environment.isEmpty }
        #expect(devices.count == 4)
        #expect(Set(hosts.compactMap { $0["name"] as? String }) == Set(services.keys))
        for host in hosts where host["client"] == nil {
            let name = host["name"] as? String ?? ""
            #expect(host["environment"] as? [String: String] == services[name]?.environment, "\(name)")
            #expect((host["serve"] as? [String])?.isEmpty == true, "\(name): configured by its environment only")
        }
        #expect(services["harness"]?.command.first == "search")
    }

    @Test func theComposeHarnessCommandPassesAgainstTheComposeDevicesInTheLab() async throws {
        let harness = try #require(try Self.composeServices()["harness"]?.command)
        let output = try await Lab.run(Lab.file("compose"), command: [CommandRunner.ssdpSim.path] + harness)
        #expect(output.status == 0, "\(output.standardOutput)\n\(output.standardError)")
        #expect(output.standardOutput.contains("Found 4 services"), "\(output.standardOutput)")
        #expect(output.standardError.contains("SSDP_SIM_FRIENDLY_NAME='Living Room Roku'"))
    }

    @Test func theHarnessFailsWhenADeviceIsMissing() async throws {
        let harness = try #require(try Self.composeServices()["harness"]?.command)
        let expecting5 = harness.map { $0 == "4" ? "5" : $0 }
        let output = try await Lab.run(Lab.file("compose"), command: [CommandRunner.ssdpSim.path] + expecting5)
        #expect(output.status == 1)
        #expect(
            output.standardOutput.contains("FAIL  found count: expected 5 services reported; got 4 reported"),
            "\(output.standardOutput)"
        )
    }
}
