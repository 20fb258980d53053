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

/// Runs a scenario over real UDP sockets on loopback: the simulator serves the scenario's devices on
/// 127.0.0.1 (unicast, no multicast), and either the real `SSDPSearchSession` or an external client
/// command searches it. The simulator reports every M-SEARCH it receives, which is how the client's
/// searches are seen on the wire.
///
/// A search on loopback is a unicast search, so devices answer within 1 s whatever the MX (UDA 1.1
/// §1.3.3); scenarios tagged `live` are written to hold either way.
public enum LiveRun {
    /// How far real times may stray from the design.
    public static let tolerance = Duration.milliseconds(500)
    /// How far an external client's times may stray (it starts a process and an interpreter).
    public static let clientTolerance = Duration.milliseconds(1_500)
    /// How long after the designed stop a client is given before it is killed.
    public static let clientGrace = Duration.seconds(10)
    /// How long the run keeps listening after the stop, to see late answers.
    static let linger = Duration.milliseconds(300)

    /// Runs the real search session against the simulated devices. With `multicast`, the devices join
    /// 239.255.255.250 on port 1900 of the loopback interface and a multicast search reaches them there;
    /// this is for a private network namespace (`ssdp-sim run --live --namespace`), never the host's.
    public static func run(
        _ scenario: Scenario,
        seed: UInt64,
        multicast: Bool = false,
        trace: Bool = false
    ) async throws -> (record: RunRecord, searchHost: String) {
        let recorder = LiveRecorder(mode: .live, seed: seed, tracing: trace)
        let simulator = try await startSimulator(
            scenario,
            seed: seed,
            recorder: recorder,
            multicast: multicast,
            trace: trace
        )
        let port = simulator.udpAddress.port ?? 0
        let host =
            multicast && scenario.search.mode == .multicast
            ? SSDPSearchSessionConfiguration.multicastHost : "127.0.0.1"
        let session = SSDPSearchSession(
            configuration: try scenario.search.configuration(host: host, port: port),
            interface: multicast ? "lo" : nil
        )
        let delegate = RecordingDelegate(recorder: recorder)
        session.delegate = delegate
        recorder.startClock()
        session.startSearch()
        let ended = await delegate.ended.wait(timeout: scenario.search.designedStop + clientGrace)
        if !ended {
            session.stopSearch()
            _ = await delegate.ended.wait(timeout: .seconds(5))
        }
        try? await Task.sleep(for: linger)
        _ = await simulator.shutdown()
        var record = recorder.record
        record.statistics = session.statistics
        withExtendedLifetime(delegate) {}
        return (record, "\(host):\(port)")
    }

    /// Runs `command` (with `/bin/sh -c`) as the client. It learns where to search from `SSDP_HOST`,
    /// `SSDP_PORT`, `SSDP_ST`, `SSDP_MX` and `SSDP_REQUESTS`, and prints what it finds on standard output:
    /// one USN per line, or one JSON object per line with `usn` and optionally `st` and `location`. Its exit
    /// is its stop; a non-zero exit status is its error.
    public static func runClient(
        _ scenario: Scenario,
        seed: UInt64,
        command: String,
        trace: Bool = false
    ) async throws -> (record: RunRecord, searchHost: String) {
        let recorder = LiveRecorder(mode: .externalClient, seed: seed, tracing: trace)
        let simulator = try await startSimulator(scenario, seed: seed, recorder: recorder, trace: trace)
        recorder.watchHTTP(locations: simulator.devices.map(\.location))
        let port = simulator.udpAddress.port ?? 0
        let client = ExternalClient(recorder: recorder)
        recorder.startClock()
        do {
            try client.start(
                command: command,
                environment: [
                    "SSDP_HOST": "127.0.0.1", "SSDP_PORT": "\(port)", "SSDP_ST": scenario.search.target,
                    "SSDP_MX": "\(scenario.search.mx)", "SSDP_REQUESTS": "\(scenario.search.requests)",
                ]
            )
        } catch {
            _ = await simulator.shutdown()
            throw HarnessError(reason: "cannot start the client command: \(error)")
        }
        let limit = scenario.search.designedStop + clientGrace
        if !(await client.exited.wait(timeout: limit)) {
            client.kill()
            recorder.note("the client was still running \(limit.secondsText) s after the search began; it was killed")
            _ = await client.exited.wait(timeout: .seconds(5))
        }
        // Something the client started may still hold its output open: give it a second, then kill the group.
        if !(await client.outputClosed.wait(timeout: .seconds(1))) {
            client.kill()
            recorder.note("the client's output stayed open after it exited; what it started was killed")
            _ = await client.outputClosed.wait(timeout: .seconds(2))
        }
        client.finish()
        try? await Task.sleep(for: linger)
        _ = await simulator.shutdown()
        return (recorder.record, "127.0.0.1:\(port)")
    }

