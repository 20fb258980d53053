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

import NIOHTTP1
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
    /// Header values by lower-case name; the last one wins.
    public var headers: [String: String]
    /// The body, whole (a SOAP envelope, DIAL launch data).
    public var body: [UInt8]
    /// The server's own origin as the client reached it, `http://192.168.1.20:8060`, for URLs in answers.
    public var origin: String
    /// The client's address (`192.168.1.50`), for answers that depend on who asks (an IGD maps ports to
    /// the caller when a call leaves NewInternalClient empty).
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
}

/// The answer to a `DeviceHTTPRequest`, and what the request made the device do.
public struct DeviceHTTPResponse: Sendable {
    /// The HTTP status code.
    public var status: Int
    /// Headers besides Content-Length and Connection, in order.
    public var headers: [SSDPHeaderField]
    /// Every header, Content-Length (`{length}`) and Connection included, when the device lays them out as
    /// its real server does (`DeviceWeb.httpHeaders`).
    var layout: [SSDPHeaderField]?
    /// The body, as text (XML for descriptions and SOAP answers).
    public var body: String
    /// The body as bytes, for a file that is not text (an icon); when set, it is sent instead of `body`.
    public var bytes: [UInt8]?
    /// What the device did (a key press, an app launched), for the event stream.
    public var actions: [DeviceAction]
    /// The SOAP actions and subscriptions the request was, for the event stream.
    var records: [SimulatorEvent] = []
    /// Event messages to deliver once the answer is written (the initial event of a subscription, the
    /// change an action made).
    var events: [EventDelivery] = []
    /// Answer after this long (an HTTP-side fault).
    var delay: Duration?
    /// Never answer (an HTTP-side fault): the connection is held until the client closes it or
    /// `HTTPFaults.hangLimit` passes.
    var hangs = false
    /// Close the connection without an answer: the device is gone.
    var drops = false
    /// Whether the body is only the simulator's word for the status (`status(_:)`), which a server with
    /// error pages of its own replaces (`withPage(from:)`).
    var isStatusPage = false
    /// Whether it refuses a SUBSCRIBE or UNSUBSCRIBE, for a server whose event URLs have pages of their own.
    var refusesEventing = false

    /// An answer with `status`; `actions` are what the request made the device do.
    public init(status: Int, headers: [SSDPHeaderField] = [], body: String = "", actions: [DeviceAction] = []) {
        self.status = status
        self.headers = headers
        self.body = body
        self.actions = actions
    }

    /// The answer with its headers laid out by `template` (a served file's, or `DeviceWeb.httpHeadersByKind`'s
    /// for the answer's kind, or `DeviceWeb.httpHeaders`) for a device whose SERVER is `server`.
    func laidOut(by template: [SSDPHeaderField]?, server: String) -> DeviceHTTPResponse {
        guard let template else { return self }
        var placed = Set<String>()
        var layout: [SSDPHeaderField] = []
        for field in template {
            placed.insert(field.name.lowercased())
            switch field.value {
            case "{server}":
                layout.append(SSDPHeaderField(name: field.name, value: server))
            case "{length}", "{date}":
                layout.append(field)  // the handler writes the body's length and the date it answers
            case let value where value.hasPrefix("{") && value.hasSuffix("}"):
                // `{Name}`, or `{Name|value}` with the value to write when the answer has no such header.
                let parts = value.dropFirst().dropLast().split(separator: "|", maxSplits: 1)
                let name = parts[0].lowercased()
                if let header = headers.first(where: { $0.name.lowercased() == name }) {
                    layout.append(SSDPHeaderField(name: field.name, value: header.value))
                } else if parts.count == 2 {
                    layout.append(SSDPHeaderField(name: field.name, value: String(parts[1])))
                }
            default:
                layout.append(field)
            }
        }
        layout += headers.filter { !placed.contains($0.name.lowercased()) }
        var answer = self
        answer.layout = layout
        return answer
    }

    /// An XML document with status 200 (or `status`).
    static func xml(_ body: String, status: Int = 200, headers: [SSDPHeaderField] = []) -> DeviceHTTPResponse {
        DeviceHTTPResponse(
            status: status,
            headers: [SSDPHeaderField(name: "Content-Type", value: "text/xml; charset=\"utf-8\"")] + headers,
            body: body
        )
    }

    /// A bodyless answer with `status` (and a short text body saying it, for people using curl).
    static func status(_ status: Int, headers: [SSDPHeaderField] = []) -> DeviceHTTPResponse {
        var answer = DeviceHTTPResponse(
            status: status,
            headers: [SSDPHeaderField(name: "Content-Type", value: "text/plain; charset=utf-8")] + headers,
            body: "\(status) \(HTTPResponseStatus(statusCode: status).reasonPhrase)\n"
        )
        answer.isStatusPage = true
        return answer
    }

    /// The answer as a server with its own error pages gives it: for one of the simulator's status pages
    /// (`status(_:)`), the status the server answers instead (`substitutes`) and that status's page, its
    /// `{status}` written as the code and reason.
    func withPage(from pages: HTTPErrorPages?) -> DeviceHTTPResponse {
        guard let pages, isStatusPage else { return self }
        let status = pages.substitutes[status] ?? status
        let page = (refusesEventing ? pages.eventPages[status] : nil) ?? pages.pages[status] ?? pages.otherwise
        var answer = self
        answer.status = status
        answer.headers =
            [SSDPHeaderField(name: "Content-Type", value: page.contentType)]
            + headers.filter { !["content-type", "allow"].contains($0.name.lowercased()) }
        answer.body = page.body.replacing(
            "{status}",
            with: "\(status) \(HTTPResponseStatus(statusCode: status).reasonPhrase)"
        )
        return answer
    }

    /// `document` as XML for a GET or HEAD (the handler leaves out the body for HEAD), and 405 for any
    /// other method: how every description, service description and query is served.
    static func document(
        _ document: String,
        for request: DeviceHTTPRequest,
        headers: [SSDPHeaderField] = []
    ) -> DeviceHTTPResponse {
        guard request.method == "GET" || request.method == "HEAD" else { return .methodNotAllowed(allow: "GET, HEAD") }
        return .xml(document, headers: headers)
    }

    /// No answer at all, the connection closed: what a client of a device that is gone meets.
    static var dropped: DeviceHTTPResponse {
        var response = DeviceHTTPResponse(status: 0)
        response.drops = true
        return response
    }

    /// 405, with the methods `path` does take.
    static func methodNotAllowed(allow: String) -> DeviceHTTPResponse {
        .status(405, headers: [SSDPHeaderField(name: "Allow", value: allow)])
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

/// A set of HTTP paths and what they answer, behind one listening socket.
protocol HTTPSite: Sendable {
    func respond(to request: DeviceHTTPRequest) -> DeviceHTTPResponse
}

extension String {
    /// The text with `%XX` escapes decoded, or `nil` when an escape is broken or the result is not UTF-8.
    var percentDecoded: String? {
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
