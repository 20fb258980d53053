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
import SSDPDeviceCore

// The JSON report: every run with its checks, counts and times.

extension Reports {
    /// Every run with its checks, counts and timings.
    package static func json(_ results: [ScenarioResult]) throws -> Data {
        let document = Document(
            version: ToolVersion.current,
            passed: results.filter(\.passed).count,
            failed: results.filter { !$0.passed && $0.skipped == nil }.count,
            skipped: results.filter { $0.skipped != nil }.count,
            checksSkipped: results.map(\.skippedChecks.count).reduce(0, +),
            scenarios: results.map(Document.Run.init)
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(document)
    }

    private struct Document: Encodable {
        struct Run: Encodable {
            var name: String
            var file: String
            var mode: RunMode
            var seed: UInt64
            var passed: Bool
            var skipped: String?
            var error: String?
            var elapsedSeconds: Double
            var searchesSent: Int
            var reported: Int
            var stopSeconds: Double?
            var statistics: [String: Int]?
            var checks: [CheckResult]
            var notes: [String]

            init(_ result: ScenarioResult) {
                name = result.scenario.name
                file = result.scenario.file
                mode = result.mode
                seed = result.seed
                passed = result.passed
                skipped = result.skipped
                error = result.harnessError
                elapsedSeconds = result.elapsed.inSeconds
                searchesSent = result.record.searches.count
                reported = result.record.reports.count
                stopSeconds = result.record.endings.first.map { $0.at.inSeconds }
                statistics = result.record.statistics.map { statistics in
                    var fields = [
                        "searchesSent": statistics.searchesSent, "datagramsReceived": statistics.datagramsReceived,
                        "servicesReported": statistics.servicesReported,
                    ]
                    for drop in SearchSessionStatistics.Drop.allCases {
                        fields[drop.rawValue] = statistics[drop]
                    }
                    return fields
                }
                checks = result.checks
                notes = result.record.notes
            }
        }

        /// The ssdp-sim that wrote the report.
        var version: String
        var passed: Int
        var failed: Int
        var skipped: Int
        /// Checks the runs' modes could not observe (each also listed with `"status": "skipped"`).
        var checksSkipped: Int
        var scenarios: [Run]
    }
}
