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

/// `ssdp-sim check --listen` beside `serve` multicasting for real, inside a private network namespace
/// whose only interface is a multicast-capable loopback: the device's alives, their renewal, and its
/// byebye when it is stopped (and none when it is killed).
@Suite(.enabled(if: PrivateNamespace.isAvailable, "needs root and unshare -n to create a private network namespace"))
struct CheckAdvertisementTests {
    /// Serves one generic device with max-age 4 s, checks it listening 8 s, and sends `signal` to the
    /// device 5 s into the check; the check's JSON lines.
    private func check(stoppingWith signal: String) async throws -> [[String: Any]] {
        let script = """
            set -e
            trap 'kill $(jobs -p) 2>/dev/null || true' EXIT
            ip link set lo up
            ip link set lo multicast on
            ip route add 239.0.0.0/8 dev lo
            out=$(mktemp)
            "$SSDP_SIM" serve --interface lo --max-age 4 --http-port any --seed 3 --json > "$out" 2>/dev/null &
            serve=$!
            for _ in $(seq 100); do grep -q '"started"' "$out" && break; sleep 0.1; done
            location=$(grep -o '"location":"[^"]*"' "$out" | head -1 | cut -d'"' -f4)
            "$SSDP_SIM" check "$location" --listen 8 --expect-byebye --skip gena --skip control --json &
            check=$!
            sleep 5
            kill -"$SIGNAL" "$serve"
            wait "$check" || true
            """
        let output = try await CommandRunner.run(
            URL(fileURLWithPath: "/usr/bin/unshare"),
            ["-n", "bash", "-c", script],
            environment: ["SSDP_SIM": CommandRunner.ssdpSim.path, "SIGNAL": signal]
        )
        return output.jsonLines.filter { ($0["check"] as? String)?.hasPrefix("advertisement.") == true }
    }

    @Test func aDeviceStoppedWhileTheCheckListensPassesEveryAdvertisementCheck() async throws {
        let results = try await check(stoppingWith: "INT")
        let outcomes = Dictionary(
            results.map { ($0["check"] as? String ?? "", $0["outcome"] as? String ?? "") },
            uniquingKeysWith: { first, _ in first }
        )
        #expect(
            outcomes == [
                "advertisement.headers": "passed", "advertisement.targets": "passed",
                "advertisement.location": "passed", "advertisement.renewal": "passed",
                "advertisement.byebye": "passed",
            ],
            "\(results)"
        )
    }

    @Test func aDeviceKilledWithoutAByebyeFailsTheByebyeCheck() async throws {
        let results = try await check(stoppingWith: "KILL")
        let byebye = try #require(results.first { $0["check"] as? String == "advertisement.byebye" })
        #expect(byebye["outcome"] as? String == "failed")
        #expect((byebye["detail"] as? String)?.hasPrefix("no ssdp:byebye at all") == true, "\(byebye)")
        #expect(
            results.contains {
                $0["check"] as? String == "advertisement.targets" && $0["outcome"] as? String == "passed"
            }
        )
    }
}
