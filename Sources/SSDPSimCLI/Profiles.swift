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
import SSDPCore
import SSDPDeviceCore
import SSDPDevices
import SSDPSimulator

struct Profiles: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the built-in device profiles, or show one: its answers and its HTTP endpoints.",
        discussion: """
            ssdp-sim profiles            one line per profile
            ssdp-sim profiles roku       the exact answer a search gets, every advertisement, the HTTP \
            endpoints and the default quirks of device 1 (at 192.168.1.20 on the real device's port)
            ssdp-sim profiles roku --json   the same as one JSON object
            """
    )

    @Argument(help: "A profile to show in full.")
    var name: String?

    @Option(help: "The search target whose answers to show (default: upnp:rootdevice).")
    var st = "upnp:rootdevice"

    @Option(help: "The seed the device's UDN, serial and MAC are drawn from.")
    var seed: UInt64 = 1

    @Flag(help: "Print one JSON object per profile (per line) instead of text.")
    var json = false

    func run() throws {
        let output = CommandOutput(json: json)
        guard let name else {
            let width = SimulatorProfile.all.map(\.name.count).max() ?? 0
            for profile in SimulatorProfile.all {
                output.emit(ProfileLine(name: profile.name, summary: profile.summary, width: width))
            }
            return
        }
        let profile: SimulatorProfile
        do {
            profile = try SimulatorProfile.named(name)
        } catch {
            throw ValidationError(
                "no such profile '\(name)' (profiles: \(SimulatorProfile.all.map(\.name).joined(separator: ", ")))"
            )
        }
        output.emit(ProfileDetail(profile.device(number: 1, seed: seed), profile: profile, st: st))
    }
}

/// One profile in the list: its name and what it is.
private struct ProfileLine: OutputLine {
    let event = "profile"
    let name: String
    let summary: String
    /// The longest name's length, so the summaries line up in text.
    let width: Int

    enum CodingKeys: String, CodingKey {
        case event, name, summary
    }

    var text: String? { name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + summary }
}

/// `profiles NAME`: what device 1 of a profile sends and serves, worked out once and told two ways.
struct ProfileDetail: OutputLine {
    struct Answer: Encodable {
        /// How long after the search the device answers.
        var delayMilliseconds: Int64
        /// The datagram, as sent.
        var message: String
    }

    struct Advertisement: Encodable {
        var nt: String
        var usn: String
    }

    struct Service: Encodable {
        var serviceType: String
        var controlPath: String
        var eventPath: String
        var actions: [String]
        var evented: [String]
    }

    struct Endpoint: Encodable {
        var methods: String
        var path: String
        var summary: String
    }

    let event = "profile"
    let name: String
    let summary: String
    /// The search target the answers are for.
    let st: String
    let answers: [Answer]
    let advertisements: [Advertisement]
    /// The port the device serves HTTP on (the real device's, or libupnp's first).
    let httpPort: Int
    /// Whether `httpPort` is the real device's own.
    let realPort: Bool
    let http: [Endpoint]
    let services: [Service]
    let behaviour: String
    /// Whether the profile has quirks by default (which `--no-quirks` turns off).
    let quirks: Bool
    /// The device description its LOCATION serves (JSON only).
    let description: String

    init(_ simulated: SimulatedDevice, profile: SimulatorProfile, st: String) {
        name = profile.name
        summary = profile.summary
        self.st = st
        httpPort = simulated.web.realPort ?? HTTPPorts.genericPort
        realPort = simulated.web.realPort != nil
        let root = simulated.rootDevice(
            baseURL: "http://\(DeviceAddressing.firstLoopbackAddress):\(httpPort)",
            defaultBootID: 1
        )
        // What the device really sends, its default behaviour included (a Hue's six answers).
        var responder = DeviceResponder(device: root, behaviour: simulated.behaviour, startedAt: .zero, seed: 1)
        let search = SSDPSearchRequest(target: SSDPSearchTarget(st), responseWindow: .seconds(1), isMulticast: true)
        if case .answered(let answers) = responder.receive(search, at: .zero) {
            self.answers = answers.sorted { $0.delay < $1.delay }.map {
                // Dated now, as a live device dates each answer when it leaves.
                let bytes = $0.dated(secondsSince1970: HTTPDate.secondsNow)
                return Answer(delayMilliseconds: $0.delay.milliseconds, message: String(decoding: bytes, as: UTF8.self))
            }
        } else {
            answers = []
        }
        advertisements = root.advertisements.map { Advertisement(nt: $0.target, usn: $0.usn) }
        // As served by default: each device at an address of its own, with a server of its own.
        http = simulated.httpEndpoints().map { Endpoint(methods: $0.methods, path: $0.path, summary: $0.summary) }
        services = simulated.controlledServices().map {
            Service(
                serviceType: $0.serviceType,
                controlPath: $0.controlPath,
                eventPath: $0.eventPath,
                actions: $0.description.actions.map(\.name),
                evented: $0.description.eventedVariables.map(\.name)
            )
        }
        behaviour = simulated.behaviour.summary
        quirks = simulated.behaviour != SSDPDeviceBehaviour()
        description = root.descriptionXML(basePath: "", origin: DeviceResponder.schemeAndAuthority(of: root.location))
    }

