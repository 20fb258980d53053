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
import SSDPCheck
import SSDPCore
import SSDPDeviceCore
import SSDPDevices
import SSDPHarness
import SSDPSimulator
import Synchronization

struct Check: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Audit a device (ours or anyone's) against UDA 1.1 by using it as a control point does.",
        discussion: """
            TARGET is a device's LOCATION (http://…), its IP address (searched for ssdp:all; every root \
            device that answers is checked) or a search target (searched for at --host). Each check \
            prints one line: PASS, WARN (what the specs allow but byte-matching clients miss), FAIL with \
            its evidence (the datagram or the HTTP exchange), or SKIP with the reason. Groups: discovery \
            (searches it must answer and those it must ignore), description, scpd, gena (subscribe, the \
            initial event, renew, unsubscribe, the 412s, CallStranger), control (--control: it calls the \
            read-only actions, since a call can change a device), dial (a device with an Application-URL; \
            launches only with --control), ecp (a Roku), advertisement (--listen) and profile (--profile).

              ssdp-sim check http://192.168.1.20:8060/
              ssdp-sim check 192.168.1.1 --control --junit upnp.xml
              ssdp-sim check urn:schemas-upnp-org:device:MediaServer:1 --skip gena
              ssdp-sim check http://192.168.1.30:8060/ --profile roku

            Exit status: 0 when no check failed (with --strict, none warned either), 1 when one did, 64 \
            for a bad target or option. Every check and its rule: docs/check.md.
            """
    )

    @OptionGroup var device: ControlPointOptions

    @Flag(
        help:
            "Call the read-only actions (Get…, with InstanceID=0, Channel=Master), an unknown action and one without its arguments."
    )
    var control = false

    @Option(
        help: ArgumentHelp("A group or check not to make (gena, discovery.malformed); repeatable.", valueName: "name")
    )
    var skip: [String] = []

    @Option(help: "The host a CallStranger check names in its CALLBACK (default: one that is no host's).")
    var strangerHost: String?

    @Option(
        help: ArgumentHelp(
            "A DIAL app whose state to read (default YouTube, then Netflix); repeatable.",
            valueName: "name"
        )
    )
    var dialApp: [String] = []

    @Option(help: "Hold the device to one of our profiles (ssdp-sim profiles): what its real device's clients need.")
    var profile: String?

    @Option(
        help: ArgumentHelp(
            "Listen to the SSDP group this long for the device's NOTIFY messages (advertisement checks).",
            valueName: "seconds"
        )
    )
    var listen: Double?

    @Flag(help: "Expect the device to leave while --listen runs (stop it then), saying byebye for every target.")
    var expectByebye = false

    @Option(help: "The interface to listen to the SSDP group on (default: the system's choice).")
    var interface: String?

    @Flag(
        help: "Fail on warnings too: spellings the specs allow but clients trip on (Cache-Control: for CACHE-CONTROL:)."
    )
    var strict = false

    @Flag(help: "One JSON object per check instead of text, then a summary.")
    var json = false

    @Flag(help: "Show the evidence of every failure and warning, not only the first of each check.")
    var verbose = false

    @Option(help: ArgumentHelp("Write a JUnit XML report here (whole or not at all).", valueName: "file"))
    var junit: String?

    @Option(help: ArgumentHelp("Write the JSON report here (whole or not at all).", valueName: "file"))
    var jsonReport: String?

    /// Every check's name, as `--skip` takes them.
    static let checks = [
        "discovery.answers", "discovery.headers", "discovery.st", "discovery.mx", "discovery.location",
        "discovery.malformed", "discovery.notify", "discovery.unknown-uuid", "discovery.higher-version",
        "description.fetch", "description.well-formed", "description.namespace", "description.spec-version",
        "description.device", "description.device-elements", "description.service-elements",
        "scpd.fetch", "scpd.well-formed", "scpd.namespace", "scpd.not-empty", "scpd.related-state-variables",
        "scpd.data-types", "scpd.defaults",
        "gena.subscribe", "gena.initial-event", "gena.renew", "gena.unsubscribe", "gena.unknown-sid",
        "gena.missing-callback", "gena.callstranger",
        "control.read-only-action", "control.unknown-action", "control.missing-argument",
        "dial.application-url", "dial.app-state", "dial.unknown-app", "dial.origin", "dial.launch", "dial.running",
        "dial.hide", "dial.stop", "ecp.device-info", "ecp.apps", "ecp.active-app",
        "profile.device-type", "profile.service", "profile.search", "profile.path",
        "advertisement.headers", "advertisement.targets", "advertisement.location", "advertisement.renewal",
        "advertisement.byebye",
    ]

    func validate() throws {
        if let listen, !(1...86_400).contains(listen) {
            throw ValidationError("--listen must be 1...86400 seconds, got \(listen)")
        }
        if expectByebye, listen == nil { throw ValidationError("--expect-byebye needs --listen SECONDS") }
        for name in skip {
            let lowered = name.lowercased()
            guard DeviceCheckOptions.groups.contains(lowered) || Self.checks.contains(lowered) else {
                throw ValidationError(
                    "--skip \(name): not a group (\(DeviceCheckOptions.groups.joined(separator: ", "))) or a check (ssdp-sim help check)"
                )
            }
        }
        if let profile {
            do {
                _ = try SimulatorProfile.named(profile)
            } catch {
                throw ValidationError("--profile \(profile): \(error.reason)")
            }
        }
        try validateReportPaths([("--junit", junit), ("--json-report", jsonReport)])
        if let strangerHost, !isIPAddress(strangerHost) {
            throw ValidationError("--stranger-host must be an IPv4 or IPv6 address, got '\(strangerHost)'")
        }
    }

    func run() async throws {
        let checkTarget = try device.deviceTarget()
        var options = DeviceCheckOptions()
        options.ssdpPort = device.port
        options.mx = device.mx
        options.searchHost = device.host
        options.control = control
        options.skip = Set(skip.map { $0.lowercased() })
        options.timeout = device.exchangeTimeout
        options.strangerHost = strangerHost
        if !dialApp.isEmpty { options.dialApps = dialApp }
        options.listen = listen.map { .milliseconds(Int64($0 * 1_000)) }
        options.expectByebye = expectByebye
        options.interface = interface
        options.profile = try profile.map(Self.expectation(of:))
        let output = CommandOutput(json: json)
        let listening = listen.map {
            "; listening \($0) s for its NOTIFY messages" + (expectByebye ? " (stop it now to see its byebye)" : "")
        }
        output.say("Checking \(checkTarget) against UDA 1.1" + (listening ?? ""))
        let evidence = EvidenceShown(everyTime: verbose)
        let report = await DeviceChecker.run(checkTarget, options: options) { result in
            output.emit(CheckLine(result, showsEvidence: evidence.shows(result)))
        }
        output.emit(CheckSummary(report))
        for (check, hidden) in evidence.hidden {
            output.say("  \(check): evidence shown for the first of \(hidden + 1); --verbose shows each")
        }
        if let junit {
            try Reports.writeAtomically(Data(report.junit(title: "ssdp-sim check \(report.target)").utf8), to: junit)
        }
        if let jsonReport {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
            try Reports.writeAtomically(try encoder.encode(CheckReportFile(report: report)), to: jsonReport)
        }
        if !report.passed(strict: strict) { throw ExitCode(1) }
    }
}

