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
import SSDPDevices
import SSDPNIO

extension SimulatorEvent {
    /// The event as one JSON object, the one encoding `serve --json` prints and the journal keeps: `event`
    /// names it (`search`, `dropped`, `answer`, `notify`, `http`, `action`, `soap`, `subscribe`, `renew`,
    /// `unsubscribe`, `refused`, `event-sent`, `device`, `started`, `stopped`, `datagram-received`,
    /// `datagram-sent`), and the fields that do not apply are left out. The fields of each are one
    /// `Encodable` type below, their names its `CodingKeys`. `started` has no `version`: the tool adds its own.
    public var json: [String: JSONValue] {
        switch self {
        case .started(let udp, let http, let devices, let links):
            Self.members(of: StartedFields(udp: udp, http: http, devices: devices, links: links))
        case .searchReceived(let from, let headers, let outcome, let answeredBy, let unanswered):
            Self.members(
                of: SearchFields(
                    from: from,
                    headers: headers,
                    outcome: outcome,
                    answeredBy: answeredBy,
                    unanswered: unanswered
                )
            )
        case .datagramDropped(let from, let reason, let target):
            Self.members(
                of: DroppedFields(
                    from: from.endpointDescription,
                    reason: reason.rawValue,
                    detail: reason.explanation,
                    flag: reason.remedy,
                    st: target
                )
            )
        case .answerSent(let to, let usn, let target, let lost):
            Self.members(of: AnswerFields(to: to.endpointDescription, usn: usn, st: target, lost: lost ? true : nil))
        case .notificationsSent(let subtype, let count, let devices):
            Self.members(
                of: NotifyFields(nts: subtype.rawValue, count: count, devices: devices.isEmpty ? nil : devices)
            )
        case .httpRequest(let method, let path, let status, let origin):
            Self.members(of: HTTPFields(method: method, path: path, url: origin + path, status: status))
        case .deviceAction(let action):
            Self.members(
                of: ActionFields(
                    udn: action.udn,
                    action: action.name,
                    value: action.value,
                    query: action.query.isEmpty ? nil : action.query,
                    additionalDataUrl: action.additionalDataURL
                )
            )
        case .actionCalled(let record):
            Self.members(of: SOAPFields(record))
        case .subscription(let record):
            Self.members(
                of: SubscriptionFields(
                    event: record.kind.rawValue,
                    udn: record.udn,
                    service: record.serviceType,
                    sid: record.sid,
                    timeout: record.timeout,
                    status: record.status,
                    reason: record.reason,
                    from: record.subscriber.isEmpty ? nil : record.subscriber
                )
            )
        case .eventSent(let delivery):
            Self.members(
                of: EventSentFields(
                    udn: delivery.udn,
                    service: delivery.serviceType,
                    sid: delivery.event.sid,
                    seq: Int(delivery.event.sequence),
                    callback: delivery.event.callback,
                    status: delivery.status,
                    lost: delivery.lost ? true : nil,
                    delay: delivery.delay.map { Double($0 / .milliseconds(1)) / 1_000 }
                )
            )
        case .deviceChanged(let device, let operation):
            Self.members(
                of: DeviceFields(
                    udn: device.udn,
                    action: operation.name,
                    state: device.state.name,
                    bootId: device.bootID
                )
            )
        case .deviceAdded(let device):
            Self.members(
                of: DeviceFields(
                    udn: device.udn,
                    action: "add",
                    state: device.state.name,
                    bootId: device.bootID,
                    location: device.location,
                    address: device.address
                )
            )
        case .networkChanged(let faults):
            Self.members(of: NetworkFields(faults: faults.json))
        case .stopped(let counters):
            Self.members(of: StoppedFields(counters: counters))
        case .datagram(let received, let peer, _, let bytes):
            Self.members(
                of: DatagramFields(
                    event: received ? "datagram-received" : "datagram-sent",
                    from: received ? peer.endpointDescription : nil,
                    to: received ? nil : peer.endpointDescription,
                    count: bytes.count
                )
            )
        }
    }

