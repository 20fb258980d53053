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
import Logging
import SSDPCore
import SSDPHarness
import SSDPNIO
import SSDPSearch

struct Search: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Search the network for SSDP services and print each as it is found.",
        discussion: """
            Sends N M-SEARCH messages over N × MX + 0.1 s (the first at once), prints every matching \
            service once, with its time since the start, and a summary of what was received and dropped. \
            By default it multicasts to 239.255.255.250:1900 with TTL 2; give --host and --port to search \
            one device by unicast.

            Search several interfaces at once with --interface eth0 --interface eth1 (or --all-interfaces): \
            each service is printed once, with the interface it was first seen on. --ipv6 searches FF02::C \
            (a link-local LOCATION is reachable through the interface printed with it), --site-local FF05::C.
            """
    )

    @Argument(
        help:
            "The search target (ST): ssdp:all, upnp:rootdevice, roku:ecp, uuid:…, urn:…:device:T:v, urn:…:service:T:v."
    )
    var searchTarget = "ssdp:all"

    @OptionGroup var options: SearchOptions

    @Option(
        help: """
            Exit 1 unless exactly this many services were found (e.g. upnp:rootdevice and the number of \
            devices you started): a readiness or smoke check for containers and CI.
            """
    )
    var expectCount: Int?

    @Option(
        help: ArgumentHelp(
            """
            Hold the search to an expectations file and exit 1 if a check fails: a scenario's `expect` block \
            on its own (found.services, found.including, found.count, dropped, stop.reason, error), checked \
            with the harness's own checks (Scenarios/README.md).
            """,
            valueName: "file"
        )
    )
    var expect: String?

    func validate() throws {
        _ = try options.configuration(searchTarget: searchTarget)
        _ = try expectations()
    }

    /// What `--expect` or `--expect-count` asks of the search; `nil` for nothing.
    private func expectations() throws -> Expectations? {
        switch (expect, expectCount) {
        case (nil, nil):
            return nil
        case (let file?, nil):
            do {
                return try ScenarioFile.loadExpectations(path: file)
            } catch {
                throw ValidationError("--expect \(error)")
            }
        case (nil, let count?):
            guard count >= 0 else { throw ValidationError("--expect-count must be 0 or more, got \(count)") }
            var expectations = Expectations()
            expectations.found = FoundExpectation(count: CountExpectation(count...count))
            return expectations
        case (_?, _?):
            throw ValidationError("give --expect or --expect-count, not both (found.count says the same in the file)")
        }
    }

    func run() async throws {
        let configuration = try options.configuration(searchTarget: searchTarget)
        let session = SSDPSearchSession(
            configuration: configuration,
            interfaces: try options.interfaces(),
            multicastTTL: options.ttl,
            logger: makeLogger(level: options.logLevel)
        )
        let output = SearchOutput(json: options.json)
        let record = await output.run(session)
        guard let expectations = try expectations() else {
            if record.failed { throw ExitCode.failure }
            return
        }
        let search = SearchSpecification(target: searchTarget, mx: options.mx, requests: options.requests)
        let checks = ScenarioChecks(search: search, expect: expectations, record: record).evaluateReports()
        output.emit(checks, from: expect ?? "--expect-count \(expectCount ?? 0)")
        if checks.contains(where: \.failed) { throw ExitCode.failure }
    }
}

/// The options every command that searches shares.
struct SearchOptions: ParsableArguments {
    @Option(help: "MX: the most seconds a device may wait before answering, 1...5.")
    var mx = 3

    @Option(help: "How many M-SEARCH messages to send (0 stops at once).")
    var requests = 3

    @Option(
        help: """
            Where to send the search: the multicast group, or a device's IP address for unicast. Default: \
            239.255.255.250, ff02::c with --ipv6, ff05::c with --site-local. An IPv6 zone names the interface: ff02::c%eth0.
            """
    )
    var host: String?

