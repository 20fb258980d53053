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

/// `ssdp-sim serve` on loopback in this network namespace, unicast only (no multicast anywhere), probed by
/// `ssdp-sim send`, a netcat-style pipe and a plain Python UDP client, and flooded.
@Suite struct ServeLoopbackTests {
    /// Starts `serve --interface lo --unicast-only --port 0 --json` plus `arguments`; returns it and its UDP port.
    private func serve(
        _ arguments: [String] = [],
        environment: [String: String] = [:]
    ) async throws
        -> (RunningCommand, Int)
    {
        let (serve, port, _) = try await RunningCommand.serveOnLoopback(arguments, environment: environment)
        return (serve, port)
    }

    private func stop(_ serve: RunningCommand) async -> [String: Any] {
        serve.signal(SIGINT)
        let output = await serve.wait()
        #expect(output.status == 0, "\(output.standardError)")
        return output.event("stopped")?["counters"] as? [String: Any] ?? [:]
    }

    @Test func sendBuildsASearchAndPrintsEveryAnswer() async throws {
        let (serve, port) = try await serve(["--count", "2", "--seed", "4"])
        let output = try await CommandRunner.ssdpSim(
            "send",
            "--host",
            "127.0.0.1",
            "--port",
            "\(port)",
            "--st",
            "upnp:rootdevice",
            "--wait",
            "1.5",
            "--json"
        )
        #expect(output.status == 0, "\(output.standardError)")
        let answers = output.jsonLines
        #expect(answers.count == 2)
        // A search sent to the simulator's own address is answered from there (the address and port searched,
        // as netcat needs), each answer with its device's own address in LOCATION.
        #expect(answers.allSatisfy { $0["from"] as? String == "127.0.0.1:\(port)" }, "\(answers)")
        let locations = answers.compactMap { answer in
            (answer["text"] as? String)?.split(separator: "\r\n").first { $0.hasPrefix("LOCATION: ") }
        }
        #expect(
            Set(locations.map { $0.split(separator: "/")[1].split(separator: ":")[0] }) == ["127.0.0.2", "127.0.0.3"]
        )
        for answer in answers {
            #expect(answer["event"] as? String == "answer")
            #expect(
                (answer["text"] as? String)?.hasPrefix("HTTP/1.1 200 OK\r\nCACHE-CONTROL: max-age=1800\r\nEXT:\r\n")
                    == true
            )
            #expect((answer["time"] as? Double ?? 9) <= 1.5)
        }
        let counters = await stop(serve)
        #expect(counters["answersSent"] as? Int == 2)
    }

    /// `search --expect FILE` holds a search of devices it does not run to the harness's own checks: it passes
    /// when the devices are there, fails naming what is missing, and refuses what it cannot observe.
    @Test func searchHeldToAnExpectationsFile() async throws {
        // Answers at once: drawn within MX, seed 4 put the third search's answers 0.13 s before its end, where
        // a busy machine reads them too late (and "exact" then finds what it expects).
        let (serve, port) = try await serve([
            "--profile", "roku", "--count", "2", "--seed", "4", "--delay", "immediate",
        ])
        defer { serve.kill() }  // a failed expectation must not leave it running
        let started = try await #require(jsonObject(try serve.waitForLine { $0.contains("\"started\"") }))
        let udns = try #require(started["devices"] as? [[String: Any]]).compactMap { $0["udn"] as? String }
        #expect(udns.count == 2)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("expect-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        func search(expecting json: String, _ flags: String...) async throws -> CommandRunner.Output {
            let file = directory.appendingPathComponent("expect.json")
            try Data(json.utf8).write(to: file)
            return try await CommandRunner.run(
                CommandRunner.ssdpSim,
                ["search", "upnp:rootdevice", "--host", "127.0.0.1", "--port", "\(port)", "--mx", "1"]
                    + ["--requests", "1", "--expect", file.path] + flags
            )
        }
        let roots = udns.map { #"{"usn": "\#($0)::upnp:rootdevice", "st": "upnp:rootdevice"}"# }

        let both = try await search(
            expecting: #"{"found": {"including": [\#(roots.joined(separator: ","))]}}"#,
            "--json"
        )
        #expect(both.status == 0, "\(both.standardOutput)\n\(both.standardError)")
        let checks = both.jsonLines.filter { $0["event"] as? String == "check" }
        #expect(checks.count == 7)
        #expect(checks.allSatisfy { $0["status"] as? String == "passed" }, "\(checks)")
        #expect(checks.contains { $0["name"] as? String == "found services included" })

        let ghost = #"{"usn": "uuid:ghost::upnp:rootdevice", "st": "upnp:rootdevice"}"#
        let missing = try await search(expecting: #"{"found": {"including": [\#(roots[0]), \#(ghost)]}}"#)
        #expect(missing.status == 1, "\(missing.standardOutput)")
        #expect(
            missing.standardOutput.contains(
                "  FAIL  found services included: expected these 2 services among those reported; "
                    + "got missing uuid:ghost::upnp:rootdevice (upnp:rootdevice)"
            ),
            "\(missing.standardOutput)"
        )
        #expect(missing.standardOutput.contains("6 of 7 checks passed."))

        let exact = try await search(
            expecting: #"{"found": {"services": [\#(roots[0])]}, "dropped": {"duplicates": 0}}"#
        )
        #expect(exact.status == 1, "\(exact.standardOutput)")
        #expect(exact.standardOutput.contains("  FAIL  found services: expected exactly 1 service; got unexpected"))

        let unobservable = try await search(expecting: #"{"searches": {"sent": 1}}"#)
        #expect(unobservable.status == 64)
        #expect(unobservable.standardError.contains("expect.json: $.searches: a search of a network the harness"))
        _ = await stop(serve)
    }

    @Test func aPipedMessageIsSentAsIsLikeNetcat() async throws {
        let (serve, port) = try await serve(["--delay", "immediate"])  // every answer well within the wait
        let message = "M-SEARCH * HTTP/1.1\r\nHOST: 127.0.0.1:\(port)\r\nMAN: \"ssdp:discover\"\r\nST: ssdp:all\r\n\r\n"
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("msearch-\(UUID()).txt")
        try Data(message.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let output = try await CommandRunner.run(
            URL(fileURLWithPath: "/bin/sh"),
            ["-c", "\"$SSDP_SIM\" send --host 127.0.0.1 --port \(port) --wait 1.5 < \"$FILE\""],
            environment: ["SSDP_SIM": CommandRunner.ssdpSim.path, "FILE": file.path]
        )
        #expect(output.status == 0, "\(output.standardError)")
        #expect(output.standardOutput.hasPrefix("Sent \(message.utf8.count) bytes to 127.0.0.1:\(port)"))
        #expect(output.standardOutput.components(separatedBy: "HTTP/1.1 200 OK").count - 1 == 6, "ssdp:all: 3 + 0 + 3")
        #expect(output.standardOutput.contains("--- 6 answers in 1.5 s"))
        _ = await stop(serve)
    }

    @Test func aPlainUDPClientGetsTheAnswer() async throws {
        let (serve, port) = try await serve(["--seed", "2"])
        let client = """
            import socket, sys
            s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.settimeout(3)
            s.sendto(b'M-SEARCH * HTTP/1.1\\r\\nHOST: 127.0.0.1:%d\\r\\nMAN: "ssdp:discover"\\r\\nST: upnp:rootdevice\\r\\n\\r\\n' % int(sys.argv[1]), ("127.0.0.1", int(sys.argv[1])))
            print(s.recvfrom(65535)[0].decode())
            """
        let output = try await CommandRunner.run(URL(fileURLWithPath: "/usr/bin/python3"), ["-c", client, "\(port)"])
        #expect(output.status == 0, "\(output.standardError)")
        #expect(output.standardOutput.contains("\r\nST: upnp:rootdevice\r\n"))
        #expect(output.standardOutput.contains("\r\nLOCATION: http://127.0.0.2:"))
        _ = await stop(serve)
    }

    @Test func aSearchSentToOneDevicesAddressIsAnsweredByThatDeviceAlone() async throws {
        let (serve, port) = try await serve(["--count", "3", "--seed", "6", "--delay", "immediate"])
        let output = try await CommandRunner.ssdpSim(
            "send",
            "--host",
            "127.0.0.3",
            "--port",
            "\(port)",
            "--st",
            "ssdp:all",
            "--wait",
            "1.5",
            "--json"
        )
        #expect(output.status == 0, "\(output.standardError)")
        let answers = output.jsonLines
        #expect(answers.count == 6, "ssdp:all of one generic device: 3 + 0 + 3")
        let sources = Set(answers.compactMap { ($0["from"] as? String)?.split(separator: ":").first.map(String.init) })
        #expect(sources == ["127.0.0.3"])
        serve.signal(SIGINT)
        let started = try await #require(serve.wait().event("started"))
        let second = try #require((started["devices"] as? [[String: Any]])?[1])
        #expect(second["address"] as? String == "127.0.0.3")
        let udn = try #require(second["udn"] as? String)
        #expect(answers.allSatisfy { ($0["text"] as? String)?.contains("USN: \(udn)") == true })
    }

    /// A container is ready when its log says so: the ready line comes last, after every device's banner or
    /// `started` event, and the ready file (`ssdp-sim ready`, the image's health check) lives as long as serve.
    @Test func saysReadyOnceEveryDeviceServesAndKeepsTheReadyFileWhileItRuns() async throws {
        let readyFile = FileManager.default.temporaryDirectory.appendingPathComponent("ssdp-sim-\(UUID()).ready").path
        let (serve, _) = try await serve(["--count", "3", "--seed", "2", "--ready-file", readyFile])
        let ready = try await #require(jsonObject(try serve.waitForLine { $0.contains("\"ready\"") }))
        #expect(ready["devices"] as? Int == 3)
        let probe = try await CommandRunner.ssdpSim("ready", "--file", readyFile)
        #expect(probe.status == 0, "\(probe.standardError)")
        #expect(probe.standardOutput == "ready: 3 devices serving\n")
        _ = await stop(serve)
        let events = await serve.wait().jsonLines.compactMap { $0["event"] as? String }
        #expect(events.firstIndex(of: "ready") == events.firstIndex(of: "started").map { $0 + 1 })
        #expect(!FileManager.default.fileExists(atPath: readyFile))
        let gone = try await CommandRunner.run(
            CommandRunner.ssdpSim,
            ["ready"],
            environment: ["SSDP_SIM_READY_FILE": readyFile]
        )
        #expect(gone.status == 1)
        #expect(gone.standardError.contains("not ready: no \(readyFile)"))

        let text = try RunningCommand(
            CommandRunner.ssdpSim,
            ["serve", "--interface", "lo", "--unicast-only", "--port", "0", "--http-port", "any", "--count", "2"]
        )
        _ = try await text.waitForLine { $0.hasPrefix("Ready:") }
        text.signal(SIGTERM)
        let lines = await text.wait().standardOutput.split(separator: "\n").map(String.init)
        let banner = lines.prefix { !$0.hasPrefix("Ready:") }
        #expect(banner.count == 3, "the Serving line and one line per device: \(lines)")
        #expect(lines.dropFirst(banner.count).first == "Ready: 2 devices serving")
    }

    /// A program that starts serve with a pipe as its standard input and dies closes the pipe: with
    /// --stop-on-stdin-eof serve stops as at SIGTERM (its `stopped` line, exit 0); without it, it runs on.
    @Test func stopsWhenItsStandardInputEndsOnlyWhenAskedTo() async throws {
        let arguments = ["serve", "--interface", "lo", "--unicast-only", "--port", "0", "--http-port", "any", "--json"]
        let (lifeline, plain) = (Pipe(), Pipe())
        let tied = try RunningCommand(
            CommandRunner.ssdpSim,
            arguments + ["--stop-on-stdin-eof"],
            standardInput: lifeline
        )
        let untied = try RunningCommand(CommandRunner.ssdpSim, arguments, standardInput: plain)
        defer { untied.kill() }
        for serve in [tied, untied] { _ = try await serve.waitForLine { $0.contains("\"ready\"") } }
        try lifeline.fileHandleForWriting.write(contentsOf: Data("anything is read and dropped\n".utf8))
        try lifeline.fileHandleForWriting.close()
        try plain.fileHandleForWriting.close()
        let stopped = await tied.wait(timeout: .seconds(10))
        #expect(stopped.status == 0, "\(stopped.standardError)")
        #expect(stopped.event("stopped") != nil, "\(stopped.standardOutput)")
        #expect(untied.standardOutput.contains("\"stopped\"") == false, "serve without the flag ignores its input")
        untied.signal(SIGTERM)
        #expect(await untied.wait().status == 0)
    }

    @Test func everyOptionComesFromTheEnvironmentToo() async throws {
        let (serve, _) = try await serve(
            [],
            environment: [
                "SSDP_SIM_COUNT": "2", "SSDP_SIM_FRIENDLY_NAME": "Env", "SSDP_SIM_MAX_AGE": "100", "SSDP_SIM_SEED": "3",
            ]
        )
        let started = await jsonObject(try serve.waitForLine { $0.contains("\"started\"") })
        let devices = started?["devices"] as? [[String: Any]] ?? []
        #expect(devices.compactMap { $0["friendlyName"] as? String } == ["Env 1", "Env 2"])
        _ = await stop(serve)
        let help = try await CommandRunner.ssdpSim("serve", "--help").standardOutput
        let optionLines = help.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
            $0.hasPrefix("-")
        }
        let options = Set(
            optionLines.compactMap { line in
                line.split(whereSeparator: { " ,<>".contains($0) }).first { $0.hasPrefix("--") }.map {
                    String($0.dropFirst(2))
                }
            }
        )
        let covered = Set(["help", "version"] + ServeEnvironment.options.map(\.name))
        #expect(
            options.subtracting(covered).isEmpty,
            "options with no SSDP_SIM_ variable: \(options.subtracting(covered))"
        )
    }

    /// 100,000 datagrams (valid searches, garbage, oversized, rejected searches, NOTIFY, responses) from
    /// 64 sources at about 10,000 a second: the simulator keeps answering a separate searcher, its memory
    /// stays bounded, the flood sources hit the rate limit, and every datagram is accounted for: counted in
    /// exactly one category or dropped by the kernel when the socket buffer was full.
    @Test(.tags(.flood)) func survivesAFloodAndItsCountersAddUp() async throws {
        let flood = try #require(Bundle.module.url(forResource: "flood", withExtension: "py", subdirectory: "Scripts"))
        // 20 answers a second per source: the flood's 8 addresses send about 470 searches a second each, of
        // which the kernel drops more the busier the machine is; the most it dropped (81 % beside the whole
        // suite) left each 41 answers a second, under a limit of 50, and nothing was limited.
        let (serve, port) = try await serve(["--seed", "6", "--rate-limit", "20"])
        let output = try await CommandRunner.run(
            URL(fileURLWithPath: "/usr/bin/python3"),
            [flood.path, "\(port)", "\(serve.processIdentifier)", "100000"],
            timeout: .seconds(120)
        )
        #expect(output.status == 0, "\(output.standardError)")
        let report = try #require(jsonObject(output.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)))
        let counters = await stop(serve)
        let count = { (name: String) in counters[name] as? Int ?? -1 }
        let sent = report["sent"] as? [String: Int] ?? [:]
        let drops = report["kernelDrops"] as? Int ?? -1
        let probe = report["probe"] as? [String: Int] ?? [:]
        print("flood: \(report)\ncounters: \(counters)")

        #expect(report["total"] as? Int == 100_000)
        #expect(drops >= 0)
        let categories = [
            "oversized", "sourcesRejected", "malformed", "searchesAccepted", "searchesRejected", "notifications",
            "responses",
        ]
        #expect(categories.map(count).reduce(0, +) == count("datagramsReceived"), "the categories add up")
        let probeSearches = probe["sent"] ?? 0
        #expect(
            count("datagramsReceived") + drops == 100_000 + probeSearches,
            "every datagram received or dropped by the kernel"
        )
        #expect(count("malformed") <= sent["malformed"] ?? 0 && count("oversized") <= sent["oversized"] ?? 0)
        // Past its limit a flood source's searches reach no device: counted as searches, not as answers cut.
        #expect(count("searchesRateLimited") > 0, "the flood sources hit the per-source limit")
        #expect(count("searchesRateLimited") <= count("searchesAccepted"))
        // Not starved: a limit applied to all sources at once would leave it almost nothing. Under the flood
        // the kernel drops some of its searches too, more when the rest of the suite loads the machine
        // (78 of 202 answered in one full `swift test` on two cores; 38 of 251 in a CI rehearsal with other
        // work beside it), hence a tenth: the mechanism, not the machine.
        #expect((probe["answers"] ?? 0) * 10 >= probeSearches, "the separate searcher kept getting answers: \(probe)")
        let peak = report["peakMemoryKiB"] as? Int ?? .max
        #expect(peak < 256 * 1_024, "peak memory \(peak) KiB")
    }

    @Test(arguments: [
        (["--loss", "1.5"], "--loss '1.5': a probability must be 0...1"),
        (
            ["--delay", "soon"],
            "--delay 'soon': expected uniform, immediate, whole-seconds, fixed:SECONDS or late:SECONDS"
        ),
        (["--duplicates", "0"], "--duplicates '0': must be 1...10"),
        (["--malformed", "sloppy"], "--malformed 'sloppy': expected one of lf-only"),
        (["--silent", "5-2"], "--silent '5-2': a window must end after it starts"),
        (
            ["--profile", "toaster"],
            "--profile 'toaster': no such profile (profiles: roku, roku-tv, dial-tv, hue, sonos, igd, dlna-server, renderer, chromecast-legacy, generic)"
        ),
        (["--count", "0"], "--count '0': must be 1...10000"),
        (["--notify-copies", "4"], "--notify-copies '4': must be 1...3"),
        (["--devices", "/nonexistent.json"], "/nonexistent.json: no such file"),
    ])
    func badFlagsNameTheFlagAndExit64(arguments: [String], message: String) async throws {
        let output = try await CommandRunner.run(CommandRunner.ssdpSim, ["serve"] + arguments)
        #expect(output.status == 64)
        #expect(output.standardError.contains(message), "\(output.standardError)")
    }

    /// `profiles NAME` lists the paths as a device serves them by default (at an address of its own): every
    /// GET path it lists, but those with a `{variable}`, answers 2xx on a running device of the profile (a
    /// Chromecast's `/apps/` is 204 while no app runs).
    @Test(arguments: [
        "generic", "roku", "dial-tv", "hue", "sonos", "igd", "dlna-server", "renderer", "chromecast-legacy",
    ])
    func everyPathProfilesListsIsServed(profile: String) async throws {
        let listing = try #require(try await CommandRunner.ssdpSim("profiles", profile, "--json").jsonLines.first)
        let paths = try #require(listing["http"] as? [[String: Any]]).filter {
            ($0["methods"] as? String)?.contains("GET") == true && ($0["path"] as? String)?.contains("{") == false
        }.compactMap { $0["path"] as? String }
        #expect(!paths.isEmpty, "\(listing)")
        let (serve, _) = try await serve(["--profile", profile, "--seed", "3"])
        defer { serve.kill() }  // a failed expectation must not leave it running
        let started = try await #require(jsonObject(try serve.waitForLine { $0.contains("\"started\"") }))
        let location = try #require((started["devices"] as? [[String: Any]])?.first?["location"] as? String)
        let origin = location.split(separator: "/").prefix(2).joined(separator: "//")
        let fetch = """
            import sys, urllib.request, urllib.error
            for path in sys.argv[2:]:
                try:
                    status = urllib.request.urlopen(sys.argv[1] + path, timeout=5).status
                except urllib.error.HTTPError as error:
                    status = error.code
                print(status, path)
            """
        let output = try await CommandRunner.run(
            URL(fileURLWithPath: "/usr/bin/python3"),
            ["-c", fetch, origin] + paths
        )
        #expect(output.status == 0, "\(output.standardError)")
        let statuses = output.standardOutput.split(separator: "\n")
        #expect(statuses.count == paths.count && statuses.allSatisfy { $0.hasPrefix("2") }, "\(output.standardOutput)")
        _ = await stop(serve)
    }

    /// `serve`'s text output shows what a client sent, and a client may send anything: a key of
    /// `Home%0A<forged line>%1B[2J` used to print a forged line and clear the terminal.
    @Test func textOutputShowsAClientsControlCharactersAsEscapes() async throws {
        let serve = try RunningCommand(
            CommandRunner.ssdpSim,
            ["serve", "--profile", "roku", "--interface", "lo", "--unicast-only", "--port", "0", "--http-port", "any"]
        )
        let location = try await #require(
            try serve.waitForLine { $0.contains("http://") }.split(separator: " ").last { $0.hasPrefix("http://") }
        )
        let post = try await CommandRunner.run(
            URL(fileURLWithPath: "/usr/bin/python3"),
            [
                "-c",
                "import sys, urllib.request; urllib.request.urlopen(urllib.request.Request(sys.argv[1], method='POST'))",
                "\(location)keypress/Home%0AForged%20line%1B[2J%E2%80%AE",
            ]
        )
        #expect(post.status == 0, "\(post.standardError)")
        let line = try await serve.waitForLine { $0.contains("keypress") }
        serve.signal(SIGINT)
        let output = await serve.wait()
        #expect(line.hasSuffix(#": keypress Home\nForged line\x1B[2J\u{202E}"#), "\(line)")
        #expect(!output.standardOutput.contains("\u{1B}") && !output.standardOutput.contains("\nForged"))
    }

    @Test func anUnknownInterfaceIsNamedWithExit1() async throws {
        let output = try await CommandRunner.ssdpSim("serve", "--interface", "nope0", "--unicast-only", "--port", "0")
        #expect(output.status == 1)
        #expect(output.standardError.contains("no interface named nope0 (interfaces: "))
    }
}

extension Tag {
    /// The 100,000-datagram flood (about ten seconds).
    @Tag static var flood: Self
}
