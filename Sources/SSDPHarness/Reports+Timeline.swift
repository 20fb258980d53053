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
import SSDPCore

// Traces as plain-text timelines.

extension Reports {
    /// A plain-text timeline: every datagram with what it was and what became of it, and what the client
    /// reported, in time order.
    package static func timeline(_ result: ScenarioResult) -> String {
        var lines: [(at: Duration, order: Int, text: String)] = []
        for (index, entry) in result.record.trace.enumerated() {
            lines.append(
                (
                    entry.at, index,
                    "\(entry.source) → \(entry.destination)  \(summary(of: entry.bytes))  [\(entry.fate)]"
                )
            )
        }
        for (index, entry) in result.record.outcomes.enumerated() {
            let text: String
            switch entry.outcome {
            case .found(let service): text = "client reports \(service.usn) (ST \(service.st))"
            case .stopped(let reason, let found):
                text = "client stops: \(RunRecord.StopReason.describe(reason)), \(found) found"
            case .failed(let reason): text = "client fails: \(reason)"
            }
            lines.append((entry.at, result.record.trace.count + index, text))
        }
        lines.sort { ($0.at, $0.order) < ($1.at, $1.order) }
        var text =
            "# \(result.scenario.name) (\(result.mode.rawValue), seed \(result.seed)): \(result.scenario.description)\n"
        text += "# time (s)  source → destination  message  [fate]\n"
        for line in lines {
            let time = line.at.secondsText
            text += String(repeating: " ", count: max(0, 10 - time.count)) + time + "  " + line.text + "\n"
        }
        for check in result.checks {
            let status =
                switch check.status {
                case .passed: "pass"
                case .failed: "FAIL"
                case .skipped: "skip"
                }
            text += "# \(status) \(check.name): expected \(check.expected); got \(check.actual)\n"
        }
        return text
    }

    /// A datagram in a few words: its start line and the headers that tell answers apart.
    package static func summary(of bytes: [UInt8]) -> String {
        summary(of: try? SSDPParser.parseMessage(bytes), size: bytes.count)
    }

    /// The same of a datagram of `size` bytes already parsed (`nil`: it is not SSDP).
    static func summary(of message: SSDPMessage?, size: Int) -> String {
        guard let message else { return "unparseable (\(size) bytes)" }
        let start: String
        switch message.kind {
        case .search: start = "M-SEARCH"
        case .notify: start = "NOTIFY \(message.headers["NTS"] ?? "")"
        case .response: start = "200 OK"
        }
        let keys = message.kind == .notify ? ["NT", "USN"] : message.kind == .search ? ["ST", "MX"] : ["ST", "USN"]
        let fields = keys.compactMap { key in message.headers[key].map { "\(key)=\($0)" } }
        return ([start] + fields).joined(separator: " ")
    }
}
