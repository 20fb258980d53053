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

import FoundationEssentials
import SSDPCore
import SSDPDeviceCore

/// A real device as `ssdp-sim record` met it, in a device file (`recording`): its answers to each search
/// target, and each HTTP response, as they arrived.
///
/// ```json
/// "recording": {
///   "source": {"location": "http://192.168.1.1:5000/rootDesc.xml", "recorded": "2026-11-28T23:50:02Z",
///              "tool": "ssdp-sim 0.26.0"},
///   "searches": [ {"st": "upnp:rootdevice", "mx": 1,
///                  "answers": [ {"delay": 0.012, "sourcePort": 1900, "datagram": "HTTP/1.1 200 OK\r\n…"} ]} ],
///   "http": [ {"method": "GET", "target": "/rootDesc.xml", "response": "HTTP/1.1 200 OK\r\n…<root …"},
///             {"method": "GET", "target": "/icon.png", "base64": "SFRUUC8xLjEgMjAw…"},
///             {"method": "GET", "target": "/query/active-app", "readsState": true, "response": "HTTP/1.1 200 …"},
///             {"method": "POST", "target": "/ctl/IPConn",
///              "soap": {"action": "urn:schemas-upnp-org:service:WANIPConnection:1#GetExternalIPAddress",
///                       "arguments": {}},
///              "response": "HTTP/1.1 200 OK\r\n…<s:Envelope …"} ],
///   "notFound": {"method": "GET", "target": "/ssdp-sim-no-such-path", "response": "HTTP/1.1 404 …"},
///   "unsupportedMethod": {"method": "PUT", "target": "/rootDesc.xml", "response": "HTTP/1.1 501 …"} }
/// ```
///
/// Each datagram and response is text when its bytes are UTF-8 (`datagram`, `response`) and base64 when
/// not (`base64`), never both. The device file entry around it names the device as its description does
/// (`udn`, `deviceType`, `services`, `embeddedDevices`): what its advertisements, its NOTIFY messages and the
/// control API say of it.
public struct RecordingSpecification: Codable, Sendable, Hashable {
    /// Where and when the recording was made, and by what.
    public struct Source: Codable, Sendable, Hashable {
        /// The device's LOCATION when it was recorded.
        public var location: String
        /// When (ISO 8601, UTC).
        public var recorded: String?
        /// The tool and its version.
        public var tool: String?

        enum CodingKeys: String, CodingKey, CaseIterable {
            case location, recorded, tool
        }

        /// A source at `location`.
        public init(location: String, recorded: String? = nil, tool: String? = nil) {
            self.location = location
            self.recorded = recorded
            self.tool = tool
        }
    }

    /// One search target and what the device answered to it.
    public struct Search: Codable, Sendable, Hashable {
        /// The target searched, as written.
        public var st: String
        /// The MX the search carried.
        public var mx: Int?
        /// The answers, in the order they arrived.
        public var answers: [Answer]

        enum CodingKeys: String, CodingKey, CaseIterable {
            case st, mx, answers
        }

        /// The answers to a search for `st` with `mx`.
        public init(st: String, mx: Int?, answers: [Answer]) {
            self.st = st
            self.mx = mx
            self.answers = answers
        }
    }

    /// One datagram the device sent: an answer to a search, or a NOTIFY (`notifications`).
    public struct Answer: Codable, Sendable, Hashable, CapturedDatagram {
        /// Seconds after the search (a NOTIFY: after the listening began).
        public var delay: Double
        /// The UDP port it came from (a device's answers need not come from 1900).
        public var sourcePort: Int?
        /// The IP TTL it arrived with (a NOTIFY's: the hops the device gives its multicast), where recorded.
        public var ttl: Int?
        /// The datagram, when it is UTF-8 text.
        public var datagram: String?
        /// The datagram in base64, when it is not.
        public var base64: String?

        enum CodingKeys: String, CodingKey, CaseIterable {
            case delay, sourcePort, ttl, datagram, base64
        }

        /// A datagram that arrived `delay` seconds after the search, from `sourcePort`, with `ttl`.
        public init(delay: Double, sourcePort: Int?, ttl: Int? = nil, bytes: [UInt8]) {
            self.delay = delay
            self.sourcePort = sourcePort
            self.ttl = ttl
            (datagram, base64) = Self.written(bytes)
        }
    }

    /// The action call a POST to a control URL was.
    public struct SOAPCall: Codable, Sendable, Hashable {
        /// The service type and the action, as SOAPACTION names them
        /// (`urn:schemas-upnp-org:service:WANIPConnection:1#GetExternalIPAddress`).
        public var action: String
        /// The in-arguments by name (`{"InstanceID": "0"}`).
        public var arguments: [String: String]

