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
        /// Nothing: no body and no Content-Type.
        case none
    }

    /// The HTTP status code.
    public var status: Int
    /// Headers besides Content-Type, Content-Length and Connection, in order.
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
