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

/// The README's "probing by hand" lines, run as printed: `serve` on port 1901, `send` with `--st`, a piped
/// M-SEARCH into `send`, and into plain netcat (`nc -u`, whose connected socket takes datagrams only from
/// the address and port it sent to). They run in a private network namespace, so the fixed port is free and
/// nothing leaves.
@Suite(.enabled(if: PrivateNamespace.isAvailable, "needs root and unshare -n to create a private network namespace"))
struct ReadmeProbingTests {
    /// The commands of the first `sh` block under the README's heading, continuation lines joined.
    static func commands(under heading: String) throws -> [String] {
        let readme = try String(
            contentsOf: VersionTests.repository.appendingPathComponent("README.md"),
            encoding: .utf8
        )
        let section = try #require(readme.components(separatedBy: "\n\(heading)\n").dropFirst().first)
        let block = try #require(
            section.components(separatedBy: "```sh\n").dropFirst().first?.components(separatedBy: "\n```").first
        )
        return block.replacingOccurrences(of: "\\\n", with: "").split(separator: "\n").map(String.init)
    }

    @Test func theNetcatLinesWorkAsPrinted() async throws {
        #expect(FileManager.default.isExecutableFile(atPath: "/usr/bin/nc"), "needs nc (Debian netcat-openbsd)")
        let commands = try Self.commands(under: "### `ssdp-sim send`: probing by hand")
        #expect(commands.count == 4, "\(commands)")
        let serve = try #require(commands.first)
        #expect(serve.hasPrefix("ssdp-sim serve ") && serve.hasSuffix(" &"))
        // As a user pastes them: serve in the background (its output kept apart), the probes once it is ready.
        let script = """
            set -e
            trap 'kill $(jobs -p) 2>/dev/null || true' EXIT
            ip link set lo up
            SERVE_OUT=$(mktemp)
            \(serve.dropLast()) > "$SERVE_OUT" 2>&1 &
            for _ in $(seq 200); do grep -q '^Ready' "$SERVE_OUT" && break; sleep 0.1; done
            \(commands.dropFirst().enumerated().map { "echo '=== probe \($0.offset + 1)'\n\($0.element)" }.joined(separator: "\n"))
            echo '=== end'
            """
        let output = try await CommandRunner.run(
            URL(fileURLWithPath: "/usr/bin/unshare"),
            ["-n", "bash", "-c", script],
            environment: [
                "PATH": "\(CommandRunner.ssdpSim.deletingLastPathComponent().path):/usr/bin:/bin:/usr/sbin:/sbin"
            ]
        )
        #expect(output.status == 0, "\(output.standardError)")
        let probes = output.standardOutput.components(separatedBy: "=== probe ").dropFirst().map {
            String($0.drop { $0 != "\n" })
        }
        try #require(probes.count == 3, "\(output.standardOutput)")

        // send --st upnp:rootdevice: one answer per device; a piped ssdp:all: 3 + 0 + 3 of each generic device.
        #expect(probes[0].contains("--- 2 answers in "), "\(probes[0])")
        #expect(probes[1].contains("--- 12 answers in "), "\(probes[1])")
        let sources = probes[1].split(separator: "\n").filter { $0.hasPrefix("--- +") }.map {
            $0.components(separatedBy: " from ").last?.components(separatedBy: ",").first ?? "?"
        }
        #expect(sources.count == 12 && Set(sources) == ["127.0.0.1:1901"], "\(sources)")

        // netcat gets them all too, each LOCATION the device's own address on the generic profile's port.
        let answers = probes[2].components(separatedBy: "HTTP/1.1 200 OK\r\n").dropFirst()
        #expect(answers.count == 12, "\(probes[2])")
        let hosts = answers.compactMap { answer in
            answer.split(separator: "\r\n").first { $0.hasPrefix("LOCATION: http://") }?
                .dropFirst("LOCATION: http://".count).split(separator: ":").first.map(String.init)
        }
        #expect(hosts.count == 12 && Set(hosts) == ["127.0.0.2", "127.0.0.3"], "\(hosts)")
    }
}
