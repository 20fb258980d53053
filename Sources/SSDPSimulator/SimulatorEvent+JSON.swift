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

import NIOCore
import SSDPCore
import SSDPDeviceCore
import SSDPNIO

extension SimulatorEvent {
    /// The event as one JSON object, the one encoding `serve --json` prints and the journal keeps: `event`
    /// names it (`search`, `dropped`, `answer`, `notify`, `http`, `action`, `soap`, `subscribe`, `renew`,
    /// `unsubscribe`, `refused`, `event-sent`, `device`, `started`, `stopped`, `datagram-received`,
    /// `datagram-sent`), and the fields that do not apply are left out. `started` has no `version`: the
    /// tool adds its own.
    public var json: [String: JSONValue] {
        var fields = JSONFields()
        switch self {
        case .started(let udp, let http, let devices, let links):
            fields["event"] = "started"
            fields["udp"] = .string(udp.endpointDescription)
            fields["http"] = .string(http.endpointDescription)
            fields["devices"] = .array(devices.indices.map { Self.json(device: $0, of: devices, links: links) })
            fields["links"] = .array(links.map(Self.json(link:)))
        case .searchReceived(let from, let headers, let outcome, let answeredBy, let unanswered):
            fields["event"] = "search"
            fields["from"] = .string(from.endpointDescription)
            fields["st"] = .string(headers["ST"] ?? "")
            fields["mx"] = headers["MX"]
            switch outcome {
            case .answered(let count):
                fields["answers"] = count
                fields["devices"] = answeredBy.isEmpty ? nil : .array(answeredBy.map { .int($0) })
                fields["unanswered"] = unanswered.reason
            case .rejected(let rejection): fields["rejected"] = rejection.rawValue
            case .lostByNetwork: fields["lost"] = true
            }
        case .datagramDropped(let from, let reason, let target):
            fields["event"] = "dropped"
            fields["from"] = .string(from.endpointDescription)
            fields["reason"] = .string(reason.rawValue)
            fields["detail"] = .string(reason.explanation)
            fields["flag"] = reason.remedy.map { .string($0) }
            fields["st"] = target.map { .string($0) }
        case .answerSent(let to, let usn, let target, let lost):
            fields["event"] = "answer"
            fields["to"] = .string(to.endpointDescription)
            fields["usn"] = .string(usn)
            fields["st"] = .string(target)
            fields["lost"] = lost ? true : nil
        case .notificationsSent(let subtype, let count, let devices):
            fields["event"] = "notify"
            fields["nts"] = .string(subtype.rawValue)
            fields["count"] = count
            fields["devices"] = devices.isEmpty ? nil : .array(devices.map { .int($0) })
        case .httpRequest(let method, let path, let status, let origin):
            fields["event"] = "http"
            fields["method"] = .string(method)
            fields["path"] = .string(path)
            fields["url"] = .string(origin + path)
            fields["status"] = status
        case .deviceAction(let action):
            fields["event"] = "action"
            fields["udn"] = .string(action.udn)
            fields["action"] = .string(action.name)
            fields["value"] = .string(action.value)
            if !action.query.isEmpty {
                fields["query"] = Self.object(action.query.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
            }
            if let url = action.additionalDataURL { fields["additionalDataUrl"] = .string(url) }
        case .actionCalled(let record):
            Self.describe(record, in: &fields)
        case .subscription(let record):
            fields["event"] = .string(record.kind.rawValue)
            fields["udn"] = .string(record.udn)
            fields["service"] = .string(record.serviceType)
            fields["sid"] = .string(record.sid)
            fields["timeout"] = record.timeout
            fields["status"] = record.status
            fields["reason"] = record.reason
            fields["from"] = record.subscriber.isEmpty ? nil : record.subscriber
        case .eventSent(let delivery):
            fields["event"] = "event-sent"
            fields["udn"] = .string(delivery.udn)
            fields["service"] = .string(delivery.serviceType)
            fields["sid"] = .string(delivery.event.sid)
            fields["seq"] = Int(delivery.event.sequence)
            fields["callback"] = .string(delivery.event.callback)
            fields["status"] = delivery.status
            fields["lost"] = delivery.lost ? true : nil
            fields["delay"] = delivery.delay.map { .double(Double($0 / .milliseconds(1)) / 1_000) }
        case .deviceChanged(let device, let operation):
            fields["event"] = "device"
            fields["udn"] = .string(device.udn)
            fields["action"] = .string(operation.name)
            fields["state"] = .string(device.state.name)
            fields["bootId"] = device.bootID
        case .deviceAdded(let device):
            fields["event"] = "device"
            fields["udn"] = .string(device.udn)
            fields["action"] = "add"
            fields["state"] = .string(device.state.name)
            fields["bootId"] = device.bootID
            fields["location"] = .string(device.location)
            fields["address"] = .string(device.address)
        case .networkChanged(let faults):
            fields["event"] = "network"
            fields["faults"] = faults.json
        case .stopped(let counters):
            fields["event"] = "stopped"
            fields["counters"] = JSONValue(encoding: counters)
        case .datagram(let received, let peer, _, let bytes):
            fields["event"] = .string(received ? "datagram-received" : "datagram-sent")
            fields[received ? "from" : "to"] = .string(peer.endpointDescription)
            fields["count"] = bytes.count
        }
        return fields.members
    }

    private static func describe(_ record: ActionRecord, in fields: inout JSONFields) {
        fields["event"] = "soap"
        fields["udn"] = .string(record.udn)
        fields["service"] = .string(record.serviceType)
        fields["action"] = .string(record.call.actionName)
        fields["arguments"] = object(record.call.arguments.map { ($0.name, $0.value) })
        switch record.outcome {
        case .success(let out): fields["result"] = object(out.map { ($0.name, $0.value) })
        case .failure(let error): fields["errorCode"] = error.code
        }
        fields["recorded"] = record.recorded ? true : nil
    }

    /// Name-value pairs as an object; the last of a repeated name wins.
    private static func object(_ pairs: [(String, String)]) -> JSONValue {
        JSONValue(Dictionary(pairs.map { ($0.0, JSONValue.string($0.1)) }) { $1 })
    }

    private static func json(device index: Int, of devices: [SSDPRootDevice], links: [SimulatorLink]) -> JSONValue {
        let device = devices[index]
        var fields = JSONFields()
        fields["udn"] = .string(device.device.udn)
        fields["deviceType"] = .string(device.device.deviceType)
        fields["friendlyName"] = .string(device.device.friendlyName)
        fields["location"] = .string(device.location)
        // One per link, in the order of `links`, when there are several.
        fields["locations"] = links.count > 1 ? .array(links.map { .string($0.devices[index].location) }) : nil
        // Where the device lives on the first link: the source of its answers and its LOCATION's host.
        fields["address"] = .string(links.first?.deviceAddresses[index] ?? "")
        fields["bootId"] = device.bootID
        return JSONValue(fields.members)
    }

    private static func json(link: SimulatorLink) -> JSONValue {
        JSONValue([
            "interface": .string(link.link.interfaceName),
            "scope": .string(link.link.scope.rawValue),
            "udp": .string(link.udpAddress.endpointDescription),
            "host": .string(link.link.urlHost),
            // Whether several devices share the link's address (and so take consecutive HTTP ports).
            "sharedAddress": .bool(link.devicesShareAnAddress),
        ])
    }
}

/// An object being filled in, where assigning `nil` (a field that does not apply) leaves the field out.
private struct JSONFields {
    var members: [String: JSONValue] = [:]

    subscript(key: String) -> JSONValue? {
        get { members[key] }
        set { members[key] = newValue }
    }

    subscript(key: String) -> String? {
        get { members[key]?.scalarText }
        set { members[key] = newValue.map { .string($0) } }
    }

    subscript(key: String) -> Int? {
        get { members[key]?.scalarText.flatMap { Int($0) } }
        set { members[key] = newValue.map { .int($0) } }
    }
}
