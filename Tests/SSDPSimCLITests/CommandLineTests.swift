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

import ArgumentParser
import Foundation
import SSDPDeviceCore
import SSDPDevices
import SSDPSimulator
import Testing

@testable import SSDPSimCLI

/// The `ssdp-sim` executable as a user meets it: exit codes, messages, output formats.
@Suite struct CommandLineTests {
    @Test func demoFindsEachCapturedDeviceOnceAndExitsZero() async throws {
        let output = try await CommandRunner.ssdpSim("demo", "--json")
        #expect(output.status == 0, "stderr: \(output.standardError)")
        let events = output.jsonLines
        let usns = events.filter { $0["event"] as? String == "found" }.compactMap { $0["usn"] as? String }
        #expect(usns.count == 4)
        #expect(Set(usns).count == 4)
        let statistics = try #require(events.last?["statistics"] as? [String: Int])
        #expect(statistics["searchesSent"] == 3)
        #expect(statistics["datagramsReceived"] == 45)
        #expect(statistics["servicesReported"] == 4)
        #expect(statistics["duplicates"] == 14)
        #expect(statistics["wrongSearchTarget"] == 18)
        #expect(statistics["incomplete"] == 3)
        #expect(statistics["unparseable"] == 3)
        #expect(statistics["notResponses"] == 3)
        #expect(statistics["notSearching"] == 0)
    }

    @Test(arguments: [
        (["search", "--mx", "9", "--host", "127.0.0.1"], "--mx '9': MX must be 1...5"),
        (["search", "--mx", "0", "--host", "127.0.0.1"], "--mx '0'"),
        (["search", "--requests=-1", "--host", "127.0.0.1"], "--requests '-1'"),
        (["search", "--host", "localhost"], "--host must be an IPv4 or IPv6 address"),
        (["search", "--port", "0", "--host", "127.0.0.1"], "--port '0'"),
        (["search", "--ttl", "0", "--host", "127.0.0.1"], "--ttl must be 1...255"),
        (["search", "", "--host", "127.0.0.1"], "<search-target> ''"),
        (["search", "--ipv6", "--site-local"], "give --ipv6 or --site-local, not both"),
        (["search", "--all-interfaces", "--interface", "lo"], "give --interface or --all-interfaces, not both"),
        (["search", "--host", "ff02::c%", "--ipv6"], "--host 'ff02::c%': the zone after % is empty"),
        (["serve", "--no-ipv4"], "--no-ipv4 needs --ipv6 or --site-local"),
        (["serve", "--all-interfaces", "--interface", "lo"], "give --interface or --all-interfaces, not both"),
        (["serve", "--interface", "lo", "--interface", "lo"], "interfaces 'lo': is given twice"),
        (["serve", "--http-port", "eighty"], "--http-port 'eighty': expected a port 1...65535, any, or real"),
        (
            ["serve", "--addresses", "10.0.0.9-10.0.0.2"],
            "--addresses '10.0.0.9-10.0.0.2': the first address is after the last"
        ),
        (["serve", "--addresses", "10.0.0/24"], "--addresses '10.0.0/24': expected FIRST-LAST"),
        (
            ["serve", "--addresses", "10.0.0.2-10.0.0.3", "--shared-address"],
            "give --addresses or --shared-address, not both"
        ),
        (["demo", "--serve-for", "0"], "--serve-for must be 1...3600"),
        (["demo", "--requests", "0"], "--requests must be 1...100"),
        (["demo", "--mx", "6"], "--mx must be 1...5"),
        (["import", "/nonexistent/lan.pcap"], "Error: /nonexistent/lan.pcap: no such file"),
        (
            ["import", "Package.swift"],
            "Error: Package.swift: not a pcap or pcapng capture (it starts with 2f 2f 20 73)"
        ),
        (["import", "x.pcap", "--mx", "0"], "--mx must be 1...5"),
        (["import", "x.pcap", "--requests", "101"], "--requests must be 1...100"),
    ])
    func badOptionsExitWithUsageErrorNamingTheOption(arguments: [String], message: String) async throws {
        let output = try await CommandRunner.run(CommandRunner.ssdpSim, arguments)
        #expect(output.status == 64)
        #expect(output.standardError.contains(message), "stderr: \(output.standardError)")
    }

    @Test func serveOnAnInterfaceWithoutAnAddressOfTheScopeExitsOneNamingIt() async throws {
        let output = try await CommandRunner.ssdpSim(
            "serve",
            "--interface",
            "lo",
            "--ipv6",
            "--port",
            "0",
            "--serve-for",
            "1"
        )
        #expect(output.status == 1)
        #expect(output.standardError.contains("interface lo has no IPv6 link-local address"), "\(output.standardError)")
    }

