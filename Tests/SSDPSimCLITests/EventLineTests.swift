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
import SSDPCore
import Testing

@testable import SSDPControl
@testable import SSDPDeviceCore
@testable import SSDPDevices
@testable import SSDPSimCLI
@testable import SSDPSimulator

/// `serve --json`'s lines, made by the simulator's one event encoding (`SimulatorEvent.json`, which the
/// control API's journal keeps too): byte for byte what they were before that encoding moved there.
@Suite struct EventLineTests {
    static let peer = try! SocketAddress(ipAddress: "127.0.0.1", port: 50_000)
    static let udn = "uuid:00000000-0000-4000-8000-000000000001"
    static let service = "urn:schemas-upnp-org:service:WANIPConnection:1"

    /// Device `number` at `address`, as an operation leaves it (what a `device` line says of it).
    static func device(
        _ number: Int,
        _ address: String,
        location: String,
        state: DeviceLifecycle.State,
        bootID: Int
    ) -> DeviceStatus {
        DeviceStatus(
            number: number,
            udn: udn,
            friendlyName: "Device \(number)",
            deviceType: "urn:x",
            profile: nil,
            address: address,
            location: location,
            state: state,
            bootID: bootID,
            configID: 1,
            maxAge: 1800,
            behaviour: .init(),
            httpFaults: .init(),
            advertisements: []
        )
    }

    static var events: [SimulatorEvent] {
        let call = SOAPActionCall(
            serviceType: service,
            actionName: "AddPortMapping",
            arguments: [SOAPArgument("NewExternalPort", "8080"), SOAPArgument("NewProtocol", "TCP")]
        )
        let event = GENAEvent(sid: "uuid:s", callback: "http://127.0.0.1:9/cb", sequence: 3, body: "")
        let status = device(2, "127.0.0.3", location: "http://127.0.0.3:5000/rootDesc.xml", state: .gone, bootID: 7)
        return [
            .searchReceived(from: peer, headers: SSDPHeaders(["ST": "ssdp:all", "MX": "2"]), outcome: .answered(3)),
            .searchReceived(from: peer, headers: SSDPHeaders(["ST": "roku:ecp"]), outcome: .rejected(.notASearch)),
            .answerSent(to: peer, usn: udn + "::upnp:rootdevice", target: "upnp:rootdevice"),
            .notificationsSent(subtype: .byebye, count: 6),
            .httpRequest(method: "POST", path: "/keypress/Home", status: 200, origin: "http://127.0.0.2:8060"),
            .deviceAction(DeviceAction(udn: udn, name: "keypress", value: "Home")),
            .actionCalled(
                ActionRecord(udn: udn, serviceType: service, call: call, outcome: .success([SOAPArgument("A", "b/c")]))
            ),
            .actionCalled(
                ActionRecord(
                    udn: udn,
                    serviceType: service,
                    call: call,
                    outcome: .failure(UPnPError(code: 718, description: "x"))
                )
            ),
            .subscription(
                SubscriptionRecord(
                    udn: udn,
                    serviceType: service,
                    kind: .subscribe,
                    sid: "uuid:s",
                    timeout: 300,
                    status: 200,
                    subscriber: "127.0.0.1"
                )
            ),
            .subscription(
                SubscriptionRecord(
                    udn: udn,
                    serviceType: service,
                    kind: .refused,
                    sid: "",
                    timeout: nil,
                    status: 412,
                    reason: "no CALLBACK"
                )
            ),
            .eventSent(EventDelivery(udn: udn, serviceType: service, event: event, status: 200)),
            .eventSent(
                EventDelivery(
                    udn: udn,
                    serviceType: service,
                    event: event,
                    status: nil,
                    delay: .milliseconds(1_500),
                    lost: true
                )
            ),
            .deviceChanged(status, operation: .reboot(downFor: .seconds(5))),
            .stopped(SimulatorCounters()),
            .datagram(received: true, peer: peer, local: peer, bytes: [1, 2, 3]),
            .datagram(received: false, peer: peer, local: peer, bytes: [1]),
        ]
    }

