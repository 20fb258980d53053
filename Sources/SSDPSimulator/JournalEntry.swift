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
import SSDPDeviceCore

/// One thing that happened in a running simulator, as the journal keeps it.
public struct JournalEntry: Hashable, Sendable {
    /// Its place in the journal: 1 for the first event, one more for each (a `clear` does not restart it).
    public var seq: Int
    /// Seconds since the journal started.
    public var time: Double
    /// What kind of event it was.
    public var kind: Kind
    /// The device it is about (its number, from 1), when the journal can tell.
    public var device: Int?
    /// That device's UDN.
    var udn: String?
    /// The devices it is about when there are several (a round of NOTIFYs), by number and by UDN.
    var severalDevices: [Int] = []
    var severalUDNs: [String] = []
    /// The event's fields, as `serve --json` prints them (`SimulatorEvent.json`).
    public var fields: [String: JSONValue]

    /// The kinds an entry can be, in the order the documentation lists them; the raw value is the word the
    /// journal's JSON, the control API's `kind=` and its OpenAPI document use.
    public enum Kind: String, CaseIterable, Hashable, Sendable {
        /// An M-SEARCH received.
        case search
        /// A datagram dropped (malformed, refused, over a limit).
        case dropped
        /// A search answer sent.
        case answer
        /// NOTIFYs sent (alive, byebye, update).
        case notify
        /// An HTTP request served.
        case http
        /// A SOAP action called.
        case soap
        /// A GENA subscription made, renewed or cancelled.
        case subscription
        /// A GENA NOTIFY sent.
        case event
        /// A device operation (vanish, reboot, a change).
        case device
        /// A Roku or DIAL device action.
        case action
        /// The network faults changed.
        case network
    }

    /// The names an entry's `fields` can have, whatever its kind (each kind's `fieldNames`): a filter on any
    /// other name matches nothing, so the control API refuses it.
    public static let fieldNames = Set(Kind.allCases.flatMap(\.fieldNames))

    /// Fills in the UDNs of the devices the entry is about, where `devices` knows them.
    mutating func resolveUDNs(_ devices: JournalDevices) {
        if udn == nil, let device { udn = devices.udn(at: device - 1) }
        if severalUDNs.count < severalDevices.count {
            severalUDNs = severalDevices.compactMap { devices.udn(at: $0 - 1) }
        }
    }

    /// The entry as JSON: `{"seq", "time", "kind", "device"?, "fields"}`.
    public var json: JSONValue {
        var members: [String: JSONValue] = [
            "seq": .int(seq), "time": .double(time), "kind": .string(kind.rawValue), "fields": JSONValue(fields),
        ]
        members["device"] = device.map { .int($0) }
        return JSONValue(members)
    }

    /// The journal's kind for `event`; `nil` for what it does not keep (`started`, `stopped`, datagrams).
    static func kind(of event: SimulatorEvent) -> Kind? {
        switch event {
        case .searchReceived: .search
        case .datagramDropped: .dropped
        case .answerSent: .answer
        case .notificationsSent: .notify
        case .httpRequest: .http
        case .actionCalled: .soap
        case .subscription: .subscription
        case .eventSent: .event
        case .deviceChanged, .deviceAdded: .device
        case .networkChanged: .network
        case .deviceAction: .action
        case .started, .stopped, .datagram: nil
        }
    }
}

/// The devices a journal has seen start, to tell which one an event is about: by UDN, by the UDN of a USN,
/// or by the HTTP base (origin, and `/device/N` on a shared server) of an HTTP request's URL.
struct JournalDevices: Sendable {
    private var udns: [String] = []
    /// Per UDN of a USN a device advertises (`udn(ofUSN:)`), the device's index: its root's UDN, its embedded
    /// devices' (whose USNs do not begin with the root's), and a Roku's `uuid:roku:ecp:SERIAL`. An answer to
    /// a search for an older version of a type (`…:WANIPConnection:1` from a device that advertises `:2`)
    /// has a USN the device does not advertise, of a UDN it does.
    private var advertisedUDNs: [String: Int] = [:]
    /// Per HTTP base (`http://127.0.0.2:8060`, `http://127.0.0.1:5000/device/0`), the device's index.
    private var bases: [String: Int] = [:]

    init() {}

    init(started devices: [SSDPRootDevice], links: [SimulatorLink]) {
        udns = devices.map(\.device.udn)
        for (index, device) in devices.enumerated() {
            noteAdvertised(device.advertisements.map(\.usn), of: index)
        }
        for link in links {
            for (index, device) in link.devices.enumerated() {
                bases[Self.base(of: device.location)] = index
            }
        }
    }

    /// The index of the device `event` is about, when it can be told.
    func index(of event: SimulatorEvent, fields: [String: JSONValue]) -> Int? {
        switch event {
        case .deviceChanged(let status, _), .deviceAdded(let status):
            return status.number - 1
        case .answerSent(_, let usn, _, _):
            return advertisedUDNs[Self.udn(ofUSN: usn)]
        case .notificationsSent(_, _, let devices):
            return devices.count == 1 ? devices[0] - 1 : nil
        case .httpRequest(_, let path, _, let origin):
            return bases[Self.base(of: origin + path)] ?? bases[origin]
        default:
            return fields["udn"]?.scalarText.flatMap { udn in udns.firstIndex(of: udn) }
        }
    }

    /// A device that joined later, number `udns.count + 1`, at `location`, advertising `usns`.
    mutating func add(udn: String, location: String, usns: [String]) {
        bases[Self.base(of: location)] = udns.count
        noteAdvertised(usns, of: udns.count)
        udns.append(udn)
    }

    /// Notes the UDNs of `usns` as device `index`'s, unless an earlier device has one.
    private mutating func noteAdvertised(_ usns: [String], of index: Int) {
        for udn in usns.map(Self.udn(ofUSN:)) where advertisedUDNs[udn] == nil { advertisedUDNs[udn] = index }
    }

    /// The UDN a USN names: what comes before its `::`, or all of it.
    static func udn(ofUSN usn: String) -> String {
        usn.range(of: "::").map { String(usn[..<$0.lowerBound]) } ?? usn
    }

    /// Device `number` serves at `location` (now too: its HTTP side may have moved).
    mutating func relocate(number: Int, location: String) {
        bases[Self.base(of: location)] = number - 1
    }

    func udn(at index: Int) -> String? {
        udns.indices.contains(index) ? udns[index] : nil
    }

    /// `http://host:port`, with `/device/N` when the path begins so (a device on the shared server).
    static func base(of url: String) -> String {
        guard let schemeEnd = url.range(of: "://") else { return url }
        let afterScheme = url[schemeEnd.upperBound...]
        guard let slash = afterScheme.firstIndex(of: "/") else { return url }
        let origin = String(url[..<slash])
        let parts = url[slash...].split(separator: "/", maxSplits: 2, omittingEmptySubsequences: false)
        if parts.count >= 3, parts[1] == "device", Int(parts[2].prefix { $0 != "/" }) != nil {
            return origin + "/device/" + parts[2].prefix { $0 != "/" }
        }
        return origin
    }
}
