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

/// Runs programs for the CLI tests and collects what they print.
enum CommandRunner {
    struct Output {
        var status: Int32
        var standardOutput: String
        var standardError: String

        /// Each line of standard output parsed as a JSON object (lines that are not are skipped).
        var jsonLines: [[String: Any]] {
            standardOutput.split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
        }
    }

    /// The `ssdp-sim` binary SwiftPM built beside the test bundle.
    static var ssdpSim: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("ssdp-sim")
    }

    /// Runs `executable` with `arguments` to completion; `timeout` bounds it.
    ///
    /// The wait happens on a thread of its own, not on the test's: a test that waits for a program would
    /// otherwise hold one of the few threads Swift's concurrency runs every test on, and the live tests
    /// beside it, which time their datagrams by the wall clock, would starve.
    static func run(
        _ executable: URL,
        _ arguments: [String],
        environment: [String: String] = [:],
        timeout: Duration = .seconds(60)
    ) async throws -> Output {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(
                    with: Result {
                        try runOnThisThread(executable, arguments, environment: environment, timeout: timeout)
                    }
                )
            }
        }
    }

    /// Runs a program to completion on the calling thread: for a one-time probe in a static initializer,
    /// which cannot wait asynchronously.
    ///
    /// Foundation starts the program as the leader of a process group, and the timeout kills the group:
    /// whatever it started and left running (a server a script put in the background) would otherwise hold
    /// its output open, and reading that output to its end would wait for ever. Standard error is read on
    /// a thread of its own, so a program that fills one pipe while the other is read cannot stall.
    static func runOnThisThread(
        _ executable: URL,
        _ arguments: [String],
        environment: [String: String] = [:],
        timeout: Duration = .seconds(60)
    ) throws -> Output {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let (stdout, stderr) = (Pipe(), Pipe())
        process.standardOutput = stdout
        process.standardError = stderr
        try process.runWithNoSignalBlocked()
        let group = process.processIdentifier  // Foundation starts the process as the leader of a group
        let killer = DispatchWorkItem { kill(-group, SIGKILL) }
        DispatchQueue.global().asyncAfter(
            deadline: .now() + .milliseconds(Int(timeout.components.seconds) * 1000),
            execute: killer
        )
        let errors = NIOLockedValueBox(Data())
        let readingErrors = DispatchGroup()
        readingErrors.enter()
        Thread.detachNewThread {
            let data = stderr.fileHandleForReading.readDataToEndOfFile()
            errors.withLockedValue { $0 = data }
            readingErrors.leave()
        }
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        readingErrors.wait()
        process.waitUntilExit()
        killer.cancel()
        return Output(
            status: process.terminationStatus,
            standardOutput: String(decoding: out, as: UTF8.self),
            standardError: String(decoding: errors.withLockedValue { $0 }, as: UTF8.self)
        )
    }

    static func ssdpSim(_ arguments: String...) async throws -> Output {
        try await run(ssdpSim, arguments)
    }
}
