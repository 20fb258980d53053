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

@testable import SSDPDeviceCore
@testable import SSDPSimCLI
@testable import SSDPSimulator

/// `serve --json`'s lines, made by the simulator's one event encoding (`SimulatorEvent.json`, which the
/// control API's journal keeps too): byte for byte what they were before that encoding moved there.
@Suite struct EventLineTests {
    static let peer = try! SocketAddress(ipAddress: "127.0.0.1", port: 50_000)
    static let udn = "uuid:00000000-0000-4000-8000-000000000001"
    static let service = "urn:schemas-upnp-org:service:WANIPConnection:1"

    static var events: [SimulatorEvent] {
        let call = SOAPActionCall(
            serviceType: service,
            actionName: "AddPortMapping",
            arguments: [SOAPArgument("NewExternalPort", "8080"), SOAPArgument("NewProtocol", "TCP")]
        )
        let event = GENAEvent(sid: "uuid:s", callback: "http://127.0.0.1:9/cb", sequence: 3, body: "")
        let status = DeviceStatus(
            number: 2,
            udn: udn,
            friendlyName: "Router",
            deviceType: "urn:x",
            profile: "igd",
            address: "127.0.0.3",
            location: "http://127.0.0.3:5000/rootDesc.xml",
            state: .gone,
            bootID: 7,
            configID: 1,
            maxAge: 1800,
            behaviour: .init(),
            httpFaults: .init(),
            advertisements: []
        )
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

    @Test func eachEventPrintsTheLineItAlwaysPrinted() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let lines = try Self.events.map { String(decoding: try encoder.encode(EventLine($0)), as: UTF8.self) }
        #expect(lines.count == Self.expected.count)
        for (line, expected) in zip(lines, Self.expected) {
            #expect(line == expected)
        }
    }

    @Test func onlyTheStartedLineNamesTheControlURL() {
        let stopped = EventLine(.stopped(SimulatorCounters()), control: "http://127.0.0.1:1")
        #expect(stopped.fields["control"] == nil, "only on started")
    }
}
