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

/// `scripts/dial-conformance` takes Netflix's DIAL reference from outside the repository: from the directory
/// or tarball `DIAL_REFERENCE` names, checked, before the shared tarball CI keeps beside the clone. CI runs
/// the script itself from the shared tarball (`.ci/run`); these hold the other way in, and its refusals.
@Suite(
    .serialized,
    .enabled(
        if: (Lab.isAvailable && FileManager.default.fileExists(atPath: DIALReference.sharedTarball.path))
            || Lab.isRequired,
        "needs root, iproute2 and ../shared/third-party/\(DIALReference.tarballName)"
    )
)
struct DIALConformanceTests {
    @Test func theReferenceClientPassesDialTVFromADIALReferenceDirectory() async throws {
        let directory = try DIALReference.unpackedSharedTarball()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = try await DIALReference.conformance(
            ["--target", "dial-tv"],
            environment: ["DIAL_REFERENCE": directory.path]
        )
        #expect(output.status == 0, "\(output.standardOutput)\n\(output.standardError)")
        let source = directory.appendingPathComponent("dial-reference").path
        #expect(output.standardError.contains("the reference sources: \(source)"), "\(output.standardError)")
        #expect(output.standardOutput.contains("dial-tv: 19 of 19 steps pass"), "\(output.standardOutput)")
    }

    @Test func aTarballThatIsNotTheReleasedArchiveIsRefusedWithItsDigest() async throws {
        let tarball = FileManager.default.temporaryDirectory.appendingPathComponent("not-dial-\(getpid()).tar.gz")
        try Data("not the archive".utf8).write(to: tarball)
        defer { try? FileManager.default.removeItem(at: tarball) }
        let output = try await DIALReference.conformance(["--dial-reference", tarball.path])
        #expect(output.status == 64)
        #expect(
            output.standardError.contains("\(tarball.path): SHA-256 ")
                && output.standardError.contains("expected 36ffeb81995138e6"),
            "\(output.standardError)"
        )
    }

    @Test func aDirectoryWithoutTheSourcesIsRefused() async throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("empty-dial-\(getpid())")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        let output = try await DIALReference.conformance([], environment: ["DIAL_REFERENCE": empty.path])
        #expect(output.status == 64)
        #expect(output.standardError.contains("holds no client/ and server/"), "\(output.standardError)")
    }
}

/// Where the reference's sources are found, and the script that builds them.
enum DIALReference {
    static let tarballName = "dial-reference-29cb4ac.tar.gz"
    /// CI's copy, beside the repository's clone.
    static let sharedTarball = Lab.repository.deletingLastPathComponent()
        .appendingPathComponent("shared/third-party/\(tarballName)")
    static let script = Lab.repository.appendingPathComponent("scripts/dial-conformance")

    /// The shared tarball unpacked into a new temporary directory (`dial-reference/` inside it).
    static func unpackedSharedTarball() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dial-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let output = try CommandRunner.runOnThisThread(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["tar", "-xzf", sharedTarball.path, "-C", directory.path]
        )
        try #require(output.status == 0, "\(output.standardError)")
        return directory
    }

    /// The script, with this build's ssdp-sim.
    static func conformance(
        _ arguments: [String],
        environment: [String: String] = [:]
    ) async throws -> CommandRunner.Output {
        try await CommandRunner.run(
            URL(fileURLWithPath: "/usr/bin/python3"),
            [script.path, "--ssdp-sim", CommandRunner.ssdpSim.path] + arguments,
            environment: environment,
            timeout: .seconds(240)
        )
    }
}
