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
import NIOCore
import NIOPosix
import SSDPCore
import SSDPDeviceCore
import SSDPDevices
import SSDPSimulator
import Testing

@testable import SSDPCheck

extension Tag {
    /// Tests that use real sockets (loopback only).
    @Tag static var live: Self
}

/// A device file's devices served on loopback (unicast only), checked by `DeviceChecker`.
enum CheckedDevice {
    /// The options every test starts from: a short timeout, so a device that never answers costs 2 s.
    static var options: DeviceCheckOptions {
        var options = DeviceCheckOptions()
        options.timeout = .seconds(2)
        options.control = true
        return options
    }

    /// Serves the first device of `file` and checks it with `options` (the SSDP port filled in).
    static func check(_ file: String, options: DeviceCheckOptions = options) async throws -> DeviceCheckReport {
        let devices = try DeviceFile.decode(Data(file.utf8), file: "check.json", seed: 3).devices
        let simulator = try await DeviceSimulator.start(
            SimulatorConfiguration(
                devices: devices,
                interfaces: ["lo"],
                port: 0,
                httpPort: .any,
                listening: .unicastOnly,
                seed: 11
            )
        ) { _ in }
        var options = options
        options.ssdpPort = try #require(simulator.udpAddress.port)
        let device = try #require(simulator.devices.first)
        let location = try #require(URL(string: device.location))
        let report = await DeviceChecker.run(.location(location), options: options)
        _ = await simulator.shutdown()
        return report
    }

    /// A device file of one device of `profile` with `fields` (JSON members, without braces) added.
    static func file(_ profile: String = "generic", _ fields: String = "") -> String {
        #"{ "devices": [ { "profile": "\#(profile)"\#(fields.isEmpty ? "" : ", " + fields) } ] }"#
    }
}

extension DeviceCheckReport {
    /// The names of the checks with `outcome`, each once.
    func checks(_ outcome: DeviceCheckResult.Outcome) -> Set<String> {
        Set(results.filter { $0.outcome == outcome }.map(\.check))
    }
}

/// One device at a time (`.serialized`), as the fault matrix: each check opens some twenty sockets at once
/// and times their answers, and the other live suites run beside them.
@Suite(.tags(.live), .serialized) struct ProfileCheckTests {
    /// What the check says about each built-in profile: nothing for a device that imitates no stack, and
    /// for the others exactly the rules their real devices break (docs/check.md says why, rule by rule).
    static let failures: [String: Set<String>] = [
        "roku": [],
        "roku-tv": [],
        // Netflix's reference server: UPnP/1.1 without CONFIGID, it answers NOTIFYs as searches, and its
        // DIAL service's control and event URLs are /ssdp/notfound.
        "dial-tv": [
            "discovery.headers", "discovery.notify", "gena.subscribe", "gena.unknown-sid", "gena.missing-callback",
            "control.unknown-action",
        ],
        // A Hue bridge answers every search with its three targets.
        "hue": ["discovery.answers", "discovery.st", "discovery.unknown-uuid", "discovery.higher-version"],
        "sonos": [],
        // miniupnpd built for IGD v2 in v1 mode: its description says :1, its answers :2.
        "igd": ["discovery.answers", "discovery.st", "discovery.higher-version"],
        // MiniDLNA 1.3.0 never sends the initial event.
        "dlna-server": ["gena.initial-event"],
        // gmrender-resurrect answers every fault with 501, two Get… actions without their out-arguments and
        // GetVolumeDB with an out-argument its SCPD does not name (CheckLabTests holds the real one to it).
        "renderer": ["control.unknown-action", "control.missing-argument", "control.read-only-action"],
        // libupnp's DIAL service has no eventing or control behind its URLs.
        "chromecast-legacy": ["gena.subscribe", "gena.unknown-sid", "gena.missing-callback", "control.unknown-action"],
        "generic": [],
    ]

    @Test func everyProfileIsInTheTable() {
        #expect(Set(Self.failures.keys) == Set(SimulatorProfile.all.map(\.name)))
    }

    @Test(arguments: SimulatorProfile.all.map(\.name))
    func eachProfileBreaksOnlyTheRulesItsRealDeviceBreaks(profile: String) async throws {
        let report = try await CheckedDevice.check(CheckedDevice.file(profile))
        #expect(report.checks(.failed) == Self.failures[profile], "\(report.results.filter { $0.outcome == .failed })")
        #expect(report.count(.passed) > 20)
        // Every group ran: a check that skipped everything would pass everything.
        #expect(
            Set(report.results.filter { $0.outcome != .skipped }.map(\.group)).isSuperset(of: [
                "discovery", "description",
            ])
        )
    }

    @Test func aHueWithoutItsQuirksIsConformant() async throws {
        let report = try await CheckedDevice.check(CheckedDevice.file("hue", #""quirks": false"#))
        #expect(report.checks(.failed).isEmpty, "\(report.results.filter { $0.outcome == .failed })")
    }

    @Test func theGenericDeviceIsCheckedInEveryGroup() async throws {
        let report = try await CheckedDevice.check(CheckedDevice.file())
        #expect(report.passed(strict: true))
        let made = Set(report.results.filter { $0.outcome == .passed }.map(\.check))
        #expect(
            made.isSuperset(of: [
                "discovery.answers", "discovery.headers", "discovery.st", "discovery.mx", "discovery.location",
                "discovery.malformed", "discovery.notify", "discovery.unknown-uuid", "discovery.higher-version",
                "description.fetch", "description.well-formed", "description.namespace", "description.spec-version",
                "description.device-elements", "description.service-elements",
                "scpd.fetch", "scpd.well-formed", "scpd.namespace", "scpd.not-empty", "scpd.related-state-variables",
                "scpd.data-types", "scpd.defaults",
                "gena.subscribe", "gena.initial-event", "gena.renew", "gena.unsubscribe", "gena.unknown-sid",
                "gena.missing-callback", "gena.callstranger",
                "control.read-only-action", "control.unknown-action", "control.missing-argument",
            ])
        )
        // UDA's 3 + 2d + k for the generic MediaRenderer: no embedded device (d = 0), three service types.
        let all = try #require(report.results.first { $0.check == "discovery.answers" && $0.subject == "ssdp:all" })
        #expect(all.detail == "6 USNs")
    }
}

