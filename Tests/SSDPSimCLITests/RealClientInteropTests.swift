import Foundation
import Testing

/// The real clients of the devices the profiles copy, unmodified and pinned (`scripts/install-interop`),
/// against `ssdp-sim serve` inside a private network namespace whose loopback is multicast-capable. They
/// find the fakes and then use them as they would the real devices: rokuecp talks to the source address
/// of a Roku's answer on port 8060, upnpc reads the router's description from its default port, and
/// gssdp-discover and async-upnp-client see one LOCATION host per device.
///
/// In CI (`SSDP_SIM_REQUIRE_INTEROP=1`) a missing client fails these tests instead of skipping them.
@Suite(
    .enabled(if: PrivateNamespace.isAvailable, "needs root and unshare -n to create a private network namespace"),
    .enabled(
        if: RealClients.areAvailable || UPnPClientLibrary.isRequired,
        "needs gssdp-discover, upnpc and the Python packages rokuecp and async-upnp-client (scripts/install-interop)"
    )
)
struct RealClientInteropTests {
    /// Runs `body` in a new namespace after starting `serve ARGS` (JSON events in $SERVE_OUT).
    private func inNamespace(serve arguments: String, _ body: String) throws -> CommandRunner.Output {
        let client = try #require(
            Bundle.module.url(forResource: "roku_client", withExtension: "py", subdirectory: "Scripts")
        )
        let script = """
            set -e
            ip link set lo up; ip link set lo multicast on; ip route add 239.0.0.0/8 dev lo
            SERVE_OUT=$(mktemp)
            "$SSDP_SIM" serve --interface lo \(arguments) --json --log-level warning > "$SERVE_OUT" 2>&1 &
            SERVE=$!
            for _ in $(seq 200); do grep -q '"started"' "$SERVE_OUT" && break; sleep 0.1; done
            \(body)
            kill -INT $SERVE; wait $SERVE || true
            sed 's/^/serve: /' "$SERVE_OUT"
            """
        return try CommandRunner.run(
            URL(fileURLWithPath: "/usr/bin/unshare"),
            ["-n", "bash", "-c", script],
            environment: UPnPClientLibrary.environment.merging([
                "SSDP_SIM": CommandRunner.ssdpSim.path, "CLIENT": client.path,
            ]) { $1 }
        )
    }

    /// The devices of the `started` event: friendly name → address.
    private func addresses(_ output: CommandRunner.Output) -> [String: String] {
        let started = lines(output, prefix: "serve: ").first { $0["event"] as? String == "started" }
        let devices = started?["devices"] as? [[String: Any]] ?? []
        let pairs = devices.compactMap { device -> (String, String)? in
            guard let name = device["friendlyName"] as? String, let address = device["address"] as? String else {
                return nil
            }
            return (name, address)
        }
        return Dictionary(uniqueKeysWithValues: pairs)
    }

    /// The JSON objects of the lines of standard output that start with `prefix`.
    private func lines(_ output: CommandRunner.Output, prefix: String) -> [[String: Any]] {
        output.standardOutput.split(separator: "\n").filter { $0.hasPrefix(prefix) }.compactMap {
            jsonObject(String($0.dropFirst(prefix.count)))
        }
    }

    /// The host of a URL's authority: `127.0.0.3` of `http://127.0.0.3:8060/`.
    private func host(_ location: String) -> String {
        URL(string: location)?.host ?? location
    }

    @Test(arguments: [1, 3])
    func rokuecpReachesEachRokuAtTheSourceAddressOfItsAnswerOnPort8060(count: Int) throws {
        let output = try inNamespace(
            serve: "--profile roku --count \(count) --seed 21",
            #"/usr/bin/python3 "$CLIENT" 2 | sed 's/^/roku: /'"#
        )
        #expect(output.status == 0, "\(output.standardOutput)\n\(output.standardError)")
        let rokus = lines(output, prefix: "roku: ")
        let served = addresses(output)
        #expect(rokus.count == count, "\(output.standardOutput)")
        #expect(Set(rokus.compactMap { $0["serial"] as? String }).count == count, "a serial number each")
        for roku in rokus {
            let name = roku["name"] as? String ?? "?"
            let source = roku["source"] as? String ?? "?"
            let serial = roku["serial"] as? String ?? "?"
            // rokuecp read the device info of the Roku that answered, at the address it answered from.
            #expect(served[name] == source, "\(name) answered from \(source); serve put it at \(served[name] ?? "-")")
            #expect(roku["location"] as? String == "http://\(source):8060/")
            // What ECP says is what SSDP said: the serial of the USN, the version of SERVER, the MAC of WAKEUP.
            #expect(roku["usn"] as? String == "uuid:roku:ecp:\(serial)")
            #expect(
                roku["software"] as? String == "9.2.0" && roku["server"] as? String == "Roku/9.2.0 UPnP/1.0 Roku/9.2.0"
            )
            let wifiMac = (roku["wifiMac"] as? String ?? "?").replacingOccurrences(of: ":", with: "-")
            #expect(roku["wakeup"] as? String == "MAC=\(wifiMac);Timeout=10", "\(roku)")
            #expect(
                roku["network"] as? String == "wifi" && roku["ethernetMac"] as? String != roku["wifiMac"] as? String
            )
            #expect(roku["model"] as? String == "Roku Ultra" && roku["type"] as? String == "box")
            #expect(roku["apps"] as? Int == 3 && roku["standby"] as? Bool == false)
            // On the home screen: rokuecp's app "Roku" and no media.
            #expect(roku["app"] as? String == "Roku" && roku["media"] is NSNull, "\(roku)")
        }
        #expect(Set(served.values) == Set((0..<count).map { "127.0.0.\($0 + 2)" }))
    }

    @Test func rokuecpLaunchesAChannelPausesItAndPutsTheRokuInStandby() throws {
        let output = try inNamespace(
            serve: "--profile roku --seed 24",
            #"/usr/bin/python3 "$CLIENT" 2 --drive | sed 's/^/roku: /'"#
        )
        #expect(output.status == 0, "\(output.standardOutput)\n\(output.standardError)")
        let steps = Dictionary(
            lines(output, prefix: "roku: ").compactMap { line in (line["step"] as? String).map { ($0, line) } }
        ) { first, _ in first }
        let media = { (step: String) in steps[step]?["media"] as? [String: Any] }
        #expect(steps["launch"]?["app"] as? String == "YouTube", "\(output.standardOutput)")
        #expect(media("launch")?["paused"] as? Bool == false && media("launch")?["duration"] as? Int == 5400)
        #expect(media("play")?["paused"] as? Bool == true, "Play pauses")
        #expect(media("play again")?["paused"] as? Bool == false, "Play plays on")
        #expect(
            steps["poweroff"]?["standby"] as? Bool == true,
            "PowerOff: standby, which rokuecp reads from power-mode"
        )
    }

    @Test func gssdpDiscoverAndAsyncUPnPClientSeeThreeRokusAtThreeHosts() throws {
        let output = try inNamespace(
            serve: "--profile roku --count 3 --seed 22",
            """
            gssdp-discover -i lo -n 4 -t roku:ecp | sed 's/^/gssdp: /'
            /usr/bin/python3 -m async_upnp_client.cli --timeout 3 search --bind 127.0.0.1 --search_target roku:ecp \
                | sed 's/^/auc: /'
            """
        )
        #expect(output.status == 0, "\(output.standardOutput)\n\(output.standardError)")
        let printed = output.standardOutput.split(separator: "\n")
        let gssdp = printed.filter { $0.hasPrefix("gssdp:   Location:") }.map {
            host($0.dropFirst("gssdp:   Location:".count).trimmingCharacters(in: .whitespaces))
        }
        let auc = lines(output, prefix: "auc: ")
        let expected: Set = ["127.0.0.2", "127.0.0.3", "127.0.0.4"]
        #expect(gssdp.count == 3 && Set(gssdp) == expected, "\(output.standardOutput)")
        #expect(Set(auc.compactMap { ($0["location"] as? String).map(host) }) == expected, "\(output.standardOutput)")
        // async-upnp-client records where each answer came from: the device's own address.
        for answer in auc {
            #expect(answer["_host"] as? String == host(answer["location"] as? String ?? ""), "\(answer)")
        }
    }

    @Test func upnpcReadsTheRoutersDescriptionFromItsDefaultPort() throws {
        let output = try inNamespace(
            serve: "--profile igd --seed 23",
            "upnpc -m lo -l 2>&1 | sed 's/^/upnpc: /' || true"
        )
        #expect(output.status == 0, "\(output.standardOutput)\n\(output.standardError)")
        #expect(
            output.standardOutput.contains("upnpc:  desc: http://127.0.0.2:5000/rootDesc.xml"),
            "\(output.standardOutput)"
        )
        #expect(output.standardOutput.contains("upnpc:  st: urn:schemas-upnp-org:device:InternetGatewayDevice:1"))
        #expect(output.standardOutput.contains("IGD : http://127.0.0.2:5000/ctl/IPConn"))
    }
}

/// Whether the real clients of `RealClientInteropTests` are installed.
enum RealClients {
    static let areAvailable: Bool = {
        guard ["/usr/bin/gssdp-discover", "/usr/bin/upnpc"].allSatisfy(FileManager.default.isExecutableFile) else {
            return false
        }
        let probe = try? CommandRunner.run(
            URL(fileURLWithPath: "/usr/bin/python3"),
            ["-c", "import async_upnp_client, rokuecp"],
            environment: UPnPClientLibrary.environment
        )
        return probe?.status == 0
    }()
}