    /// The members `fields` encodes (each event's fields are one type, encoded as itself, not boxed).
    private static func members(of fields: some Encodable) -> [String: JSONValue] {
        (try? JSONValueEncoder().encodeMembers(fields)) ?? [:]
    }
}

/// The fields of an event the journal keeps: their names are its `CodingKeys`, which the control API's
/// filters accept and its document lists (a test holds them together).
private protocol JournalFields: Encodable {
    associatedtype CodingKeys: CodingKey, CaseIterable, RawRepresentable<String>
}

extension JournalFields {
    /// Every field an event of this type can have.
    static var fieldNames: [String] { CodingKeys.allCases.map(\.rawValue) }
}

extension JournalEntry.Kind {
    /// The fields an event of this kind can have: its type's `CodingKeys`.
    var fieldNames: [String] {
        switch self {
        case .search: SearchFields.fieldNames
        case .dropped: DroppedFields.fieldNames
        case .answer: AnswerFields.fieldNames
        case .notify: NotifyFields.fieldNames
        case .http: HTTPFields.fieldNames
        case .soap: SOAPFields.fieldNames
        case .subscription: SubscriptionFields.fieldNames
        case .event: EventSentFields.fieldNames
        case .device: DeviceFields.fieldNames
        case .action: ActionFields.fieldNames
        case .network: NetworkFields.fieldNames
        }
    }
}

// MARK: - The fields of each event

private struct StartedFields: Encodable {
    let event = "started"
    let udp: String
    let http: String
    let devices: [Device]
    let links: [Link]

    init(udp: SocketAddress, http: SocketAddress, devices: [SSDPRootDevice], links: [SimulatorLink]) {
        self.udp = udp.endpointDescription
        self.http = http.endpointDescription
        self.devices = devices.indices.map { Device(index: $0, of: devices, links: links) }
        self.links = links.map(Link.init)
    }

    struct Device: Encodable {
        let udn: String
        let deviceType: String
        let friendlyName: String
        let location: String
        /// One per link, in the order of the links, when there are several.
        let locations: [String]?
        /// Where the device lives on the first link: the source of its answers and its LOCATION's host.
        let address: String
        let bootId: Int

        init(index: Int, of devices: [SSDPRootDevice], links: [SimulatorLink]) {
            let device = devices[index]
            udn = device.device.udn
            deviceType = device.device.deviceType
            friendlyName = device.device.friendlyName
            location = device.location
            locations = links.count > 1 ? links.map { $0.devices[index].location } : nil
            address = links.first?.deviceAddresses[index] ?? ""
            bootId = device.bootID
        }
    }

    struct Link: Encodable {
        let interface: String
        let scope: String
        let udp: String
        let host: String
        /// Whether several devices share the link's address (and so take consecutive HTTP ports).
        let sharedAddress: Bool

        init(_ link: SimulatorLink) {
            interface = link.link.interfaceName
            scope = link.link.scope.rawValue
            udp = link.udpAddress.endpointDescription
            host = link.link.urlHost
            sharedAddress = link.devicesShareAnAddress
        }
    }
}

private struct SearchFields: JournalFields {
    let event = "search"
    let from: String
    let st: String
    let mx: String?
    /// Accepted: how many answers were scheduled, which devices answer, and why the others do not.
    let answers: Int?
    let devices: [Int]?
    let unanswered: String?
    let rejected: String?
    let lost: Bool?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case event, from, st, mx, answers, devices, unanswered, rejected, lost
    }

    init(
        from: SocketAddress,
        headers: SSDPHeaders,
        outcome: SimulatorEvent.SearchOutcome,
        answeredBy: [Int],
        unanswered: SimulatorResponder.Unanswered
    ) {
        self.from = from.endpointDescription
        st = headers["ST"] ?? ""
        mx = headers["MX"]
        var answers: Int?
        var rejected: String?
        var lost: Bool?
        switch outcome {
        case .answered(let count): answers = count
        case .rejected(let rejection): rejected = rejection.rawValue
        case .lostByNetwork: lost = true
        }
        self.answers = answers
        self.rejected = rejected
        self.lost = lost
        devices = answers == nil || answeredBy.isEmpty ? nil : answeredBy
        self.unanswered = answers == nil ? nil : unanswered.reason
    }
}

