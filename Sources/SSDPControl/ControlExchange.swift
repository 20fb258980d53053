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
import SSDPSimulator

/// One request to the control API, read whole.
struct ControlRequest: Sendable {
    /// `GET`, `POST`, …
    var method: String
    /// The path's segments, each percent-decoded: `/devices/2` → `["devices", "2"]`.
    var segments: [String]
    /// The query's parameters in order, decoded (`+` is a space).
    var query: [(name: String, value: String)]
    /// Header names in lower case.
    var headers: [String: String]
    var body: [UInt8]

    /// A request for `target` (`/journal?kind=http`).
    init(method: String, target: String, headers: [String: String] = [:], body: [UInt8] = []) {
        self.method = method
        self.headers = headers
        self.body = body
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        segments = parts[0].split(separator: "/").map { Self.decode($0) }
        query = (parts.count > 1 ? parts[1] : "").split(separator: "&").map { parameter in
            let pair = parameter.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (
                Self.decode(pair[0], plusIsSpace: true), pair.count > 1 ? Self.decode(pair[1], plusIsSpace: true) : ""
            )
        }
    }

    private static func decode(_ text: Substring, plusIsSpace: Bool = false) -> String {
        let text = plusIsSpace ? text.replacingOccurrences(of: "+", with: " ") : String(text)
        return text.removingPercentEncoding ?? text
    }
}

/// The control API's answer to one request.
struct ControlResponse: Sendable {
    var status: Int
    var headers: [(name: String, value: String)] = []
    /// JSON, or empty (204).
    var body: String

    /// `value` as JSON.
    static func json(_ status: Int, _ value: JSONValue) -> ControlResponse {
        ControlResponse(status: status, body: value.jsonText + "\n")
    }

    /// An error: `{"error": message, "path": path}`, and `extra` members.
    static func error(
        _ status: Int,
        _ message: String,
        path: String? = nil,
        extra: [String: JSONValue] = [:]
    ) -> ControlResponse {
        var members = extra
        members["error"] = .string(message)
        members["path"] = path.map { .string($0) }
        return json(status, JSONValue(members))
    }

    /// 204, no body.
    static let noContent = ControlResponse(status: 204, body: "")
}

/// A request the API refuses: the status, the message, and the JSON path of a body's bad field.
struct ControlRefusal: Error {
    var status: Int
    var message: String
    var path: String?

    init(_ status: Int, _ message: String, path: String? = nil) {
        self.status = status
        self.message = message
        self.path = path
    }

    var response: ControlResponse { .error(status, message, path: path) }
}
