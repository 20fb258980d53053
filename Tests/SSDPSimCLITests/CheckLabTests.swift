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

/// `ssdp-sim check` of real stacks, each in a network namespace of its own and found by a multicast search
/// as its control points find it (`scripts/fidelity PAIR --check`), beside the profile that imitates it. What
/// the check says about each is what docs/check.md says, rule by rule. CI runs it as root with the stacks
/// installed (`scripts/install-fidelity`), where it must run rather than skip.
@Suite(.enabled(if: Lab.isAvailable || Lab.isRequired, "needs root and iproute2 to build network namespaces"))
struct CheckLabTests {
    /// Each pair's failed checks: the real stack's, then ours.
    static let failures: [(pair: String, real: Set<String>, ours: Set<String>)] = [
        // miniupnpd answers malformed searches (lenient, like `serve --strictness lenient`); both describe
        // IGD :1 and answer :2.
        (
            "igd", ["discovery.answers", "discovery.st", "discovery.malformed", "discovery.higher-version"],
            ["discovery.answers", "discovery.st", "discovery.higher-version"]
        ),
        // MiniDLNA 1.3.0 answers MX 0, and never sends the initial event.
        ("dlna-server", ["discovery.malformed", "gena.initial-event"], ["gena.initial-event"]),
        // libupnp 1.8.4 answers MX 0, takes a CALLBACK on any host (before the CallStranger fix), and its
        // ConnectionManager's initial event lacks three variables; gmrender answers every fault with 501, and
        // GetDeviceCapabilities and GetTransportSettings without their out-arguments, and GetVolumeDB with
        // CurrentVolumeDB where its SCPD says CurrentVolume (called with InstanceID=0, Channel=Master).
        (
            "renderer",
            [
                "discovery.malformed", "gena.callstranger", "gena.initial-event", "control.unknown-action",
                "control.missing-argument", "control.read-only-action",
            ],
            ["control.unknown-action", "control.missing-argument", "control.read-only-action"]
        ),
        // GSSDP sends BOOTID and CONFIGID -1 from a context made without GUPnP's context manager; the
        // initial event is empty because python3-gi cannot fill GUPnP's query-variable value.
        ("gupnp", ["discovery.headers", "gena.initial-event"], []),
    ]

    @Test(arguments: failures.map(\.pair))
    func eachRealStackFailsExactlyTheRulesItBreaks(pair: String) async throws {
        let expected = try #require(Self.failures.first { $0.pair == pair })
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("check-lab-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try await CommandRunner.run(
            URL(fileURLWithPath: "/usr/bin/python3"),
            [
                FidelityTests.script.path, "--ssdp-sim", CommandRunner.ssdpSim.path, pair, "--check",
                "--keep-bytes", directory.path, "--run-id", "c" + String(Int.random(in: 10_000...99_999)),
            ],
            timeout: .seconds(240)
        )
        #expect(run.status == 0, "\(run.standardOutput)\n\(run.standardError)")
        for (side, failed) in [("real", expected.real), ("ours", expected.ours)] {
            let data = try Data(contentsOf: directory.appendingPathComponent("\(pair)-check-\(side).json"))
            let report = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let results = try #require(report["results"] as? [[String: Any]])
            let found = Set(
                results.filter { $0["outcome"] as? String == "failed" }.compactMap { $0["check"] as? String }
            )
            #expect(found == failed, "\(pair) \(side): \(run.standardOutput)")
            // The device was found and used: its description read, its searches answered.
            let passed = Set(
                results.filter { $0["outcome"] as? String == "passed" }.compactMap { $0["check"] as? String }
            )
            #expect(
                passed.isSuperset(of: ["description.fetch", "discovery.answers", "scpd.fetch", "gena.subscribe"]),
                "\(pair) \(side)"
            )
        }
    }
}
