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

/// `ssdp-sim serve` multicasting for real inside a private network namespace (created by the test, its
/// loopback made multicast-capable): the real search session, gssdp-discover and a plain-socket NOTIFY
/// listener all meet the simulator on 239.255.255.250:1900, and nothing leaves the namespace.
@Suite(.enabled(if: PrivateNamespace.isAvailable, "needs root and unshare -n to create a private network namespace"))
struct ServeNamespaceTests {
    /// Runs `body` in a new namespace after starting `serve ARGS` (JSON events in $SERVE_OUT) and, when
    /// asked, the NOTIFY listener (JSON lines in $NOTIFY_OUT). `$SERVE` is the simulator's pid.
    private func inNamespace(
        serve arguments: String,
        listen: Bool = false,
        _ body: String
    ) async throws -> CommandRunner.Output {
        let listener = try #require(
            Bundle.module.url(forResource: "notify_listener", withExtension: "py", subdirectory: "Scripts")
        )
        let script = """
            set -e
            trap 'kill $(jobs -p) 2>/dev/null || true' EXIT  # a process left running would hold the output open: the test would wait for ever
            ip link set lo up; ip link set lo multicast on; ip route add 239.0.0.0/8 dev lo
            NOTIFY_OUT=$(mktemp); SERVE_OUT=$(mktemp)
            if [ "$LISTEN" = 1 ]; then
                /usr/bin/python3 "$LISTENER" 40 > "$NOTIFY_OUT" 2>&1 &
                LISTENER_PID=$!
                for _ in $(seq 100); do grep -q ready "$NOTIFY_OUT" && break; sleep 0.1; done
            fi
            "$SSDP_SIM" serve --interface lo \(arguments) --json --log-level warning > "$SERVE_OUT" 2>&1 &
            SERVE=$!
            for _ in $(seq 200); do grep -q '"started"' "$SERVE_OUT" && break; sleep 0.1; done
            \(body)
            # The listener reads what its socket holds before it exits: everything serve sent is there.
            [ -z "${LISTENER_PID:-}" ] || { kill "$LISTENER_PID"; wait "$LISTENER_PID" || true; }
            sed 's/^/serve: /' "$SERVE_OUT"
            sed 's/^/notify: /' "$NOTIFY_OUT"
            """
        return try await CommandRunner.run(
            URL(fileURLWithPath: "/usr/bin/unshare"),
            ["-n", "bash", "-c", script],
            environment: [
                "SSDP_SIM": CommandRunner.ssdpSim.path, "LISTENER": listener.path, "LISTEN": listen ? "1" : "0",
            ]
        )
    }

    private func lines(_ output: CommandRunner.Output, prefix: String) -> [[String: Any]] {
        output.standardOutput.split(separator: "\n").filter { $0.hasPrefix(prefix) }.compactMap {
            jsonObject(String($0.dropFirst(prefix.count)))
        }
    }

    private func advertisedUSNs(_ started: [String: Any]?) -> Set<String> {
        let devices = started?["devices"] as? [[String: Any]] ?? []
        return Set(
            devices.flatMap { device -> [String] in
                let udn = device["udn"] as? String ?? ""
                let services = ["RenderingControl", "ConnectionManager", "AVTransport"].map {
                    "\(udn)::urn:schemas-upnp-org:service:\($0):1"
                }
                return ["\(udn)::upnp:rootdevice", udn, "\(udn)::urn:schemas-upnp-org:device:MediaRenderer:1"]
                    + services
            }
        )
    }

    @Test func theSearchSessionFindsEveryAdvertisementOfARunningServeByMulticast() async throws {
        let output = try await inNamespace(
            serve: "--count 3 --seed 5",
            """
            "$SSDP_SIM" search ssdp:all --mx 1 --requests 2 --interface lo --json
            kill -TERM $SERVE; wait $SERVE; echo "serve exit: $?"
            """
        )
        #expect(output.status == 0, "\(output.standardError)")
        let started = lines(output, prefix: "serve: ").first { $0["event"] as? String == "started" }
        let found = output.jsonLines.filter { $0["event"] as? String == "found" }.compactMap { $0["usn"] as? String }
        #expect(found.count == 18, "3 devices × (3 + 0 + 3) advertisements, each reported once")
        #expect(Set(found) == advertisedUSNs(started))
        #expect(output.standardOutput.contains("serve exit: 0"))
    }

    /// SIGUSR1: one ssdp:update per advertisement with NEXTBOOTID; SIGTERM: one byebye per advertisement,
    /// carrying the new BOOTID, then exit 0.
    @Test func signalsSendUpdateThenOneByebyePerAdvertisementAndExitZero() async throws {
        let output = try await inNamespace(
            serve: "--count 2 --seed 8 --boot-id 41",
            listen: true,
            """
            sleep 1
            kill -USR1 $SERVE; sleep 0.5
            kill -TERM $SERVE; wait $SERVE; echo "serve exit: $?"
            sleep 0.3
            """
        )
        #expect(output.status == 0, "\(output.standardError)")
        #expect(output.standardOutput.contains("serve exit: 0"))
        let started = lines(output, prefix: "serve: ").first { $0["event"] as? String == "started" }
        let expected = advertisedUSNs(started)
        #expect(expected.count == 12)
        let notifications = lines(output, prefix: "notify: ")
        let of = { (nts: String) in notifications.filter { $0["nts"] as? String == nts } }

        #expect(Set(of("ssdp:alive").compactMap { $0["usn"] as? String }) == expected)
        let updates = of("ssdp:update")
        #expect(updates.count == 12 && Set(updates.compactMap { $0["usn"] as? String }) == expected)
        #expect(updates.allSatisfy { $0["bootid"] as? String == "41" && $0["nextbootid"] as? String == "42" })
        let byebyes = of("ssdp:byebye")
        #expect(byebyes.count == 12, "one byebye per advertisement, no more")
        #expect(Set(byebyes.compactMap { $0["usn"] as? String }) == expected)
        #expect(byebyes.allSatisfy { $0["bootid"] as? String == "42" && $0["location"] is NSNull })
        let stopped = lines(output, prefix: "serve: ").first { $0["event"] as? String == "stopped" }
        #expect((stopped?["counters"] as? [String: Any])?["notificationsSent"] as? Int ?? 0 >= 12 * 2 + 12 + 12)
    }

    /// A device replaying a capture (`replay.notifications`, as `ssdp-sim import` writes them) multicasts
    /// the captured NOTIFY messages at their times, its LOCATION pointed at itself, and nothing else: no
    /// alive set of its own, and no byebye the capture does not have.
    @Test func aReplayingDeviceMulticastsItsCapturedNotifyMessagesAndNothingElse() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("replay-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: file) }
        let alive =
            "NOTIFY * HTTP/1.1\\r\\nHOST: 239.255.255.250:1900\\r\\nNT: upnp:rootdevice\\r\\nNTS: ssdp:alive\\r\\n"
            + "USN: uuid:captured-1::upnp:rootdevice\\r\\nLOCATION: http://192.168.1.20:8060/dial.xml\\r\\n"
            + "CACHE-CONTROL: max-age=1800\\r\\nSERVER: Captured/1.0 UPnP/1.0 x/1\\r\\n\\r\\n"
        let byebye =
            "NOTIFY * HTTP/1.1\\r\\nHOST: 239.255.255.250:1900\\r\\nNT: upnp:rootdevice\\r\\nNTS: ssdp:byebye\\r\\n"
            + "USN: uuid:captured-1::upnp:rootdevice\\r\\n\\r\\n"
        try """
        { "devices": [ { "udn": "uuid:0a1f0000-0000-4000-8000-0000000000c1", "replay": { "searches": 1, "answers": [],
          "notifications": [ { "at": 0.3, "datagram": "\(alive)" }, { "at": 0.8, "datagram": "\(byebye)" } ] } } ] }
        """.write(to: file, atomically: true, encoding: .utf8)
        let output = try await inNamespace(
            serve: "--devices \(file.path)",
            listen: true,
            """
            sleep 1.5
            kill -TERM $SERVE; wait $SERVE; echo "serve exit: $?"
            sleep 0.3
            """
        )
        #expect(output.status == 0, "\(output.standardError)")
        #expect(output.standardOutput.contains("serve exit: 0"))
        let notifications = lines(output, prefix: "notify: ")
        #expect(notifications.map { $0["nts"] as? String } == ["ssdp:alive", "ssdp:byebye"])
        #expect(notifications.allSatisfy { $0["usn"] as? String == "uuid:captured-1::upnp:rootdevice" })
        let location = try #require(notifications.first?["location"] as? String)
        #expect(location.hasPrefix("http://127.") && location.hasSuffix("/dial.xml"), "\(location)")
    }

    @Test(
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: "/usr/bin/gssdp-discover"),
            "needs gssdp-discover (Debian gupnp-tools)"
        )
    )
    func gssdpDiscoverListsTheSimulatedDevices() async throws {
        // Devices answer within the MX of gssdp's search; listening 2 s missed one under CI load, so 4 s.
        let output = try await inNamespace(
            serve: "--count 3 --seed 13",
            """
            gssdp-discover -i lo -n 4 -t upnp:rootdevice | sed 's/^/gssdp: /'
            kill -TERM $SERVE; wait $SERVE
            """
        )
        #expect(output.status == 0, "\(output.standardError)")
        let started = lines(output, prefix: "serve: ").first { $0["event"] as? String == "started" }
        let roots = Set(advertisedUSNs(started).filter { $0.hasSuffix("::upnp:rootdevice") })
        let listed = output.standardOutput.split(separator: "\n").filter { $0.hasPrefix("gssdp:   USN:") }.map {
            $0.dropFirst("gssdp:   USN:".count).trimmingCharacters(in: .whitespaces)
        }
        #expect(roots.count == 3)
        #expect(Set(listed) == roots, "\(output.standardOutput)")
        let locations = output.standardOutput.split(separator: "\n").filter { $0.hasPrefix("gssdp:   Location:") }
        // Three hosts on the real generic port: 127.0.0.2, .3 and .4, each its own LOCATION host.
        let hosts = Set(
            locations.compactMap { $0.split(separator: "//").last?.split(separator: ":").first.map(String.init) }
        )
        #expect(locations.count == 3 && hosts == ["127.0.0.2", "127.0.0.3", "127.0.0.4"], "\(locations)")
        #expect(locations.allSatisfy { $0.contains(":49152/") })
    }
}
