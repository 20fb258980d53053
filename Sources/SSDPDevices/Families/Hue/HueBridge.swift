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

import SSDPDeviceCore

/// A Philips Hue bridge's REST API, version 1 (developers.meethue.com, "Configuration API" and "Lights
/// API"), as the apps that pair with a bridge use it: aiohue and Home Assistant, the Hue app, openHAB.
///
/// `GET /api/config` tells anyone what bridge this is; `POST /api` pairs an app while the link button is
/// pressed (30 seconds, as on the real bridge) and answers error 101 otherwise; with the key it gives, the
/// app reads the whole state (`GET /api/KEY`), the configuration and the lights, and changes a light's
/// state and name. Every answer is JSON with status 200, errors included, as the bridge answers: a list of
/// `{"error": {"type", "address", "description"}}` or `{"success": …}` objects.
///
/// The bridge is a value: the caller passes the time in, and keeps it behind a lock.
public struct HueBridge: Sendable {
    /// What the bridge is, as `/api/config` tells it.
    public var configuration: HueBridgeConfiguration
    /// The lights, in the order of their ids.
    public private(set) var lights: [HueLight]
    /// The apps paired with the bridge: their key and the `devicetype` they gave, in the order they paired.
    public private(set) var whitelist: [(key: String, deviceType: String)] = []
    /// Until when the link button counts as pressed.
    private var linkButtonUntil: ContinuousClock.Instant?
    private var random: SSDPRandom

    /// How long a press of the link button lets apps pair, as on the real bridge.
    public static let linkButtonWindow = Duration.seconds(30)
    /// How many paired apps the whitelist keeps.
    public static let maximumApps = 256

    /// A bridge as configured, only the apps of `configuration.pairedKeys` paired, its link button not
    /// pressed; `seed` draws the keys it gives.
    public init(configuration: HueBridgeConfiguration, seed: UInt64) {
        self.configuration = configuration
        self.lights = configuration.lights
        self.whitelist = configuration.pairedKeys.map { ($0, "recorded") }
        self.random = SSDPRandom(seed: seed)
    }

    /// The link button is pressed at `now`: apps may pair for `linkButtonWindow`.
    public mutating func pressLinkButton(at now: ContinuousClock.Instant) {
        linkButtonUntil = now + Self.linkButtonWindow
    }

    /// The link button's window closes.
    public mutating func releaseLinkButton() {
        linkButtonUntil = nil
    }

    /// Whether apps may pair at `now`.
    public func isLinkButtonPressed(at now: ContinuousClock.Instant) -> Bool {
        linkButtonUntil.map { now < $0 } ?? false
    }

    /// A request to the API: its method, its path (`/api/…`), its body, and what the bridge reports of its
    /// surroundings: the moment, its own address, and the time of day in UTC (`2026-11-26T21:00:00`).
    public struct Request: Sendable {
        /// The HTTP method (`GET`, `POST`, `PUT`).
        public var method: String
        /// The path, `/api` and what follows.
        public var path: String
        /// The body, whole (JSON, for POST and PUT).
        public var body: [UInt8]
        /// When the request came, for the link button's window.
        public var now: ContinuousClock.Instant
        /// The bridge's own address, as the client reached it (the configuration's `ipaddress`).
        public var address: String
        /// The time of day in UTC, as the configuration reports it.
        public var utc: String

        /// A request of `method` for `path`.
        public init(
            method: String,
            path: String,
            body: [UInt8] = [],
            now: ContinuousClock.Instant,
            address: String,
            utc: String
        ) {
            self.method = method
            self.path = path
            self.body = body
            self.now = now
            self.address = address
            self.utc = utc
        }
    }

    /// What the bridge answers: its JSON, and what the request made it do (an app paired, a light
    /// changed), for the simulator's event stream.
    public struct Answer: Hashable, Sendable {
        /// The answer's JSON (status 200 always, errors included).
        public var json: JSONValue
        /// `pair` (the app's devicetype), `lightState` (the light's id and the changes it took, as JSON)
        /// or `lightName` (the id and the new name); `nil` when nothing changed.
        public var action: Action?
    }

    /// Something an app made the bridge do.
    public struct Action: Hashable, Sendable {
        /// What it did: `pair`, `lightState`, `lightName`.
        public var name: String
        /// What it did it with: the app's devicetype, the light's id and its changes or new name.
        public var value: String

        /// An action named `name`, with `value`.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The answer to `request`, or `nil` for a path outside `/api` (not the bridge API's).
    public mutating func respond(to request: Request) -> Answer? {
        guard let json = answer(request) else { return nil }
        return Answer(json: json, action: action.take())
    }

    /// What the request being answered did, taken by `respond(to:)`.
    private var action: Action?

