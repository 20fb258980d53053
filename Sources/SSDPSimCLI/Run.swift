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

import ArgumentParser
import Foundation
import SSDPCore
import SSDPHarness
import SSDPSimulator

struct Run: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run scenarios: the real search session against simulated devices, with expectations.",
        discussion: """
            Each scenario file (see Scenarios/README.md) names devices, network faults and what must \
            happen. By default every scenario runs in virtual time: the production session and device \
            state machines on a seeded virtual network, with no sockets, in milliseconds.

              ssdp-sim run Scenarios                          every scenario, virtual time
              ssdp-sim run Scenarios/lossy-network.json --seed 7
              ssdp-sim run Scenarios --seeds 20               each scenario with seeds S...S+19, a run per core
              ssdp-sim run Scenarios --live                   scenarios tagged live, over loopback UDP
              ssdp-sim run Scenarios --client './my-client'   your client against live devices
              sudo ssdp-sim run Scenarios --namespace --client 'python3 find.py' --client-policy searches=1,mx=3,stop=idle:2
              ssdp-sim run Scenarios --junit report.xml --json-report report.json --trace traces/
              ssdp-sim run Scenarios --json                   the JSON report on stdout instead of text
              ssdp-sim run Scenarios --html report.html       one page: failures first, a sequence diagram per run
              ssdp-sim run Scenarios --html reports/ --summary-md "$GITHUB_STEP_SUMMARY"

            An external client gets SSDP_HOST, SSDP_PORT, SSDP_ST, SSDP_MX and SSDP_REQUESTS in its \
            environment, must search there, print one USN (or one JSON object with "usn", "st", \
            "location") per line for each service it finds, and exit 0 when its search ends. It is held \
            to the original design's timing unless --client-policy says how it searches and stops; \
            --checks keeps only some groups of checks.

            Exit status (as every ssdp-sim command): 0 every scenario passed, 1 a scenario failed (or a \
            trace could not be written), 64 invalid input (a bad flag or scenario file; the message names \
            the file, the JSON path and the reason).
            """
    )

    @Argument(help: "Scenario files or directories of them.")
    var paths: [String] = ["Scenarios"]

    @Option(help: "Use this seed instead of each scenario's own.")
    var seed: UInt64?

    @Option(help: "Run each scenario with this many seeds, from --seed (or its own) upwards.")
    var seeds = 1

    @Option(
        help: """
            Runs at once (default: one per core for virtual runs, 16 per core with --live or --client; 1 for \
            a client that cannot run twice at once). --live --namespace runs go one at a time.
            """
    )
    var jobs: Int?

    @Flag(help: "Run the scenarios tagged live over real UDP sockets on loopback.")
    var live = false

    @Flag(
        help: """
            With --live or --client: create a private network namespace (needs root) whose devices listen on \
            239.255.255.250:1900, and search by multicast in it.
            """
    )
    var namespace = false

    @Option(help: "Test this command instead of the built-in session (devices run live on loopback).")
    var client: String?

    @Option(
        name: .customLong("client-policy"),
        help: ArgumentHelp(
            """
            How the client searches and stops, to hold it to: design (N searches MX apart, stop at N × MX + 0.1 s), \
            or searches=N,spacing=SECONDS|any,mx=N,st=TARGET,stop=after:SECONDS|idle:SECONDS|any.
            """,
            valueName: "policy"
        )
    )
    var clientPolicy: String?

    @Option(
        help: ArgumentHelp(
            "Make only these groups of checks: \(CheckGroup.allCases.map(\.rawValue).joined(separator: ",")).",
            valueName: "groups"
        )
    )
    var checks: String?

    @Option(help: "Only run scenarios whose name contains this text.")
    var filter: String?

    @Option(help: "Write a JUnit XML report here.")
    var junit: String?

    @Option(name: .customLong("json-report"), help: "Write the JSON report to this file.")
    var jsonReport: String?

    @Flag(help: "Print the JSON report on standard output instead of the text lines.")
    var json = false

    @Option(help: "Write a pcap and a timeline per scenario into this directory.")
    var trace: String?

    @Option(
        help: ArgumentHelp(
            "Write a self-contained HTML report: a file, or a directory (ending in /, or existing) for one page per run and an index.html.",
            valueName: "file-or-directory"
        )
    )
    var html: String?

    @Option(
        name: .customLong("summary-md"),
        help: "Write a Markdown summary here (for a CI job page: $GITHUB_STEP_SUMMARY)."
    )
    var summaryMarkdown: String?

    /// The policy `--client-policy` gives, the design's without it.
    private func policy() throws -> SearchPolicy {
        do {
            return try clientPolicy.map { try SearchPolicy(parsing: $0) } ?? .design
        } catch {
            throw ValidationError("--client-policy '\(clientPolicy ?? "")': \(error)")
        }
    }

    /// The groups `--checks` names; `nil` without it.
    private func checkGroups() throws -> Set<CheckGroup>? {
        do {
            return try checks.map { try CheckGroup.parse($0) }
        } catch {
            throw ValidationError("--checks '\(checks ?? "")': \(error)")
        }
    }

    /// Datagrams the HTML report keeps from passed runs, all runs together; failed runs keep all of theirs.
    static let htmlTraceBudget = 400_000

    func validate() throws {
        guard (1...1_000).contains(seeds) else { throw ValidationError("--seeds must be 1...1000, got \(seeds)") }
        if let jobs, !(1...ScenarioRunner.maximumJobs).contains(jobs) {
            throw ValidationError("--jobs must be 1...\(ScenarioRunner.maximumJobs), got \(jobs)")
        }
        if live, client != nil {
            throw ValidationError("--live and --client cannot be combined: --client runs devices live")
        }
        if namespace, !live, client == nil { throw ValidationError("--namespace needs --live or --client") }
        if clientPolicy != nil, client == nil { throw ValidationError("--client-policy needs --client") }
        _ = try policy()
        _ = try checkGroups()
        if let client, client.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ValidationError("--client needs a command")
        }
        let htmlFile = html.flatMap { htmlIsDirectory ? nil : $0 }
        try validateReportPaths([
            ("--junit", junit), ("--json-report", jsonReport), ("--html", htmlFile), ("--summary-md", summaryMarkdown),
        ])
    }

    func run() async throws {
        let output = CommandOutput(json: json)
        if namespace, ProcessInfo.processInfo.environment[Self.insideNamespace] == nil {
            throw ExitCode(try runInPrivateNamespace(output))
        }
        let scenarios: [Scenario]
        do {
            scenarios = try ScenarioFile.loadAll(paths).filter { filter == nil || $0.name.contains(filter ?? "") }
        } catch {
            output.error("\(error)")
            throw ExitCode.validationFailure
        }
        guard !scenarios.isEmpty else {
            output.error("no scenario name contains \"\(filter ?? "")\"")
            throw ExitCode.validationFailure
        }
        for (flag, directory) in [("--trace", trace), ("--html", htmlIsDirectory ? html : nil)] {
            guard let directory else { continue }
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                output.error("\(flag) '\(directory)': cannot create the directory: \(error)")
                throw ExitCode.validationFailure
            }
        }
        let network: LiveNetwork = namespace ? .namespaceMulticast : .loopback
        let mode: ScenarioRunner.Mode =
            try client.map { .externalClient(command: $0, policy: try policy(), network: network) }
            ?? (live ? .live(network) : .virtual)
        let runs = scenarios.flatMap { scenario in
            (0..<seeds).map { offset in (scenario, (seed ?? scenario.seed) &+ UInt64(offset)) }
        }
        let progress = RunOutput(total: runs.count, output: output)
        let clock = ContinuousClock()
        let start = clock.now
        var results: [ScenarioResult] = []
        var traceFailed = false
        var keptForHTML = 0
        let jobs = self.jobs ?? ScenarioRunner.defaultJobs(for: mode)
        progress.header(scenarios: scenarios.count, runs: runs.count, mode: mode, jobs: jobs)
        let tracing: Tracing = trace == nil && html == nil ? .off : .everyDatagram
        await ScenarioRunner.sweep(runs, mode: mode, trace: tracing, checks: try checkGroups(), jobs: jobs) {
            index,
            result in
            var result = result
            progress.progress(result, number: index + 1)
            if let trace {
                do {
                    try writeTrace(result, into: trace)
                } catch {
                    output.error("\(error)")
                    traceFailed = true
                }
            }
            // A long suite must not keep every packet: the HTML report keeps a failed run's, and a passed
            // run's while the budget lasts.
            if html != nil, !result.passed || keptForHTML + result.record.trace.count <= Self.htmlTraceBudget {
                if result.passed { keptForHTML += result.record.trace.count }
            } else if html != nil, !result.record.trace.isEmpty {
                result.record.notes.append(
                    "The report left this passed run's \(result.record.trace.count) datagrams out: it keeps "
                        + "\(Self.htmlTraceBudget) from passed runs in all (see --trace for every one)."
                )
                result.record.trace = []
                result.record.deliveries = []
            } else {
                result.record.trace = []
                result.record.deliveries = []
            }
            results.append(result)
        }
        progress.summary(results, elapsed: clock.now - start, reproduce: reproduceCommand)
        if let junit {
            try Reports.writeAtomically(
                Data(Reports.junit(results, title: "ssdp-sim run \(RunOutput.describe(mode))").utf8),
                to: junit
            )
        }
        if let jsonReport {
            try Reports.writeAtomically(try Reports.json(results), to: jsonReport)
        }
        if html != nil || summaryMarkdown != nil {
            try writeHTML(results, mode: mode, output: output)
        }
        if json {
            FileHandle.standardOutput.write(try Reports.json(results))
            print()
        }
        if results.contains(where: { !$0.passed && $0.skipped == nil }) {
            throw ExitCode(1)
        }
        if traceFailed { throw ExitCode.failure }
    }

    /// Set in the environment of the copy of `ssdp-sim` that runs inside the private namespace.
    static let insideNamespace = "SSDP_HARNESS_IN_NAMESPACE"

    /// Runs this same command again inside a new network namespace whose loopback carries multicast, and
    /// returns its exit status. Nothing in the namespace can reach the host's networks.
    private func runInPrivateNamespace(_ output: CommandOutput) throws -> Int32 {
        let unshare = "/usr/bin/unshare"
        guard geteuid() == 0, FileManager.default.isExecutableFile(atPath: unshare) else {
            output.error(
                "--namespace needs root and \(unshare) to create a private network namespace; without it, --live searches loopback by unicast"
            )
            return ExitCode.validationFailure.rawValue
        }
        let setUp =
            "ip link set lo up && ip link set lo multicast on && ip route add 239.0.0.0/8 dev lo src 127.0.0.1 && exec \"$0\" \"$@\""
        let process = Process()
        process.executableURL = URL(fileURLWithPath: unshare)
        process.arguments =
            ["-n", "--", "/bin/sh", "-c", setUp, URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path]
            + CommandLine.arguments.dropFirst()
        process.environment = ProcessInfo.processInfo.environment.merging([Self.insideNamespace: "1"]) { $1 }
        try process.runWithNoSignalBlocked()
        process.waitUntilExit()
        // 0, 1 and 64 are run's own answers; anything else (ip missing, a signal) is the namespace failing.
        let answers = [ExitCode.success, .failure, .validationFailure].map(\.rawValue)
        guard process.terminationReason == .exit, answers.contains(process.terminationStatus) else {
            output.error("the run inside the private namespace failed (status \(process.terminationStatus))")
            return ExitCode.failure.rawValue
        }
        return process.terminationStatus
    }

    /// Whether `--html` names a directory: one that exists, or a path that ends in `/`.
    private var htmlIsDirectory: Bool {
        guard let html else { return false }
        var isDirectory: ObjCBool = false
        return html.hasSuffix("/")
            || (FileManager.default.fileExists(atPath: html, isDirectory: &isDirectory) && isDirectory.boolValue)
    }

    /// Writes the HTML report (one page, or a page per run and an index) and the Markdown summary, each
    /// whole or not at all, and says where and how large.
    private func writeHTML(_ results: [ScenarioResult], mode: ScenarioRunner.Mode, output: CommandOutput) throws {
        let clock = ContinuousClock()
        let start = clock.now
        let scenarios = Set(results.map(\.scenario.name)).count
        let report = HTMLReport(
            results,
            title: "ssdp-sim run: \(scenarios) scenario\(scenarios == 1 ? "" : "s") \(RunOutput.describe(mode))",
            command: Self.commandLine,
            reproduce: reproduceCommand
        )
        if let summaryMarkdown {
            try Reports.writeAtomically(Data(Reports.markdownSummary(report).utf8), to: summaryMarkdown)
        }
        guard let html else { return }
        var bytes = 0
        var files = 0
        if htmlIsDirectory {
            var pages: [(run: HTMLReport.Run, file: String)] = []
            var taken: Set<String> = ["index"]  // file names compared as a case-blind file system would
            for run in report.runs {
                var one = report
                one.runs = [run]
                var name = Reports.fileName(for: run.id)
                var number = 1
                while taken.contains(name.lowercased() + (number == 1 ? "" : "-\(number)")) { number += 1 }
                if number > 1 { name += "-\(number)" }
                taken.insert(name.lowercased())
                let file = name + ".html"
                let page = Data(try Reports.html(one).utf8)
                try Reports.writeAtomically(page, to: URL(fileURLWithPath: html).appendingPathComponent(file).path)
                pages.append((run, file))
                bytes += page.count
            }
            let index = Data(Reports.htmlIndex(report, pages: pages).utf8)
            try Reports.writeAtomically(index, to: URL(fileURLWithPath: html).appendingPathComponent("index.html").path)
            bytes += index.count
            files = pages.count + 1
        } else {
            let page = Data(try Reports.html(report).utf8)
            try Reports.writeAtomically(page, to: html)
            bytes = page.count
            files = 1
        }
        let elapsed = Int((clock.now - start) / .milliseconds(1))
        let written = htmlIsDirectory ? "\(files) files in \(html)" : html
        output.say(
            "HTML report: \(written) (\(ByteCountFormatter.string(fromByteCount: Int64(bytes), countStyle: .file)), written in \(elapsed) ms)"
        )
    }

    /// The command line as typed, each word quoted where the shell would need it.
    static var commandLine: String {
        (["ssdp-sim"] + CommandLine.arguments.dropFirst()).map { word in
            !word.isEmpty && word.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_./=:,@+".contains($0)) }
                ? word : "'\(word.replacingOccurrences(of: "'", with: "'\\''"))'"
        }.joined(separator: " ")
    }

    private func writeTrace(_ result: ScenarioResult, into directory: String) throws {
        let name = seeds > 1 || seed != nil ? "\(result.scenario.name)-seed-\(result.seed)" : result.scenario.name
        let base = URL(fileURLWithPath: directory).appendingPathComponent(name).path
        try Reports.writeAtomically(
            Data(Reports.pcap(result.record.trace, startingAt: result.record.startedAt)),
            to: base + ".pcap"
        )
        try Reports.writeAtomically(Data(Reports.timeline(result).utf8), to: base + ".timeline.txt")
    }

    /// The command that runs one failed scenario again, exactly.
    private func reproduceCommand(_ result: ScenarioResult) -> String {
        var words = ["ssdp-sim", "run", result.scenario.file, "--seed", "\(result.seed)"]
        if live { words.append("--live") }
        if namespace { words.append("--namespace") }
        if let client { words += ["--client", "'\(client)'"] }
        if let clientPolicy { words += ["--client-policy", clientPolicy] }
        if let checks { words += ["--checks", checks] }
        return words.joined(separator: " ")
    }
}

