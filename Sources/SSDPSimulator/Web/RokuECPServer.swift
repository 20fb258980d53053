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
import SSDPCore
import SSDPDeviceCore

/// A Roku's External Control Protocol on port 8060 (developer.roku.com "External Control API"): queries of
/// the device, its channels and the active one, and key presses and launches, which it records as
/// `DeviceAction`s and which change what the queries answer (Home leaves a channel, Play pauses and plays
/// on, PowerOff puts the player in standby).
final class RokuECPServer: Sendable {
    let configuration: RokuConfiguration
    private let state: NIOLockedValueBox<State>
    private let startedAt = ContinuousClock.now

    private struct State {
        /// The device tree, for its UDN and names (which a `PATCH` may change).
        var device: SSDPDevice
        /// The channel in front, `nil` on the home screen.
        var activeApp: RokuApp?
        /// When the channel in front was launched: its playback position counts from there.
        var launchedAt = ContinuousClock.now
        /// When Play paused the channel in front, `nil` while it plays.
        var pausedAt: ContinuousClock.Instant?
        var powerMode = "PowerOn"

        /// How far the channel in front has played: from its launch, less the time it spent paused.
        var position: Duration { (pausedAt ?? .now) - launchedAt }

        /// A channel comes to the front, playing from its start.
        mutating func bringToFront(_ app: RokuApp?) {
            activeApp = app
            launchedAt = .now
            pausedAt = nil
        }

        /// The Play key: pauses the channel in front, or plays it on from where it paused.
        mutating func togglePlay() {
            guard activeApp != nil else { return }
            if let pausedAt {
                launchedAt += .now - pausedAt
                self.pausedAt = nil
            } else {
                pausedAt = .now
            }
        }
    }

    init(device: SSDPDevice, configuration: RokuConfiguration) {
        self.configuration = configuration
        state = NIOLockedValueBox(State(device: device))
    }

    /// The live state a Roku has besides its services' variables.
    static let state: Set<String> = ["powerMode", "activeApp"]

    /// The power modes `power-mode` reports: on, the screen off, and standby (`Ready`).
    static let powerModes = ["PowerOn", "DisplayOff", "Ready"]

    /// The device's names change (`PATCH /devices/{id}`): device-info reports the new ones.
    func update(device: SSDPDevice) {
        state.withLockedValue { $0.device = device }
    }

    /// Why the live state `name` cannot be `value`, or `nil` when it can: `powerMode` is one of
    /// `powerModes`, `activeApp` an installed app's id (or empty for the home screen).
    func check(_ name: String, _ value: String) -> String? {
        switch name {
        case "powerMode":
            return Self.powerModes.contains(value) ? nil : "must be \(Self.powerModes.joined(separator: ", "))"
        case "activeApp":
            guard value.isEmpty || configuration.apps.contains(where: { $0.id == value }) else {
                let ids = configuration.apps.map(\.id).joined(separator: ", ")
                return "must be an installed app's id (\(ids)), or empty for the home screen"
            }
            return nil
        default:
            return "not a Roku's state (powerMode, activeApp)"
        }
    }

    /// Sets live state `name` to `value`, which `check` allowed.
    func set(_ name: String, to value: String) {
        switch name {
        case "powerMode": state.withLockedValue { $0.powerMode = value }
        case "activeApp":
            let app = configuration.apps.first { $0.id == value }
            state.withLockedValue { $0.bringToFront(app) }
        default: break
        }
    }

    /// The answer for an ECP path, or `nil` when `request` is for another path.
    func respond(to request: DeviceHTTPRequest) -> DeviceHTTPResponse? {
        let parts = request.path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        switch (parts.first, parts.count) {
        case ("query", 2):
            guard let document = query(String(parts.last!)) else { return nil }
            return .document(document, for: request)
        case ("keypress", 2), ("keydown", 2), ("keyup", 2), ("launch", 2), ("input", 1):
            guard request.method == "POST" else { return .methodNotAllowed(allow: "POST") }
            return command(String(parts.first!), argument: parts.count == 2 ? String(parts.last!) : nil, request)
        default:
            return nil
        }
    }

