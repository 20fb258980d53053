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

@testable import SSDPHarness

/// The HTML report's script, as the binary carries it, through ESLint (`scripts/lint-report`): clean, and a
/// slip put into a copy is caught. In CI (`SSDP_SIM_REQUIRE_INTEROP`) a missing ESLint fails rather than skips.
@Suite(
    .enabled(
        if: FileManager.default.isExecutableFile(atPath: "/usr/bin/eslint")
            || ProcessInfo.processInfo.environment["SSDP_SIM_REQUIRE_INTEROP"] == "1",
        "needs ESLint (Debian's eslint; scripts/install-interop)"
    )
)
struct ReportScriptLintTests {
    static let lint = HarnessFixtures.repositoryRoot.appendingPathComponent("scripts/lint-report").path

    /// Lints `script` as a file of its own; the status and what ESLint said.
    static func lint(_ script: String) throws -> (status: Int32, output: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lint-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("report.js")
        try script.write(to: file, atomically: true, encoding: .utf8)
        return try ReportTests.runWithStatus(lint, [file.path])
    }

    @Test func theReportsScriptIsClean() throws {
        let result = try Self.lint(HTMLReportPage.script)
        #expect(result.status == 0, "\(result.output)")
    }

    @Test func aSlipInTheScriptIsCaught() throws {
        let slipped = HTMLReportPage.script.replacingOccurrences(
            of: "render();",
            with: "if (data.runs.length == 1) renderd();\nrender();"
        )
        #expect(slipped != HTMLReportPage.script)
        let result = try Self.lint(slipped)
        #expect(result.status == 1)
        #expect(result.output.contains("'renderd' is not defined. [Error/no-undef]"), "\(result.output)")
        #expect(result.output.contains("Expected '===' and instead saw '=='. [Error/eqeqeq]"), "\(result.output)")
    }
}