    @Test func anAddressTheInterfaceDoesNotHoldExitsOneNamingDeviceAddressAndRemedy() async throws {
        let output = try await CommandRunner.ssdpSim(
            "serve",
            "--interface",
            "lo",
            "--unicast-only",
            "--port",
            "0",
            "--count",
            "2",
            "--addresses",
            "10.99.0.1-10.99.0.9",
            "--serve-for",
            "1"
        )
        #expect(output.status == 1)
        #expect(
            output.standardError.contains(
                "device 1 (ssdp-sim generic 1): interface lo does not hold 10.99.0.1 (add it with `ip addr add 10.99.0.1/24 dev lo`"
            ),
            "\(output.standardError)"
        )
    }

    /// At addresses no other test uses: the port picked at the second device's could be another test's device's
    /// at 127.0.0.2, where the first device would then fail.
    @Test func aTakenHTTPPortExitsOneNamingDeviceAddressPortAndFlag() async throws {
        let blocker = try RunningCommand(
            URL(fileURLWithPath: "/usr/bin/python3"),
            [
                "-c",
                "import socket,time\ns=socket.socket(); s.bind(('127.78.0.3', 0)); s.listen(); print(s.getsockname()[1], flush=True); time.sleep(30)",
            ]
        )
        let port = try await blocker.waitForLine { Int($0) != nil }
        defer { blocker.signal(SIGTERM) }
        let output = try await CommandRunner.ssdpSim(
            "serve",
            "--interface",
            "lo",
            "--unicast-only",
            "--port",
            "0",
            "--profile",
            "roku",
            "--count",
            "2",
            "--addresses",
            "127.78.0.2-127.78.0.3",
            "--http-port",
            port,
            "--serve-for",
            "1"
        )
        #expect(output.status == 1)
        #expect(
            output.standardError.contains(
                "device 2 (Roku Ultra 2, uuid:"
            )
                && output.standardError.contains(
                    "cannot listen on TCP 127.78.0.3:\(port): the port is in use (choose another with --http-port PORT, or --http-port any"
                ),
            "\(output.standardError)"
        )
    }

    @Test func aZoneInTheHostIsTheInterfaceSearchedOn() async throws {
        let output = try await CommandRunner.ssdpSim(
            "search",
            "--host",
            "ff02::c%no-such-if0",
            "--requests",
            "1",
            "--mx",
            "1"
        )
        #expect(output.status == 1)
        #expect(
            output.standardError.contains("no interface named no-such-if0 with an IPv6 address"),
            "\(output.standardError)"
        )
    }

    @Test func socketThatCannotOpenExitsOneWithTheReason() async throws {
        let output = try await CommandRunner.ssdpSim(
            "search",
            "--host",
            "127.0.0.1",
            "--interface",
            "no-such-if0",
            "--requests",
            "1",
            "--mx",
            "1"
        )
        #expect(output.status == 1)
        #expect(output.standardError.contains("no interface named no-such-if0"))
    }

    @Test func profilesListsEveryProfileAndShowsOneInFull() async throws {
        let list = try await CommandRunner.ssdpSim("profiles")
        #expect(list.status == 0)
        let names = list.standardOutput.split(separator: "\n").map { String($0.prefix { $0 != " " }) }
        #expect(
            names == [
                "roku", "roku-tv", "dial-tv", "hue", "sonos", "igd", "dlna-server", "renderer", "chromecast-legacy",
                "generic",
            ]
        )

        let roku = try await CommandRunner.ssdpSim("profiles", "roku", "--st", "roku:ecp")
        #expect(roku.status == 0)
        #expect(roku.standardOutput.contains("What a search for ST roku:ecp (MX 1) gets: 1 datagram"))
        #expect(roku.standardOutput.contains("\nCache-Control: max-age=3600\nST: roku:ecp\nUSN: uuid:roku:ecp:"))
        #expect(roku.standardOutput.contains("LOCATION: http://127.0.0.2:8060/\n"))
        #expect(roku.standardOutput.contains("HTTP (port 8060, the real device's"))
        #expect(roku.standardOutput.contains("device 1 at 127.0.0.2"))
        #expect(roku.standardOutput.contains("POST /keypress/{key}"))
        #expect(roku.standardOutput.contains("GET /dial/dd.xml"))

        // A Hue answers a search three times, twice each: the quirk shows, and how to turn it off.
        let hue = try await CommandRunner.ssdpSim("profiles", "hue")
        #expect(hue.standardOutput.contains("gets: 6 datagrams"))
        #expect(hue.standardOutput.contains("Default behaviour: duplicates 2, chatter any-target"))
        #expect(hue.standardOutput.contains("--no-quirks"))

        // The same facts as JSON: one object per profile in the list, one object for a profile in full.
        let listed = try await CommandRunner.ssdpSim("profiles", "--json").jsonLines
        #expect(listed.compactMap { $0["name"] as? String } == names)
        #expect(listed.allSatisfy { $0["event"] as? String == "profile" && $0["summary"] is String })
        let hueJSON = try #require(try await CommandRunner.ssdpSim("profiles", "hue", "--json").jsonLines.first)
        #expect((hueJSON["answers"] as? [[String: Any]])?.count == 6)
        #expect(hueJSON["quirks"] as? Bool == true)
        let advertisements = try #require(hueJSON["advertisements"] as? [[String: String]])
        #expect(advertisements.first?["nt"] == "upnp:rootdevice")
        #expect(advertisements.first?["usn"]?.hasSuffix("::upnp:rootdevice") == true)
        #expect((hueJSON["http"] as? [[String: String]])?.isEmpty == false)

        let unknown = try await CommandRunner.ssdpSim("profiles", "toaster")
        #expect(unknown.status == 64)
        #expect(unknown.standardError.contains("no such profile 'toaster' (profiles: roku, roku-tv, dial-tv,"))
    }

    @Test func helpExplainsEveryOption() async throws {
        let output = try await CommandRunner.ssdpSim("search", "--help")
        #expect(output.status == 0)
        for option in ["--mx", "--requests", "--host", "--port", "--interface", "--ttl", "--json", "--log-level"] {
            #expect(output.standardOutput.contains(option))
        }
    }
}

