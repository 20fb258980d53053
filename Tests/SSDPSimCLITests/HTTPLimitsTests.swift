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

/// The slow-body attack at the process's descriptor limit (issue 38): `serve` runs with 512 descriptors,
/// and 600 connections from ten addresses each send a byte of their body a second. Before, such
/// connections were never cut and, with enough of them, new clients timed out. Now the server holds at
/// most its share (half of what the limit leaves, 128 here), closes the connection that waited longest for
/// each newcomer, and a new client is answered while the attack holds.
@Suite struct HTTPLimitsTests {
    @Test func aNewClientIsAnsweredWhileSlowClientsHoldTheDescriptorLimit() async throws {
        let script = try #require(
            Bundle.module.url(forResource: "slow_clients", withExtension: "py", subdirectory: "Scripts")
        )
        let serve = try RunningCommand(
            URL(fileURLWithPath: "/usr/bin/prlimit"),
            [
                "--nofile=512:512", CommandRunner.ssdpSim.path, "serve", "--profile", "igd", "--interface", "lo",
                "--unicast-only", "--port", "0", "--http-port", "any", "--json", "--log-level", "warning",
            ]
        )
        defer { serve.kill() }
        let started = try await #require(jsonObject(try serve.waitForLine { $0.contains("\"started\"") }))
        let location = try #require((started["devices"] as? [[String: Any]])?.first?["location"] as? String)
        let before = try #require(ProcessFigures(pid: serve.processIdentifier))

        let attack = try RunningCommand(URL(fileURLWithPath: "/usr/bin/python3"), [script.path, location, "600", "10"])
        // The most descriptors serve holds while the attack runs (the script ends by itself within ~10 s).
        var most = before.descriptors
        while ProcessFigures.isRunning(pid: attack.processIdentifier) {
            most = max(most, ProcessFigures(pid: serve.processIdentifier)?.descriptors ?? most)
            try await Task.sleep(for: .milliseconds(100))
        }
        let output = await attack.wait()
        let result = try #require(
            jsonObject(output.standardOutput.split(separator: "\n").last.map(String.init) ?? ""),
            "\(output.standardOutput) \(output.standardError)"
        )
        print(
            "slow clients at the descriptor limit: \(result); serve's descriptors \(before.descriptors), at most \(most)"
        )
        #expect(most < 512, "serve reached its descriptor limit")
        #expect(result["status"] as? Int == 200, "the new client was not answered: \(result)")
        #expect((result["stillOpen"] as? Int ?? .max) <= 128, "\(result)")
        #expect(ProcessFigures.isRunning(pid: serve.processIdentifier))
        serve.signal(SIGINT)
        #expect(await serve.wait().status == 0)
    }
}
