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

/// The control API against the real client Home Assistant uses (issue 39): `serve --control` runs a fake
/// router on a veth pair inside a private network namespace, and async-upnp-client's SSDP listener and
/// event handler (Scripts/control_interop.py) watch it while the script byebyes, revives, reboots, changes
/// (its external address, its name) and deletes it through the API, and miniupnpc's upnpc reads it.
@Suite(
    .enabled(if: PrivateNamespace.isAvailable, "needs root and unshare -n to create a private network namespace"),
    .enabled(
        if: UPnPClientLibrary.isAvailable || UPnPClientLibrary.isRequired,
        "needs the Python package async-upnp-client (pip install async-upnp-client)"
    )
)
struct ControlInteropTests {
    @Test func asyncUPnPClientAndUpnpcFollowByebyeAliveRebootChangesAndADelete() async throws {
        let client = try #require(
            Bundle.module.url(forResource: "control_interop", withExtension: "py", subdirectory: "Scripts")
        )
        // Two hosts: the router in a namespace of its own (held by a sleeping process), the client in the
        // test's, joined by a veth pair. In one namespace the kernel would send the client's requests from
        // the router's own address, and the router rightly refuses a CALLBACK that is not the subscriber's.
        let script = """
            set -e
            trap 'kill $(jobs -p) 2>/dev/null || true' EXIT  # a process left running would hold the output open
            unshare -n sleep 120 &
            router=$!
            # Until unshare has made the namespace: before, the process is still in the test's own.
            in_own_namespace() { [ "$(readlink /proc/$router/ns/net)" != "$(readlink /proc/$$/ns/net)" ]; }
            for _ in $(seq 100); do in_own_namespace && break; sleep 0.05; done
            in_own_namespace || { echo "no namespace for the router" >&2; exit 1; }
            at_router() { nsenter --net=/proc/$router/ns/net "$@"; }
            ip link add v0 type veth peer name v1
            ip link set v0 netns $router
            at_router ip addr add 10.77.0.1/24 dev v0; at_router ip link set v0 up; at_router ip link set lo up
            at_router ip route add 239.0.0.0/8 dev v0
            ip addr add 10.77.0.2/24 dev v1; ip link set lo up; ip link set v1 up
            ip route add 239.0.0.0/8 dev v1
            out=$(mktemp)
            nsenter --net=/proc/$router/ns/net "$SSDP_SIM" serve --interface v0 --profile igd \\
                --control 10.77.0.1:0 --json --log-level warning --serve-for 60 > "$out" 2>&1 &
            serve=$!
            for _ in $(seq 200); do grep -q '"started"' "$out" && break; sleep 0.1; done
            control=$(grep '"started"' "$out" | sed -E 's/.*"control":"([^"]*)".*/\\1/')
            /usr/bin/python3 "$CLIENT" "$control" 10.77.0.2 | sed 's/^/client: /'
            kill -INT "$serve"; wait "$serve" || true
            grep '"refused"' "$out" | sed 's/^/serve: /' || true
            """
        let output = try await CommandRunner.run(
            URL(fileURLWithPath: "/usr/bin/unshare"),
            ["-n", "bash", "-c", script],
            environment: UPnPClientLibrary.environment.merging([
                "SSDP_SIM": CommandRunner.ssdpSim.path, "CLIENT": client.path,
            ]) { $1 }
        )
        #expect(output.status == 0, "\(output.standardError)")
        let line = output.standardOutput.split(separator: "\n").first { $0.hasPrefix("client: ") }
        let result = try #require(
            line.flatMap { jsonObject(String($0.dropFirst("client: ".count))) },
            "\(output.standardOutput)\n\(output.standardError)"
        )
        print("async-upnp-client against serve --control: \(result)")
        #expect(result["found"] as? Bool == true)
        #expect((result["byebye"] as? [String: Any])?["seen"] as? Bool == true, "\(result)")
        #expect((result["alive"] as? [String: Any])?["seen"] as? Bool == true, "\(result)")
        #expect(result["back"] as? Bool == true)
        #expect(result["resubscribedWithNewSID"] as? Bool == true, "\(result)")
        // The renewal after the reboot was refused with 412: the router had forgotten the subscription.
        #expect(output.standardOutput.contains(#""status":412"#), "\(output.standardOutput)")
        #expect(result["eventedAddress"] as? String == "198.51.100.7", "\(result)")
        #expect(result["upnpcAddress"] as? String == "198.51.100.7", "\(result)")
        let update = result["update"] as? [String: Any]
        #expect(update?["seen"] as? Bool == true, "\(result)")
        #expect((update?["configIdsHeard"] as? [String])?.contains("\(update?["configId"] as? Int ?? -1)") == true)
        #expect((result["deleted"] as? [String: Any])?["seen"] as? Bool == true, "\(result)")
        let added = result["added"] as? [String: Any]
        #expect(added?["seen"] as? Bool == true && added?["name"] as? String == "Second router", "\(result)")
        // It shares the router's address (one interface, one address), on the next port after miniupnpd's.
        #expect(added?["location"] as? String == "http://10.77.0.1:5001/rootDesc.xml", "\(result)")
    }
}