@Suite struct ServeEnvironmentTests {
    @Test func containersNameSeveralInterfacesAndIPv6ThroughTheEnvironment() {
        let arguments = ServeEnvironment.arguments(
            ["serve", "--port", "1901"],
            environment: ["SSDP_SIM_INTERFACE": "eth0,eth1", "SSDP_SIM_IPV6": "1", "SSDP_SIM_NO_IPV4": "no"]
        )
        #expect(arguments == ["serve", "--interface", "eth0", "--interface", "eth1", "--ipv6", "--port", "1901"])
    }

    /// A container's user set a variable, not an option: a bad value exits 64 at once, naming the variable.
    @Test(arguments: [
        (["SSDP_SIM_PROFILE": "toaster"], "SSDP_SIM_PROFILE='toaster': "),
        (["SSDP_SIM_COUNT": "three"], "SSDP_SIM_COUNT='three': "),
        (["SSDP_SIM_COUNT": "0", "SSDP_SIM_PROFILE": "roku"], "SSDP_SIM_COUNT='0': "),
        (["SSDP_SIM_HTTP_PORT": "eighty", "SSDP_SIM_PORT": "1901"], "SSDP_SIM_HTTP_PORT='eighty': "),
    ])
    func aBadVariableExitsWithUsageErrorNamingIt(environment: [String: String], message: String) async throws {
        let output = try await CommandRunner.run(
            CommandRunner.ssdpSim,
            ["serve"],
            environment: environment,
            timeout: .seconds(10)
        )
        #expect(output.status == 64)
        #expect(output.standardError.hasPrefix("Error: \(message)"), "stderr: \(output.standardError)")
    }

    /// `SSDP_SIM_SEED` from a pod's name: every replica its own UDNs, and the same ones under the same name.
    @Test func aSeedThatIsNotANumberStandsForItsHash() throws {
        #expect(Seed(argument: "7")?.value == 7)
        #expect(Seed(argument: "") == nil)
        let names = ["building-0", "building-1", "building-2", "building-10", "building-pod-0"]
        let seeds = try names.map { try #require(Seed(argument: $0)).value }
        #expect(Set(seeds).count == names.count)
        #expect(Seed(argument: "building-0")?.value == seeds[0])
        // FNV-1a's published test vector: the same text makes the same seed on every machine and release.
        #expect(Seed(argument: "a")?.value == 0xaf63_dc4c_8601_ec8c)
        let devices = try ["building-0", "building-1"].map { name in
            try DeviceOptions.parse(["--profile", "roku"]).makeDevices(seed: #require(Seed(argument: name)).value)
        }
        #expect(devices[0][0].device.udn != devices[1][0].device.udn)
    }

    @Test func anOptionOnTheCommandLineIsBlamedOnTheCommandLine() {
        let environment = ["SSDP_SIM_PROFILE": "roku", "SSDP_SIM_PORT": "1901"]
        let message = "--http-port 'eighty': expected a port 1...65535, any, or real"
        #expect(
            ServeEnvironment.blame(message, arguments: ["serve", "--http-port", "eighty"], environment: environment)
                == nil
        )
        #expect(ServeEnvironment.blame(message, arguments: ["serve"], environment: environment) == nil)
        let profile = ServeEnvironment.blame(
            "--profile 'x': no such profile",
            arguments: ["serve"],
            environment: environment
        )
        #expect(profile?.variable == "SSDP_SIM_PROFILE")
        #expect(profile?.value == "roku")
        #expect(
            ServeEnvironment.blame("--profile 'x'", arguments: ["serve", "--profile=x"], environment: environment)
                == nil
        )
    }
}