        enum CodingKeys: String, CodingKey, CaseIterable {
            case action, arguments
        }

        /// A call of `action` (`type#Name`) with `arguments`.
        public init(action: String, arguments: [String: String]) {
            self.action = action
            self.arguments = arguments
        }
    }

    /// One HTTP exchange: what was asked, and the response as it arrived.
    public struct Exchange: Codable, Sendable, Hashable, CapturedDatagram {
        /// The method (`GET`).
        public var method: String
        /// The path and query (`/rootDesc.xml`).
        public var target: String
        /// The action call, for a POST to a control URL.
        public var soap: SOAPCall?
        /// `true` for a read of the device's state on a vendor's REST side (a Roku's `/query/active-app`),
        /// played only while the device is as recorded; absent for a document.
        public var readsState: Bool?
        /// `true` for a request a client made through the recording proxy (`serve --record-from`): played
        /// only while the device is as recorded, and where the same request was made several times, each
        /// time the next answer, in the order they came. It may change the device (a SetVolume, a key).
        public var proxied: Bool?
        /// The request's body, where a request made through the recording proxy had one (a Hue light's
        /// `{"on":true}`), as text: only the same body gets the response. Absent: no body.
        public var body: String?
        /// The response, when it is UTF-8 text.
        public var response: String?
        /// The response in base64, when it is not.
        public var base64: String?

        var datagram: String? { response }

        enum CodingKeys: String, CodingKey, CaseIterable {
            case method, target, soap, readsState, proxied, body, response, base64
        }

        /// The response to `method target` (an action call: `soap`; a read of the device's state:
        /// `readsState`; a request made through the recording proxy: `proxied`).
        public init(
            method: String,
            target: String,
            soap: SOAPCall? = nil,
            readsState: Bool = false,
            proxied: Bool = false,
            body: String? = nil,
            bytes: [UInt8]
        ) {
            self.method = method
            self.target = target
            self.soap = soap
            self.readsState = readsState ? true : nil
            self.proxied = proxied ? true : nil
            self.body = body
            (response, base64) = Self.written(bytes)
        }
    }

    /// The initial event a subscription got (GENA): the event URL subscribed at, and the NOTIFY as it
    /// arrived.
    public struct Event: Codable, Sendable, Hashable, CapturedDatagram {
        /// The path and query of the event URL subscribed at (`/evt/IPConn`).
        public var target: String
        /// The NOTIFY (request line, headers, body), when it is UTF-8 text.
        public var notify: String?
        /// The NOTIFY in base64, when it is not.
        public var base64: String?

        var datagram: String? { notify }

        enum CodingKeys: String, CodingKey, CaseIterable {
            case target, notify, base64
        }

        /// The initial event `bytes` a subscription at `target` got.
        public init(target: String, bytes: [UInt8]) {
            self.target = target
            (notify, base64) = Self.written(bytes)
        }
    }

    /// Where and when it was recorded.
    public var source: Source
    /// The answers to each search target.
    public var searches: [Search]
    /// The HTTP exchanges, each `method target` (each call) once but where `proxied`.
    public var http: [Exchange]
    /// What the device answered to a GET of a path it does not have.
    public var notFound: Exchange?
    /// What it answered to a method it does not take.
    public var unsupportedMethod: Exchange?
    /// The initial event of each service it sends events for.
    public var events: [Event]?
    /// The NOTIFY messages it multicast while it was recorded (`record --listen`), in the order they came.
    public var notifications: [Answer]?
    /// When its answers to searches leave: at their recorded delays (`nil`, `as-recorded`), or each at a
    /// delay drawn within the search's MX (`within-mx`), as `record` saw the device do.
    public var answerDelays: AnswerDelays?

    /// When a recorded device's answers to searches leave.
    public enum AnswerDelays: String, Codable, Sendable, Hashable, CaseIterable {
        /// Each at the delay it was recorded with.
        case asRecorded = "as-recorded"
        /// Each at a delay drawn anew within the search's MX (UDA 1.1 §1.3.3; GSSDP does so).
        case withinMX = "within-mx"

