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
import SSDPHarness
import SSDPSimulator

/// Prints what a running simulator does: a start banner, the device actions, SOAP calls and GENA traffic
/// and a closing summary as text, or every event as one JSON object per line (`--json`).
struct ServeOutput: Sendable {
    let output: CommandOutput

    init(json: Bool) {
        output = CommandOutput(json: json)
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
        output.emit(EventLine(event))
    }
}

extension EventLine {
    /// The words for the events people follow on a terminal; the searches, answers and datagrams are only
    /// in the JSON (and the log), since a busy simulator prints thousands of them.
    var text: String? {
        switch source {
        case .stopped(let counters):
            return "Stopped. \(Self.summary(counters))"
        case .deviceAction(let action):
            return "\(action.udn): \(action.name) \(action.value)"
        case .actionCalled(let record):
            let arguments = record.call.arguments.map { "\($0.name)=\($0.value)" }.joined(separator: " ")
            let answer: String
            switch record.outcome {
            case .success(let out): answer = out.map { "\($0.name)=\($0.value.prefix(60))" }.joined(separator: " ")
            case .failure(let error): answer = "fault \(error.code) \(error.description)"
            }
            return "\(record.udn): \(record.call.actionName) \(arguments) -> \(answer)"
        case .subscription(let record):
            let timeout = record.timeout.map { " Second-\($0)" } ?? ""
            return
                "\(record.udn): \(record.kind.rawValue) \(record.serviceType) \(record.sid)\(timeout) (\(record.status))"
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
            + "\(counters.answersRateLimited) rate-limited, \(counters.answersOverflowed) over the pending cap."
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

/// One event as a JSON object; fields that do not apply are left out.
struct EventLine: OutputLine {
    /// The simulator's event the line describes (not encoded: the fields below are its JSON form).
    var source: SimulatorEvent
    var event: String
    /// The ssdp-sim version, on the `started` event.
    var version: String?
    var from: String?
    var to: String?
    var st: String?
    var mx: String?
    var usn: String?
    var answers: Int?
    var rejected: String?
    var nts: String?
    var count: Int?
    var method: String?
    var path: String?
    var status: Int?
    var udn: String?
    var action: String?
    var value: String?
    var udp: String?
    var http: String?
    var devices: [DeviceLine]?
    var links: [LinkLine]?
    var counters: SimulatorCounters?
    var service: String?
    var arguments: [String: String]?
    var result: [String: String]?
    var errorCode: Int?
    var sid: String?
    var seq: UInt32?
    var timeout: Int?
    var callback: String?
    var lost: Bool?
    var url: String?
    var delay: Double?

    struct DeviceLine: Encodable {
        var udn: String
        var deviceType: String
        var friendlyName: String
        var location: String
        /// One per link, in the order of `links`, when there are several.
        var locations: [String]?
        /// Where the device lives on the first link: the source of its answers and its LOCATION's host.
        var address: String
        var bootId: Int
    }

    struct LinkLine: Encodable {
        var interface: String
        var scope: String
        var udp: String
        var host: String
        /// Whether several devices share the link's address (and so take consecutive HTTP ports).
        var sharedAddress: Bool
    }

    private enum CodingKeys: String, CodingKey {
        case event, version, from, to, st, mx, usn, answers, rejected, nts, count, method, path, status, udn
        case action, value, udp, http, devices, links, counters, service, arguments, result, errorCode, sid, seq
        case timeout, callback, lost, url, delay
    }

    init(_ event: SimulatorEvent) {
        self.source = event
        switch event {
        case .started(let udp, let http, let devices, let links):
            self.event = "started"
            self.version = ToolVersion.current
            self.udp = udp.endpointDescription
            self.http = http.endpointDescription
            self.devices = devices.indices.map { index in
                let device = devices[index]
                return DeviceLine(
                    udn: device.device.udn,
                    deviceType: device.device.deviceType,
                    friendlyName: device.device.friendlyName,
                    location: device.location,
                    locations: links.count > 1 ? links.map { $0.devices[index].location } : nil,
                    address: links.first?.deviceAddresses[index] ?? "",
                    bootId: device.bootID
                )
            }
            self.links = links.map {
                LinkLine(
                    interface: $0.link.interfaceName,
                    scope: $0.link.scope.rawValue,
                    udp: $0.udpAddress.endpointDescription,
                    host: $0.link.urlHost,
                    sharedAddress: $0.devicesShareAnAddress
                )
            }
        case .searchReceived(let from, let headers, let outcome):
            self.event = "search"
            self.from = from.endpointDescription
            self.st = headers["ST"] ?? ""
            self.mx = headers["MX"]
            switch outcome {
            case .answered(let count): answers = count
            case .rejected(let rejection): rejected = rejection.rawValue
            }
        case .answerSent(let to, let usn, let target):
            self.event = "answer"
            self.to = to.endpointDescription
            self.usn = usn
            self.st = target
        case .notificationsSent(let subtype, let count):
            self.event = "notify"
            self.nts = subtype.rawValue
            self.count = count
        case .httpRequest(let method, let path, let status, let origin):
            self.event = "http"
            self.method = method
            self.path = path
            self.url = origin + path
            self.status = status
        case .deviceAction(let action):
            self.event = "action"
            self.udn = action.udn
            self.action = action.name
            self.value = action.value
        case .actionCalled(let record):
            self.event = "soap"
            self.udn = record.udn
            self.service = record.serviceType
            self.action = record.call.actionName
            self.arguments = Dictionary(record.call.arguments.map { ($0.name, $0.value) }) { $1 }
            switch record.outcome {
            case .success(let out): result = Dictionary(out.map { ($0.name, $0.value) }) { $1 }
            case .failure(let error): errorCode = error.code
            }
        case .subscription(let record):
            self.event = record.kind.rawValue
            self.udn = record.udn
            self.service = record.serviceType
            self.sid = record.sid
            self.timeout = record.timeout
            self.status = record.status
        case .eventSent(let delivery):
            self.event = "event-sent"
            self.udn = delivery.udn
            self.service = delivery.serviceType
            self.sid = delivery.event.sid
            self.seq = delivery.event.sequence
            self.callback = delivery.event.callback
            self.status = delivery.status
            self.lost = delivery.lost ? true : nil
            self.delay = delivery.delay.map { Double($0 / .milliseconds(1)) / 1_000 }
        case .stopped(let counters):
            self.event = "stopped"
            self.counters = counters
        case .datagram(let received, let peer, _, let bytes):
            self.event = received ? "datagram-received" : "datagram-sent"
            if received { from = peer.endpointDescription } else { to = peer.endpointDescription }
            self.count = bytes.count
        }
    }
}
