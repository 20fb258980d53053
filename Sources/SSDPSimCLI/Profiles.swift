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
import SSDPCore
import SSDPDeviceCore
import SSDPSimulator

struct Profiles: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the built-in device profiles, or show one: its answers and its HTTP endpoints.",
        discussion: """
            ssdp-sim profiles            one line per profile
            ssdp-sim profiles roku       the exact answer a search gets, every advertisement, the HTTP \
            endpoints and the default quirks of device 1 (at 192.168.1.20 on the real device's port)
            """
    )

    @Argument(help: "A profile to show in full.")
    var name: String?

    @Option(help: "The search target whose answers to show (default: upnp:rootdevice).")
    var st = "upnp:rootdevice"

    @Option(help: "The seed the device's UDN, serial and MAC are drawn from.")
    var seed: UInt64 = 1

    func run() throws {
        guard let name else {
            let width = SimulatorProfile.all.map(\.name.count).max() ?? 0
            for profile in SimulatorProfile.all {
                print(profile.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + profile.summary)
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
        print(Self.text(of: profile.device(number: 1, seed: seed), profile: profile, st: st))
    }

    /// Each service's control and event paths, its actions and its evented variables.
    private static func serviceLines(_ simulated: SimulatedDevice) -> [String] {
        let services = simulated.controlledServices(prefix: simulated.web.realPort == nil ? "/device/N" : "")
        guard !services.isEmpty else { return [] }
        var lines = ["Services (SOAP: POST the control path; GENA: SUBSCRIBE the event path):"]
        for service in services {
            let name = service.serviceType.split(separator: ":").suffix(2).joined(separator: ":")
            lines.append("  \(name)  control \(service.controlPath)  events \(service.eventPath)")
            let actions = service.description.actions.map(\.name)
            lines += wrapped("actions (\(actions.count)): ", actions.isEmpty ? ["none (not a SOAP service)"] : actions)
            let evented = service.description.eventedVariables.map(\.name)
            lines += wrapped("evented: ", evented.isEmpty ? ["none"] : evented)
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

    /// The full text of `profiles NAME`.
    static func text(of simulated: SimulatedDevice, profile: SimulatorProfile, st: String) -> String {
        let port = simulated.web.realPort ?? HTTPPorts.genericPort
        let root = simulated.rootDevice(
            baseURL: "http://\(DeviceAddressing.firstLoopbackAddress):\(port)",
            defaultBootID: 1
        )
        var lines = ["\(profile.name): \(profile.summary)", ""]
        // What the device really sends, its default behaviour included (a Hue's six answers).
        var responder = DeviceResponder(device: root, behaviour: simulated.behaviour, startedAt: .zero, seed: 1)
        let search = SSDPSearchRequest(target: SSDPSearchTarget(st), responseWindow: .seconds(1), isMulticast: true)
        guard case .answered(let answers) = responder.receive(search, at: .zero) else {
            return (lines + ["A search for ST \(st) gets no answer.", ""]).joined(separator: "\n")
        }
        lines.append(
            "What a search for ST \(st) (MX 1) gets: \(answers.count == 1 ? "1 datagram" : "\(answers.count) datagrams")"
        )
        for answer in answers.sorted(by: { $0.delay < $1.delay }) {
            lines.append(
                "--- after \(answer.delay / .milliseconds(1) < 1 ? "0" : String(Int(answer.delay / .milliseconds(1)))) ms"
            )
            lines.append(
                String(decoding: answer.bytes, as: UTF8.self).replacing("\r\n", with: "\n").dropLast().description
            )
        }
        lines.append("Advertisements (NOTIFY alive, and the answers to ssdp:all): \(root.advertisements.count)")
        for advertisement in root.advertisements {
            lines.append("  \(advertisement.target)  \(advertisement.usn)")
        }
        lines.append("")
        let server =
            simulated.web.realPort.map { "port \($0), the real device's" }
            ?? "port \(port), libupnp's first, when the device has an address of its own"
        lines.append(
            "Address: its own, as a real device's. `serve --interface lo` puts device 1 at \(DeviceAddressing.firstLoopbackAddress), device 2"
        )
        lines.append("  at 127.0.0.3, …; on another interface --addresses FIRST-LAST gives each one of the interface's")
        lines.append("  addresses; devices that share one address take consecutive HTTP ports.")
        lines.append("HTTP (\(server); --http-port any for a free one):")
        let endpoints = simulated.httpEndpoints
        let width = endpoints.map { $0.methods.count + $0.path.count }.max() ?? 0
        for endpoint in endpoints {
            let left = "\(endpoint.methods) \(endpoint.path)"
            lines.append("  " + left.padding(toLength: width + 3, withPad: " ", startingAt: 0) + endpoint.summary)
        }
        lines.append("")
        lines += serviceLines(simulated)
        lines.append("Default behaviour: \(simulated.behaviour.summary)")
        if simulated.behaviour != SSDPDeviceBehaviour() {
            lines.append("  (turn them off with --no-quirks, or \"quirks\": false in a device file)")
        }
        return lines.joined(separator: "\n")
    }
}
