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

/// Whether `/usr/bin/python3` can import the Python package `async-upnp-client` (Home Assistant's UPnP
/// library), from `$SSDP_SIM_INTEROP_PYTHONPATH` when set. CI installs it there
/// (`pip install --target .build/interop-python`) and sets `SSDP_SIM_REQUIRE_INTEROP=1`, so in CI a
/// missing package fails the test instead of skipping it.
enum UPnPClientLibrary {
    static let environment = ["PYTHONPATH": ProcessInfo.processInfo.environment["SSDP_SIM_INTEROP_PYTHONPATH"] ?? ""]
    static let isRequired = ProcessInfo.processInfo.environment["SSDP_SIM_REQUIRE_INTEROP"] == "1"
    static let isAvailable: Bool = {
        let probe = try? CommandRunner.runOnThisThread(
            URL(fileURLWithPath: "/usr/bin/python3"),
            ["-c", "import async_upnp_client"],
            environment: environment
        )
        return probe?.status == 0
    }()
}

/// Every built-in profile, served by `ssdp-sim serve` on a veth pair inside a private network namespace
/// (async-upnp-client refuses loopback LOCATIONs), found by async-upnp-client's own multicast search and
/// its description (and every service description) fetched and parsed by its `UpnpFactory`.
@Suite(
    .enabled(if: PrivateNamespace.isAvailable, "needs root and unshare -n to create a private network namespace"),
    .enabled(
        if: UPnPClientLibrary.isAvailable || UPnPClientLibrary.isRequired,
        "needs the Python package async-upnp-client (pip install async-upnp-client)"
    )
)
struct UPnPClientInteropTests {
    @Test func asyncUPnPClientFindsAndParsesEveryProfile() async throws {
        let client = try #require(
            Bundle.module.url(forResource: "upnp_client_interop", withExtension: "py", subdirectory: "Scripts")
        )
        let profiles = [
            "igd", "dlna-server", "renderer", "roku", "roku-tv", "dial-tv", "hue", "sonos", "chromecast-legacy",
            "generic",
        ]
        let devicesFile = FileManager.default.temporaryDirectory.appendingPathComponent("interop-\(getpid()).json")
        let entries = profiles.map { "{\"profile\": \"\($0)\"}" }.joined(separator: ", ")
        try Data("{ \"devices\": [\(entries)] }".utf8).write(to: devicesFile)
        defer { try? FileManager.default.removeItem(at: devicesFile) }
        let script = """
            set -e
            trap 'kill $(jobs -p) 2>/dev/null || true' EXIT  # a process left running would hold the output open: the test would wait for ever
            ip link add v0 type veth peer name v1
            ip addr add 10.77.0.1/24 dev v0; ip addr add 10.77.0.2/24 dev v1
            ip link set lo up; ip link set v0 up; ip link set v1 up
            ip route add 239.0.0.0/8 dev v1
            out=$(mktemp)
            "$SSDP_SIM" serve --interface v0 --devices "$DEVICES" --serve-for 30 --json --log-level warning > "$out" 2>&1 &
            serve=$!
            for _ in $(seq 200); do grep -q '"started"' "$out" && break; sleep 0.1; done
            /usr/bin/python3 "$CLIENT" 10.77.0.2 3 | sed 's/^/client: /'
            kill -INT "$serve"; wait "$serve" || true
            grep '"started"' "$out" | sed 's/^/serve: /'
            """
        let output = try await CommandRunner.run(
            URL(fileURLWithPath: "/usr/bin/unshare"),
            ["-n", "bash", "-c", script],
            environment: UPnPClientLibrary.environment.merging([
                "SSDP_SIM": CommandRunner.ssdpSim.path, "CLIENT": client.path, "DEVICES": devicesFile.path,
            ]) { $1 }
        )
        #expect(output.status == 0, "\(output.standardError)")
        let lines = { (prefix: String) in
            output.standardOutput.split(separator: "\n").filter { $0.hasPrefix(prefix) }.compactMap {
                jsonObject(String($0.dropFirst(prefix.count)))
            }
        }
        let started = try #require(lines("serve: ").first, "\(output.standardOutput)\n\(output.standardError)")
        let served = try #require(started["devices"] as? [[String: Any]])
        let parsed = Dictionary(lines("client: ").map { ($0["location"] as? String ?? "", $0) }) { first, _ in first }
        #expect(served.count == profiles.count)

        // Each device: found at its LOCATION, parsed without error, the same UDN and type as SSDP said.
        for device in served {
            let location = device["location"] as? String ?? ""
            let client = try #require(parsed[location], "async-upnp-client did not find \(location)")
            #expect(client["error"] == nil, "\(location): \(client["error"] ?? "")")
            #expect(client["udn"] as? String == device["udn"] as? String)
            #expect(client["deviceType"] as? String == device["deviceType"] as? String)
            #expect(client["usn"] as? String == "\(device["udn"] as? String ?? "")::upnp:rootdevice")
        }

        // The IGD's tree and the media server's services, as the library built them.
        let byType = Dictionary(parsed.values.map { ($0["deviceType"] as? String ?? "", $0) }) { first, _ in first }
        let igd = try #require(byType["urn:schemas-upnp-org:device:InternetGatewayDevice:1"])
        #expect(igd["services"] as? [String] == ["urn:schemas-upnp-org:service:Layer3Forwarding:1"])
        let wan = try #require((igd["embedded"] as? [[String: Any]])?.first)
        #expect(wan["deviceType"] as? String == "urn:schemas-upnp-org:device:WANDevice:1")
        #expect(wan["services"] as? [String] == ["urn:schemas-upnp-org:service:WANCommonInterfaceConfig:1"])
        let connection = try #require((wan["embedded"] as? [[String: Any]])?.first)
        #expect(connection["deviceType"] as? String == "urn:schemas-upnp-org:device:WANConnectionDevice:1")
        #expect(connection["services"] as? [String] == ["urn:schemas-upnp-org:service:WANIPConnection:1"])
        let media = try #require(byType["urn:schemas-upnp-org:device:MediaServer:1"])
        #expect(
            media["services"] as? [String] == [
                "urn:microsoft.com:service:X_MS_MediaReceiverRegistrar:1",
                "urn:schemas-upnp-org:service:ConnectionManager:1", "urn:schemas-upnp-org:service:ContentDirectory:1",
            ]
        )
    }
}