        /// The value a file names; the error says which it may name.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let value = Self(rawValue: text) else {
                throw DecodingError.dataCorruptedError(
                    in: container,
                    debugDescription: "\"\(text)\": must be \(Self.namedChoices)"
                )
            }
            self = value
        }
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case source, searches, http, notFound, unsupportedMethod, events, notifications, answerDelays
    }

    /// A recording of these parts.
    public init(
        source: Source,
        searches: [Search],
        http: [Exchange],
        notFound: Exchange? = nil,
        unsupportedMethod: Exchange? = nil,
        events: [Event] = [],
        notifications: [Answer] = [],
        answerDelays: AnswerDelays? = nil
    ) {
        self.source = source
        self.searches = searches
        self.http = http
        self.notFound = notFound
        self.unsupportedMethod = unsupportedMethod
        self.events = events.isEmpty ? nil : events
        self.notifications = notifications.isEmpty ? nil : notifications
        self.answerDelays = answerDelays
    }

    /// The LOCATION's `http://host:port`, and its path; the error names the field.
    public func location() throws(SSDPConfigurationError) -> (origin: String, path: String, port: Int) {
        let field = "recording.source.location"
        let location = source.location
        guard location.hasPrefixIgnoringASCIICase("http://") else {
            throw SSDPConfigurationError(field: field, value: location, reason: "must be an http:// URL")
        }
        let origin = DeviceResponder.schemeAndAuthority(of: location)
        let authority = origin.dropFirst("http://".count)
        let path = location.dropFirst(origin.count).isEmpty ? "/" : String(location.dropFirst(origin.count))
        // The port is after the last colon that is not inside an IPv6 address's brackets.
        let hostEnd = authority.lastIndex(of: "]") ?? authority.startIndex
        let colon = authority[hostEnd...].lastIndex(of: ":")
        let port = colon.map { Int(authority[authority.index(after: $0)...]) } ?? 80
        guard !authority.isEmpty, colon != authority.startIndex, let port, (1...65_535).contains(port) else {
            throw SSDPConfigurationError(field: field, value: location, reason: "must name a host and a port 1...65535")
        }
        return (origin, path, port)
    }

    /// The answers the device core plays; errors name the field (`recording.searches[1].answers[0].delay`).
    public func makeAnswers() throws(SSDPConfigurationError) -> SSDPRecordedAnswers {
        var targets: [SSDPRecordedAnswers.Target] = []
        for (index, search) in searches.enumerated() {
            let field = "recording.searches[\(index)]"
            guard !search.st.isEmpty else {
                throw SSDPConfigurationError(field: "\(field).st", value: "", reason: "a search target is not empty")
            }
            guard !targets.contains(where: { $0.target == search.st }) else {
                throw SSDPConfigurationError(field: "\(field).st", value: search.st, reason: "recorded twice")
            }
            var answers: [SSDPRecordedAnswers.Answer] = []
            for (number, answer) in search.answers.enumerated() {
                let answerField = "\(field).answers[\(number)]"
                let delay = try Self.delay(answer.delay, field: answerField, upTo: 120)
                let bytes = try answer.bytes(field: answerField)
                guard (1...65_507).contains(bytes.count) else {
                    throw SSDPConfigurationError(
                        field: answerField,
                        value: "\(bytes.count) bytes",
                        reason: "a datagram is 1...65507 bytes"
                    )
                }
                answers.append(.init(delay: delay, bytes: bytes))
            }
            targets.append(.init(search.st, answers))
        }
        let sourcePorts = searches.flatMap(\.answers).compactMap(\.sourcePort)
        return SSDPRecordedAnswers(
            targets: targets,
            sourcePorts: Set(sourcePorts),
            drawsDelaysWithinMX: answerDelays == .withinMX
        )
    }

    /// A datagram's `delay` in seconds as a duration, when it is 0...`limit`; the error names `field`'s delay.
    private static func delay(
        _ delay: Double,
        field: String,
        upTo limit: Double
    ) throws(SSDPConfigurationError)
        -> Duration
    {
        guard delay.isFinite, (0...limit).contains(delay) else {
            throw SSDPConfigurationError(
                field: "\(field).delay",
                value: "\(delay)",
                reason: "must be 0...\(Int(limit)) seconds"
            )
        }
        return .microseconds(Int64((delay * 1_000_000).rounded()))
    }

    /// The most NOTIFY messages a recording holds.
    public static let maximumNotifications = 256

    /// The NOTIFY messages heard while recording, in the order they came; errors name the field
    /// (`recording.notifications[3].ttl`).
    public func makeNotifications() throws(SSDPConfigurationError) -> [SSDPNotifyHeaders.Heard] {
        let recorded = notifications ?? []
        guard recorded.count <= Self.maximumNotifications else {
            throw SSDPConfigurationError(
                field: "recording.notifications",
                value: "\(recorded.count) messages",
                reason: "a recording holds at most \(Self.maximumNotifications)"
            )
        }
        var heard: [SSDPNotifyHeaders.Heard] = []
        for (index, notification) in recorded.enumerated() {
            let field = "recording.notifications[\(index)]"
            let at = try Self.delay(notification.delay, field: field, upTo: 3_600)
            if let ttl = notification.ttl, !(1...255).contains(ttl) {
                throw SSDPConfigurationError(field: "\(field).ttl", value: "\(ttl)", reason: "must be 1...255")
            }
            if let port = notification.sourcePort, !(1...65_535).contains(port) {
                throw SSDPConfigurationError(
                    field: "\(field).sourcePort",
                    value: "\(port)",
                    reason: "must be 1...65535"
                )
            }
            let bytes = try notification.bytes(field: field)
            guard bytes.count <= 65_507, (try? SSDPParser.parseMessage(bytes))?.kind == .notify else {
                throw SSDPConfigurationError(
                    field: field,
                    value: String(decoding: bytes.prefix { $0 != 13 && $0 != 10 }.prefix(80), as: UTF8.self),
                    reason: "must be a NOTIFY datagram"
                )
            }
            heard.append(
                .init(
                    at: at,
                    sourcePort: notification.sourcePort,
                    ttl: notification.ttl,
                    bytes: bytes
                )
            )
        }
        return heard.sorted { $0.at < $1.at }
    }

    /// The responses the device's HTTP side plays; errors name the field (`recording.http[2].base64`).
    public func makeHTTP() throws(SSDPConfigurationError) -> HTTPRecording {
        var exchanges: [HTTPRecording.Exchange] = []
        var calls: [HTTPRecording.Call] = []
        for (index, exchange) in http.enumerated() {
            let field = "recording.http[\(index)]"
            let made = try Self.make(exchange, field: field)
            if let soap = exchange.soap {
                let call = try Self.call(soap, made, proxied: exchange.proxied == true, field: field)
                guard calls.count < HTTPRecording.maximumCalls else {
                    throw SSDPConfigurationError(
                        field: "\(field).soap",
                        value: soap.action,
                        reason: "a recording holds at most \(HTTPRecording.maximumCalls) action calls"
                    )
                }
                guard
                    exchange.proxied == true
                        || !calls.contains(where: {
                            $0.target == call.target && $0.serviceType == call.serviceType
                                && $0.actionName == call.actionName && $0.arguments == call.arguments
                        })
                else {
                    throw SSDPConfigurationError(field: "\(field).soap", value: soap.action, reason: "recorded twice")
                }
                calls.append(call)
                continue
            }
            guard
                exchange.proxied == true
                    || !exchanges.contains(where: { $0.method == made.method && $0.target == made.target })
            else {
                throw SSDPConfigurationError(
                    field: "\(field).target",
                    value: "\(made.method) \(made.target)",
                    reason: "recorded twice"
                )
            }
            exchanges.append(made)
        }
        let (origin, path, _) = try location()
        guard exchanges.contains(where: { $0.method == "GET" && $0.target == path }) else {
            throw SSDPConfigurationError(
                field: "recording.http",
                value: path,
                reason: "holds no GET of the description (recording.source.location's path)"
            )
        }
        return HTTPRecording(
            origin: origin,
            exchanges: exchanges,
            notFound: try notFound.map { (exchange) throws(SSDPConfigurationError) in
                try Self.page(exchange, field: "recording.notFound")
            },
            unsupportedMethod: try unsupportedMethod.map { (exchange) throws(SSDPConfigurationError) in
                try Self.page(exchange, field: "recording.unsupportedMethod")
            },
            calls: calls,
            initialEvents: try initialEvents()
        )
    }

    /// The properties of each recorded initial event, by the event URL's path; errors name the field.
    private func initialEvents() throws(SSDPConfigurationError) -> [String: [SOAPArgument]] {
        var events: [String: [SOAPArgument]] = [:]
        for (index, event) in (self.events ?? []).enumerated() {
            let field = "recording.events[\(index)]"
            guard event.target.hasPrefix("/") else {
                throw SSDPConfigurationError(field: "\(field).target", value: event.target, reason: "must start with /")
            }
            guard events[event.target] == nil else {
                throw SSDPConfigurationError(field: "\(field).target", value: event.target, reason: "recorded twice")
            }
            let bytes = try event.bytes(field: field)
            guard bytes.starts(with: Array("NOTIFY ".utf8)), let properties = HTTPRecording.properties(ofEvent: bytes)
            else {
                throw SSDPConfigurationError(
                    field: field,
                    value: String(decoding: bytes.prefix(40), as: UTF8.self),
                    reason: "an event is a NOTIFY whose body is a property set (<e:propertyset>)"
                )
            }
            events[event.target] = properties
        }
        return events
    }

    /// The response of `notFound` or `unsupportedMethod`, which answer requests, not calls.
    private static func page(_ exchange: Exchange, field: String) throws(SSDPConfigurationError) -> [UInt8] {
        if let soap = exchange.soap {
            throw SSDPConfigurationError(
                field: "\(field).soap",
                value: soap.action,
                reason: "is for recorded calls only"
            )
        }
        return try make(exchange, field: field).response
    }

    /// The action call `exchange` (a POST) recorded.
    private static func call(
        _ soap: SOAPCall,
        _ exchange: HTTPRecording.Exchange,
        proxied: Bool,
        field: String
    ) throws(SSDPConfigurationError) -> HTTPRecording.Call {
        guard exchange.method == "POST" else {
            throw SSDPConfigurationError(
                field: "\(field).method",
                value: exchange.method,
                reason: "an action call is a POST"
            )
        }
        guard let hash = soap.action.lastIndex(of: "#"), hash != soap.action.startIndex,
            soap.action.index(after: hash) != soap.action.endIndex
        else {
            throw SSDPConfigurationError(
                field: "\(field).soap.action",
                value: soap.action,
                reason: "the service type, # and the action, as SOAPACTION names them (urn:…:service:X:1#GetY)"
            )
        }
        let name = soap.action[soap.action.index(after: hash)...]
        // A client's call through the recording proxy was the client's to choose; `record` reads only.
        guard proxied || HTTPRecording.Call.isReadOnly(String(name)) else {
            throw SSDPConfigurationError(
                field: "\(field).soap.action",
                value: soap.action,
                reason:
                    "a recorded call is of an action that only reads the device (Get…, Browse, Search, ListPresets), "
                    + "but for one made through the recording proxy (proxied); answer others with `actions`"
            )
        }
        return HTTPRecording.Call(
            target: exchange.target,
            serviceType: String(soap.action[..<hash]),
            actionName: String(soap.action[soap.action.index(after: hash)...]),
            arguments: soap.arguments,
            response: exchange.response
        )
    }

    private static func make(
        _ exchange: Exchange,
        field: String
    ) throws(SSDPConfigurationError) -> HTTPRecording.Exchange {
        guard !exchange.method.isEmpty, exchange.method.utf8.allSatisfy({ (65...90).contains($0) }) else {
            throw SSDPConfigurationError(
                field: "\(field).method",
                value: exchange.method,
                reason: "an HTTP method in capitals (GET)"
            )
        }
        guard exchange.target.hasPrefix("/") else {
            throw SSDPConfigurationError(field: "\(field).target", value: exchange.target, reason: "must start with /")
        }
        let bytes = try exchange.bytes(field: field)
        guard bytes.starts(with: Array("HTTP/".utf8)), HTTPRecording.headEnd(bytes) != nil else {
            throw SSDPConfigurationError(
                field: field,
                value: String(decoding: bytes.prefix(40), as: UTF8.self),
                reason:
                    "a response starts with its status line (HTTP/1.1 200 OK) and has an empty line after its headers"
            )
        }
        guard bytes.count <= HTTPRecording.maximumResponseSize else {
            throw SSDPConfigurationError(
                field: field,
                value: "\(bytes.count) bytes",
                reason: "a recorded response is at most \(HTTPRecording.maximumResponseSize) bytes"
            )
        }
        if exchange.readsState == true, exchange.method != "GET" || exchange.soap != nil {
            throw SSDPConfigurationError(
                field: "\(field).readsState",
                value: "true",
                reason: "only a GET of a vendor's REST side reads the device's state"
            )
        }
        if exchange.body != nil, exchange.proxied != true || exchange.soap != nil {
            throw SSDPConfigurationError(
                field: "\(field).body",
                value: String(exchange.body?.prefix(40) ?? ""),
                reason: "only a request made through the recording proxy (proxied, not a call) keeps its body"
            )
        }
        return HTTPRecording.Exchange(
            method: exchange.method,
            target: exchange.target,
            response: bytes,
            readsState: exchange.readsState == true || exchange.proxied == true,
            requestBody: exchange.body.map { Array($0.utf8) }
        )
    }
}
