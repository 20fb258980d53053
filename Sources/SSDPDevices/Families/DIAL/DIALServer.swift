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
import SSDPDeviceCore

/// A DIAL 2.2 server's REST side, with the status codes of the Netflix reference server
/// (`Netflix/dial-reference:server/dial_server.c`):
///
/// - `GET  <app>[?clientDialVer=2.1]`: the app's status XML, 404 for an unknown app. `hidden` is reported
///   as `stopped` to clients older than 2.1.
/// - `POST <app>`: launch with the body as payload: 201 and a `Location` of the instance (also when it
///   already runs), 413 above 4,096 bytes, 400 for a payload that is not printable ASCII.
/// - `DELETE <app>/run`: stop: 200, 404 when not running, 403 when the app does not allow stopping.
/// - `POST <app>/run/hide`: 200, 404 when not running.
/// - `POST <app>/dial_data` (or `GET` with the pairs as its query): `name=value&…` echoed in the status's
///   `<additionalData>`; 413 above 4,096 bytes; 403 from any host but the device itself, as the reference
///   takes it only from the app on the device.
/// - `OPTIONS`: the CORS preflight, 204. A request whose `Origin` the app does not allow gets 403.
/// - Any other method on a DIAL path: 501, as the reference answers.
///
/// The server is a value: the caller keeps it behind a lock.
public struct DIALServer: Sendable {
    /// The apps and paths.
    public let configuration: DIALConfiguration
    /// The `Application-URL` path with its final slash.
    public let applicationPath: String
    private let udn: String
    private var states: [String: AppState]

    /// The largest launch payload or dial_data body (`DIAL_MAX_PAYLOAD` of the reference server).
    public static let maximumPayload = 4_096

    private struct AppState {
        enum Phase: String { case running, stopped, hidden }
        var phase = Phase.stopped
        var additionalData: [(String, String)] = []
    }

    /// The DIAL server of the device `udn`, every app stopped (the system app hidden).
    public init(udn: String, configuration: DIALConfiguration) {
        self.udn = udn
        self.configuration = configuration
        let path = configuration.applicationPath
        applicationPath = path.hasSuffix("/") ? path : path + "/"
        var apps = Dictionary(uniqueKeysWithValues: configuration.apps.map { ($0.name, AppState()) })
        if configuration.systemApp != nil { apps[Self.system.name] = AppState(phase: .hidden) }
        states = apps
    }

    /// DIAL 2.2's system app as an app: hidden, never stopped, from any origin (`DIALConfiguration.systemApp`).
    private static let system = DIALApp(name: "system", allowStop: false)

    /// The apps a request may name: the configured ones, and the system app where there is one.
    private var apps: [DIALApp] {
        configuration.apps + (configuration.systemApp == nil ? [] : [Self.system])
    }

    /// The answer for a path under the application URL, or `nil` when `request` is for another path.
    public mutating func respond(to request: DeviceHTTPRequest) -> DeviceAPIAnswer? {
        let path = request.path
        if path == applicationPath || path + "/" == applicationPath {
            guard configuration.redirectsToRunningApp else { return nil }
            guard request.method == "GET" else { return .methodNotAllowed(allow: "GET") }
            let running = configuration.apps.first { states[$0.name]?.phase == .running }
            guard let running else { return .status(204) }
            return .status(302, headers: [location(request, running.name)])
        }
        guard path.hasPrefix(applicationPath) else { return nil }
        let parts = path.dropFirst(applicationPath.count).split(separator: "/", omittingEmptySubsequences: false)
        let origin = request.headers["origin"]
        guard let name = parts.first.flatMap({ String($0).percentDecoded }),
            let app = apps.first(where: { $0.name == name })
        else {
            // The reference checks the origin first: an unknown app asked for by a web page is 403.
            return .status(origin.map { $0.isEmpty } == false ? 403 : 404)
        }
        let rest = parts.dropFirst().map(String.init)
        guard [[], ["run"], ["run", "hide"], ["dial_data"]].contains(rest) else { return .status(404) }

        if let origin, !app.allows(origin: origin) { return .status(403) }
        let cors = origin.map { [SSDPHeaderField(name: "Access-Control-Allow-Origin", value: $0)] } ?? []
        let allowed = rest.isEmpty ? "GET, POST, OPTIONS" : rest == ["run"] ? "DELETE, OPTIONS" : "POST, OPTIONS"
        var response: DeviceAPIAnswer
        switch (request.method, rest) {
        case ("OPTIONS", _):
            response = DeviceAPIAnswer(
                status: 204,
                headers: [
                    SSDPHeaderField(name: "Access-Control-Allow-Methods", value: allowed),
                    SSDPHeaderField(name: "Access-Control-Allow-Headers", value: "Content-Type, Origin"),
                    SSDPHeaderField(name: "Access-Control-Max-Age", value: "86400"),
                ],
                content: .emptyStatusPage
            )
        case ("GET", []), ("HEAD", []):
            response = status(of: app, clientVersion: request.query["clientDialVer"].flatMap { Double($0) })
        case ("POST", []) where app == Self.system:
            response = systemRequest(request.queryText)
        case ("POST", []):
            response = launch(app, request)
        case ("DELETE", ["run"]):
            response = stop(app)
        case ("POST", ["run", "hide"]):
            response = hide(app)
        case ("POST", ["dial_data"]), ("GET", ["dial_data"]):
            guard Self.isOnTheDevice(request.client) else { return .status(403) }
            response = data(for: app, request.method == "GET" ? Array(request.queryText.utf8) : request.body)
        default:
            response = .status(501)
        }
        response.headers += cors
        return response
    }