private struct DroppedFields: JournalFields {
    let event = "dropped"
    let from: String
    let reason: String
    let detail: String
    /// The option that lets such a datagram in.
    let flag: String?
    let st: String?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case event, from, reason, detail, flag, st
    }
}

private struct AnswerFields: JournalFields {
    let event = "answer"
    let to: String
    let usn: String
    let st: String
    let lost: Bool?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case event, to, usn, st, lost
    }
}

private struct NotifyFields: JournalFields {
    let event = "notify"
    let nts: String
    let count: Int
    let devices: [Int]?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case event, nts, count, devices
    }
}

private struct HTTPFields: JournalFields {
    let event = "http"
    let method: String
    let path: String
    let url: String
    let status: Int

    enum CodingKeys: String, CodingKey, CaseIterable {
        case event, method, path, url, status
    }
}

private struct ActionFields: JournalFields {
    let event = "action"
    let udn: String
    let action: String
    let value: String
    let query: [String: String]?
    let additionalDataUrl: String?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case event, udn, action, value, query, additionalDataUrl
    }
}

private struct SOAPFields: JournalFields {
    let event = "soap"
    let udn: String
    let service: String
    let action: String
    let arguments: [String: String]
    let result: [String: String]?
    let errorCode: Int?
    let recorded: Bool?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case event, udn, service, action, arguments, result, errorCode, recorded
    }

    init(_ record: ActionRecord) {
        udn = record.udn
        service = record.serviceType
        action = record.call.actionName
        arguments = Self.object(record.call.arguments)
        switch record.outcome {
        case .success(let out):
            result = Self.object(out)
            errorCode = nil
        case .failure(let error):
            result = nil
            errorCode = error.code
        }
        recorded = record.recorded ? true : nil
    }

    /// Arguments by name; the last of a repeated name wins.
    private static func object(_ arguments: [SOAPArgument]) -> [String: String] {
        Dictionary(arguments.map { ($0.name, $0.value) }) { $1 }
    }
}

private struct SubscriptionFields: JournalFields {
    /// `subscribe`, `renew`, `unsubscribe` or `refused`.
    let event: String
    let udn: String
    let service: String
    let sid: String
    let timeout: Int?
    let status: Int
    let reason: String?
    /// The subscriber's address.
    let from: String?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case event, udn, service, sid, timeout, status, reason, from
    }
}

private struct EventSentFields: JournalFields {
    let event = "event-sent"
    let udn: String
    let service: String
    let sid: String
    let seq: Int
    let callback: String
    /// The subscriber's answer; none when it never came.
    let status: Int?
    let lost: Bool?
    /// Seconds the delivery was held back.
    let delay: Double?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case event, udn, service, sid, seq, callback, status, lost, delay
    }
}

private struct DeviceFields: JournalFields {
    let event = "device"
    let udn: String
    /// The operation, or `add` for a device that joined.
    let action: String
    let state: String
    let bootId: Int
    /// A device that joined: where it is.
    var location: String? = nil
    var address: String? = nil

    enum CodingKeys: String, CodingKey, CaseIterable {
        case event, udn, action, state, bootId, location, address
    }
}

private struct NetworkFields: JournalFields {
    let event = "network"
    let faults: JSONValue

    enum CodingKeys: String, CodingKey, CaseIterable {
        case event, faults
    }
}

private struct StoppedFields: Encodable {
    let event = "stopped"
    let counters: SimulatorCounters
}

private struct DatagramFields: Encodable {
    /// `datagram-received` or `datagram-sent`.
    let event: String
    let from: String?
    let to: String?
    /// The datagram's size in bytes.
    let count: Int
}
