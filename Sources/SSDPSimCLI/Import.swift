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
import SSDPCapture
import SSDPCore
import SSDPDevices
import SSDPHarness
import SSDPSimulator

struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Turn a packet capture of SSDP into a scenario that reproduces it.",
        discussion: """
            Reads a pcap or pcapng file (tcpdump, Wireshark, ssdp-sim run --trace) and writes a scenario: \
            the search the capture shows, one device per address and UDN that answered it, replaying its \
            answers byte for byte at their captured delays, and the expectations a correct session meets \
            on that traffic. The scenario runs like any other: in virtual time, --live, or against your \
            client with --client.

              sudo tcpdump -i eth0 -w lan.pcap udp          # while your client searches
              ssdp-sim import lan.pcap --anonymize --output lan.json
              ssdp-sim run lan.json

            --anonymize replaces addresses, UUIDs, MAC addresses, serial numbers and household or bridge \
            ids consistently, so the scenario can be shared in a public bug report.

            Exit status: 0 written, 1 the scenario could not be written, 64 invalid input (not a \
            capture, a truncated one, no SSDP in it, an unsupported link type, a bad flag).
            """
    )

    @Argument(help: "The capture: pcap or pcapng.")
    var capture: String

    @Option(
        name: [.short, .long],
        help: "Write the scenario here (default: the capture's name with .json, in the current directory)."
    )
    var output: String?

    @Flag(help: "Replace addresses, UUIDs, MACs, serial numbers and vendor ids, consistently.")
    var anonymize = false

    @Option(help: "The scenario's name (default: from the capture's file name).")
    var name: String?

    @Option(help: "Search for this ST instead of the captured one.")
    var st: String?

    @Option(help: "Search with this MX instead of the captured one (1...5).")
    var mx: Int?

    @Option(help: "Send this many M-SEARCH messages instead of as many as the capture shows.")
    var requests: Int?

    @Flag(help: "Print the summary as one JSON line.")
    var json = false

    @Option(help: "Also write the captured datagrams as an HTML report with a sequence diagram (see run --html).")
    var html: String?

    func validate() throws {
        if let mx, !(1...5).contains(mx) { throw ValidationError("--mx must be 1...5, got \(mx)") }
        if let requests, !(1...ScenarioFile.maximumRequests).contains(requests) {
            throw ValidationError("--requests must be 1...\(ScenarioFile.maximumRequests), got \(requests)")
        }
    }

    func run() throws {
        let output = CommandOutput(json: json)
        let destination = self.output ?? Self.defaultOutput(for: capture)
        let result: CaptureImport.Result
        do {
            let packets = try PacketCapture.read(Array(try Self.contents(of: capture)))
            let options = CaptureImport.Options(
                name: name,
                target: st,
                mx: mx,
                requests: requests,
                anonymize: anonymize
            )
            result = try CaptureImport.scenario(from: packets, file: capture, options: options)
        } catch {
            output.error("\(capture): \(error)")
            throw ExitCode.validationFailure
        }
        do {
            try Reports.writeAtomically(result.json, to: destination)
        } catch {
            output.error("--output '\(destination)': \(error)")
            throw ExitCode.failure
        }
        if let html {
            let report = HTMLReport(
                capture: result.scenario.name,
                description: result.scenario.description,
                datagrams: result.datagrams,
                command: Run.commandLine
            )
            do {
                try Reports.writeAtomically(Data(try Reports.html(report).utf8), to: html)
            } catch {
                output.error("--html '\(html)': \(error)")
                throw ExitCode.failure
            }
        }
        output.emit(ImportLine(result: result, file: destination))
    }

    /// The capture's bytes; a missing or unreadable file is an error saying so.
    private static func contents(of path: String) throws(ImportFileError) -> Data {
        do {
            return try InputFile.contents(of: path)
        } catch {
            throw ImportFileError(description: error.reason)
        }
    }

    /// `lan.pcap` → `lan.json`, in the current directory.
    static func defaultOutput(for capture: String) -> String {
        ((capture as NSString).lastPathComponent as NSString).deletingPathExtension + ".json"
    }
}

/// Why the capture could not be read, for the `Error:` line.
private struct ImportFileError: Error, CustomStringConvertible {
    var description: String
}

/// What an import wrote.
private struct ImportLine: OutputLine {
    let event = "imported"
    var file: String
    var name: String
    var capture: String
    var client: String
    /// What the captured client searched for, and how often.
    var capturedTarget: String
    var capturedSearches: Int
    /// What the scenario searches for: the captured search unless --st, --mx or --requests said otherwise.
    var target: String
    var mx: Int
    var requests: Int
    var devices: Int
    var answers: Int
    var notifications: Int
    var servicesExpected: Int
    var dropped: [String: Int]
    var anonymized: Bool
    var notes: [String]

    init(result: CaptureImport.Result, file: String) {
        let scenario = result.scenario
        let provenance = scenario.provenance
        self.file = file
        name = scenario.name
        capture = provenance.map { "\($0.capture) (\($0.format), \($0.packets) packets)" } ?? ""
        client = provenance?.client ?? ""
        capturedTarget = result.capturedTarget
        capturedSearches = result.capturedSearches
        target = scenario.search.target
        mx = scenario.search.mx
        requests = scenario.search.requests
        devices = scenario.devices.count
        answers = result.answers
        notifications = result.notifications
        servicesExpected = scenario.expect.found?.services?.count ?? 0
        // The counts of the replay in virtual time (a live session does not see what comes after its stop).
        dropped = scenario.expect.dropped.reduce(into: [:]) { counts, entry in
            let count = entry.value.range.upperBound
            if count > 0 { counts[entry.key.rawValue] = count }
        }
        anonymized = provenance?.anonymized ?? false
        notes = provenance?.notes ?? []
    }

    var text: String? {
        let drops = SearchSessionStatistics.Drop.allCases.compactMap { drop in
            dropped[drop.rawValue].map { "\($0) \(drop.summary)" }
        }
        let captured = plural(capturedSearches, "M-SEARCH", plural: "M-SEARCH")
        var lines = [
            "Imported \(capture): \(captured) for \(capturedTarget) from \(client); \(plural(devices, "device")) "
                + "replaying \(plural(answers, "answer")) and \(notifications) NOTIFY"
                + (anonymized ? "; anonymized" : ""),
            "The scenario searches for \(target), MX \(mx), \(plural(requests, "M-SEARCH", plural: "M-SEARCH")); "
                + "a correct session reports \(plural(servicesExpected, "service"))"
                + (drops.isEmpty
                    ? " and drops nothing." : " and drops \(drops.joined(separator: ", ")) (in virtual time)."),
        ]
        lines += notes.map { "  note: \($0)" }
        lines.append("Wrote \(file). Run it: ssdp-sim run \(file)")
        return lines.joined(separator: "\n")
    }
}