    /// Whether a client is an app on the device itself: a loopback address.
    private static func isOnTheDevice(_ client: String) -> Bool {
        let octets = client.split(separator: ".", omittingEmptySubsequences: false)
        let decimal = { (octet: Substring) in
            (1...3).contains(octet.count) && octet.allSatisfy { $0.isASCII && $0.isNumber } && UInt8(octet) != nil
        }
        return client == "::1" || (octets.count == 4 && octets[0] == "127" && octets.allSatisfy(decimal))
    }

    private func status(of app: DIALApp, clientVersion: Double?) -> DeviceAPIAnswer {
        let state = states[app.name] ?? AppState()
        let phase = state.phase == .hidden && (clientVersion ?? 0) < 2.1 ? .stopped : state.phase
        let data = state.additionalData.map { "<\($0.0)>\(SSDPRootDevice.escaped($0.1))</\($0.0)>" }.joined()
        let link = state.phase == .stopped ? "" : "\n  <link rel=\"run\" href=\"run\"/>"
        return .xml(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <service xmlns="urn:dial-multiscreen-org:schemas:dial" dialVer="2.2">
              <name>\(SSDPRootDevice.escaped(app.name))</name>
              <options allowStop="\(app.allowStop)"/>
              <state>\(phase.rawValue)</state>\(link)
              <additionalData>\(data)</additionalData>
            </service>

            """
        )
    }

    private mutating func launch(_ app: DIALApp, _ request: DeviceHTTPRequest) -> DeviceAPIAnswer {
        guard request.body.count <= Self.maximumPayload else { return .status(413) }
        // The reference server takes printable ASCII only (dial_server.c's payload check).
        guard request.body.allSatisfy({ (0x20...0x7E).contains($0) }) else { return .status(400) }
        states[app.name, default: AppState()].phase = .running
        var response = DeviceAPIAnswer.status(201, headers: [location(request, app.name)])
        let payload = String(decoding: request.body, as: UTF8.self)
        var action = DeviceAction(
            udn: udn,
            name: "dial-launch",
            value: payload.isEmpty ? app.name : "\(app.name) \(payload)"
        )
        action.query = request.query.mapValues { $0.replacing("+", with: " ").percentDecoded ?? $0 }
        let port = request.origin.split(separator: ":").last.map(String.init) ?? "80"
        action.additionalDataURL = "http://localhost:\(port)\(applicationPath)\(app.name)/dial_data"
        response.actions = [action]
        return response
    }

    /// `POST system?action=sleep&key=KEY` as the reference's system_start answers it: 403 without a query,
    /// 501 for another action, 403 without the key when there is one, 401 for another key, and 501 for sleep
    /// itself, which the reference does not do.
    private func systemRequest(_ query: String) -> DeviceAPIAnswer {
        guard !query.isEmpty else { return .status(403) }
        guard query.hasPrefix("action=sleep") else { return .status(501) }
        if let key = configuration.systemApp?.sleepKey, !key.isEmpty {
            guard let given = query.split(separator: "&").dropFirst().first else { return .status(403) }
            guard given == "key=\(key)" else { return .status(401) }
        }
        return .status(501)
    }

    private mutating func stop(_ app: DIALApp) -> DeviceAPIAnswer {
        guard app.allowStop else { return .status(403) }
        return move(app, to: .stopped, action: "dial-stop")
    }

    private mutating func hide(_ app: DIALApp) -> DeviceAPIAnswer {
        move(app, to: .hidden, action: "dial-hide")
    }

    /// Moves a running or hidden app to `phase`: 200 and the action, or 404 when the app is not running.
    private mutating func move(_ app: DIALApp, to phase: AppState.Phase, action: String) -> DeviceAPIAnswer {
        guard let current = states[app.name]?.phase, current != .stopped else { return .status(404) }
        states[app.name]?.phase = phase
        return DeviceAPIAnswer(status: 200, actions: [DeviceAction(udn: udn, name: action, value: app.name)])
    }

    private mutating func data(for app: DIALApp, _ body: [UInt8]) -> DeviceAPIAnswer {
        guard body.count <= Self.maximumPayload else { return .status(413) }
        var pairs: [(String, String)] = []
        for pair in String(decoding: body, as: UTF8.self).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0])
            // Each name becomes an XML element: letters, digits, '-' and '_' only.
            guard let first = name.unicodeScalars.first, first.properties.isAlphabetic,
                name.unicodeScalars.allSatisfy({
                    $0.isASCII && ($0.properties.isAlphabetic || "0123456789-_".unicodeScalars.contains($0))
                }),
                let value = (parts.count > 1 ? String(parts[1]) : "").replacing("+", with: " ").percentDecoded
            else { return .status(400) }
            pairs.append((name, value))
        }
        states[app.name, default: AppState()].additionalData = pairs
        let text = pairs.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
        return DeviceAPIAnswer(
            status: 200,
            actions: [DeviceAction(udn: udn, name: "dial-data", value: "\(app.name) \(text)")]
        )
    }

    private func location(_ request: DeviceHTTPRequest, _ app: String) -> SSDPHeaderField {
        SSDPHeaderField(name: "Location", value: "\(request.origin)\(applicationPath)\(app)/run")
    }
}
