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

@testable import SSDPSimCLI

/// `ssdp-sim serve --control` on loopback, unicast only: the README's recipe as a Python user runs it, the
/// URL in the start banner and the `started` line, and bad flags.
@Suite struct ServeControlTests {
    private static let loopback = ["--interface", "lo", "--unicast-only", "--port", "0", "--http-port", "any"]

    /// Scripts/control_recipe.py, with Python's standard library only: start, wait for /health, find both
    /// Rokus at the search port the `started` line names, vanish the second, find the first alone, read the
    /// journal's entry.
    @Test func theRecipeVanishesARokuAndReadsItInTheJournal() async throws {
        let recipe = try #require(
            Bundle.module.url(forResource: "control_recipe", withExtension: "py", subdirectory: "Scripts")
        )
        let output = try await CommandRunner.run(
            URL(fileURLWithPath: "/usr/bin/python3"),
            [recipe.path, CommandRunner.ssdpSim.path],
            timeout: .seconds(60)
        )
        #expect(output.status == 0, "\(output.standardError)")
        let seen = try #require(jsonObject(output.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)))
        let control = try #require(seen["control"] as? String)
        #expect(control.hasPrefix("http://127.0.0.1:") && !control.hasSuffix(":0"), "\(control)")
        #expect((seen["health"] as? [String: Any])?["devices"] as? Int == 2)
        #expect((seen["device"] as? [String: Any])?["state"] as? String == "gone")
        let found = try #require(seen["found"] as? [String])
        #expect(found.count == 2 && found.allSatisfy { $0.hasPrefix("http://127.0.0.") }, "\(found)")
        #expect(seen["after"] as? [String] == [found[0]], "the vanished Roku (127.0.0.3) no longer answers")
        let entry = try #require(seen["entry"] as? [String: Any])
        #expect(entry["kind"] as? String == "device")
        #expect(entry["device"] as? Int == 2)
        let fields = entry["fields"] as? [String: Any]
        #expect(fields?["action"] as? String == "vanish")
        #expect(fields?["state"] as? String == "gone")
        #expect(output.standardError.contains("Control API closed"), "the control API closed at SIGTERM")
    }

    /// Scripts/control_flood.py: 100,000 searches at a running `serve --control` with a journal of 10,000.
    /// The journal keeps 10,000, counts every other entry as dropped (every search heard and every answer
    /// sent made one), and the process's memory stays bounded.
    @Test func theJournalStaysBoundedUnderASearchFlood() async throws {
        let script = try #require(
            Bundle.module.url(forResource: "control_flood", withExtension: "py", subdirectory: "Scripts")
        )
        let output = try await CommandRunner.run(
            URL(fileURLWithPath: "/usr/bin/python3"),
            [script.path, CommandRunner.ssdpSim.path, "100000"],
            timeout: .seconds(120)
        )
        #expect(output.status == 0, "\(output.standardError)")
        let flood = try #require(jsonObject(output.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)))
        print("journal under a 100,000-search flood: \(flood)")
        let (kept, dropped, total) = (flood["kept"] as? Int, flood["dropped"] as? Int, flood["journalTotal"] as? Int)
        #expect(kept == 10_000)
        #expect(dropped.map { $0 + 10_000 } == total)
        let events = (flood["searchesAccepted"] as? Int ?? 0) + (flood["answersSent"] as? Int ?? 0)
        #expect(total == events, "one entry per search heard and per answer sent: \(flood)")
        // The flood overflowed the journal. How far depends on what the kernel drops before serve reads it:
        // 17,152 to 59,777 entries in all across full runs on two cores (of 100,000 searches sent).
        #expect((dropped ?? 0) > 0, "the flood overflowed the journal: \(flood)")
        let growth = (flood["rssAfterKiB"] as? Int ?? 0) - (flood["rssBeforeKiB"] as? Int ?? 0)
        #expect(growth < 128 * 1_024, "resident memory grew \(growth) KiB")
    }

    @Test func theBannerAndTheStartedLineNameTheControlURL() async throws {
        let text = try RunningCommand(CommandRunner.ssdpSim, ["serve", "--control", "0"] + Self.loopback)
        let banner = try await text.waitForLine { $0.contains("Control API:") }
        text.signal(SIGINT)
        #expect(await text.wait().status == 0)
        #expect(banner.contains("http://127.0.0.1:"), "\(banner)")

        let json = try RunningCommand(
            CommandRunner.ssdpSim,
            ["serve", "--json"] + Self.loopback,
            environment: ["SSDP_SIM_CONTROL": "127.0.0.1:0"]
        )
        let started = try await #require(jsonObject(try json.waitForLine { $0.contains("\"started\"") }))
        json.signal(SIGINT)
        #expect(await json.wait().status == 0)
        let control = try #require(started["control"] as? String, "SSDP_SIM_CONTROL gives --control")
        #expect(control.hasPrefix("http://127.0.0.1:"))
    }

    @Test func withoutControlTheStartedLineHasNoControlField() async throws {
        let serve = try RunningCommand(CommandRunner.ssdpSim, ["serve", "--json"] + Self.loopback)
        let started = try await #require(jsonObject(try serve.waitForLine { $0.contains("\"started\"") }))
        serve.signal(SIGINT)
        #expect(await serve.wait().status == 0)
        #expect(started["control"] == nil)
        #expect(started["version"] != nil)

        // The container image turns the API on with SSDP_SIM_CONTROL; `off` turns it off again.
        let off = try RunningCommand(
            CommandRunner.ssdpSim,
            ["serve", "--json"] + Self.loopback,
            environment: ["SSDP_SIM_CONTROL": "off"]
        )
        let quiet = try await #require(jsonObject(try off.waitForLine { $0.contains("\"started\"") }))
        off.signal(SIGINT)
        #expect(await off.wait().status == 0)
        #expect(quiet["control"] == nil)
    }

    @Test(arguments: [
        (["--control", "nowhere:8080"], "--control 'nowhere:8080': expected ADDRESS:PORT or PORT"),
        (["--control", "127.0.0.1:70000"], "--control '127.0.0.1:70000': expected ADDRESS:PORT or PORT"),
        (["--control", "0", "--journal-size", "0"], "--journal-size '0': must be 1...1000000"),
        (["--control-allow-origin", "http://localhost:3000"], "--control-allow-origin needs --control"),
        (["--control-token", "abc"], "--control-token and --control-token-file need --control"),
        (["--control", "0", "--control-token-file", "/nonexistent/token"], "'/nonexistent/token': cannot be read"),
        (["--control", "0", "--control-token", "a", "--control-token-file", "/tmp/t"], "give one of them"),
    ])
    func badControlFlagsNameTheFlagAndExit64(arguments: [String], message: String) async throws {
        let output = try await CommandRunner.run(CommandRunner.ssdpSim, ["serve"] + arguments + Self.loopback)
        #expect(output.status == 64)
        #expect(output.standardError.contains(message), "\(output.standardError)")
    }

    /// A token that begins with a dash, as a URL-safe random one may, is a token, not an option.
    @Test func aTokenMayBeginWithADash() async throws {
        let serve = try RunningCommand(
            CommandRunner.ssdpSim,
            ["serve", "--json", "--control", "127.0.0.1:0"] + Self.loopback,
            environment: ["SSDP_SIM_CONTROL_TOKEN": "-dash-first"]
        )
        let started = try await #require(jsonObject(try serve.waitForLine { $0.contains("\"started\"") }))
        let control = try #require(started["control"] as? String)
        // The status of GET /journal with the Authorization header argv[2] (none when empty).
        let status = """
            import sys, urllib.error, urllib.request
            headers = {"Authorization": sys.argv[2]} if sys.argv[2] else {}
            try:
                print(urllib.request.urlopen(urllib.request.Request(sys.argv[1], headers=headers), timeout=5).status)
            except urllib.error.HTTPError as error:
                print(error.code)
            """
        let python = URL(fileURLWithPath: "/usr/bin/python3")
        let refused = try await CommandRunner.run(python, ["-c", status, control + "/journal", ""])
        let served = try await CommandRunner.run(python, ["-c", status, control + "/journal", "Bearer -dash-first"])
        serve.signal(SIGINT)
        #expect(await serve.wait().status == 0)
        #expect(refused.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) == "401")
        #expect(served.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) == "200")
    }

    /// A token from the environment that cannot be one is named, never printed.
    @Test func aBadTokenFromTheEnvironmentIsNamedNotShown() async throws {
        let output = try await CommandRunner.run(
            CommandRunner.ssdpSim,
            ["serve", "--control", "0"] + Self.loopback,
            environment: ["SSDP_SIM_CONTROL_TOKEN": "secret with spaces"]
        )
        #expect(output.status == 64)
        #expect(output.standardError.contains("SSDP_SIM_CONTROL_TOKEN=(hidden)"), "\(output.standardError)")
        #expect(!output.standardError.contains("secret"))
    }

    @Test(arguments: [
        ("8080", "127.0.0.1 8080"), ("0.0.0.0:0", "0.0.0.0 0"), ("[::1]:9000", "::1 9000"),
        ("localhost:9000", "127.0.0.1 9000"), ("example.com:80", nil), ("127.0.0.1:-1", nil), ("", nil),
    ])
    func theControlAddressIsAPortAloneOrAnIPAddressAndAPort(text: String, parsed: String?) {
        #expect(ControlOptions.parse(text).map { "\($0.host) \($0.port)" } == parsed)
    }
}
