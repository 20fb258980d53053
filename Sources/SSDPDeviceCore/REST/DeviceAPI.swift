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

/// One HTTP request to a simulated device, read whole.
public struct DeviceHTTPRequest: Sendable {
    /// The HTTP method as sent (`GET`, `POST`, `SUBSCRIBE`).
    public var method: String
    /// The path without the query, as sent (percent-encoding kept).
    public var path: String
    /// The query's `name=value` pairs (percent-encoding kept).
    public var query: [String: String]
    /// The query as sent, after the `?` (empty without one).
    public var queryText: String
    /// The path and its query, as sent (`/dial/YouTube?x=1`).
    public var target: String { queryText.isEmpty ? path : path + "?" + queryText }
    /// Header values by lower-case name; the last one wins.
    public var headers: [String: String]
    /// The body, whole (a SOAP envelope, DIAL launch data).
    public var body: [UInt8]
    /// The server's own origin as the client reached it, `http://192.168.1.20:8060`, for URLs in answers.
    public var origin: String
    /// The client's address (`192.168.1.50`), for answers that depend on who asks (an IGD in secure mode
    /// maps ports to the caller only).
    public var client: String

    /// A request for `target`, the path with its query, which is split off into `query`.
    public init(
        method: String,
        target: String,
        headers: [String: String] = [:],
        body: [UInt8] = [],
        origin: String,
        client: String = "127.0.0.1"
    ) {
        self.method = method
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        self.path = String(parts[0])
        var query: [String: String] = [:]
        for pair in parts.dropFirst().first?.split(separator: "&") ?? [] {
            let nameAndValue = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            query[String(nameAndValue[0])] = nameAndValue.count > 1 ? String(nameAndValue[1]) : ""
        }
        self.query = query
        self.queryText = parts.count > 1 ? String(parts[1]) : ""
        self.headers = headers
        self.body = body
        self.origin = origin
        self.client = client
    }

    /// Whether the request's Host names the address and port it reached (`origin`'s), as a device that
    /// guards its control and eventing against DNS rebinding asks (GUPnP since CVE-2021-33516): a web page
    /// whose name an attacker rebinds to the device's address sends the page's name as Host. A request
    /// without Host (HTTP/1.0) names nothing; the port may be left out when it is 80. Names are not
    /// resolved, so `localhost` does not name 127.0.0.1, as GUPnP does not take it either.
    public var hostNamesOrigin: Bool {
        guard let host = headers["host"]?.trimmingASCIIWhitespace.lowercased() else { return true }
        let authority = origin.lowercased().dropFirst("http://".count)
        return host == authority || (authority.hasSuffix(":80") && host == authority.dropLast(3))
    }
}

/// Something a client made a simulated device do, reported as `SimulatorEvent.deviceAction`, so a test can
/// assert "my app pressed Home" or "my app launched YouTube".
public struct DeviceAction: Hashable, Sendable {
    /// The UDN of the device that did it.
    public var udn: String
    /// `keypress`, `keydown`, `keyup`, `launch`, `input` (Roku); `dial-launch`, `dial-stop`, `dial-hide`,
    /// `dial-data` (DIAL).
    public var name: String
    /// The key, the app, or the payload.
    public var value: String
    /// A DIAL launch's query, percent-decoded (`friendlyName`, `clientDialVer`, …), as the client sent it.
    public var query: [String: String] = [:]
    /// For a DIAL launch, where the app posts its `dial_data` (the reference server hands the app
    /// `additionalDataUrl`, on the device itself).
    public var additionalDataURL: String?

    /// An action of the device `udn`: what it did (`name`) and to what (`value`).
    public init(udn: String, name: String, value: String) {
        self.udn = udn
        self.name = name
        self.value = value
    }
}

/// A device family's own API on its HTTP side, beside its UPnP services: a Roku's ECP, a Hue bridge's
/// `/api`, a DIAL server's REST side. The simulator's HTTP server asks each API of a device in turn for a
/// request its documents and services do not answer, and the control API sets the live state an API has
/// (`PATCH /devices/{id} {"state": …}`). A family's API, its configuration (`DeviceAPIConfiguration`) and
/// its endpoints and its profile live in its folder, `SSDPDevices/Families/<family>`; `DeviceWeb.apis` is the
/// one line that registers it.
///
/// An API is a value: the caller passes the time in and keeps it behind a lock.
public protocol DeviceAPI: Sendable {
    /// The names of the live state it has besides the services' variables (a Roku's `powerMode`); none by
    /// default.
    var liveState: Set<String> { get }

    /// Why live state `name` cannot be `value`, or `nil` when it can.
    func check(_ name: String, _ value: String) -> String?

    /// Sets live state `name` to `value`, which `check` allowed, at `time`.
    mutating func set(_ name: String, to value: String, at time: DeviceAPITime)

    /// The device's names changed (`PATCH /devices/{id}`); an API that reports them reports the new ones.
    mutating func update(device: SSDPDevice)

    /// The answer to `request` at `time`, or `nil` when its path is not the API's.
    mutating func respond(to request: DeviceHTTPRequest, at time: DeviceAPITime) -> DeviceAPIAnswer?
}

extension DeviceAPI {
    /// No live state.
    public var liveState: Set<String> { [] }

    /// No value is any live state's: it has none.
    public func check(_ name: String, _ value: String) -> String? { "not a state this device has" }

    /// Nothing to set.
    public mutating func set(_ name: String, to value: String, at time: DeviceAPITime) {}

    /// Nothing of the device's names in its answers.
    public mutating func update(device: SSDPDevice) {}
}