    @Flag(help: "Search over IPv6: FF02::C, the link (answers carry link-local LOCATIONs).")
    var ipv6 = false

    @Flag(help: "Search over IPv6: FF05::C, the site.")
    var siteLocal = false

    @Option(help: "The destination port.")
    var port = SSDPSearchSessionConfiguration.multicastPort

    @Option(help: "A network interface to search on (e.g. eth0); repeatable. Default: the system's choice.")
    var interface: [String] = []

    @Flag(help: "Search on every multicast-capable interface but loopback.")
    var allInterfaces = false

    @Option(help: "The multicast TTL, 1...255.")
    var ttl = 2

    @Flag(help: "Print one JSON object per line instead of text.")
    var json = false

    @Option(help: "Log level on standard error: trace, debug, info, notice, warning, error, critical.")
    var logLevel: Logger.Level = .warning

    /// The destination host without its zone, and the zone (`ff02::c%eth0` → `ff02::c`, `eth0`).
    private var hostAndZone: (host: String, zone: String?) {
        let given =
            host
            ?? (siteLocal
                ? SSDPMulticastScope.ipv6SiteLocal.group
                : ipv6 ? SSDPMulticastScope.ipv6LinkLocal.group : SSDPSearchSessionConfiguration.multicastHost)
        guard let percent = given.firstIndex(of: "%") else { return (given, nil) }
        return (String(given[..<percent]), String(given[given.index(after: percent)...]))
    }

    /// The interfaces to search on: `--interface`s, a zone in `--host`, or every multicast-capable one.
    func interfaces() throws -> [String] {
        let zone = hostAndZone.zone.map { [$0] } ?? []
        guard allInterfaces else { return zone + interface.filter { !zone.contains($0) } }
        let scopes: [SSDPMulticastScope] = [
            siteLocal ? .ipv6SiteLocal : ipv6 || hostAndZone.host.contains(":") ? .ipv6LinkLocal : .ipv4
        ]
        let names = try SSDPNetworkInterface.multicastInterfaceNames(scopes: scopes)
        guard !names.isEmpty else {
            throw ValidationError(
                "--all-interfaces: no multicast-capable interface (not loopback) with an \(scopes[0]) address"
            )
        }
        return names
    }

    /// The session configuration these options describe, or an error that names the option at fault.
    func configuration(searchTarget: String) throws -> SSDPSearchSessionConfiguration {
        let host = hostAndZone.host
        if hostAndZone.zone == "" { throw ValidationError("--host '\(self.host ?? "")': the zone after % is empty") }
        guard isIPAddress(host) else {
            throw ValidationError("--host must be an IPv4 or IPv6 address, got '\(host)'")
        }
        guard !(ipv6 && siteLocal) else { throw ValidationError("give --ipv6 or --site-local, not both") }
        guard !(allInterfaces && !interface.isEmpty) else {
            throw ValidationError("give --interface or --all-interfaces, not both")
        }
        guard (1...255).contains(ttl) else { throw ValidationError("--ttl must be 1...255, got \(ttl)") }
        do {
            return try SSDPSearchSessionConfiguration(
                searchTarget: searchTarget,
                host: host,
                port: port,
                maximumWaitResponseTime: mx,
                maximumSearchRequestsBeforeClosing: requests
            )
        } catch {
            let flag =
                [
                    "maximumWaitResponseTime": "--mx", "maximumSearchRequestsBeforeClosing": "--requests",
                    "searchTarget": "<search-target>", "host": "--host", "port": "--port",
                ][error.field] ?? error.field
            throw ValidationError("\(flag) '\(error.value)': \(error.reason)")
        }
    }
}

// An executable may own this conformance: no library of ours declares it, and swift-log and argument-parser
// do not know each other.
// swift-format-ignore: AvoidRetroactiveConformances
extension Logger.Level: @retroactive ExpressibleByArgument {}