/// One fault the simulator can inject, and the check made to catch it.
struct FaultRow: CustomTestStringConvertible, Sendable {
    var name: String
    /// Device-file members that switch the fault on.
    var fields: String
    /// The groups the row needs (the others are skipped, for time).
    var groups: Set<String>
    var check: String
    var outcome: DeviceCheckResult.Outcome = .failed
    /// The profile the faulty device starts from.
    var profile = "generic"

    var testDescription: String { name }

    /// Whether the row's fault is in the SSDP datagrams (the discovery group), not in what is served.
    var isOnTheWire: Bool { groups.contains("discovery") }

    static func malformed(_ value: String, _ outcome: DeviceCheckResult.Outcome = .failed) -> FaultRow {
        FaultRow(
            name: "--malformed \(value)",
            fields: #""behaviour": { "malformed": ["\#(value)"] }"#,
            groups: ["discovery"],
            check: "discovery.headers",
            outcome: outcome
        )
    }

    static func document(_ fault: String, scpd: Bool, check: String) -> FaultRow {
        FaultRow(
            name: "--\(scpd ? "scpd" : "description")-fault \(fault)",
            fields: #""httpFaults": { "\#(scpd ? "serviceDescriptions" : "description")": ["\#(fault)"] }"#,
            groups: scpd ? ["scpd"] : ["description"],
            check: "\(scpd ? "scpd" : "description").\(check)"
        )
    }

    static func scpd(_ name: String, actions: [String], variables: [String], check: String) -> FaultRow {
        let quoted = { (lines: [String]) in lines.map { "\"\($0)\"" }.joined(separator: ", ") }
        return FaultRow(
            name: "a device file's SCPD with \(name)",
            fields:
                #""serviceDescriptions": { "urn:schemas-upnp-org:service:RenderingControl:1": { "actions": [\#(quoted(actions))], "variables": [\#(quoted(variables))] } }"#,
            groups: ["scpd"],
            check: check
        )
    }