extension Check {
    /// What a device must offer to pass for the profile `name`: its type and services, its vendor search
    /// targets, and the documents and queries its clients GET (not the SCPDs or icons, which clients reach
    /// through the description, whatever their paths).
    static func expectation(of name: String) throws -> DeviceProfileExpectation {
        let device = try SimulatorProfile.named(name).device(number: 1, seed: 1)
        func serviceTypes(_ device: SSDPDevice) -> [String] {
            device.services.map(\.serviceType) + device.embeddedDevices.flatMap(serviceTypes)
        }
        let paths = device.httpEndpoints().filter { endpoint in
            endpoint.methods.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces) == "GET" }
                && !endpoint.path.contains("{") && !endpoint.summary.hasPrefix("service description")
                && !endpoint.summary.hasSuffix(" bytes")
        }
        return DeviceProfileExpectation(
            name: name,
            deviceType: device.device.deviceType,
            serviceTypes: serviceTypes(device.device),
            searchTargets: device.extraTargets.map(\.target),
            paths: paths.map { ($0.path, $0.summary) }
        )
    }
}

/// One check, as `check` prints it.
/// Which failures and warnings show their evidence in the text output: the first of each check (one quirk
/// of a renderer is one exchange to read, not six), or each with `--verbose`. The JSON output and the
/// reports carry every one.
private final class EvidenceShown: Sendable {
    private let everyTime: Bool
    /// Per check, how many results' evidence was left out, in the order the checks first hid one.
    private let state = Mutex<(order: [String], hidden: [String: Int])>(([], [:]))

