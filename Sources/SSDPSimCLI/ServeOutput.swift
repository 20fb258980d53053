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
import SSDPDeviceCore
import SSDPDevices
import SSDPHarness
import SSDPNIO
import SSDPSimulator

/// Prints what a running simulator does: a start banner, the device actions, SOAP calls and GENA traffic
/// and a closing summary as text, or every event as one JSON object per line (`--json`).
struct ServeOutput: Sendable {
    let output: CommandOutput
    /// The control API's URL (`--control`), for the banner and the `started` line.
    let control: String?

    init(json: Bool, control: String? = nil) {
        output = CommandOutput(json: json)
        self.control = control
    }

    func printStart(_ simulator: DeviceSimulator, seed: UInt64) {
        let bootID = simulator.devices.first.map { " BOOTID \($0.bootID)," } ?? ""
        output.say(
            "Serving \(plural(simulator.devices.count, "device")) on UDP \(simulator.udpAddress.endpointDescription), "
                + "HTTP \(simulator.httpAddress.endpointDescription),\(bootID) seed \(seed)"
        )
        if simulator.links.count > 1 {
            output.say(
                "  on "
                    + simulator.links.map { "\($0.link.interfaceName) \($0.link.scope) \($0.link.urlHost)" }.joined(
                        separator: ", "
                    )
            )
        }
        for (index, device) in simulator.devices.enumerated() {
            let locations = simulator.links.map { $0.devices[index].location }.joined(separator: " ")
            output.say(
                "  \(device.device.friendlyName)  \(device.device.udn)  \(device.device.deviceType)  \(locations)"
            )
        }
        if let control {
            output.say("  Control API: \(control) (see docs/control.md)")
        }
        for link in simulator.links where link.devicesShareAnAddress {
            output.say(
                "  The devices share \(link.link.urlHost) on \(link.link.interfaceName), so their HTTP ports differ; "
                    + "give each an address of its own with --addresses FIRST-LAST (see README, \"Addresses\")."
            )
        }
    }

    /// The ready line, after the banner: every device answers searches and serves HTTP.
    func printReady(_ line: ReadyLine) {
        output.emit(line)
    }

    @Sendable func emit(_ event: SimulatorEvent) {
        output.emit(EventLine(event, control: control))
    }
}

extension EventLine {
    /// The words for the events people follow on a terminal; the searches, answers and datagrams are only
    /// in the JSON (and the log), since a busy simulator prints thousands of them. One line each, whatever
    /// a client sent: its line breaks and control characters are shown as escapes.
    var text: String? {
        eventText?.escapingControlCharacters()
    }

    private var eventText: String? {
        switch source {
        case .stopped(let counters):
            return "Stopped. \(Self.summary(counters))"
        case .deviceChanged(let device, let operation):
            return
                "Device \(device.number) (\(device.friendlyName)): \(operation.name), now \(device.state.name), BOOTID \(device.bootID)"
        case .deviceAdded(let device):
            return "Device \(device.number) (\(device.friendlyName)) added: \(device.udn) \(device.location)"
        case .deviceAction(let action):
            return "\(action.udn): \(action.name) \(action.value)"
        case .actionCalled(let record):
            let arguments = record.call.arguments.map { "\($0.name)=\($0.value)" }.joined(separator: " ")
            let answer: String
            switch record.outcome {
            case .success(let out): answer = out.map { "\($0.name)=\($0.value.prefix(60))" }.joined(separator: " ")
            case .failure(let error): answer = "fault \(error.code) \(error.description)"
            }
            return
                "\(record.udn): \(record.call.actionName) \(arguments) -> \(answer)\(record.recorded ? " (as recorded)" : "")"
        case .subscription(let record):
            let timeout = record.timeout.map { " Second-\($0)" } ?? ""
            let status = record.reason.map { "\(record.status): \($0)" } ?? "\(record.status)"
            return "\(record.udn): \(record.kind.rawValue) \(record.serviceType) \(record.sid)\(timeout) (\(status))"
        case .eventSent(let delivery):
            let answer = delivery.lost ? "lost" : delivery.status.map { "\($0)" } ?? "no answer"
            return "\(delivery.udn): event SEQ \(delivery.event.sequence) to \(delivery.event.callback) (\(answer))"
        default:
            return nil
        }
    }

    private static func summary(_ counters: SimulatorCounters) -> String {
        "Received \(plural(counters.datagramsReceived, "datagram")): \(counters.searchesAccepted) searches accepted, "
            + "\(counters.searchesRejected) rejected, \(counters.malformed) malformed, \(counters.oversized) oversized, "
            + "\(counters.sourcesRejected) from non-local sources, \(counters.notifications) NOTIFY, \(counters.responses) responses. "
            + "Sent \(plural(counters.answersSent, "answer")) and \(counters.notificationsSent) NOTIFY; "
            + "\(counters.searchesNotHeard) searches not heard (loss), \(counters.answersLost) answers lost, "
            + "\(counters.answersRateLimited) rate-limited, \(counters.searchesRateLimited) searches past the rate limit, "
            + "\(counters.answersOverflowed) over the pending cap; HTTP connections: "
            + "\(counters.httpConnectionsRefused) refused, \(counters.httpConnectionsDisplaced) closed for a newcomer."
    }
}

/// The last line `serve` prints as it starts, once every device answers searches and serves HTTP: what a
/// container's log is watched for (`Ready: 4 devices serving`, or `{"devices":4,"event":"ready"}`).
struct ReadyLine: OutputLine {
    var event = "ready"
    var devices: Int

    var summary: String { "\(plural(devices, "device")) serving" }
    var text: String? { "Ready: \(summary)" }

    private enum CodingKeys: String, CodingKey {
        case event, devices
    }
}

/// One event as a JSON object: the simulator's own encoding (`SimulatorEvent.json`, which the control API's
/// journal keeps too), and on `started` the tool's version and the control API's URL.
struct EventLine: OutputLine {
    /// The simulator's event the line describes.
    var source: SimulatorEvent
    /// The control API's URL, for the `started` line.
    var control: String?

    init(_ event: SimulatorEvent, control: String? = nil) {
        self.source = event
        self.control = control
    }

    /// The line's JSON fields (made only when the line is printed as JSON).
    var fields: [String: JSONValue] {
        var fields = source.json
        if case .started = source {
            fields["version"] = .string(ToolVersion.current)
            fields["control"] = control.map(JSONValue.string)
        }
        return fields
    }

    var jsonValue: JSONValue? { JSONValue(fields) }

    func encode(to encoder: any Encoder) throws {
        try JSONValue(fields).encode(to: encoder)
    }
}