    /// Every fault and quirk the simulator injects, each beside the check made for it.
    static let all: [FaultRow] =
        [
            malformed("lf-only"), malformed("lowercase-names", .warned), malformed("no-space-after-colon", .warned),
            malformed("spaced-max-age", .warned), malformed("missing-ext"), malformed("missing-cache-control"),
            malformed("missing-location"), malformed("missing-server"), malformed("missing-usn"),
            malformed("no-final-blank-line"), malformed("invalid-utf8"), malformed("oversized", .warned),
        ]
        + [
            FaultRow(
                name: "--chatter any-target",
                fields: #""behaviour": { "chatty": ["any-target"] }"#,
                groups: ["discovery"],
                check: "discovery.unknown-uuid"
            ),
            FaultRow(
                name: "--chatter wrong-target",
                fields: #""behaviour": { "chatty": ["wrong-target"] }"#,
                groups: ["discovery"],
                check: "discovery.st"
            ),
            FaultRow(
                name: "--chatter notifies",
                fields: #""behaviour": { "chatty": ["notifies"] }"#,
                groups: ["discovery"],
                check: "discovery.notify"
            ),
            FaultRow(
                name: "--delay immediate",
                fields: #""behaviour": { "delay": "immediate" }"#,
                groups: ["discovery"],
                check: "discovery.mx",
                outcome: .warned
            ),
            FaultRow(
                name: "--delay late:1",
                fields: #""behaviour": { "delay": "late:1" }"#,
                groups: ["discovery"],
                check: "discovery.mx"
            ),
        ]
        + [
            document("503:1", scpd: false, check: "fetch"), document("delay:3", scpd: false, check: "fetch"),
            document("hang", scpd: false, check: "fetch"), document("truncated", scpd: false, check: "well-formed"),
            document("empty", scpd: false, check: "fetch"), document("malformed", scpd: false, check: "well-formed"),
            document("503:1", scpd: true, check: "fetch"), document("delay:3", scpd: true, check: "fetch"),
            document("hang", scpd: true, check: "fetch"), document("truncated", scpd: true, check: "well-formed"),
            document("empty", scpd: true, check: "fetch"), document("malformed", scpd: true, check: "well-formed"),
        ]
        + [
            FaultRow(
                name: "--event-loss 1",
                fields: #""httpFaults": { "eventLoss": 1 }"#,
                groups: ["gena"],
                check: "gena.initial-event"
            ),
            FaultRow(
                name: "--event-delay 3",
                fields: #""httpFaults": { "eventDelay": 3 }"#,
                groups: ["gena"],
                check: "gena.initial-event"
            ),
            FaultRow(
                name: "callbackPolicy any",
                fields: #""callbackPolicy": "any""#,
                groups: ["gena"],
                check: "gena.callstranger"
            ),
        ]
        + [
            scpd("a misspelt data type", actions: [], variables: ["Volume uint2"], check: "scpd.data-types"),
            scpd(
                "a default outside its list",
                actions: [],
                variables: ["Mode string default=Loud values=On|Off"],
                check: "scpd.defaults"
            ),
            scpd(
                "an undeclared variable",
                actions: ["GetMode: -> Mode=Missing"],
                variables: ["Mode string"],
                check: "scpd.related-state-variables"
            ),
            scpd("nothing in it", actions: [], variables: [], check: "scpd.not-empty"),
        ]
        + [
            FaultRow(
                name: "a DIAL app that takes every origin",
                fields: #""dialApps": [ { "name": "YouTube" } ]"#,
                groups: ["dial"],
                check: "dial.origin",
                profile: "dial-tv"
            ),
            FaultRow(
                name: "a DIAL app that cannot be stopped",
                fields: #""dialApps": [ { "name": "YouTube", "allowStop": false } ]"#,
                groups: ["dial"],
                check: "dial.stop",
                profile: "dial-tv"
            ),
        ]
}

/// The matrix in two suites, each one device at a time: the faults on the wire (the discovery group, whose
/// checks time the answers to some twenty searches) and the faults of what is served after discovery.
/// One suite of forty rows waited for its places one row after another and ended the whole run last.
@Suite(.tags(.live), .serialized) struct FaultMatrixTests {
    @Test(arguments: FaultRow.all.filter(\.isOnTheWire))
    func eachFaultOnTheWireIsCaughtByTheCheckMadeForIt(row: FaultRow) async throws {
        try await Self.expectCaught(row)
    }

    /// Checks a device with `row`'s fault, in the row's groups only: the row's check must catch it.
    static func expectCaught(_ row: FaultRow) async throws {
        var options = CheckedDevice.options
        options.skip = Set(DeviceCheckOptions.groups).subtracting(row.groups).subtracting(["description"])
        let report = try await CheckedDevice.check(CheckedDevice.file(row.profile, row.fields), options: options)
        let results = report.results.filter { $0.check == row.check }
        #expect(!results.isEmpty, "\(row.check) was not made")
        #expect(results.contains { $0.outcome == row.outcome }, "\(results)")
        if row.outcome == .warned {
            // A spelling the specs allow is a warning, never a failure of the same check.
            #expect(!results.contains { $0.outcome == .failed }, "\(results)")
            #expect(report.passed() && !report.passed(strict: true))
        } else {
            #expect(!report.passed())
            #expect(results.contains { !$0.evidence.isEmpty || $0.detail.contains("no ") }, "no evidence: \(results)")
        }
    }
}

@Suite(.tags(.live), .serialized) struct ServedFaultMatrixTests {
    @Test(arguments: FaultRow.all.filter { !$0.isOnTheWire })
    func eachFaultOfWhatIsServedIsCaughtByTheCheckMadeForIt(row: FaultRow) async throws {
        try await FaultMatrixTests.expectCaught(row)
    }

    @Test(arguments: ["generic", "dial-tv"])
    func theDeviceWithoutFaultsPassesTheSameChecks(profile: String) async throws {
        // The baseline of every row: each check above passes when its fault is off.
        let report = try await CheckedDevice.check(CheckedDevice.file(profile))
        let passed = report.checks(.passed)
        for row in FaultRow.all where row.profile == profile { #expect(passed.contains(row.check), "\(row.check)") }
        if profile == "generic" { #expect(report.checks(.failed).isEmpty && report.checks(.warned).isEmpty) }
    }
}