    private static func startSimulator(
        _ scenario: Scenario,
        seed: UInt64,
        recorder: LiveRecorder,
        multicast: Bool = false,
        trace: Bool
    ) async throws -> SSDPSimulator {
        var configuration = SimulatorConfiguration(
            devices: scenario.devices,
            interfaces: ["lo"],
            port: multicast ? SSDPSearchSessionConfiguration.multicastPort : 0,
            httpPort: .any,
            multicast: multicast,
            seed: seed,
            bootID: 1
        )
        // Always: what the devices sent is what every reported service is held against.
        configuration.reportsDatagrams = true
        let logger = Logger(label: "ssdp-sim.harness") { _ in SwiftLogNoOpLogHandler() }
        return try await SSDPSimulator.start(configuration, logger: logger) { event in
            switch event {
            case .searchReceived(_, let headers, _):
                recorder.search(headers)
            case .datagram(let received, let peer, let local, let bytes):
                recorder.datagram(received: received, peer: peer, local: local, bytes: bytes)
            case .httpRequest(let method, let path, let status, let origin):
                recorder.http { $0.requests.append(.init(at: $1, method: method, url: origin + path, status: status)) }
            case .actionCalled(let record):
                let errorCode: Int? = if case .failure(let error) = record.outcome { error.code } else { nil }
                let arguments = Dictionary(record.call.arguments.map { ($0.name, $0.value) }) { $1 }
                recorder.http {
                    $0.actions.append(
                        .init(
                            at: $1,
                            udn: record.udn,
                            action: record.call.actionName,
                            arguments: arguments,
                            errorCode: errorCode
                        )
                    )
                }
            default:
                break
            }
        }
    }
}

/// A reason the harness itself could not run something.
public struct HarnessError: Error, Hashable, Sendable, CustomStringConvertible {
    public var reason: String

    public init(reason: String) {
        self.reason = reason
    }

    public var description: String { reason }
}

/// Collects a live run's record from the simulator's and the client's threads.
final class LiveRecorder: Sendable {
    private let state: NIOLockedValueBox<(record: RunRecord, start: ContinuousClock.Instant)>
    /// Keep every datagram in the trace (`--trace`).
    private let tracing: Bool

    init(mode: RunMode, seed: UInt64, tracing: Bool) {
        state = NIOLockedValueBox((RunRecord(mode: mode, seed: seed), .now))
        self.tracing = tracing
    }

    /// Makes now the start of the search; what was recorded before it moves to negative times.
    func startClock() {
        state.withLockedValue { Self.moveStart(of: &$0, to: .now) }
    }

    /// An M-SEARCH the simulator heard. An external client's search begins with its first M-SEARCH, not
    /// with its launch: how long a Python or a JVM takes to start is not part of its timing.
    func search(_ headers: SSDPHeaders) {
        state.withLockedValue { state in
            let now = ContinuousClock.now
            if state.record.mode == .externalClient, state.record.searches.isEmpty {
                Self.moveStart(of: &state, to: now)
            }
            state.record.searches.append(RunRecord.Search(at: now - state.start, headers: headers))
        }
    }