    init(everyTime: Bool) { self.everyTime = everyTime }

    /// Whether `result`'s evidence is shown, counting it when it is not.
    func shows(_ result: DeviceCheckResult) -> Bool {
        guard !everyTime, result.outcome == .failed || result.outcome == .warned, !result.evidence.isEmpty else {
            return true
        }
        return state.withLock { state in
            guard let count = state.hidden[result.check] else {
                state.hidden[result.check] = 0
                return true
            }
            if count == 0 { state.order.append(result.check) }
            state.hidden[result.check] = count + 1
            return false
        }
    }

    /// The checks whose evidence was left out at least once, and how many times, in order.
    var hidden: [(String, Int)] {
        state.withLock { state in state.order.map { ($0, state.hidden[$0] ?? 0) } }
    }
}

private struct CheckLine: OutputLine {
    let event = "check"
    let result: DeviceCheckResult
    /// Whether the text shows the evidence (the JSON always carries it).
    let showsEvidence: Bool

    init(_ result: DeviceCheckResult, showsEvidence: Bool = true) {
        self.result = result
        self.showsEvidence = showsEvidence
    }

    enum CodingKeys: String, CodingKey { case event, check, subject, location, outcome, detail, evidence }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(event, forKey: .event)
        try container.encode(result.check, forKey: .check)
        try container.encode(result.subject, forKey: .subject)
        try container.encode(result.location, forKey: .location)
        try container.encode(result.outcome, forKey: .outcome)
        try container.encode(result.detail, forKey: .detail)
        try container.encode(result.evidence, forKey: .evidence)
    }

    var text: String? {
        let mark =
            switch result.outcome {
            case .passed: "PASS"
            case .warned: "WARN"
            case .failed: "FAIL"
            case .skipped: "SKIP"
            }
        var line = "\(mark) \(result.check)"
        if !result.subject.isEmpty { line += "  \(result.subject)" }
        if !result.detail.isEmpty { line += "  (\(result.detail))" }
        guard showsEvidence, result.outcome == .failed || result.outcome == .warned, !result.evidence.isEmpty else {
            return line.escapingControlCharacters()
        }
        // CR LF is one Character: split the scalars
        let evidence = result.evidence.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
            .map {
                "     | "
                    + String(String.UnicodeScalarView($0.last == "\r" ? $0.dropLast() : $0)).escapingControlCharacters()
            }
        return ([line.escapingControlCharacters()] + evidence).joined(separator: "\n")
    }
}

/// The counts at the end.
private struct CheckSummary: OutputLine {
    let target: String
    let counts: DeviceCheckCounts

    init(_ report: DeviceCheckReport) {
        target = report.target
        counts = report.counts
    }

    enum CodingKeys: String, CodingKey { case event, target }

    /// The counts beside `event` and `target`, in one flat object.
    func encode(to encoder: any Encoder) throws {
        try counts.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode("summary", forKey: .event)
        try container.encode(target, forKey: .target)
    }

    var text: String? {
        "--- \(target): \(counts.passed) passed, \(counts.warned) warned, \(counts.failed) failed, \(counts.skipped) skipped"
            + (counts.passed + counts.warned == 0 && counts.failed == 0 ? " (nothing was checked)" : "")
    }
}

/// The file `--json-report` writes: the counts beside the tool, its version, the target and the results.
private struct CheckReportFile: Encodable {
    let report: DeviceCheckReport

    enum CodingKeys: String, CodingKey { case tool, version, target, results }

    func encode(to encoder: any Encoder) throws {
        try report.counts.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode("ssdp-sim check", forKey: .tool)
        try container.encode(ToolVersion.current, forKey: .version)
        try container.encode(report.target, forKey: .target)
        try container.encode(report.results, forKey: .results)
    }
}