    enum CodingKeys: String, CodingKey {
        case event, name, summary, st, answers, advertisements, httpPort, realPort, http, services, behaviour, quirks
        case description
    }

    var text: String? {
        var lines = ["\(name): \(summary)", ""]
        guard !answers.isEmpty else {
            return (lines + ["A search for ST \(st) gets no answer.", ""]).joined(separator: "\n")
        }
        lines.append("What a search for ST \(st) (MX 1) gets: \(plural(answers.count, "datagram"))")
        for answer in answers {
            lines.append("--- after \(answer.delayMilliseconds) ms")
            lines.append(answer.message.replacing("\r\n", with: "\n").dropLast().description)
        }
        lines.append("Advertisements (NOTIFY alive, and the answers to ssdp:all): \(advertisements.count)")
        lines += advertisements.map { "  \($0.nt)  \($0.usn)" }
        lines.append("")
        let server =
            realPort
            ? "port \(httpPort), the real device's"
            : "port \(httpPort), libupnp's first, when the device has an address of its own"
        lines.append(
            "Address: its own, as a real device's. `serve --interface lo` puts device 1 at \(DeviceAddressing.firstLoopbackAddress), device 2"
        )
        lines.append("  at 127.0.0.3, …; on another interface --addresses FIRST-LAST gives each one of the interface's")
        lines.append(
            realPort
                ? "  addresses; devices that share one address take consecutive HTTP ports."
                : "  addresses; devices that share one address share one server, each under /device/N."
        )
        lines.append("HTTP (\(server); --http-port any for a free one):")
        let width = http.map { $0.methods.count + $0.path.count }.max() ?? 0
        for endpoint in http {
            let left = "\(endpoint.methods) \(endpoint.path)"
            lines.append("  " + left.padding(toLength: width + 3, withPad: " ", startingAt: 0) + endpoint.summary)
        }
        lines.append("")
        lines += serviceLines
        lines.append("Default behaviour: \(behaviour)")
        if quirks {
            lines.append("  (turn them off with --no-quirks, or \"quirks\": false in a device file)")
        }
        return lines.joined(separator: "\n")
    }

    /// Each service's control and event paths, its actions and its evented variables.
    private var serviceLines: [String] {
        guard !services.isEmpty else { return [] }
        var lines = ["Services (SOAP: POST the control path; GENA: SUBSCRIBE the event path):"]
        for service in services {
            let name = service.serviceType.split(separator: ":").suffix(2).joined(separator: ":")
            lines.append("  \(name)  control \(service.controlPath)  events \(service.eventPath)")
            lines += Self.wrapped(
                "actions (\(service.actions.count)): ",
                service.actions.isEmpty ? ["none (not a SOAP service)"] : service.actions
            )
            lines += Self.wrapped("evented: ", service.evented.isEmpty ? ["none"] : service.evented)
        }
        lines.append("")
        return lines
    }

    /// `items` after `label`, comma-separated, in lines of at most 110 columns.
    private static func wrapped(_ label: String, _ items: [String]) -> [String] {
        let first = "    " + label
        let indent = String(repeating: " ", count: first.count)
        var lines: [String] = []
        var line = first
        for (index, item) in items.enumerated() {
            let piece = item + (index < items.count - 1 ? "," : "")
            if line != first, line.count + 1 + piece.count > 110 {
                lines.append(line)
                line = indent + piece
            } else {
                line += (line == first ? "" : " ") + piece
            }
        }
        return lines + [line]
    }
}
