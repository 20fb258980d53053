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

/// Other people's discovery code as it is, through `run --namespace --client`, each held to its own search
/// policy: python-roku's `discover` (one search, MX 3, a stop after 2 s of silence) and async-upnp-client's
/// `async_search` (one search, MX 4, a stop 4 s after it). Each passes the scenarios its policy can pass
/// and fails, by the check made for it, where its real weakness shows; a scenario its policy cannot make
/// sense of is skipped with the reason. (rokuecp has no discovery of its own: Home Assistant finds Rokus
/// with async-upnp-client.)
@Suite(
    .serialized,
    .enabled(if: PrivateNamespace.isAvailable, "needs root and unshare -n to create a private network namespace"),
    .enabled(
        if: (UnboundClients.pythonRokuIsAvailable && UPnPClientLibrary.isAvailable) || UPnPClientLibrary.isRequired,
        "needs the Python packages roku and async-upnp-client (scripts/install-interop)"
    )
)
struct ClientPolicyInteropTests {
    /// What each scenario must come to: `pass`, `skip`, or the checks that must fail (and no other).
    typealias Verdicts = [String: Set<String>]

    @Test func pythonRokuPassesWhatOneSearchFindsAndFailsWhereItsWeaknessShows() async throws {
        let verdicts = try await run(
            client: "python_roku.py",
            policy: "searches=1,mx=3,stop=idle:2",
            scenarios: ["dial-tv", "reboot-mid-search", "roku-three-retries", "chatty-devices", "zero-requests"]
        )
        #expect(verdicts["dial-tv"] == ["pass"])
        #expect(verdicts["reboot-mid-search"] == ["pass"])
        // One search: the Roku that ignores the first two is never found.
        #expect(verdicts["roku-three-retries"] == ["found services", "found count"])
        // It keeps whatever answers, whatever their ST (its results are keyed by LOCATION).
        #expect(verdicts["chatty-devices"]?.isSuperset(of: ["only the searched target reported"]) == true)
        #expect(verdicts["zero-requests"] == ["skip"])
    }

    @Test func asyncUPnPClientPassesWhatOneSearchFindsAndFailsWhereItsWeaknessShows() async throws {
        let verdicts = try await run(
            client: "async_upnp_client_search.py",
            policy: "searches=1,mx=4,stop=after:4",
            scenarios: ["dial-tv", "igd-ssdp-all", "duplicate-storm", "version-rule", "zero-requests"]
        )
        #expect(verdicts["dial-tv"] == ["pass"])
        #expect(verdicts["igd-ssdp-all"] == ["pass"])
        // async_search hands every answer to its callback: duplicates and other versions are its caller's.
        #expect(verdicts["duplicate-storm"] == ["each service reported once", "found count"])
        #expect(verdicts["version-rule"]?.isSuperset(of: ["only the searched target reported"]) == true)
        #expect(verdicts["zero-requests"] == ["skip"])
    }

    /// `ssdp-sim run` of `scenarios` (shipped files) against `client` (Tests/SSDPHarnessTests/Clients) held to
    /// `policy`, in a private namespace: each scenario's verdict from the JSON report.
    private func run(client: String, policy: String, scenarios: [String]) async throws -> Verdicts {
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("policy-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: report) }
        let wrapper = Lab.repository.appendingPathComponent("Tests/SSDPHarnessTests/Clients/\(client)").path
        let files = scenarios.map { Lab.repository.appendingPathComponent("Scenarios/\($0).json").path }
        let output = try await CommandRunner.run(
            CommandRunner.ssdpSim,
            ["run"] + files + [
                "--namespace", "--client", "python3 \(wrapper)", "--client-policy", policy, "--json-report",
                report.path,
            ],
            environment: UPnPClientLibrary.environment,
            timeout: .seconds(180)
        )
        #expect([0, 1].contains(output.status), "\(output.standardOutput)\n\(output.standardError)")
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any],
            "\(output.standardOutput)"
        )
        var verdicts: Verdicts = [:]
        for run in json["scenarios"] as? [[String: Any]] ?? [] {
            guard let name = run["name"] as? String else { continue }
            let failed = (run["checks"] as? [[String: Any]] ?? []).filter { $0["status"] as? String == "failed" }
            verdicts[name] =
                run["skipped"] != nil
                ? ["skip"]
                : run["passed"] as? Bool == true ? ["pass"] : Set(failed.compactMap { $0["name"] as? String })
        }
        #expect(Set(verdicts.keys) == Set(scenarios), "\(output.standardOutput)")
        return verdicts
    }
}