    /// Events with the fields `events` leaves out: a search answered by some devices (and why not by the
    /// others), one lost, a dropped datagram, a lost answer, a NOTIFY set's devices, a DIAL launch's query,
    /// a recorded SOAP answer, a device added, the network faults.
    static var moreEvents: [SimulatorEvent] {
        var unanswered = SimulatorResponder.Unanswered()
        unanswered.noMatch = 1
        unanswered.silent = 1
        var launch = DeviceAction(udn: udn, name: "dial-launch", value: "YouTube")
        launch.query = ["v": "1", "friendlyName": "Phone"]
        launch.additionalDataURL = "http://127.0.0.2:8060/apps/YouTube/dial_data"
        let call = SOAPActionCall(serviceType: service, actionName: "GetStatusInfo", arguments: [])
        var faults = NetworkFaults()
        faults.loss = 0.25
        let added = device(3, "127.0.0.4", location: "http://127.0.0.4:8060/", state: .alive, bootID: 1)
        return [
            .searchReceived(
                from: peer,
                headers: SSDPHeaders(["ST": "ssdp:all", "MX": "1"]),
                outcome: .answered(2),
                answeredBy: [1, 3],
                unanswered: unanswered
            ),
            .searchReceived(from: peer, headers: SSDPHeaders(["ST": "ssdp:all"]), outcome: .lostByNetwork),
            .datagramDropped(from: peer, reason: .source, target: "roku:ecp"),
            .datagramDropped(from: peer, reason: .malformed),
            .answerSent(to: peer, usn: udn, target: udn, lostByNetwork: true),
            .notificationsSent(subtype: .alive, count: 3, devices: [2]),
            .deviceAction(launch),
            .actionCalled(
                ActionRecord(udn: udn, serviceType: service, call: call, outcome: .success([]), recorded: true)
            ),
            .deviceAdded(added),
            .networkChanged(faults),
        ]
    }

    /// The lines `serve --json` printed for these events before the encoding moved (issue 39).
    static let expected = [
        #"{"answers":3,"event":"search","from":"127.0.0.1:50000","mx":"2","st":"ssdp:all"}"#,
        #"{"event":"search","from":"127.0.0.1:50000","rejected":"notASearch","st":"roku:ecp"}"#,
        #"{"event":"answer","st":"upnp:rootdevice","to":"127.0.0.1:50000","usn":"uuid:00000000-0000-4000-8000-000000000001::upnp:rootdevice"}"#,
        #"{"count":6,"event":"notify","nts":"ssdp:byebye"}"#,
        #"{"event":"http","method":"POST","path":"/keypress/Home","status":200,"url":"http://127.0.0.2:8060/keypress/Home"}"#,
        #"{"action":"keypress","event":"action","udn":"uuid:00000000-0000-4000-8000-000000000001","value":"Home"}"#,
        #"{"action":"AddPortMapping","arguments":{"NewExternalPort":"8080","NewProtocol":"TCP"},"event":"soap","result":{"A":"b/c"},"service":"urn:schemas-upnp-org:service:WANIPConnection:1","udn":"uuid:00000000-0000-4000-8000-000000000001"}"#,
        #"{"action":"AddPortMapping","arguments":{"NewExternalPort":"8080","NewProtocol":"TCP"},"errorCode":718,"event":"soap","service":"urn:schemas-upnp-org:service:WANIPConnection:1","udn":"uuid:00000000-0000-4000-8000-000000000001"}"#,
        #"{"event":"subscribe","from":"127.0.0.1","service":"urn:schemas-upnp-org:service:WANIPConnection:1","sid":"uuid:s","status":200,"timeout":300,"udn":"uuid:00000000-0000-4000-8000-000000000001"}"#,
        #"{"event":"refused","reason":"no CALLBACK","service":"urn:schemas-upnp-org:service:WANIPConnection:1","sid":"","status":412,"udn":"uuid:00000000-0000-4000-8000-000000000001"}"#,
        #"{"callback":"http://127.0.0.1:9/cb","event":"event-sent","seq":3,"service":"urn:schemas-upnp-org:service:WANIPConnection:1","sid":"uuid:s","status":200,"udn":"uuid:00000000-0000-4000-8000-000000000001"}"#,
        #"{"callback":"http://127.0.0.1:9/cb","delay":1.5,"event":"event-sent","lost":true,"seq":3,"service":"urn:schemas-upnp-org:service:WANIPConnection:1","sid":"uuid:s","udn":"uuid:00000000-0000-4000-8000-000000000001"}"#,
        #"{"action":"reboot","bootId":7,"event":"device","state":"gone","udn":"uuid:00000000-0000-4000-8000-000000000001"}"#,
        #"{"counters":{"answersLost":0,"answersOverflowed":0,"answersRateLimited":0,"answersSent":0,"datagramsReceived":0,"httpConnectionsDisplaced":0,"httpConnectionsRefused":0,"malformed":0,"networkDuplicated":0,"networkLostIncoming":0,"networkLostOutgoing":0,"notifications":0,"notificationsSent":0,"oversized":0,"responses":0,"searchesAccepted":0,"searchesNotHeard":0,"searchesRateLimited":0,"searchesRejected":0,"searchesUnmatched":0,"searchesWhileSilent":0,"sourcesRejected":0},"event":"stopped"}"#,
        #"{"count":3,"event":"datagram-received","from":"127.0.0.1:50000"}"#,
        #"{"count":1,"event":"datagram-sent","to":"127.0.0.1:50000"}"#,
    ]