/// What makes a family's API for one device (a Roku's `RokuConfiguration`), as a profile or a device file
/// configures it, and says what the API serves.
public protocol DeviceAPIConfiguration: Hashable, Sendable {
    /// The API of `device`, started at `time`; `seed` draws what the API draws (a Hue bridge's keys).
    func makeAPI(for device: SSDPDevice, seed: UInt64, at time: DeviceAPITime) -> any DeviceAPI

    /// The endpoints the API serves, for `ssdp-sim profiles NAME` and the README.
    var endpoints: [DeviceHTTPEndpoint] { get }

    /// The headers the API adds to the device's description served at `path` to a client that reached the
    /// device at `origin`, where the API serves the description there (DIAL's `Application-URL`, on its own
    /// path or on LOCATION's); `nil` for any other path.
    func descriptionHeaders(at path: String, origin: String) -> [SSDPHeaderField]?
}

extension DeviceAPIConfiguration {
    /// None: the description is LOCATION's alone.
    public func descriptionHeaders(at path: String, origin: String) -> [SSDPHeaderField]? { nil }
}

/// A configuration of any family's API, compared and hashed as its own type does, so that a device that
/// has one (`DeviceWeb.otherAPIs`) stays a value.
public struct AnyDeviceAPIConfiguration: Hashable, Sendable {
    /// The configuration.
    public let base: any DeviceAPIConfiguration

    /// `base`, boxed.
    public init(_ base: some DeviceAPIConfiguration) {
        self.base = base
    }

    /// Whether both are configurations of one type, and equal.
    public static func == (left: Self, right: Self) -> Bool {
        left.base.isEqual(to: right.base)
    }

    /// Hashes the configuration as its type does.
    public func hash(into hasher: inout Hasher) {
        base.hash(into: &hasher)
    }
}

extension DeviceAPIConfiguration {
    /// Whether `other` is a configuration of this type, and equal to this one.
    fileprivate func isEqual(to other: any DeviceAPIConfiguration) -> Bool {
        (other as? Self) == self
    }
}

/// The moment a device API acts: the monotonic instant its timers count from (a Hue link button's 30
/// seconds, a Roku's uptime), and the wall clock's seconds since 1970 for the dates it reports.
public struct DeviceAPITime: Sendable {
    /// The instant, on the clock timers run on.
    public var instant: ContinuousClock.Instant
    /// The time of day, for dates in answers.
    public var secondsSince1970: Int

    /// The moment `instant`, which is `secondsSince1970` on the wall clock.
    public init(instant: ContinuousClock.Instant, secondsSince1970: Int) {
        self.instant = instant
        self.secondsSince1970 = secondsSince1970
    }
}

/// One HTTP endpoint a device serves, for `ssdp-sim profiles NAME` and the README.
public struct DeviceHTTPEndpoint: Hashable, Sendable {
    /// `GET`, `POST`, `DELETE` (several as `GET, POST`).
    public var methods: String
    /// The path, `{key}`-style for a variable part.
    public var path: String
    /// What the endpoint does, in a few words (`installed channels`).
    public var summary: String

    /// The endpoint `path`, taking `methods`, which does what `summary` says.
    public init(methods: String, path: String, summary: String) {
        self.methods = methods
        self.path = path
        self.summary = summary
    }
}

/// A device API's answer (Roku's ECP, DIAL's REST side), before the HTTP side writes it: its status, its
/// headers, what its body is, and what the request made the device do.
public struct DeviceAPIAnswer: Sendable {
    /// What the body of an answer is.
    public enum Content: Sendable {
        /// The status's own short page (`404 Not Found`), which a server with error pages of its own replaces.
        case statusPage
        /// The status page's headers and no text (a CORS preflight's 204).
        case emptyStatusPage
        /// An XML document.
        case xml(String)
        /// Text laid out by the API itself, its Content-Type among the answer's headers (a Hue bridge's JSON).
        case text(String)
        /// Nothing: no body and no Content-Type.
        case none
    }

    /// The HTTP status code.
    public var status: Int
    /// Headers besides Content-Length and Connection, in order; besides Content-Type too, which the
    /// server writes for each content but `text`.
    public var headers: [SSDPHeaderField]
    /// The body.
    public var content: Content
    /// What the request made the device do, for the event stream.
    public var actions: [DeviceAction]

    /// An answer with `status` and no body; `actions` are what the request made the device do.
    public init(status: Int, headers: [SSDPHeaderField] = [], content: Content = .none, actions: [DeviceAction] = []) {
        self.status = status
        self.headers = headers
        self.content = content
        self.actions = actions
    }

    /// The status's own page, with `headers`.
    public static func status(_ status: Int, headers: [SSDPHeaderField] = []) -> DeviceAPIAnswer {
        DeviceAPIAnswer(status: status, headers: headers, content: .statusPage)
    }

    /// An XML document, 200.
    public static func xml(_ document: String, headers: [SSDPHeaderField] = []) -> DeviceAPIAnswer {
        DeviceAPIAnswer(status: 200, headers: headers, content: .xml(document))
    }

    /// A document for `GET` and `HEAD`; any other method is 405.
    public static func document(_ document: String, for request: DeviceHTTPRequest) -> DeviceAPIAnswer {
        guard request.method == "GET" || request.method == "HEAD" else { return .methodNotAllowed(allow: "GET, HEAD") }
        return .xml(document)
    }

    /// 405 with the methods the path takes.
    public static func methodNotAllowed(allow: String) -> DeviceAPIAnswer {
        .status(405, headers: [SSDPHeaderField(name: "Allow", value: allow)])
    }
}

extension String {
    /// The text with `%XX` escapes decoded, or `nil` when an escape is broken or the result is not UTF-8.
    package var percentDecoded: String? {
        var bytes: [UInt8] = []
        var iterator = utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(Self.hexValue), let low = iterator.next().flatMap(Self.hexValue)
            else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
