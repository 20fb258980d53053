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
import SSDPDeviceCore
import SSDPDevices

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
    /// The whole response as a recording holds it (status line, headers and body), written as it is.
    var raw: [UInt8]?
    /// The answer comes from elsewhere, later: the real device's, played (`HTTPForwarding`); `nil`, none came.
    var forward: (@Sendable () async -> HTTPRecording.Played?)?
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

    /// A recorded response, sent byte for byte.
    static func recorded(_ played: HTTPRecording.Played) -> DeviceHTTPResponse {
        var response = DeviceHTTPResponse(status: played.status)
        response.raw = played.bytes
        return response
    }

    /// An answer `forward` gives once it has it.
    static func forwarded(_ forward: @escaping @Sendable () async -> HTTPRecording.Played?) -> DeviceHTTPResponse {
        var response = DeviceHTTPResponse(status: 0)
        response.forward = forward
        return response
    }

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

    /// A device API's answer as the HTTP side writes it.
    init(_ answer: DeviceAPIAnswer) {
        switch answer.content {
        case .statusPage:
            self = .status(answer.status, headers: answer.headers)
        case .emptyStatusPage:
            self = .status(answer.status, headers: answer.headers)
            body = ""
        case .xml(let document):
            self = .xml(document, status: answer.status, headers: answer.headers)
        case .text(let text):
            self.init(status: answer.status, headers: answer.headers, body: text)
        case .none:
            self.init(status: answer.status, headers: answer.headers)
        }
        actions = answer.actions
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

/// A set of HTTP paths and what they answer, behind one listening socket.
protocol HTTPSite: Sendable {
    func respond(to request: DeviceHTTPRequest) -> DeviceHTTPResponse
}