    /// The lines `serve --json` printed for `moreEvents` before each event's fields became a type of its own.
    static let moreExpected = [
        #"{"answers":2,"devices":[1,3],"event":"search","from":"127.0.0.1:50000","mx":"1","st":"ssdp:all","unanswered":"1 device: no match for the target, 1 device: in a silent window"}"#,
        #"{"event":"search","from":"127.0.0.1:50000","lost":true,"st":"ssdp:all"}"#,
        #"{"detail":"its source is not a loopback, private or link-local address","event":"dropped","flag":"--allow-any-source","from":"127.0.0.1:50000","reason":"source","st":"roku:ecp"}"#,
        #"{"detail":"not an SSDP message","event":"dropped","from":"127.0.0.1:50000","reason":"malformed"}"#,
        #"{"event":"answer","lost":true,"st":"uuid:00000000-0000-4000-8000-000000000001","to":"127.0.0.1:50000","usn":"uuid:00000000-0000-4000-8000-000000000001"}"#,
        #"{"count":3,"devices":[2],"event":"notify","nts":"ssdp:alive"}"#,
        #"{"action":"dial-launch","additionalDataUrl":"http://127.0.0.2:8060/apps/YouTube/dial_data","event":"action","query":{"friendlyName":"Phone","v":"1"},"udn":"uuid:00000000-0000-4000-8000-000000000001","value":"YouTube"}"#,
        #"{"action":"GetStatusInfo","arguments":{},"event":"soap","recorded":true,"result":{},"service":"urn:schemas-upnp-org:service:WANIPConnection:1","udn":"uuid:00000000-0000-4000-8000-000000000001"}"#,
        #"{"action":"add","address":"127.0.0.4","bootId":1,"event":"device","location":"http://127.0.0.4:8060/","state":"alive","udn":"uuid:00000000-0000-4000-8000-000000000001"}"#,
        #"{"event":"network","faults":{"answerLoss":{"probability":0},"duplicate":{"probability":0},"latency":{"max":0,"min":0},"loss":{"probability":0.25},"reorder":{"probability":0},"reorderDelay":0.1}}"#,
    ]

