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

/// What makes the package adoptable holds together: `ssdp-sim --version` is the version CHANGELOG.md
/// names last, the JSON report carries it, and the repository has its license.
@Suite struct VersionTests {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func versionIsTheOneTheChangelogNamesLast() async throws {
        let changelog = try String(contentsOf: Self.repository.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        // "## Unreleased" gathers what the next version will have; the version is the newest one released.
        let heading = try #require(
            changelog.split(separator: "\n").first { $0.hasPrefix("## ") && $0 != "## Unreleased" }
        )
        let named = try #require(heading.dropFirst(3).split(separator: " ").first.map(String.init))

        let output = try await CommandRunner.ssdpSim("--version")
        #expect(output.status == 0)
        #expect(output.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) == named)
    }

    @Test func theJSONReportAndServesStartCarryTheVersion() async throws {
        let version = try await CommandRunner.ssdpSim("--version").standardOutput.trimmingCharacters(
            in: .whitespacesAndNewlines
        )
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("report-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: report) }
        let run = try await CommandRunner.ssdpSim(
            "run",
            RunCommandTests.scenarios + "/zero-requests.json",
            "--json-report",
            report.path
        )
        #expect(run.status == 0, "\(run.standardOutput)")
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any]
        #expect(object?["version"] as? String == version)
    }

    @Test func theRepositoryHasItsLicenseAndEverySwiftFileSaysSo() throws {
        let license = try String(contentsOf: Self.repository.appendingPathComponent("LICENSE"), encoding: .utf8)
        #expect(license.contains("Apache License") && license.contains("Version 2.0, January 2004"))
        let files = try ["Sources", "Tests"].flatMap { folder in
            try FileManager.default.subpathsOfDirectory(atPath: Self.repository.appendingPathComponent(folder).path)
                .filter { $0.hasSuffix(".swift") }.map { "\(folder)/\($0)" }
        }
        #expect(files.count > 100)
        let unlicensed = try files.filter { file in
            let text = try String(contentsOf: Self.repository.appendingPathComponent(file), encoding: .utf8)
            return !text.prefix(700).contains("SPDX-License-Identifier: Apache-2.0")
        }
        #expect(unlicensed.isEmpty, "without the license header: \(unlicensed)")
    }
}
