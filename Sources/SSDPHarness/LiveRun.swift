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
    public static let tolerance = Duration.milliseconds(300)
    /// How far an external client's times may stray (it starts a process and an interpreter).
    public static let clientTolerance = Duration.seconds(1)
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
        let recorder = LiveRecorder(mode: .live, seed: seed)
        let simulator = try await startSimulator(scenario, seed: seed, recorder: recorder, multicast: multicast, trace: trace)
        let port = simulator.udpAddress.port ?? 0
        let host = multicast && scenario.search.mode == .multicast
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
        let recorder = LiveRecorder(mode: .externalClient, seed: seed)
        let simulator = try await startSimulator(scenario, seed: seed, recorder: recorder, trace: trace)
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
            interface: "lo",
            port: multicast ? SSDPSearchSessionConfiguration.multicastPort : 0,
            httpPort: 0,
            multicast: multicast,
            seed: seed,
            bootID: 1
        )
        configuration.reportsDatagrams = trace
        let logger = Logger(label: "ssdp-sim.harness") { _ in SwiftLogNoOpLogHandler() }
        return try await SSDPSimulator.start(configuration, logger: logger) { event in
            switch event {
            case .searchReceived(_, let headers, _):
                recorder.search(headers)
            case .datagram(let received, let peer, let local, let bytes):
                recorder.datagram(received: received, peer: peer, local: local, bytes: bytes)
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

    init(mode: RunMode, seed: UInt64) {
        state = NIOLockedValueBox((RunRecord(mode: mode, seed: seed), .now))
    }

    func startClock() {
        state.withLockedValue { state in
            state.start = .now
            state.record.startedAt = Date().timeIntervalSince1970
        }
    }

    func search(_ headers: SSDPHeaders) {
        state.withLockedValue { state in
            state.record.searches.append(RunRecord.Search(at: .now - state.start, headers: headers))
        }
    }

    func record(_ outcome: RunRecord.Outcome) {
        state.withLockedValue { state in
            state.record.record(outcome, at: .now - state.start)
        }
    }

    /// A datagram the simulator received or sent, with the time it was seen (the simulator's side of the
    /// wire: what it sent is on its way, what it received has arrived).
    func datagram(received: Bool, peer: SocketAddress, local: SocketAddress, bytes: [UInt8]) {
        let endpoint = { (address: SocketAddress) in
            TraceEntry.Endpoint(address: address.ipAddress ?? "0.0.0.0", port: address.port ?? 0)
        }
        state.withLockedValue { state in
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
        recorder.record(.found(usn: service.uniqueServiceName, st: service.searchTarget, location: service.location))
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
private final class ExternalClient: Sendable {
    private let recorder: LiveRecorder
    private let process = NIOLockedValueBox<Process?>(nil)
    private let pending = NIOLockedValueBox((output: [UInt8](), errors: [UInt8](), found: 0))
    let exited = Completion()

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
        output.fileHandleForReading.readabilityHandler = { [self] handle in
            read(handle.availableData)
        }
        errors.fileHandleForReading.readabilityHandler = { [pending] handle in
            let data = handle.availableData
            pending.withLockedValue { $0.errors = Array(($0.errors + data).suffix(2_000)) }
        }
        process.terminationHandler = { [self] process in
            output.fileHandleForReading.readabilityHandler = nil
            errors.fileHandleForReading.readabilityHandler = nil
            read(output.fileHandleForReading.readDataToEndOfFile())
            read(Data("\n".utf8))
            finish(status: process.terminationStatus, reason: process.terminationReason)
        }
        self.process.withLockedValue { $0 = process }
        try process.run()
    }

    func kill() {
        process.withLockedValue { process in
            if let process, process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) }
        }
    }

    /// Splits standard output into lines and records each as a found service.
    private func read(_ data: Data) {
        let lines: [String] = pending.withLockedValue { pending in
            pending.output += data
            var lines: [String] = []
            while let newline = pending.output.firstIndex(of: UInt8(ascii: "\n")) {
                lines.append(String(decoding: pending.output[..<newline], as: UTF8.self))
                pending.output.removeSubrange(...newline)
            }
            return lines
        }
        for line in lines {
            let text = line.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !text.isEmpty else { continue }
            if let found = Self.parse(text) {
                pending.withLockedValue { $0.found += 1 }
                recorder.record(found)
            } else {
                recorder.note("ignored a line of the client's output: \(text.prefix(200))")
            }
        }
    }

    /// A USN, or a JSON object with `usn` (and `st`, `location`). Without an ST, it is the part of the USN
    /// after `::`, or the USN itself for a bare `uuid:`.
    static func parse(_ line: String) -> RunRecord.Outcome? {
        if line.hasPrefix("{") {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let usn = object["usn"] as? String
            else { return nil }
            let st = object["st"] as? String ?? Self.target(of: usn)
            return .found(usn: usn, st: st, location: object["location"] as? String)
        }
        guard !line.contains(" ") else { return nil }
        return .found(usn: line, st: target(of: line), location: nil)
    }

    private static func target(of usn: String) -> String {
        guard let range = usn.range(of: "::") else { return usn }
        return String(usn[range.upperBound...])
    }

    private func finish(status: Int32, reason: Process.TerminationReason) {
        let (found, errors) = pending.withLockedValue { ($0.found, $0.errors) }
        if reason == .exit, status == 0 {
            recorder.record(.stopped(reason: "exited", found: found))
        } else {
            let how = reason == .exit ? "exited with status \(status)" : "was killed by signal \(status)"
            recorder.record(.failed("the client \(how)"))
            let text = String(decoding: errors, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            if !text.isEmpty { recorder.note("the client's standard error ends: \(text)") }
        }
        exited.complete()
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