/// What `run` prints while it works and at the end.
struct RunOutput {
    let total: Int
    /// With `--json` the report is the output: the text lines are not printed.
    let output: CommandOutput

    private func say(_ line: String) {
        output.say(line)
    }

    /// How the runs run, in words: "in virtual time", "live over loopback UDP", …
    static func describe(_ mode: ScenarioRunner.Mode) -> String {
        switch mode {
        case .virtual: "in virtual time"
        case .live(.loopback): "live over loopback UDP"
        case .live(.namespaceMulticast): "live by multicast in a private network namespace"
        case .externalClient(let command, let policy, let network):
            "against the client \"\(command)\"" + (policy == .design ? "" : " (held to its policy \(policy))")
                + (network == .loopback
                    ? ", devices live over loopback UDP" : ", devices live by multicast in a private network namespace")
        }
    }

    func header(scenarios: Int, runs: Int, mode: ScenarioRunner.Mode, jobs: Int) {
        let how = Self.describe(mode)
        let seeds = runs == scenarios ? "" : " (\(runs) runs)"
        let width = min(ScenarioRunner.width(for: mode, jobs: jobs), runs)
        // Virtual runs take milliseconds however many go at once; a live sweep's time depends on it.
        let atOnce = mode == .virtual ? "" : width > 1 ? ", \(width) at a time" : ", one at a time"
        say("Running \(scenarios) scenario\(scenarios == 1 ? "" : "s")\(seeds) \(how)\(atOnce).")
    }