    private static func moveStart(
        of state: inout (record: RunRecord, start: ContinuousClock.Instant),
        to now: ContinuousClock.Instant
    ) {
        state.record.moveStart(later: now - state.start)
        state.start = now
        state.record.startedAt = Date().timeIntervalSince1970
    }

    func record(_ outcome: RunRecord.Outcome, at instant: ContinuousClock.Instant = .now) {
        state.withLockedValue { state in
            state.record.record(outcome, at: instant - state.start)
        }
    }

    /// A datagram the simulator received or sent, with the time it was seen (the simulator's side of the
    /// wire: what it sent is on its way, what it received has arrived). What it sent joins the advertised set.
    func datagram(received: Bool, peer: SocketAddress, local: SocketAddress, bytes: [UInt8]) {
        let endpoint = { (address: SocketAddress) in
            TraceEntry.Endpoint(address: address.ipAddress ?? "0.0.0.0", port: address.port ?? 0)
        }
        let tracing = self.tracing
        state.withLockedValue { state in
            if !received { state.record.noteSent(bytes) }
            guard tracing else { return }
            state.record.trace.append(
                TraceEntry(
                    at: .now - state.start,
                    source: endpoint(received ? peer : local),
                    destination: endpoint(received ? local : peer),
                    bytes: bytes,
                    fate: received ? "received by the simulator" : "sent by the simulator"
                )
            )
        }
    }

    /// Starts recording the client's HTTP requests (an external client's; the session fetches nothing).
    func watchHTTP(locations: [String]) {
        state.withLockedValue { $0.record.http = HTTPActivity(locations: locations) }
    }

    /// Adds to the HTTP activity, when it is watched, with the time from the start of the search.
    func http(_ change: (inout HTTPActivity, Duration) -> Void) {
        state.withLockedValue { state in
            guard state.record.http != nil else { return }
            change(&state.record.http!, .now - state.start)
        }
    }

    func note(_ text: String) {
        state.withLockedValue { $0.record.notes.append(text) }
    }

    var record: RunRecord {
        state.withLockedValue { state in
            var record = state.record
            record.duration = .now - state.start
            return record
        }
    }
}

/// Records what the real session tells its delegate.
private final class RecordingDelegate: SSDPSearchSessionDelegate {
    let recorder: LiveRecorder
    let ended = Completion()

    init(recorder: LiveRecorder) {
        self.recorder = recorder
    }

    func searchSession(_ searchSession: SSDPSearchSession, didFindService service: SSDPService) {
        recorder.record(.found(ReportedService(service)))
    }

    func searchSession(_ searchSession: SSDPSearchSession, didEncounterError error: SSDPSearchSessionError) {
        recorder.record(.failed(error.reason))
        ended.complete()
    }

    func searchSessionDidStopSearch(_ searchSession: SSDPSearchSession, foundServices: [SSDPService]) {
        let reason = searchSession.stopReason.map { "\($0)" } ?? "unknown"
        recorder.record(.stopped(reason: reason, found: foundServices.count))
        ended.complete()
    }
}

/// Someone else's client, run as a process; its standard output lines are what it found.
///
/// One thread reads standard output to its end and another drains standard error, so nothing races
/// and nothing is read twice. A line is stamped when it is read, but never later than the exit: a line
/// still in the pipe when the client exited was printed before its stop. Output is bounded: a line
/// over 64 KiB is dropped, and at most `maximumLines` lines are read.
private final class ExternalClient: Sendable {
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
            recorder.record(.stopped(reason: "exited", found: found), at: exit.at)
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

/// Something that happens once, which async code can wait for with a time limit. Waiting checks every
/// 10 ms, which is far finer than any time a scenario checks.
final class Completion: Sendable {
    private let done = NIOLockedValueBox(false)

    func complete() {
        done.withLockedValue { $0 = true }
    }

    /// Waits until `complete()` or `timeout`; says whether it completed.
    func wait(timeout: Duration) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if done.withLockedValue({ $0 }) { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return done.withLockedValue { $0 }
    }
}
