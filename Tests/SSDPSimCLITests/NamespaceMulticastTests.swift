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

/// Whether this process may create a private network namespace (root, with `unshare` and `ip`).
enum PrivateNamespace {
    static let isAvailable: Bool = {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else { return false }
        let probe = try? CommandRunner.runOnThisThread(URL(fileURLWithPath: "/usr/bin/unshare"), ["-n", "true"])
        return probe?.status == 0
    }()

    /// Runs `body` (bash) in a new namespace whose loopback does multicast by `route`, after starting
    /// `serve --interface lo ARGUMENTS --json` (`$SERVE` its pid); its output follows, each line prefixed
    /// `serve: `. `$SSDP_SIM` is this build's ssdp-sim; `environment` adds to the rest.
    static func withServe(
        _ arguments: String,
        route: String = "ip route add 239.0.0.0/8 dev lo",
        environment: [String: String] = [:],
        timeout: Duration = .seconds(60),
        _ body: String
    ) async throws -> CommandRunner.Output {
        let script = """
            set -e
            trap 'kill $(jobs -p) 2>/dev/null || true' EXIT  # a process left running would hold the output open: the test would wait for ever
            ip link set lo up; ip link set lo multicast on; \(route)
            SERVE_OUT=$(mktemp)
            # Starts serve ARGS with JSON events in $SERVE_OUT, emptied first here rather than by the
            # background job's redirection, which could come after the wait read a former serve's `started`.
            start_serve() {
                : > "$SERVE_OUT"
                "$SSDP_SIM" serve "$@" --json > "$SERVE_OUT" 2>&1 &
                SERVE=$!
                for _ in $(seq 200); do grep -q '"started"' "$SERVE_OUT" && break; sleep 0.1; done
            }
            start_serve --interface lo \(arguments)
            \(body)
            kill -INT $SERVE; wait $SERVE || true
            sed 's/^/serve: /' "$SERVE_OUT"
            """
        return try await CommandRunner.run(
            URL(fileURLWithPath: "/usr/bin/unshare"),
            ["-n", "bash", "-c", script],
            environment: environment.merging(["SSDP_SIM": CommandRunner.ssdpSim.path]) { $1 },
            timeout: timeout
        )
    }
}

/// `ssdp-sim search` multicasting for real, inside a private network namespace whose only interface is a
/// multicast-capable loopback: nothing leaves the namespace. A plain-socket Python responder joined to
/// 239.255.255.250 reports what arrived, down to the IP header's TTL.
@Suite(.enabled(if: PrivateNamespace.isAvailable, "needs root and unshare -n to create a private network namespace"))
struct NamespaceMulticastTests {
    @Test func multicastSearchReachesTheGroupWithTTL2FromAnEphemeralPortAndFindsTheDevice() async throws {
        let responder = try #require(
            Bundle.module.url(forResource: "multicast_responder", withExtension: "py", subdirectory: "Scripts")
        )
        let script = """
            set -e
            trap 'kill $(jobs -p) 2>/dev/null || true' EXIT  # a process left running would hold the output open: the test would wait for ever
            ip link set lo up
            ip link set lo multicast on
            ip route add 239.0.0.0/8 dev lo
            out=$(mktemp)
            /usr/bin/python3 "$RESPONDER" 15 > "$out" 2>&1 &
            responder=$!
            for _ in $(seq 100); do grep -q ready "$out" && break; sleep 0.1; done
            "$SSDP_SIM" search upnp:rootdevice --mx 1 --requests 2 --json
            kill "$responder"
            wait "$responder" || true
            sed 's/^/responder: /' "$out"
            """
        let output = try await CommandRunner.run(
            URL(fileURLWithPath: "/usr/bin/unshare"),
            ["-n", "bash", "-c", script],
            environment: ["RESPONDER": responder.path, "SSDP_SIM": CommandRunner.ssdpSim.path]
        )
        #expect(output.status == 0, "stderr: \(output.standardError)")

        let events = output.jsonLines
        let found = events.filter { $0["event"] as? String == "found" }
        #expect(found.map { $0["usn"] as? String } == ["uuid:plain-python-responder::upnp:rootdevice"])
        let stopped = try #require(events.last)
        #expect(stopped["event"] as? String == "stopped")

        let heard = output.standardOutput.split(separator: "\n").filter { $0.hasPrefix("responder: {") }.compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.dropFirst("responder: ".count).utf8)) as? [String: Any]
        }
        #expect(heard.count == 2)
        for search in heard {
            #expect(search["destination"] as? String == "239.255.255.250")
            #expect(search["ttl"] as? Int == 2)
            let port = try #require(search["sourcePort"] as? Int)
            #expect(port != 1900 && port > 1024)
            #expect(
                (search["text"] as? String)?.hasPrefix("M-SEARCH * HTTP/1.1\r\nHOST: 239.255.255.250:1900\r\n") == true
            )
        }
    }

    /// `ssdp-sim ARGUMENTS` in a new namespace whose loopback is up, as Linux makes it: multicast off, and no
    /// route to the group.
    private func onLoopbackAsItComes(_ arguments: String) async throws -> CommandRunner.Output {
        try await CommandRunner.run(
            URL(fileURLWithPath: "/usr/bin/unshare"),
            ["-n", "bash", "-c", "ip link set lo up; \"$SSDP_SIM\" \(arguments)"],
            environment: ["SSDP_SIM": CommandRunner.ssdpSim.path]
        )
    }

    /// Linux's loopback as it comes has multicast off: `serve --interface lo` says how to turn it on, or to
    /// serve it unicast only, rather than naming an error type of NIO's.
    @Test func aLoopbackWithoutMulticastIsAnErrorThatSaysWhatToDo() async throws {
        let output = try await onLoopbackAsItComes("serve --interface lo --port 0 --serve-for 1")
        #expect(output.status == 1, "\(output.standardError)")
        #expect(
            output.standardError.contains(
                "cannot join 239.255.255.250 on lo: the interface does not do multicast (turn it on with `ip link set lo multicast on` and `ip route add 239.0.0.0/8 dev lo src 127.0.0.1`), or serve it with --unicast-only"
            ),
            "\(output.standardError)"
        )
        #expect(!output.standardError.contains("NIOMulticastNotSupportedError"))
    }

    /// Without a route to the group, a search cannot leave: `check` says so, rather than that no device
    /// answered.
    @Test func aCheckWhoseSearchCannotBeSentSaysWhy() async throws {
        let output = try await onLoopbackAsItComes("check urn:schemas-upnp-org:device:MediaServer:1")
        #expect(output.status == 1, "\(output.standardError)")
        #expect(
            output.standardOutput.contains("discovery.answers")
                && output.standardOutput.contains(
                    "cannot send the search to 239.255.255.250:1900: Network is unreachable)"
                ),
            "\(output.standardOutput)"
        )
        #expect(!output.standardOutput.contains("no device answered"))
    }
}