    func progress(_ result: ScenarioResult, number: Int) {
        let width = String(total).count
        let number = String(number)
        let counter = "[\(String(repeating: " ", count: max(0, width - number.count)))\(number)/\(total)]"
        let name = result.scenario.name + (result.seed == result.scenario.seed ? "" : " [seed \(result.seed)]")
        if let reason = result.skipped {
            say("\(counter) skip \(name): \(reason)")
            return
        }
        let stop = result.record.endings.first.map { ", stop at \($0.at.secondsText) s" } ?? ""
        let figures = "\(result.record.reports.count) found, \(result.record.searches.count) M-SEARCH\(stop)"
        let time = "\(result.elapsed / .milliseconds(1) < 1 ? "<1" : String(Int(result.elapsed / .milliseconds(1)))) ms"
        let unobserved = result.skippedChecks.count
        let skippedChecks = unobserved == 0 ? "" : "; \(unobserved) \(unobserved == 1 ? "check" : "checks") skipped"
        if result.passed {
            say("\(counter) pass \(name) (\(figures); \(time)\(skippedChecks))")
            return
        }
        say("\(counter) FAIL \(name) (\(figures); seed \(result.seed))")
        for line in Reports.failureLines(result) {
            say("       - \(line)")
        }
        for note in result.record.notes {
            say("       note: \(note)")
        }
    }

    func summary(_ results: [ScenarioResult], elapsed: Duration, reproduce: (ScenarioResult) -> String) {
        let passed = results.filter(\.passed).count
        let skipped = results.filter { $0.skipped != nil }.count
        let failed = results.count - passed - skipped
        let unobserved = results.map(\.skippedChecks.count).reduce(0, +)
        let checks =
            unobserved == 0
            ? "" : ", \(unobserved) \(unobserved == 1 ? "check" : "checks") skipped (not observable in this mode)"
        say("\(passed) passed, \(failed) failed, \(skipped) skipped\(checks) in \(elapsed.secondsText) s.")
        let failures = results.filter { !$0.passed && $0.skipped == nil }
        guard !failures.isEmpty else { return }
        say("To run a failed scenario again exactly:")
        for failure in failures.prefix(10) {
            say("  \(reproduce(failure))")
        }
    }
}
