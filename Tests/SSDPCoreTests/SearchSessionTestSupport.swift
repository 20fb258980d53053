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

import SSDPCore
import Testing

// Helpers shared by the search-session tests: a response builder, the original design's M-SEARCH, and a driver that
// runs a `SearchSessionStateMachine` on a simulated clock.

// MARK: - Responses

/// A search response written the way a device writes it, field by field, so a test can leave a field out
/// or change it.
struct SearchResponseBuilder: Sendable, CustomTestStringConvertible {
    var fields: [SSDPHeaderField]

    init(_ fields: KeyValuePairs<String, String>) {
        self.fields = fields.map { SSDPHeaderField(name: $0.key, value: $0.value) }
    }

    /// A Roku answering its own search target.
    static let roku = SearchResponseBuilder([
        "CACHE-CONTROL": "max-age=3600",
        "EXT": "",
        "LOCATION": "http://192.168.1.20:8060/",
        "SERVER": "Roku/12.0.0 UPnP/1.0 Roku/12.0.0",
        "ST": "roku:ecp",
        "USN": "uuid:roku:ecp:YN00AA000001",
    ])

    /// A Philips Hue bridge: it answers `upnp:rootdevice` whatever was searched for.
    static let hue = SearchResponseBuilder([
        "HOST": "239.255.255.250:1900",
        "EXT": "",
        "CACHE-CONTROL": "max-age=100",
        "LOCATION": "http://192.168.1.30:80/description.xml",
        "SERVER": "Linux/3.14.0 UPnP/1.0 IpBridge/1.26.0",
        "hue-bridgeid": "001788FFFE255ACC",
        "ST": "upnp:rootdevice",
        "USN": "uuid:2f402f80-da50-11e1-9b23-001788255acc::upnp:rootdevice",
    ])

    /// A DIAL server (a Chromecast-like device) answering a versioned service type.
    static let dial = SearchResponseBuilder([
        "CACHE-CONTROL": "max-age=1800",
        "DATE": "Sat, 01 Jun 2024 12:00:00 GMT",
        "EXT": "",
        "LOCATION": "http://192.168.1.40:8008/ssdp/device-desc.xml",
        "OPT": "\"http://schemas.upnp.org/upnp/1/0/\"; ns=01",
        "01-NLS": "b9200ebb-736d-4b93-bf03-835149d13983",
        "SERVER": "Linux/3.8.13, UPnP/1.0, Portable SDK for UPnP devices/1.6.18",
        "X-User-Agent": "redsonic",
        "ST": "urn:dial-multiscreen-org:service:dial:1",
        "USN": "uuid:3e1cc7d4-3a22-4a8c-9a35-0a4b1c2d3e4f::urn:dial-multiscreen-org:service:dial:1",
        "BOOTID.UPNP.ORG": "7",
    ])

    /// The value of the first field called exactly `name`.
    subscript(name: String) -> String? {
        fields.first { $0.name == name }?.value
    }

    /// The same response without the fields called exactly `name`.
    func removing(_ name: String) -> SearchResponseBuilder {
        var copy = self
        copy.fields.removeAll { $0.name == name }
        return copy
    }

    /// The same response with the field called exactly `name` set to `value`, in place, or appended.
    func setting(_ name: String, to value: String) -> SearchResponseBuilder {
        var copy = self
        if let index = copy.fields.firstIndex(where: { $0.name == name }) {
            copy.fields[index].value = value
        } else {
            copy.fields.append(SSDPHeaderField(name: name, value: value))
        }
        return copy
    }

    /// The response as a message, without going through the parser.
    var message: SSDPMessage {
        SSDPMessage(kind: .response, headers: SSDPHeaders(fields))
    }

    /// The datagram a device sends: `HTTP/1.1 200 OK`, one CRLF-ended line per field, a blank line.
    var datagram: [UInt8] {
        let lines = fields.map { $0.value.isEmpty ? "\($0.name):\r\n" : "\($0.name): \($0.value)\r\n" }
        return Array(("HTTP/1.1 200 OK\r\n" + lines.joined() + "\r\n").utf8)
    }

    /// The service this response describes when it arrives at `receivedAt`, built from the fields by hand
    /// (not by `SSDPService(response:)`). Only for responses with all fields and `max-age=<seconds>`.
    func service(receivedAt: SSDPInstant = .zero) -> SSDPService {
        let maxAge = Duration.seconds(Int(self["CACHE-CONTROL"]!.dropFirst("max-age=".count))!)
        let required: Set = ["CACHE-CONTROL", "LOCATION", "SERVER", "ST", "USN"]
        return SSDPService(
            cacheControl: receivedAt + maxAge,
            maxAge: maxAge,
            location: self["LOCATION"]!,
            server: self["SERVER"]!,
            searchTarget: self["ST"]!,
            uniqueServiceName: self["USN"]!,
            otherHeaders: SSDPHeaders(fields.filter { !required.contains($0.name) })
        )
    }

