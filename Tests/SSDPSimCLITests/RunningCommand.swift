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
import NIOConcurrencyHelpers
import SSDPHarness
import Testing

/// A command running in the background while a test talks to it: its output is collected as it comes,
/// a test can wait for a line, send a signal, and finally wait for the exit.
final class RunningCommand: Sendable {
    private let process: Process
    private let output = NIOLockedValueBox((standardOutput: "", standardError: ""))

    /// `standardInput`: a pipe the test holds the other end of (else the test process's own).
    init(
        _ executable: URL,
        _ arguments: [String],
        environment: [String: String] = [:],
        standardInput: Pipe? = nil
    ) throws {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        if let standardInput { process.standardInput = standardInput }
        let (stdout, stderr) = (Pipe(), Pipe())
        process.standardOutput = stdout
        process.standardError = stderr
        let output = self.output
        stdout.fileHandleForReading.readabilityHandler = { handle in
            let text = String(decoding: handle.availableData, as: UTF8.self)
            output.withLockedValue { $0.standardOutput += text }
        }
        stderr.fileHandleForReading.readabilityHandler = { handle in
            let text = String(decoding: handle.availableData, as: UTF8.self)
            output.withLockedValue { $0.standardError += text }
        }
        try process.runWithNoSignalBlocked()
        self.process = process
    }

    /// Waits (polling, bounded by `timeout`) for a line of standard output that satisfies `predicate`.
    func waitForLine(timeout: Duration = .seconds(30), where predicate: (String) -> Bool) async throws -> String {
        // It looks again after every sleep, the last one too: on a busy machine a sleep can end long after
        // the deadline, and what came meanwhile still counts.
        let deadline = ContinuousClock.now + timeout
        while true {
            let lines = output.withLockedValue { $0.standardOutput }.split(separator: "\n").map(String.init)
            if let line = lines.first(where: predicate) { return line }
            guard process.isRunning, ContinuousClock.now < deadline else { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw CommandFailure("no matching line; stdout: \(standardOutput) stderr: \(standardError)")
    }

    func signal(_ signal: Int32) {
        Glibc.kill(process.processIdentifier, signal)
    }

    var processIdentifier: Int32 { process.processIdentifier }

    /// Kills the process if it still runs, without waiting: for a `defer`, which cannot wait
    /// asynchronously, so that a failed expectation does not leave it running.
    func kill() {
        if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) }
    }

    /// Waits for the exit (killing the process after `timeout`) and returns everything it printed.
    func wait(timeout: Duration = .seconds(30)) async -> CommandRunner.Output {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning && ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(50)) }
        if process.isRunning {
            process.terminate()
            while process.isRunning { try? await Task.sleep(for: .milliseconds(10)) }
        }
        process.waitUntilExit()
        try? await Task.sleep(for: .milliseconds(100))  // let the readability handlers drain the pipes
        let (standardOutput, standardError) = output.withLockedValue { ($0.standardOutput, $0.standardError) }
        return CommandRunner.Output(
            status: process.terminationStatus,
            standardOutput: standardOutput,
            standardError: standardError
        )
    }

    var standardOutput: String { output.withLockedValue { $0.standardOutput } }
    var standardError: String { output.withLockedValue { $0.standardError } }

    struct CommandFailure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}

extension CommandRunner.Output {
    /// The first JSON line whose `event` is `name`.
    func event(_ name: String) -> [String: Any]? {
        jsonLines.first { $0["event"] as? String == name }
    }
}

/// Parses one line of JSON into an object.
func jsonObject(_ line: String) -> [String: Any]? {
    try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
}

extension RunningCommand {
    /// Starts `serve --interface lo --unicast-only --port 0 --json` plus `arguments`; returns it, its UDP
    /// port and its `started` event, once it has said it.
    static func serveOnLoopback(
        _ arguments: [String] = [],
        environment: [String: String] = [:]
    ) async throws -> (RunningCommand, Int, [String: Any]) {
        let serve = try RunningCommand(
            CommandRunner.ssdpSim,
            [
                "serve", "--interface", "lo", "--unicast-only", "--port", "0", "--http-port", "any", "--json",
                "--log-level", "warning",
            ]
                + arguments,
            environment: environment
        )
        let started = try await #require(jsonObject(try serve.waitForLine { $0.contains("\"started\"") }))
        let udp = try #require(started["udp"] as? String)
        return (serve, try #require(Int(udp.split(separator: ":").last ?? "")), started)
    }
}
