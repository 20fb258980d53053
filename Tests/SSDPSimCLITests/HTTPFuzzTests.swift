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

/// The HTTP side of every profile at once, fuzzed (issue 38: one SOAP request could crash the whole
/// simulator). `ssdp-sim serve` runs one device of each profile on loopback, unicast only; Scripts/
/// http_fuzz.py reads their descriptions and service descriptions and sends a seeded mix of SOAP calls
/// with boundary and malformed arguments and envelopes, AVTransport times, GENA subscriptions, broken HTTP,
/// and Roku ECP and DIAL requests, one per connection, then checks every description is still served.
///
/// The simulator must survive all of it: still running, still serving, stopping cleanly on SIGINT, and
/// holding no more descriptors than before. Its memory and descriptors before and after, and the
/// fuzzer's figures, are printed for the log.
///
/// `SSDP_SIM_HTTP_FUZZ_REQUESTS` sets the number of requests (default 20,000; the full run is 1,000,000),
/// `SSDP_SIM_HTTP_FUZZ_SEED` the seed (default 1) and `SSDP_SIM_HTTP_FUZZ_WORKERS` the fuzzer's
/// connections in parallel (default 4).
@Suite(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/fd"), "reads /proc/PID (Linux)"))
struct HTTPFuzzTests {
    static let profiles = [
        "igd", "dlna-server", "renderer", "roku", "roku-tv", "dial-tv", "hue", "sonos", "chromecast-legacy", "generic",
    ]

    private static func setting(_ name: String, default value: Int) -> Int {
        ProcessInfo.processInfo.environment[name].flatMap { Int($0) } ?? value
    }

    @Test(.tags(.httpFuzz)) func everyProfileSurvivesTheHTTPFuzzer() async throws {
        let requests = Self.setting("SSDP_SIM_HTTP_FUZZ_REQUESTS", default: 20_000)
        let seed = Self.setting("SSDP_SIM_HTTP_FUZZ_SEED", default: 1)
        let workers = Self.setting("SSDP_SIM_HTTP_FUZZ_WORKERS", default: 4)
        let fuzzer = try #require(
            Bundle.module.url(forResource: "http_fuzz", withExtension: "py", subdirectory: "Scripts")
        )

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("http-fuzz-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let devicesFile = directory.appendingPathComponent("devices.json")
        let entries = Self.profiles.map { "{\"profile\": \"\($0)\"}" }.joined(separator: ", ")
        try Data("{ \"devices\": [\(entries)] }".utf8).write(to: devicesFile)

        // serve prints a JSON line for every request (about 700 bytes): a million of them are kept in a
        // file, not in this process. `exec` makes the shell the simulator, so the pid is the simulator's.
        let events = directory.appendingPathComponent("serve.jsonl")
        let errors = directory.appendingPathComponent("serve.stderr")
        let serve = try RunningCommand(
            URL(fileURLWithPath: "/bin/sh"),
            [
                "-c",
                #"exec "$SSDP_SIM" serve --interface lo --unicast-only --port 0 --http-port any --devices "$DEVICES" "#
                    + #"--seed "$SEED" --json --log-level warning > "$EVENTS" 2> "$ERRORS""#,
            ],
            environment: [
                "SSDP_SIM": CommandRunner.ssdpSim.path, "DEVICES": devicesFile.path, "SEED": "\(seed)",
                "EVENTS": events.path, "ERRORS": errors.path,
            ]
        )
        var stopped = false
        defer { if !stopped { serve.kill() } }  // a failed expectation must not leave it running
        let started = try await #require(
            Self.startedLine(events, serve: serve),
            "serve did not start: \(Self.text(errors))"
        )
        let locations = try #require(started["devices"] as? [[String: Any]]).compactMap { $0["location"] as? String }
        #expect(locations.count == Self.profiles.count)
        let pid = serve.processIdentifier
        let before = try #require(ProcessFigures(pid: pid), "no /proc/\(pid)")

        // Bounded twice: the fuzzer stops sending after --max-seconds, and is killed a minute later.
        let seconds = max(300, requests / 50)
        let fuzz = try RunningCommand(
            URL(fileURLWithPath: "/usr/bin/python3"),
            [
                fuzzer.path, "--seed", "\(seed)", "--requests", "\(requests)", "--workers", "\(workers)",
                "--max-seconds", "\(seconds)",
            ] + locations
        )
        let output = await fuzz.wait(timeout: .seconds(seconds + 60))
        let summaryLine = output.standardOutput.split(separator: "\n").last.map(String.init) ?? ""
        let summary = jsonObject(summaryLine) ?? [:]

        let running = ProcessFigures.isRunning(pid: pid)
        // What the fuzzer left half-open is closed at the device's request deadline (10 s), and event
        // messages give up after 5 s: wait for the descriptors to come back down before counting them.
        var after = ProcessFigures(pid: pid)
        let settle = ContinuousClock.now + .seconds(15)
        while let figures = after, figures.descriptors > before.descriptors + Self.descriptorSlack,
            ContinuousClock.now < settle
        {
            try await Task.sleep(for: .milliseconds(500))
            after = ProcessFigures(pid: pid)
        }

        let counts = { (name: String) in
            (summary[name] as? [String: Int] ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
                .joined(separator: ", ")
        }
        print(
            """
            http fuzz: \(summary["requests"] ?? "?") requests (seed \(seed), \(workers) workers) in \
            \(summary["seconds"] ?? "?") s, \(summary["rate"] ?? "?") per second
            http fuzz: statuses \(counts("statuses")); no answer \(counts("no_answer")); timeouts \
            \(summary["timeouts"] ?? "?"), errors \(summary["errors"] ?? "?"), still serving \
            \((summary["still_serving"] as? Bool).map { "\($0)" } ?? "?"), event messages \(summary["notifies"] ?? "?")
            http fuzz: anomalies \(counts("anomalies"))
            \(Self.anomalyExamples(output.standardError))
            http fuzz: serve RSS \(before.residentKiB) KiB -> \(after?.residentKiB ?? -1) KiB (peak \
            \(after?.peakResidentKiB ?? -1) KiB), descriptors \(before.descriptors) -> \(after?.descriptors ?? -1)
            """
        )

        #expect(output.status == 0, "the fuzzer found a device not serving:\n\(output.standardError)")
        #expect(summary["still_serving"] as? Bool == true, "\(summaryLine)\n\(output.standardError)")
        #expect(summary["crash"] is NSNull, "\(summary["crash"] ?? "")")
        #expect((summary["requests"] as? Int ?? 0) >= requests, "the fuzzer sent fewer requests than asked")
        #expect(running, "serve is no longer running:\n\(Self.crashLines(Self.text(errors)))")
        if let after {
            #expect(
                after.descriptors <= before.descriptors + Self.descriptorSlack,
                "descriptors \(before.descriptors) -> \(after.descriptors)"
            )
            #expect(after.peakResidentKiB < 256 * 1_024, "peak memory \(after.peakResidentKiB) KiB")
        }

        serve.signal(SIGINT)
        let exit = await serve.wait()
        stopped = true
        #expect(exit.status == 0, "serve exited \(exit.status) on SIGINT:\n\(Self.crashLines(Self.text(errors)))")
    }

    /// The fuzzer's anomaly lines (a count and the first example of each), the first 40, each cut at 800
    /// characters: what the device answered oddly, for the log even when the test passes.
    static func anomalyExamples(_ standardError: String) -> String {
        standardError.split(separator: "\n").filter { $0.hasPrefix("{\"anomaly\"") }.prefix(40)
            .map { "http fuzz: " + ($0.count > 800 ? $0.prefix(800) + "…" : $0) }.joined(separator: "\n")
    }

    /// The `started` event of the simulator writing its events to `file`, once it is there (30 s at most).
    static func startedLine(_ file: URL, serve: RunningCommand) async -> [String: Any]? {
        let deadline = ContinuousClock.now + .seconds(30)
        var looking = true
        while looking {
            looking = ContinuousClock.now < deadline  // one look after the deadline: a sleep can end late
            if let handle = try? FileHandle(forReadingFrom: file) {
                defer { try? handle.close() }
                let head = String(decoding: (try? handle.read(upToCount: 1 << 20)) ?? Data(), as: UTF8.self)
                if let line = head.split(separator: "\n").first(where: { $0.contains("\"started\"") }) {
                    return jsonObject(String(line))
                }
            }
            guard ProcessFigures.isRunning(pid: serve.processIdentifier) else { return nil }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return nil
    }

    /// A file's text, or nothing.
    static func text(_ file: URL) -> String {
        (try? String(contentsOf: file, encoding: .utf8)) ?? ""
    }

    /// What a crashed simulator's standard error says of where it stopped: the runtime's message, the
    /// crashed thread, and the frames in the project's own sources (not its dependencies'; the backtrace's
    /// registers and memory left out).
    static func crashLines(_ standardError: String) -> String {
        let lines = standardError.split(separator: "\n").filter {
            $0.contains("Fatal error") || $0.contains("runtime failure") || $0.contains("crashed")
                || ($0.contains("/Sources/") && !$0.contains("/.build/"))
        }
        return (lines.isEmpty ? standardError.split(separator: "\n").suffix(20) : lines.prefix(30)).joined(
            separator: "\n"
        )
    }

    /// Descriptors the simulator may hold after the run beyond those before it: a connection or an event
    /// message still being closed.
    static let descriptorSlack = 8
}

/// A process's memory and open descriptors, from /proc/PID.
struct ProcessFigures {
    /// VmRSS: resident memory now.
    var residentKiB: Int
    /// VmHWM: the most resident memory so far.
    var peakResidentKiB: Int
    /// The entries of /proc/PID/fd.
    var descriptors: Int

    init?(pid: Int32) {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let descriptors = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")
        else { return nil }
        let field = { (name: String) -> Int in
            let line = status.split(separator: "\n").first { $0.hasPrefix(name + ":") } ?? ""
            return Int(
                line.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces).split(separator: " ").first ?? ""
            )
                ?? -1
        }
        residentKiB = field("VmRSS")
        peakResidentKiB = field("VmHWM")
        self.descriptors = descriptors.count
    }

    /// Whether the process exists and has not exited (a zombie, exited but not yet reaped, has not).
    static func isRunning(pid: Int32) -> Bool {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return false }
        let state = status.split(separator: "\n").first { $0.hasPrefix("State:") } ?? ""
        return !state.contains("Z") && !state.contains("X")
    }
}

extension Tag {
    /// The HTTP-side fuzz of every profile (20,000 requests by default, about half a minute).
    @Tag static var httpFuzz: Self
}