    @Test(arguments: [(events, expected), (moreEvents, moreExpected)])
    func eachEventPrintsTheLineItAlwaysPrinted(events: [SimulatorEvent], expected: [String]) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let lines = try events.map { String(decoding: try encoder.encode(EventLine($0)), as: UTF8.self) }
        #expect(lines.count == expected.count)
        for (line, expected) in zip(lines, expected) {
            #expect(line == expected)
        }
        // What `serve --json` prints: the line's value written by `JSONValue.jsonText`, not `JSONEncoder`.
        #expect(events.map { EventLine($0).jsonValue?.jsonText } == expected)
    }

    /// The names the control API accepts in a journal filter are every name an event the journal keeps
    /// writes: each kind's `CodingKeys`; an event of each kind writes only its own.
    @Test func theJournalsFieldNamesAreThoseTheEventsWrite() {
        #expect(JournalEntry.fieldNames.count == 40)
        let entries = Self.journaled()
        #expect(Set(entries.map(\.kind)) == Set(JournalEntry.Kind.allCases), "an event of each kind")
        for entry in entries {
            #expect(Set(entry.fields.keys).isSubset(of: entry.kind.fieldNames), "\(entry.kind): \(entry.fields)")
        }
    }

    /// An entry's fields as the control API's OpenAPI document describes them, one schema per kind
    /// (`searchFields`, …): its properties are the kind's `CodingKeys`, and every event here, as the journal
    /// keeps it, has the fields its schema requires and no other, each of the type it gives.
    @Test func theOpenAPIDocumentDescribesEachKindsFields() throws {
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(ControlOpenAPI.document.utf8)) as? [String: Any]
        )
        let schemas = try #require((document["components"] as? [String: Any])?["schemas"] as? [String: [String: Any]])
        let fields = (schemas["Entry"]?["properties"] as? [String: Any])?["fields"] as? [String: Any]
        let kinds = try #require(fields?["oneOf"] as? [[String: String]]).compactMap { $0["$ref"] }
        #expect(kinds == JournalEntry.Kind.allCases.map { "#/components/schemas/\($0.rawValue)Fields" })
        for kind in JournalEntry.Kind.allCases {
            let properties = schemas["\(kind.rawValue)Fields"]?["properties"] as? [String: Any]
            #expect(Set(properties?.keys.map { $0 } ?? []) == Set(kind.fieldNames), "\(kind)")
        }
        for entry in Self.journaled() {
            let schema = try #require(schemas["\(entry.kind.rawValue)Fields"])
            let required = try #require(schema["required"] as? [String])
            let properties = try #require(schema["properties"] as? [String: [String: Any]])
            #expect(Set(required).isSubset(of: entry.fields.keys), "\(entry.kind): \(entry.fields.keys.sorted())")
            for (name, value) in entry.fields {
                let property = try #require(properties[name], "\(entry.kind).\(name) is not in the document")
                #expect(Self.allows(property, value), "\(entry.kind).\(name): \(value)")
            }
        }
    }

    /// Every event here that the journal keeps, as it keeps them.
    static func journaled() -> [JournalEntry] {
        let journal = SimulatorJournal()
        for event in events + moreEvents { journal.append(event) }
        return journal.entries(matching: JournalFilter()).entries
    }

    /// Whether `value` is what a property's schema allows at its top level: its `const`, one of its `enum`,
    /// or of its `type` (a whole number is a `number` too).
    static func allows(_ schema: [String: Any], _ value: JSONValue) -> Bool {
        if let constant = schema["const"] as? String { return value == .string(constant) }
        if let choices = schema["enum"] as? [String] {
            guard case .string(let text) = value else { return false }
            return choices.contains(text)
        }
        switch (schema["type"] as? String, value) {
        case ("string", .string), ("integer", .int), ("number", .int), ("number", .double), ("boolean", .bool),
            ("object", .object), ("array", .array):
            return true
        default:
            return false
        }
    }

    @Test func onlyTheStartedLineNamesTheControlURL() {
        let stopped = EventLine(.stopped(SimulatorCounters()), control: "http://127.0.0.1:1")
        #expect(stopped.fields["control"] == nil, "only on started")
    }
}
