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

/// Clients as most libraries write them: a socket that binds no address. On a namespace's loopback Linux
/// sends their searches from the multicast route's `src`, or from 0.0.0.0 when it names none. Both must
/// find the devices, with a plain socket and with python-roku's `Roku.discover()` unmodified; a source the
/// policy refuses must show in the log, the journal and `check`.
@Suite(
    .serialized,
    .enabled(if: PrivateNamespace.isAvailable, "needs root and unshare -n to create a private network namespace"),
    .enabled(
        if: UnboundClients.pythonRokuIsAvailable || UPnPClientLibrary.isRequired,
        "needs the Python package roku (python-roku; scripts/install-interop)"
    )
)
struct UnboundClientTests {
    @Test(arguments: [UnboundClients.documentedRoute, UnboundClients.routeWithoutSource])
    func anUnboundSocketAndPythonRokuFindBothRokus(route: String) async throws {
        let output = try await UnboundClients.inNamespace(
            route: route,
            serve: "--profile roku --count 2 --delay immediate",
            """
            /usr/bin/python3 "$UNBOUND" roku:ecp 2 | sed 's/^/unbound: /'
            /usr/bin/python3 -c 'from roku import Roku; print("python-roku:", sorted(r.host for r in Roku.discover()))'
            """
        )
        #expect(output.status == 0, "\(output.standardError)")
        let unbound = try #require(output.jsonLines(prefix: "unbound: ").first)
        let locations = Set((unbound["answers"] as? [[String: Any]] ?? []).compactMap { $0["location"] as? String })
        #expect(locations == ["http://127.0.0.2:8060/", "http://127.0.0.3:8060/"], "\(output.standardOutput)")
        #expect(output.standardOutput.contains("python-roku: ['127.0.0.2', '127.0.0.3']"), "\(output.standardOutput)")
        let searches = output.jsonLines(prefix: "serve: ").filter { $0["event"] as? String == "search" }
        let sources = Set(searches.compactMap { ($0["from"] as? String)?.split(separator: ":").first.map(String.init) })
        #expect(sources == [route == UnboundClients.documentedRoute ? "127.0.0.1" : "0.0.0.0"])
        #expect(!output.standardOutput.contains(#""event":"dropped""#))
    }

    /// A source the policy refuses: every search is a `dropped` event with its reason and the flag that lets
    /// it in, the log has one line for a burst of five (at most one a second; `check`'s own searches may
    /// add one more, counting those it left out), and `check` says why nothing answered.
    @Test func aSearchFromARefusedSourceIsJournaledLoggedAndExplainedByCheck() async throws {
        let output = try await UnboundClients.inNamespace(
            route: "ip addr add 203.0.113.5/32 dev lo; ip route add 239.0.0.0/8 dev lo src 203.0.113.5",
            serve: "--profile roku --delay immediate --log-level info",
            """
            /usr/bin/python3 "$UNBOUND" roku:ecp 0.5 1 5 | sed 's/^/unbound: /'
            "$SSDP_SIM" check roku:ecp | sed 's/^/check: /' || true
            """
        )
        #expect(output.status == 0, "\(output.standardError)")
        let unbound = output.jsonLines(prefix: "unbound: ")
        #expect(unbound.count == 1 && unbound.allSatisfy { ($0["answers"] as? [Any])?.isEmpty == true })
        let dropped = output.jsonLines(prefix: "serve: ").filter { $0["event"] as? String == "dropped" }
        #expect(dropped.count >= 5, "\(output.standardOutput)")
        #expect(
            dropped.allSatisfy {
                $0["reason"] as? String == "source" && $0["flag"] as? String == "--allow-any-source"
                    && ($0["from"] as? String)?.hasPrefix("203.0.113.5:") == true
            }
        )
        #expect(dropped.first?["st"] as? String == "roku:ecp")
        let logLines = output.standardOutput.split(separator: "\n").filter { $0.contains("Datagram dropped") }
        #expect((1...2).contains(logLines.count), "\(logLines)")
        #expect(
            output.standardOutput.contains(
                "our search left from 203.0.113.5, which is not a loopback, private or link-local address, so a device"
            ),
            "\(output.standardOutput)"
        )
    }
}

/// The namespace of these tests, and what runs in it.
enum UnboundClients {
    /// The route the docs give for a namespace's loopback (README, docs/serve.md, docs/profiles.md).
    static let documentedRoute = "ip route add 239.0.0.0/8 dev lo src 127.0.0.1"
    /// The route the docs gave before: without `src`, an unbound socket sends from 0.0.0.0.
    static let routeWithoutSource = "ip route add 239.0.0.0/8 dev lo"

    static let pythonRokuIsAvailable: Bool = {
        let probe = try? CommandRunner.runOnThisThread(
            URL(fileURLWithPath: "/usr/bin/python3"),
            ["-c", "import roku"],
            environment: UPnPClientLibrary.environment
        )
        return probe?.status == 0
    }()

    /// Runs `body` in a new namespace whose loopback does multicast by `route`, after starting
    /// `serve --interface lo ARGS --json` (its lines prefixed `serve: `). `$UNBOUND` is unbound_search.py.
    static func inNamespace(
        route: String,
        serve arguments: String,
        _ body: String
    ) async throws
        -> CommandRunner.Output
    {
        let unbound = try #require(
            Bundle.module.url(forResource: "unbound_search", withExtension: "py", subdirectory: "Scripts")
        )
        return try await PrivateNamespace.withServe(
            arguments,
            route: route,
            environment: UPnPClientLibrary.environment.merging(["UNBOUND": unbound.path]) { $1 },
            timeout: .seconds(90),
            body
        )
    }
}

extension CommandRunner.Output {
    /// The JSON objects of the lines of standard output that start with `prefix`, after it.
    func jsonLines(prefix: String) -> [[String: Any]] {
        standardOutput.split(separator: "\n").filter { $0.hasPrefix(prefix) }.compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.dropFirst(prefix.count).utf8)) as? [String: Any]
        }
    }
}