    private func command(_ name: String, argument: String?, _ request: DeviceHTTPRequest) -> DeviceHTTPResponse {
        let udn = state.withLockedValue { $0.device.udn }
        let action = { (value: String) in DeviceAction(udn: udn, name: name, value: value) }
        guard let argument else {  // input: the query's parameters, in a stable order
            let value = request.query.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "&")
            return DeviceHTTPResponse(status: 200, actions: [action(value)])
        }
        guard let value = argument.percentDecoded, !value.isEmpty else { return .status(400) }
        if name == "launch" {
            guard let app = configuration.apps.first(where: { $0.id == value }) else { return .status(404) }
            state.withLockedValue { $0.bringToFront(app) }
            return DeviceHTTPResponse(status: 200, actions: [action(value)])
        }
        if name == "keypress" {
            state.withLockedValue { state in
                switch value.lowercased() {
                case "home": state.bringToFront(nil)
                case "play": state.togglePlay()
                case "poweroff":  // a player in standby says Ready (rokuecp's standby capture, a Roku 3)
                    state.bringToFront(nil)
                    state.powerMode = "Ready"
                case "poweron": state.powerMode = "PowerOn"
                default: break
                }
            }
        }
        return DeviceHTTPResponse(status: 200, actions: [action(value)])
    }

    /// The answer of `/query/NAME`, laid out as Roku OS 9.2 writes it (rokuecp's captures): four spaces
    /// before each child, two in `<player>`, an empty value as an empty element.
    private func query(_ name: String) -> String? {
        let state = self.state.withLockedValue { $0 }
        let header = "<?xml version=\"1.0\" encoding=\"UTF-8\" ?>\n"
        switch name {
        case "device-info":
            let lines = configuration.deviceInfo.map { field in
                "    " + Self.element(field.name, live(field.name, state: state) ?? field.value) + "\n"
            }
            return header + "<device-info>\n" + lines.joined() + "</device-info>\n"
        case "apps":
            return header + "<apps>\n" + configuration.apps.map { "    \(Self.element($0))\n" }.joined() + "</apps>\n"
        case "active-app":
            let app = state.activeApp.map(Self.element) ?? "<app>Roku</app>"
            return header + "<active-app>\n    \(app)\n</active-app>\n"
        case "media-player":
            return header + mediaPlayer(state)
        default:
            return nil
        }
    }

    /// `<player>`: closed on the home screen, with the last stream's format; playing or paused in a
    /// channel, the channel as its plugin, the stream's format, and the position since the launch.
    private func mediaPlayer(_ state: State) -> String {
        let format = "  <format audio=\"eac3\" captions=\"none\" drm=\"none\" video=\"hevc_b\"/>\n"
        let isLive = "  <is_live>false</is_live>\n"
        guard let app = state.activeApp else {
            return "<player error=\"false\" state=\"close\">\n" + format + isLive + "</player>\n"
        }
        let milliseconds = state.position.milliseconds
        return "<player error=\"false\" state=\"\(state.pausedAt == nil ? "play" : "pause")\">\n"
            + "  <plugin bandwidth=\"10000000 bps\" id=\"\(SSDPRootDevice.escaped(app.id))\" "
            + "name=\"\(SSDPRootDevice.escaped(app.name))\"/>\n" + format
            + "  <position>\(milliseconds) ms</position>\n  <duration>5400000 ms</duration>\n" + isLive + "</player>\n"
    }

    /// The value of a device-info field that follows the device rather than its configuration: its UDN
    /// and names, how long it has been up, and its power mode.
    private func live(_ field: String, state: State) -> String? {
        switch field {
        case "udn": String(state.device.udn.dropFirst("uuid:".count))
        case "friendly-device-name", "user-device-name": state.device.friendlyName
        case "uptime": String(Int((ContinuousClock.now - startedAt).components.seconds))
        case "power-mode": state.powerMode
        default: nil
        }
    }

    /// `<name>value</name>`, or `<name/>` for an empty value, as a Roku writes `keyed-developer-id`.
    private static func element(_ name: String, _ value: String) -> String {
        value.isEmpty ? "<\(name)/>" : "<\(name)>\(SSDPRootDevice.escaped(value))</\(name)>"
    }

    private static func element(_ app: RokuApp) -> String {
        "<app id=\"\(SSDPRootDevice.escaped(app.id))\" type=\"appl\" "
            + "version=\"\(SSDPRootDevice.escaped(app.version))\">\(SSDPRootDevice.escaped(app.name))</app>"
    }
}
