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
import NIOCore
import SSDPCore
import SSDPDevices
import SSDPHarness
import SSDPSearch
import SSDPSimulator

/// Prints a search as it happens, as text or as JSON lines, and its summary at the end.
struct SearchOutput {
    let output: CommandOutput

    init(json: Bool) {
        output = CommandOutput(json: json)
    }

    /// Runs `session` to its end, printing each service as it is found and then the summary, and returns
    /// what the search reported as the harness records a run, so that `--expect` holds it to the harness's
    /// own checks.
    func run(_ session: SSDPSearchSession) async -> RunRecord {
        let configuration = session.configuration
        output.say(
            "Searching for \(configuration.searchTarget) at \(configuration.host):\(configuration.port) "
                + "(MX \(configuration.maximumWaitResponseTime), \(plural(configuration.maximumSearchRequestsBeforeClosing, "request")), "
                + "stops after \(seconds(configuration.searchTimeout)) s)"
        )
        let clock = ContinuousClock()
        let start = clock.now
        var record = RunRecord(mode: .live, seed: 0)
        do {
            for try await service in session.services {
                let elapsed = clock.now - start
                record.record(.found(ReportedService(service)), at: elapsed)
                output.emit(FoundLine(time: seconds(elapsed), service: service))
            }
        } catch {
            record.record(.failed(error.reason), at: clock.now - start)
            record.statistics = session.statistics
            output.emit(FailedLine(error: "\(error)", statistics: Counts(session.statistics)))
            output.error("\(error)")
            return record
        }
        let found = record.reports.count
        let elapsed = clock.now - start
        record.record(.stopped(reason: session.stopReason.map(RunRecord.StopReason.init), found: found), at: elapsed)
        record.statistics = session.statistics
        output.emit(StoppedLine(time: seconds(elapsed), found: found, statistics: Counts(session.statistics)))
        return record
    }

    /// Prints the result of each check (`--expect`), then how many passed.
    func emit(_ checks: [CheckResult], from source: String) {
        output.say("Checks from \(source):")
        for check in checks {
            output.emit(CheckLine(check: check))
        }
        let failed = checks.filter(\.failed).count
        output.say("\(checks.count - failed) of \(plural(checks.count, "check")) passed.")
    }
}

extension RunRecord {
    /// Whether the search ended in an error.
    var failed: Bool {
        endings.contains { entry in
            if case .failed = entry.outcome { return true }
            return false
        }
    }
}

/// "Sent 3 M-SEARCH; received 45 datagrams: 4 reported, 24 duplicates, …".
func describe(_ statistics: SearchSessionStatistics) -> String {
    let drops: [SearchSessionStatistics.Drop] = [
        .duplicates, .wrongSearchTarget, .incomplete, .unparseable, .notResponses, .notSearching,
    ]
    let parts = ([(statistics.servicesReported, "reported")] + drops.map { (statistics[$0], $0.summary) })
        .filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }
    let received = "received \(plural(statistics.datagramsReceived, "datagram"))"
    return
        "Sent \(statistics.searchesSent) M-SEARCH; \(received)\(parts.isEmpty ? "" : ": " + parts.joined(separator: ", "))."
}

// MARK: - Lines

private struct FoundLine: OutputLine {
    let event = "found"
    let time: Double
    let usn: String
    let st: String
    let location: String
    let interface: String?
    let server: String
    let maxAge: Int64
    let headers: [String: String]

    init(time: Double, service: SSDPService) {
        self.time = time
        usn = service.uniqueServiceName
        st = service.searchTarget
        location = service.location
        interface = service.interface
        server = service.server
        maxAge = service.maxAge.components.seconds
        headers = Dictionary(
            service.otherHeaders.fields.map { ($0.name, $0.value) },
            uniquingKeysWith: { first, _ in first }
        )
    }

    var text: String? {
        "+\(time)s  \(st)  \(usn)  \(location)  \(server)\(interface.map { "  (\($0))" } ?? "")"
    }
}

private struct StoppedLine: OutputLine {
    let event = "stopped"
    let time: Double
    let found: Int
    let statistics: Counts

    var text: String? {
        "Found \(plural(found, "service")) in \(time) s. \(describe(statistics.statistics))"
    }
}

/// The JSON form of an error; the words go to standard error.
private struct FailedLine: OutputLine {
    let event = "failed"
    let error: String
    let statistics: Counts

    var text: String? { nil }
}

/// One check of `--expect`: `pass`, `FAIL` or `skip`, its name, and what happened.
private struct CheckLine: OutputLine {
    let check: CheckResult

    enum CodingKeys: String, CodingKey {
        case event, name, status, expected, actual
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode("check", forKey: .event)
        try container.encode(check.name, forKey: .name)
        try container.encode(check.status, forKey: .status)
        try container.encode(check.expected, forKey: .expected)
        try container.encode(check.actual, forKey: .actual)
    }

    var text: String? {
        switch check.status {
        case .passed: "  pass  \(check.name): \(check.actual)"
        case .failed: "  FAIL  \(check.name): expected \(check.expected); got \(check.actual)"
        case .skipped: "  skip  \(check.name): \(check.actual)"
        }
    }
}

/// The statistics as JSON, with the names `run`'s reports and scenario files use.
private struct Counts: Encodable {
    let statistics: SearchSessionStatistics

    init(_ statistics: SearchSessionStatistics) {
        self.statistics = statistics
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AnyCodingKey.self)
        let counts =
            [
                ("searchesSent", statistics.searchesSent), ("datagramsReceived", statistics.datagramsReceived),
                ("servicesReported", statistics.servicesReported),
            ] + SearchSessionStatistics.Drop.allCases.map { ($0.rawValue, statistics[$0]) }
        for (name, count) in counts {
            try container.encode(count, forKey: AnyCodingKey(stringValue: name))
        }
    }
}

/// Whether `text` is an IPv4 or IPv6 literal.
func isIPAddress(_ text: String) -> Bool {
    (try? SocketAddress(ipAddress: text, port: 0)) != nil
}

/// A logger writing to standard error at `level`; only the CLI bootstraps logging.
func makeLogger(level: Logger.Level) -> Logger {
    var logger = Logger(label: "ssdp-sim") { StreamLogHandler.standardError(label: $0) }
    logger.logLevel = level
    return logger
}