    private mutating func answer(_ request: Request) -> JSONValue? {
        guard request.path == "/api" || request.path.hasPrefix("/api/") else { return nil }
        let parts = request.path.split(separator: "/").dropFirst().map(String.init)
        guard let key = parts.first else {  // /api itself: only POST, which pairs an app
            guard request.method == "POST" else {
                return Self.error(4, "/", "method, \(request.method), not available for resource, /")
            }
            return pair(request)
        }
        let resource = Array(parts.dropFirst())
        let address = "/" + resource.joined(separator: "/")
        guard whitelist.contains(where: { $0.key == key }) else {
            // Anyone may read what bridge this is, with any key or none.
            if resource == ["config"] || (key == "config" && resource.isEmpty) {
                guard request.method == "GET" else { return Self.error(1, address, "unauthorized user") }
                return shortConfiguration
            }
            return Self.error(1, address, "unauthorized user")
        }
        switch (request.method, resource.count) {
        case ("GET", 0): return fullState(request)
        case ("GET", _): return read(resource, request) ?? Self.error(3, address, "resource, \(address), not available")
        case ("PUT", 2) where resource[0] == "lights",
            ("PUT", 3) where resource[0] == "lights" && resource[2] == "state":
            guard let index = lights.firstIndex(where: { $0.id == resource[1] }) else {
                return Self.error(3, address, "resource, /lights/\(resource[1]), not available")
            }
            guard let body = JSONValue(parsing: request.body), case .object(let members) = body else {
                return Self.error(2, address, "body contains invalid json")
            }
            let (answer, changed) = resource.count == 3 ? lights[index].change(members) : lights[index].rename(members)
            if !changed.isEmpty {
                let id = lights[index].id
                action =
                    resource.count == 3
                    ? Action(name: "lightState", value: "\(id) \(JSONValue.object(changed).text)")
                    : Action(name: "lightName", value: "\(id) \(lights[index].name)")
            }
            return answer
        default:
            return Self.error(4, address, "method, \(request.method), not available for resource, \(address)")
        }
    }

    /// `POST /api {"devicetype": "app#device"}`: a new key while the link button is pressed.
    private mutating func pair(_ request: Request) -> JSONValue {
        guard let body = JSONValue(parsing: request.body) else {
            return Self.error(2, "", "body contains invalid json")
        }
        guard case .object = body, let deviceType = body["devicetype"] else {
            return Self.error(5, "/", "invalid/missing parameters in body")
        }
        guard case .string(let name) = deviceType, (1...40).contains(name.count) else {
            return Self.error(7, "/devicetype", "invalid value, \(deviceType.text), for parameter, devicetype")
        }
        guard isLinkButtonPressed(at: request.now) else { return Self.error(101, "", "link button not pressed") }
        let key = draw(40, from: Self.keyCharacters)
        // Bounded: past `maximumApps`, the app that paired first makes room (a LAN that pairs in a loop
        // while the button is held cannot grow it without end).
        if whitelist.count >= Self.maximumApps { whitelist.removeFirst() }
        whitelist.append((key, name))
        action = Action(name: "pair", value: name)
        var success = [JSONValue.Member("username", .string(key))]
        if body["generateclientkey"] == .bool(true) {
            success.append(.init("clientkey", .string(draw(32, from: Self.hexDigits))))
        }
        return .array([Self.success(success)])
    }

    private static let keyCharacters = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
    private static let hexDigits = Array("0123456789ABCDEF")

    private mutating func draw(_ count: Int, from characters: [Character]) -> String {
        String((0..<count).map { _ in characters[Int(random.next() % UInt64(characters.count))] })
    }

    /// What `GET /api/KEY/…` reads: the configuration, the lights or one of them, and the resources this
    /// bridge has none of (groups, scenes, sensors, schedules, rules, resource links) as empty objects.
    private func read(_ resource: [String], _ request: Request) -> JSONValue? {
        switch (resource.first, resource.count) {
        case ("config", 1): return fullConfiguration(request)
        case ("lights", 1): return .object(lights.map { .init($0.id, $0.json) })
        case ("lights", 2): return lights.first { $0.id == resource[1] }?.json
        case (let name?, 1) where Self.emptyResources.contains(name): return .object([])
        default: return nil
        }
    }

    private static let emptyResources = ["groups", "schedules", "scenes", "sensors", "rules", "resourcelinks"]

    /// `GET /api/KEY`: every resource, as the bridge lists them.
    private func fullState(_ request: Request) -> JSONValue {
        .object(
            [.init("lights", .object(lights.map { .init($0.id, $0.json) }))]
                + [.init("groups", .object([])), .init("config", fullConfiguration(request))]
                + ["schedules", "scenes", "rules", "sensors", "resourcelinks"].map { .init($0, .object([])) }
        )
    }

