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
import SSDPSearch
import SSDPSimulator

/// Prints a search as it happens, as text or as JSON lines, and its summary at the end.
struct SearchOutput {
    enum Outcome {
        case stopped(foundServices: [SSDPService])
        case failed
    }

    let json: Bool

    func run(_ session: SSDPSearchSession) async throws -> Outcome {
        let configuration = session.configuration
        let clock = ContinuousClock()
        let start = clock.now
        if !json {
            print(
                "Searching for \(configuration.searchTarget) at \(configuration.host):\(configuration.port) "
                    + "(MX \(configuration.maximumWaitResponseTime), \(plural(configuration.maximumSearchRequestsBeforeClosing, "request")), "
                    + "stops after \(seconds(configuration.searchTimeout)) s)"
            )
        }
        var found: [SSDPService] = []
        do {
            for try await service in session.services {
                found.append(service)
                emit(service, at: clock.now - start)
            }
        } catch {
            emitFailure(error, statistics: session.statistics)
            return .failed
        }
        emitSummary(found: found.count, elapsed: clock.now - start, statistics: session.statistics)
        return .stopped(foundServices: found)
    }

    private func emit(_ service: SSDPService, at elapsed: Duration) {
        if json {
            printJSONLine(FoundLine(time: seconds(elapsed), service: service))
        } else {
            let interface = service.interface.map { "  (\($0))" } ?? ""
            print(
                "+\(seconds(elapsed))s  \(service.searchTarget)  \(service.uniqueServiceName)  \(service.location)  \(service.server)\(interface)"
            )
        }
    }

    private func emitSummary(found: Int, elapsed: Duration, statistics: SearchSessionStatistics) {
        if json {
            printJSONLine(
                StoppedLine(event: "stopped", time: seconds(elapsed), found: found, statistics: Counts(statistics))
            )
        } else {
            print("Found \(plural(found, "service")) in \(seconds(elapsed)) s. \(describe(statistics))")
        }
    }

    private func emitFailure(_ error: any Error, statistics: SearchSessionStatistics) {
        if json {
            printJSONLine(FailedLine(event: "failed", error: "\(error)", statistics: Counts(statistics)))
        } else {
            FileHandle.standardError.write(Data("ssdp-sim: \(error)\n".utf8))
        }
    }
}

/// A duration in seconds with three decimals, for people and for JSON.
func seconds(_ duration: Duration) -> Double {
    Double(duration.milliseconds) / 1_000
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

// MARK: - JSON lines

private struct FoundLine: Encodable {
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
}

private struct StoppedLine: Encodable {
    let event: String
    let time: Double
    let found: Int
    let statistics: Counts
}

private struct FailedLine: Encodable {
    let event: String
    let error: String
    let statistics: Counts
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

/// "1 service", "4 services".
func plural(_ count: Int, _ noun: String, plural: String? = nil) -> String {
    "\(count) \(count == 1 ? noun : plural ?? noun + "s")"
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
