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
import Logging
import NIOConcurrencyHelpers
import NIOCore
import SSDPCore
import SSDPSearch
import SSDPSimulator

/// Someone else's client, run as a process; its standard output lines are what it found.
///
/// One thread reads standard output to its end and another drains standard error, so nothing races
/// and nothing is read twice. A line is stamped when it is read, but never later than the exit: a line
/// still in the pipe when the client exited was printed before its stop. Output is bounded: a line
/// over 64 KiB is dropped, and at most `maximumLines` lines are read.
final class ExternalClient: Sendable {
    static let maximumLineLength = 65_536
    static let maximumLines = 100_000
    static let maximumNotes = 20

    private struct State {
        var process: Process?
        var lines: [(at: ContinuousClock.Instant, text: String)] = []
        var skipped = 0
        var errors: [UInt8] = []
        var exit: (at: ContinuousClock.Instant, status: Int32, signalled: Bool)?
        var outputClosed = false
        /// Standard output and standard error, until each is read to its end.
        var openPipes = 2
    }

    private let recorder: LiveRecorder
    private let state = NIOLockedValueBox(State())
    let exited = Completion()
    /// Both standard output and standard error are read to their end.
    let outputClosed = Completion()

    init(recorder: LiveRecorder) {
        self.recorder = recorder
    }

    /// Whether the client printed a line, or exited: signs that it is running its own code.
    var hasPrintedOrExited: Bool {
        state.withLockedValue { !$0.lines.isEmpty || $0.exit != nil }
    }