    /// `GET /api/config` (or with a key the bridge does not know): what any app may read.
    var shortConfiguration: JSONValue {
        let configuration = configuration
        return .object([
            .init("name", .string(configuration.name)),
            .init("datastoreversion", .string(configuration.datastoreVersion)),
            .init("swversion", .string(configuration.swVersion)),
            .init("apiversion", .string(configuration.apiVersion)),
            .init("mac", .string(configuration.mac)),
            .init("bridgeid", .string(configuration.bridgeID)),
            .init("factorynew", .bool(false)),
            .init("replacesbridgeid", .null),
            .init("modelid", .string(configuration.modelID)),
            .init("starterkitid", .string("")),
        ])
    }

    /// `GET /api/KEY/config`: the whole configuration, the paired apps included.
    private func fullConfiguration(_ request: Request) -> JSONValue {
        let configuration = configuration
        let apps = whitelist.map { app in
            JSONValue.Member(
                app.key,
                .object([
                    .init("last use date", .string(request.utc)), .init("create date", .string(request.utc)),
                    .init("name", .string(app.deviceType)),
                ])
            )
        }
        return .object([
            .init("name", .string(configuration.name)),
            .init("zigbeechannel", .int(configuration.zigbeeChannel)),
            .init("bridgeid", .string(configuration.bridgeID)),
            .init("mac", .string(configuration.mac)),
            .init("dhcp", .bool(true)),
            .init("ipaddress", .string(request.address)),
            .init("netmask", .string("255.255.255.0")),
            .init("gateway", .string(configuration.gateway)),
            .init("proxyaddress", .string("none")),
            .init("proxyport", .int(0)),
            .init("UTC", .string(request.utc)),
            .init("localtime", .string(request.utc)),
            .init("timezone", .string("Etc/UTC")),
            .init("modelid", .string(configuration.modelID)),
            .init("datastoreversion", .string(configuration.datastoreVersion)),
            .init("swversion", .string(configuration.swVersion)),
            .init("apiversion", .string(configuration.apiVersion)),
            .init("linkbutton", .bool(isLinkButtonPressed(at: request.now))),
            .init("portalservices", .bool(false)),
            .init("portalconnection", .string("disconnected")),
            .init("factorynew", .bool(false)),
            .init("replacesbridgeid", .null),
            .init("starterkitid", .string("")),
            .init("whitelist", .object(apps)),
        ])
    }

    /// The bridge's answer for an error: a list of one error.
    static func error(_ type: Int, _ address: String, _ description: String) -> JSONValue {
        .array([failure(type, address, description)])
    }

    /// One success among the answers to a request (`{"success": {…}}`), with what took.
    static func success(_ members: [JSONValue.Member]) -> JSONValue {
        .object([.init("success", .object(members))])
    }

    /// One error among the answers to a request (`{"error": {"type", "address", "description"}}`).
    static func failure(_ type: Int, _ address: String, _ description: String) -> JSONValue {
        .object([
            .init(
                "error",
                .object([
                    .init("type", .int(type)), .init("address", .string(address)),
                    .init("description", .string(description)),
                ])
            )
        ])
    }
}

/// What a Hue bridge is: the names and versions `/api/config` reports, and its lights at the start.
public struct HueBridgeConfiguration: Hashable, Sendable {
    /// The bridge's name, as the Hue app shows it (`Philips hue`).
    public var name: String
    /// `001788FFFE` and the MAC's last six digits, upper case: the `hue-bridgeid` of its SSDP messages.
    public var bridgeID: String
    /// Its MAC address, lower case with colons (`00:17:88:a1:b2:c3`).
    public var mac: String
    /// `BSB002` for the square bridge of 2015.
    public var modelID = "BSB002"
    /// The API version, which SERVER names too (`IpBridge/1.17.0`).
    public var apiVersion = "1.17.0"
    /// The firmware's version, eight digits.
    public var swVersion = "01003542"
    /// The version of its data store's layout.
    public var datastoreVersion = "60"
    /// The Zigbee channel its lights are on.
    public var zigbeeChannel = 15
    /// Its gateway, as its network configuration reports it.
    public var gateway = "192.168.1.1"
    /// The lights paired with it.
    public var lights: [HueLight]
    /// The keys of the apps paired with it at the start (a recorded bridge's pairings).
    public var pairedKeys: [String] = []

    /// A bridge with these names and lights, of the default model and versions.
    public init(name: String, bridgeID: String, mac: String, lights: [HueLight]) {
        self.name = name
        self.bridgeID = bridgeID
        self.mac = mac
        self.lights = lights
    }
}
