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

import NIOConcurrencyHelpers
import NIOCore
import SSDPDeviceCore
import SSDPSimulator

/// What the control API answers, without any I/O: requests in, responses out. It turns them into the
/// simulator's device operations and the journal's queries, and has no logic of its own.
final class ControlAPI: Sendable {
    let journal: SimulatorJournal
    /// The simulator, once it serves.
    private let simulatorBox = NIOLockedValueBox<DeviceSimulator?>(nil)
    /// The origins a browser page may call from (`--control-allow-origin`); others get 403.
    let allowedOrigins: Set<String>
    /// Whether the server listens on a loopback address only, and so takes only requests whose Host is one
    /// (or `localhost`): a web page cannot reach it through a DNS name that it rebinds to 127.0.0.1.
    let loopbackOnly: Bool
    /// The token every request but `GET /health` must carry (`Authorization: Bearer TOKEN`), as its bytes;
    /// `nil` for none.
    private let token: [UInt8]?

    init(journal: SimulatorJournal, allowedOrigins: Set<String>, loopbackOnly: Bool, token: String? = nil) {
        self.journal = journal
        self.allowedOrigins = allowedOrigins
        self.loopbackOnly = loopbackOnly
        self.token = token.map { Array($0.utf8) }
    }

    var simulator: DeviceSimulator? {
        get { simulatorBox.withLockedValue { $0 } }
        set { simulatorBox.withLockedValue { $0 = newValue } }
    }

    /// The answer to `request`, with the CORS header when an allowed origin asked.
    func respond(to request: ControlRequest) async -> ControlResponse {
        var response: ControlResponse
        do {
            response = try await route(request)
        } catch let refusal as ControlRefusal {
            response = refusal.response
            if refusal.status == 401 { response.headers.append(("WWW-Authenticate", "Bearer")) }
        } catch {
            response = .error(500, "\(error)")
        }
        if let origin = request.headers["origin"], allowedOrigins.contains(origin) {
            response.headers += [("Access-Control-Allow-Origin", origin), ("Vary", "Origin")]
        }
        return response
    }

    private func route(_ request: ControlRequest) async throws -> ControlResponse {
        try checkOrigin(of: request)
        let match = ControlRoute.match(request.segments)
        // A probe (a container's or a pod's) asks /health without secrets; it tells whether the simulator
        // serves and how many devices, nothing a token would guard.
        if match?.route != .health || request.method != "GET" { try checkToken(of: request) }
        guard let (route, parameters) = match else {
            let paths = ControlRoute.allCases.map(\.template).joined(separator: ", ")
            throw ControlRefusal(404, "no such path (the paths: \(paths); see /openapi.json)")
        }
        guard route.methods.contains(request.method) else {
            var response = ControlResponse.error(
                405,
                "\(route.template) takes \(route.methods.joined(separator: ", ")), not \(request.method)"
            )
            response.headers.append(("Allow", route.methods.joined(separator: ", ")))
            return response
        }
        switch (route, request.method) {
        case (.health, _): return health()
        case (.devices, "POST"): return try await add(request)
        case (.devices, _): return try devices()
        case (.device, "PATCH"): return try await change(parameters["id"] ?? "", request)
        case (.device, "DELETE"): return try await remove(parameters["id"] ?? "", request)
        case (.device, _): return try device(parameters["id"] ?? "")
        case (.network, "PUT"): return try await setNetwork(request)
        case (.network, _): return try network()
        case (.reset, _): return try await reset()
        case (.action, _): return try await act(parameters["action"] ?? "", on: parameters["id"] ?? "", request)
        case (.journal, "DELETE"):
            journal.clear()
            return .noContent
        case (.journal, _): return try entries(request.query)
        case (.journalWait, _): return try await wait(request.query)
        case (.openAPI, _): return ControlResponse(status: 200, body: ControlOpenAPI.document)
        }
    }

    /// Refuses a request from a web page (an `Origin` not allowed), and, on a loopback server, one whose
    /// Host is a DNS name (a page that rebound its name to 127.0.0.1).
    private func checkOrigin(of request: ControlRequest) throws {
        if let origin = request.headers["origin"], !allowedOrigins.contains(origin) {
            throw ControlRefusal(
                403,
                "requests from web pages are refused (Origin \(origin)); allow one with --control-allow-origin"
            )
        }
        if loopbackOnly, let host = request.headers["host"], !Self.isLoopback(host: host) {
            throw ControlRefusal(
                403,
                "Host \(host) is not a loopback address: a server on loopback answers only requests to 127.0.0.1, "
                    + "[::1] or localhost"
            )
        }
    }

    /// Refuses a request without the token, when there is one. The comparison takes as long whatever the
    /// header holds, so its time tells nothing of the token; neither the token nor what was sent is written
    /// anywhere.
    private func checkToken(of request: ControlRequest) throws {
        guard let token else { return }
        // The scheme in any case (RFC 9110 §11.1), then the credentials.
        let parts = (request.headers["authorization"] ?? "").split(separator: " ", maxSplits: 1)
        let isBearer = parts.count == 2 && parts[0].lowercased() == "bearer"
        let sent = Array((isBearer ? parts[1].drop { $0 == " " } : "").utf8)
        var difference = UInt8(isBearer && sent.count == token.count ? 0 : 1)
        for index in token.indices {
            difference |= token[index] ^ (index < sent.count ? sent[index] : 0)
        }
        guard difference == 0 else {
            throw ControlRefusal(
                401,
                "this control API takes requests with its token only: Authorization: Bearer TOKEN, the token "
                    + "serve was given (--control-token-file, --control-token or SSDP_SIM_CONTROL_TOKEN)"
            )
        }
    }

    /// Whether a Host header (`127.0.0.1:8080`, `[::1]:8080`, `localhost`) names this machine's loopback.
    static func isLoopback(host: String) -> Bool {
        var name = Substring(host.lowercased())
        if name.hasPrefix("["), let end = name.firstIndex(of: "]") {
            name = name[name.index(after: name.startIndex)..<end]
        } else if name.filter({ $0 == ":" }).count == 1, let colon = name.firstIndex(of: ":") {
            name = name[..<colon]
        }
        return name == "localhost" || isLoopback(ip: String(name))
    }

    /// Whether an IP address is a loopback one: 127.0.0.0/8 or ::1.
    static func isLoopback(ip: String) -> Bool {
        let octets = ip.split(separator: ".", omittingEmptySubsequences: false)
        return ip == "::1" || (octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil })
    }

    private func health() -> ControlResponse {
        guard let simulator else { return .json(503, ["status": "starting"]) }
        let present = simulator.statuses().filter { $0.state != .removed }.count
        return .json(200, ["status": "serving", "devices": .int(present)])
    }

    /// The simulator, or 503 while it is starting.
    func serving() throws -> DeviceSimulator {
        guard let simulator else { throw ControlRefusal(503, "the simulator is not serving yet") }
        return simulator
    }
}