    func start(command: String, environment: [String: String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let (output, errors) = (Pipe(), Pipe())
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        process.terminationHandler = { [state, exited] process in
            let signalled = process.terminationReason == .uncaughtSignal
            state.withLockedValue { $0.exit = (.now, process.terminationStatus, signalled) }
            exited.complete()
        }
        state.withLockedValue { $0.process = process }
        try process.runWithNoSignalBlocked()
        let (outputHandle, errorHandle) = (output.fileHandleForReading, errors.fileHandleForReading)
        Thread.detachNewThread { [self] in
            readLines(from: outputHandle)
            try? outputHandle.close()
            pipeClosed()
        }
        Thread.detachNewThread { [self] in
            while case let data = errorHandle.availableData, !data.isEmpty {
                state.withLockedValue { $0.errors = Array(($0.errors + data).suffix(2_000)) }
            }
            try? errorHandle.close()
            pipeClosed()
        }
    }

    /// Called by each pipe's reader at its end: the output counts as closed once both pipes are read to
    /// the end, so `finish` sees the whole of standard error too.
    private func pipeClosed() {
        let allClosed = state.withLockedValue { state in
            state.openPipes -= 1
            state.outputClosed = state.openPipes == 0
            return state.outputClosed
        }
        if allClosed { outputClosed.complete() }
    }

    /// Kills the client and everything it started (Foundation starts it in its own process group).
    func kill() {
        state.withLockedValue { state in
            guard let pid = state.process?.processIdentifier, pid > 0 else { return }
            Glibc.kill(-pid, SIGKILL)
            Glibc.kill(pid, SIGKILL)
        }
    }

    /// Records what the client printed and how it ended. Call after it exited and its output closed (or
    /// was given up on).
    func finish() {
        let state = self.state.withLockedValue { state in
            defer {
                state.process?.terminationHandler = nil
                state.process = nil
            }
            return state
        }
        let exit = state.exit
        var found = 0
        var notes: [String] = []
        for line in state.lines {
            let at = exit.map { min(line.at, $0.at) } ?? line.at
            if let outcome = Self.parse(line.text) {
                found += 1
                recorder.record(outcome, at: at)
            } else if notes.count < Self.maximumNotes {
                notes.append("ignored a line of the client's output: \(line.text.prefix(200))")
            } else {
                notes[Self.maximumNotes - 1] = "… and more lines the harness could not read"
            }
        }
        notes.forEach(recorder.note)
        if state.skipped > 0 {
            recorder.note(
                "dropped \(state.skipped) lines of the client's output (over 64 KiB, or after \(Self.maximumLines) lines)"
            )
        }
        guard let exit else { return }
        if !exit.signalled, exit.status == 0 {
            recorder.record(.stopped(reason: .exited, found: found), at: exit.at)
            return
        }
        let how = exit.signalled ? "was killed by signal \(exit.status)" : "exited with status \(exit.status)"
        recorder.record(.failed("the client \(how)"), at: exit.at)
        let text = String(decoding: state.errors, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if !text.isEmpty { recorder.note("the client's standard error ends: \(text)") }
    }

    /// Reads standard output to its end, keeping each complete line with the time it was read.
    private func readLines(from handle: FileHandle) {
        var pending: [UInt8] = []
        var discarding = false
        while case let data = handle.availableData, !data.isEmpty {
            let now = ContinuousClock.now
            var lines: [String] = []
            var skipped = 0
            for byte in data {
                if byte == UInt8(ascii: "\n") {
                    if !discarding { lines.append(String(decoding: pending, as: UTF8.self)) }
                    pending.removeAll(keepingCapacity: true)
                    discarding = false
                } else if !discarding {
                    pending.append(byte)
                    if pending.count > Self.maximumLineLength {
                        pending.removeAll()
                        discarding = true
                        skipped += 1
                    }
                }
            }
            state.withLockedValue { state in
                for line in lines {
                    let text = line.trimmingCharacters(in: .whitespacesAndNewlines)
                    guard !text.isEmpty else { continue }
                    guard state.lines.count < Self.maximumLines else {
                        state.skipped += 1
                        continue
                    }
                    state.lines.append((now, text))
                }
                state.skipped += skipped
            }
        }
        if !pending.isEmpty, !discarding {
            let text = String(decoding: pending, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            if !text.isEmpty { state.withLockedValue { $0.lines.append((.now, text)) } }
        }
    }

    /// A USN, or a JSON object with `usn` (and `st`, `location`, `server`). Without an ST, it is the part of
    /// the USN after `::`, or the USN itself for a bare `uuid:`.
    static func parse(_ line: String) -> RunRecord.Outcome? {
        if line.hasPrefix("{") {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let usn = object["usn"] as? String
            else { return nil }
            let st = object["st"] as? String
            return .found(
                ReportedService(
                    usn: usn,
                    st: st ?? Self.target(of: usn),
                    stGiven: st != nil,
                    location: object["location"] as? String,
                    server: object["server"] as? String
                )
            )
        }
        guard !line.contains(" ") else { return nil }
        return .found(ReportedService(usn: line, st: target(of: line), stGiven: false))
    }

    private static func target(of usn: String) -> String {
        guard let range = usn.range(of: "::") else { return usn }
        return String(usn[range.upperBound...])
    }
}

/// At most `width` holders at once, which async code waits to join; each leaves once. Waiting checks every
/// 10 ms, as `Completion` does.
final class Gate: Sendable {
    let width: Int
    private let holders = NIOLockedValueBox(0)

    init(width: Int) {
        self.width = max(1, width)
    }

    /// Waits until fewer than `width` hold the gate, and holds it. Throws `CancellationError`, without
    /// holding it, when the task is cancelled while it waits.
    func enter() async throws {
        while !holders.withLockedValue({ holders in
            guard holders < width else { return false }
            holders += 1
            return true
        }) {
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Lets the next waiter in.
    func leave() {
        holders.withLockedValue { $0 -= 1 }
    }
}

/// Something that happens once, which async code can wait for with a time limit. Waiting checks every
/// 10 ms, which is far finer than any time a scenario checks.
final class Completion: Sendable {
    private let done = NIOLockedValueBox(false)

    func complete() {
        done.withLockedValue { $0 = true }
    }

    /// Waits until `complete()` or `timeout`; says whether it completed.
    func wait(timeout: Duration) async -> Bool {
        await waitUntil(ContinuousClock.now + timeout) { done.withLockedValue { $0 } }
    }
}

/// Waits until `condition` holds or `deadline` passes, looking every 10 ms; says whether it held.
func waitUntil(_ deadline: ContinuousClock.Instant, _ condition: () -> Bool) async -> Bool {
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return condition()
}