    var testDescription: String { self["USN"] ?? "response without USN" }
}

// MARK: - Searches

/// The M-SEARCH the original design sends, byte for byte: HOST, MAN, ST and MX, each line ended by CRLF.
func seedSearchDatagram(
    searchTarget: String,
    maximumWaitResponseTime: Int,
    host: String = "239.255.255.250:1900"
) -> [UInt8] {
    let lines = [
        "M-SEARCH * HTTP/1.1", "HOST: \(host)", "MAN: \"ssdp:discover\"", "ST: \(searchTarget)",
        "MX: \(maximumWaitResponseTime)", "",
    ]
    return Array(lines.map { $0 + "\r\n" }.joined().utf8)
}

/// The M-SEARCH the original design sends to the multicast group, as a message.
func seedSearchMessage(searchTarget: String = "roku:ecp", maximumWaitResponseTime: Int = 3) -> SSDPMessage {
    SSDPMessage(
        kind: .search,
        headers: [
            "HOST": "239.255.255.250:1900",
            "MAN": "\"ssdp:discover\"",
            "ST": searchTarget,
            "MX": "\(maximumWaitResponseTime)",
        ]
    )
}

// MARK: - Driving the machine

/// An action and the instant the machine returned it at.
struct TimedAction: Hashable, Sendable, CustomStringConvertible {
    var instant: SSDPInstant
    var action: SearchSessionStateMachine.Action

    init(_ instant: SSDPInstant, _ action: SearchSessionStateMachine.Action) {
        self.instant = instant
        self.action = action
    }

    var description: String { "\(instant): \(action)" }
}

extension SearchSessionStateMachine {
    /// A multicast search session (seed defaults: MX 3, three requests).
    static func multicast(
        searchTarget: String = "roku:ecp",
        maximumWaitResponseTime: Int = 3,
        requests: Int = 3
    ) throws -> SearchSessionStateMachine {
        SearchSessionStateMachine(
            configuration: try .createMulticastConfiguration(
                forSearchTarget: searchTarget,
                maximumWaitResponseTime: maximumWaitResponseTime,
                maximumSearchRequestsBeforeClosing: requests
            )
        )
    }

    /// Starts the session at `start`, then fires the timer exactly at each deadline until it stops.
    mutating func run(from start: SSDPInstant = .zero) -> [TimedAction] {
        self.start(at: start).map { TimedAction(start, $0) } + fireTimers()
    }

    /// Fires the timer exactly at each deadline, up to and including `limit`, or until the session needs no
    /// more timers, and returns what it asked for and when.
    mutating func fireTimers(through limit: SSDPInstant? = nil) -> [TimedAction] {
        var timeline: [TimedAction] = []
        var firings = 0
        while let deadline = nextDeadline, limit.map({ deadline <= $0 }) ?? true {
            firings += 1
            guard firings <= 100_000 else {
                Issue.record("the session keeps asking for timers")
                break
            }
            timeline += timerFired(at: deadline).map { TimedAction(deadline, $0) }
        }
        return timeline
    }
}

/// Checks that a finished session ignores every event: no actions, no reports, no timers.
func expectFinished(
    _ machine: inout SearchSessionStateMachine,
    at now: SSDPInstant,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(machine.isStopped, sourceLocation: sourceLocation)
    #expect(machine.nextDeadline == nil, sourceLocation: sourceLocation)
    #expect(machine.timerFired(at: now) == [], sourceLocation: sourceLocation)
    #expect(machine.timerFired(at: now + .seconds(3600)) == [], sourceLocation: sourceLocation)
    #expect(
        machine.received(SearchResponseBuilder.roku.datagram, at: now) == .dropped(.notSearching),
        sourceLocation: sourceLocation
    )
    #expect(machine.stop(at: now) == [], sourceLocation: sourceLocation)
    #expect(
        machine.failed(SSDPSearchSessionError(.socketFailed, reason: "late"), at: now) == [],
        sourceLocation: sourceLocation
    )
    #expect(machine.start(at: now) == [], sourceLocation: sourceLocation)
    #expect(machine.nextDeadline == nil, sourceLocation: sourceLocation)
}
