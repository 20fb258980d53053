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

/// `scripts/fidelity`: a profile beside the real stack it imitates, in namespaces of their own, every
/// difference either kept in docs/fidelity.md or failing the run. CI runs it as root with the real stacks
/// installed (`scripts/install-fidelity`), where it must run rather than skip.
@Suite(.enabled(if: Lab.isAvailable || Lab.isRequired, "needs root and iproute2 to build network namespaces"))
struct FidelityTests {
    static let script = Lab.repository.appendingPathComponent("scripts/fidelity")

    private func fidelity(_ arguments: [String]) async throws -> CommandRunner.Output {
        try await CommandRunner.run(
            URL(fileURLWithPath: "/usr/bin/python3"),
            [Self.script.path, "--ssdp-sim", CommandRunner.ssdpSim.path] + arguments,
            timeout: .seconds(240)
        )
    }

    /// The namespaces of fidelity run `runID` in the machine's list (`fid<run><side>-dev`, `-cli`, `-up`).
    private func namespaces(of runID: String) async throws -> [String] {
        try await CommandRunner.run(URL(fileURLWithPath: "/usr/bin/env"), ["ip", "netns", "list"]).standardOutput
            .split(separator: "\n").map { String($0.split(separator: " ")[0]) }
            .filter { $0.hasPrefix("fid\(runID)") }
    }

    @Test func theIGDBesideMiniupnpdDiffersOnlyWhereTheTableSaysWhy() async throws {
        #expect(
            FileManager.default.isExecutableFile(atPath: "/usr/sbin/miniupnpd"),
            "needs Debian's miniupnpd-nftables (scripts/install-fidelity)"
        )
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fidelity-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }

        let runID = "t" + String(Int.random(in: 10_000...99_999))
        let run = try await fidelity(["igd", "--keep-bytes", directory.path, "--run-id", runID])
        #expect(run.status == 0, "\(run.standardOutput)\n\(run.standardError)")
        #expect(run.standardOutput.contains("fidelity igd: ssdp-sim's igd beside miniupnpd"))
        #expect(run.standardOutput.contains("; not kept: 0"), "\(run.standardOutput)")
        let compared = run.standardOutput.split(separator: "\n").first { $0.contains("exchanges compared: ") }
        let exchanges = compared.flatMap { Int($0.split(separator: " ")[2].dropLast()) } ?? 0
        #expect(exchanges >= 40, "\(compared ?? "")")
        await #expect(try namespaces(of: runID).isEmpty, "the lab removes every namespace it made")

        // Both sides answered: the same 13 targets miniupnpd announces (the :2 types, WANPPPConnection…).
        for side in ["real", "ours"] {
            let data = try Data(contentsOf: directory.appendingPathComponent("igd-\(side).json"))
            let records = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
            let all = records.first { $0["name"] as? String == "M-SEARCH ssdp:all" }?["search"] as? [String: Any]
            #expect((all?["answers"] as? [Any])?.count == 13, "\(side)")
        }

        // The check fails when a difference is not kept: the same exchanges against the table without its
        // SERVER row name every SERVER that differs.
        let table = try String(contentsOf: Lab.repository.appendingPathComponent("docs/fidelity.md"), encoding: .utf8)
        let withoutServer = directory.appendingPathComponent("without-server.md")
        try table.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.contains("`*header server`") }
            .joined(separator: "\n").write(to: withoutServer, atomically: true, encoding: .utf8)
        let strict = try await fidelity(["igd", "--from-bytes", directory.path, "--table", withoutServer.path])
        #expect(strict.status == 1)
        #expect(
            strict.standardOutput.contains("NOT KEPT  GET /rootDesc.xml: header server"),
            "\(strict.standardOutput)"
        )

        // …and when the table keeps a difference no longer found: the table stays true.
        let stale = directory.appendingPathComponent("stale.md")
        try (table + "| igd | `GET /nowhere.xml: header x-nothing` | kept for nothing |\n")
            .write(to: stale, atomically: true, encoding: .utf8)
        let staleRun = try await fidelity(["igd", "--from-bytes", directory.path, "--table", stale.path])
        #expect(staleRun.status == 1)
        #expect(staleRun.standardOutput.contains("STALE  docs/fidelity.md keeps `GET /nowhere.xml: header x-nothing`"))
    }

    @Test func theDLNAServerBesideMiniDLNADiffersOnlyWhereTheTableSaysWhy() async throws {
        #expect(
            FileManager.default.isExecutableFile(atPath: "/usr/sbin/minidlnad"),
            "needs Debian's minidlna (scripts/install-fidelity)"
        )
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fidelity-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }

        let runID = "t" + String(Int.random(in: 10_000...99_999))
        let run = try await fidelity(["dlna-server", "--keep-bytes", directory.path, "--run-id", runID])
        #expect(run.status == 0, "\(run.standardOutput)\n\(run.standardError)")
        #expect(run.standardOutput.contains("fidelity dlna-server: ssdp-sim's dlna-server beside MiniDLNA"))
        #expect(run.standardOutput.contains("; not kept: 0"), "\(run.standardOutput)")
        await #expect(try namespaces(of: runID).isEmpty, "the lab removes every namespace it made")

        // Both sides said byebye twice for each of the six targets before saying alive, and the subscriber's
        // callback got a connection with nothing in it (1.3.0's initial event).
        for side in ["real", "ours"] {
            let data = try Data(contentsOf: directory.appendingPathComponent("dlna-server-\(side).json"))
            let records = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
            let heard = (records.first?["heard"] as? [[String: Any]] ?? []).compactMap { $0["bytes"] as? String }
            let kinds = heard.map { $0.contains("NTS:ssdp:byebye") ? "byebye" : "alive" }
            #expect(kinds == Array(repeating: "byebye", count: 12) + Array(repeating: "alive", count: 12), "\(side)")
            #expect(heard.allSatisfy { $0.contains("\r\nHOST:239.255.255.250:1900\r\n") }, "\(side)")
            let event = records.first { $0["name"] as? String == "event NOTIFY #1" }
            #expect(event?["response"] as? String == "", "\(side)")
        }

        // A profile that sent its initial event would fail: the same exchanges, ours given one, are a
        // difference the table does not keep.
        let ours = directory.appendingPathComponent("dlna-server-ours.json")
        var records = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: ours)) as? [[String: Any]])
        let index = try #require(records.firstIndex { $0["name"] as? String == "event NOTIFY #1" })
        records[index]["response"] = "NOTIFY /event HTTP/1.1\r\nSEQ: 0\r\n\r\n"
        try JSONSerialization.data(withJSONObject: records).write(to: ours)
        let strict = try await fidelity(["dlna-server", "--from-bytes", directory.path])
        #expect(strict.status == 1)
        #expect(strict.standardOutput.contains("NOT KEPT  event NOTIFY #1: status"), "\(strict.standardOutput)")
    }

    @Test func aPairItDoesNotKnowIsAUsageError() async throws {
        let output = try await fidelity(["toaster"])
        #expect(output.status == 64)
        #expect(
            output.standardError.contains("pair: 'toaster' is not a pair (pairs: igd, dlna-server, renderer, gupnp)"),
            "\(output.standardError)"
        )
        // The gupnp pair imitates nothing: only `--check` and `--recording` run it.
        let compare = try await fidelity(["gupnp"])
        #expect(compare.status == 64)
        #expect(
            compare.standardError.contains(
                "gupnp: no profile imitates it; it is a pair for --check and --recording only"
            )
        )
    }
}
