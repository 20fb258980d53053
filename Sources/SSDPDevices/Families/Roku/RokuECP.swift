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

/// A Roku's External Control Protocol on port 8060 (developer.roku.com "External Control API"): queries of
/// the device, its channels and the active one, and key presses and launches, which it records as
/// `DeviceAction`s and which change what the queries answer (Home leaves a channel, Play pauses and plays
/// on, PowerOff puts the player in standby). A Roku TV also answers for its antenna channels, and its input
/// keys, channel keys and `launch/tvinput.dtv?ch=…` change input and channel.
///
/// The ECP is a value: the caller passes the time in, and keeps it behind a lock.
public struct RokuECP: Sendable {
    /// The device-info fields, the channels, and a TV's antenna channels.
    public let configuration: RokuConfiguration
    /// The device tree, for its UDN and names (which a `PATCH` may change).
    public var device: SSDPDevice
    /// The channel in front, `nil` on the home screen.
    public private(set) var activeApp: RokuApp?
    /// `PowerOn`, or the standby mode a PowerOff put it in (`powerModes`).
    public private(set) var powerMode = "PowerOn"
    /// A Roku TV's tuned antenna channel (its number).
    public private(set) var tvChannel: String?
    /// When the channel in front was launched: its playback position counts from there.
    private var launchedAt: ContinuousClock.Instant
    /// When Play paused the channel in front, `nil` while it plays.
    private var pausedAt: ContinuousClock.Instant?
    /// When the device started, for its uptime.
    private let startedAt: ContinuousClock.Instant

    /// The ECP of `device`, started at `now` as `configuration` says it starts: by default on, on the home
    /// screen, its first antenna channel tuned.
    public init(device: SSDPDevice, configuration: RokuConfiguration, startedAt now: ContinuousClock.Instant) {
        self.device = device
        self.configuration = configuration
        self.powerMode = configuration.startingPowerMode
        self.activeApp = configuration.startingAppID.flatMap { id in configuration.apps.first { $0.id == id } }
        self.tvChannel = configuration.startingTVChannel ?? configuration.tvChannels.first?.number
        self.launchedAt = now
        self.startedAt = now
    }

    /// Whether it is a Roku TV: one with antenna channels.
    private var isTV: Bool { !configuration.tvChannels.isEmpty }

    /// The live state a Roku has besides its services' variables.
    public static let state: Set<String> = ["powerMode", "activeApp", "tvChannel"]

    /// The power modes `power-mode` reports: on, the screen off, and standby (`Ready`).
    public static let powerModes = ["PowerOn", "DisplayOff", "Ready"]

    /// The id of a Roku TV's antenna input.
    private static let tuner = "tvinput.dtv"

    /// Why the live state `name` cannot be `value`, or `nil` when it can: `powerMode` is one of
    /// `powerModes`, `activeApp` an installed app's id (or empty for the home screen).
    public func check(_ name: String, _ value: String) -> String? {
        switch name {
        case "powerMode":
            return Self.powerModes.contains(value) ? nil : "must be \(Self.powerModes.joined(separator: ", "))"
        case "activeApp":
            guard value.isEmpty || configuration.apps.contains(where: { $0.id == value }) else {
                let ids = configuration.apps.map(\.id).joined(separator: ", ")
                return "must be an installed app's id (\(ids)), or empty for the home screen"
            }
            return nil
        case "tvChannel":
            let numbers = configuration.tvChannels.map(\.number)
            guard !numbers.isEmpty else { return "not a Roku TV: it has no antenna channels" }
            return numbers.contains(value) ? nil : "must be one of its channels (\(numbers.joined(separator: ", ")))"
        default:
            return "not a Roku's state (powerMode, activeApp, tvChannel)"
        }
    }

    /// Sets live state `name` to `value`, which `check` allowed, at `now`.
    public mutating func set(_ name: String, to value: String, at now: ContinuousClock.Instant) {
        switch name {
        case "powerMode": powerMode = value
        case "activeApp": bringToFront(configuration.apps.first { $0.id == value }, at: now)
        case "tvChannel": tvChannel = value
        default: break
        }
    }

    /// The answer for an ECP path at `now`, or `nil` when `request` is for another path.
    public mutating func respond(to request: DeviceHTTPRequest, at now: ContinuousClock.Instant) -> DeviceAPIAnswer? {
        let parts = request.path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        switch (parts.first, parts.count) {
        case ("query", 2):
            guard let document = query(String(parts.last!), at: now) else { return nil }
            return .document(document, for: request)
        case ("keypress", 2), ("keydown", 2), ("keyup", 2), ("launch", 2), ("input", 1):
            guard request.method == "POST" else { return .methodNotAllowed(allow: "POST") }
            let argument = parts.count == 2 ? String(parts.last!) : nil
            return command(String(parts.first!), argument: argument, request, at: now)
        default:
            return nil
        }
    }

    private mutating func command(
        _ name: String,
        argument: String?,
        _ request: DeviceHTTPRequest,
        at now: ContinuousClock.Instant
    ) -> DeviceAPIAnswer {
        let action = { [udn = device.udn] (value: String) in DeviceAction(udn: udn, name: name, value: value) }
        guard let argument else {  // input: the query's parameters, in a stable order
            let value = request.query.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "&")
            return DeviceAPIAnswer(status: 200, actions: [action(value)])
        }
        guard let value = argument.percentDecoded, !value.isEmpty else { return .status(400) }
        if name == "launch" {
            guard let app = configuration.apps.first(where: { $0.id == value }) else { return .status(404) }
            // rokuecp's tune sends the channel three ways: ch, chan and lcn.
            let channel = ["ch", "chan", "lcn"].lazy.compactMap { request.query[$0]?.percentDecoded }.first
            bringToFront(app, at: now)
            if app.id == Self.tuner, let channel, configuration.tvChannels.contains(where: { $0.number == channel }) {
                tvChannel = channel
            }
            // What it was launched with is part of what it did (a channel to tune, a deep link).
            return DeviceAPIAnswer(
                status: 200,
                actions: [action(request.queryText.isEmpty ? value : value + "?" + request.queryText)]
            )
        }
        if name == "keypress" { press(value.lowercased(), at: now) }
        return DeviceAPIAnswer(status: 200, actions: [action(value)])
    }

    /// What a key press changes: Home leaves a channel, Play pauses and plays on, PowerOff (and Power, when
    /// on) puts a player in standby (`Ready`, rokuecp's capture of a Roku 3) and a TV's display off, PowerOn
    /// (and Power, when off) brings it back; on a TV, the input keys bring that input to the front and the
    /// channel keys move the tuner along its channels.
    private mutating func press(_ key: String, at now: ContinuousClock.Instant) {
        let inputs = [
            "inputtuner": Self.tuner, "inputhdmi1": "tvinput.hdmi1", "inputhdmi2": "tvinput.hdmi2",
            "inputhdmi3": "tvinput.hdmi3", "inputhdmi4": "tvinput.hdmi4", "inputav1": "tvinput.cvbs",
        ]
        let channels = configuration.tvChannels.map(\.number)
        switch key {
        case "home": bringToFront(nil, at: now)
        case "play": togglePlay(at: now)
        case "poweroff": standBy(in: configuration.standbyPowerMode, at: now)
        case "poweron": powerMode = "PowerOn"
        case "power":  // the remote's power button: off when on, on when off
            if powerMode == "PowerOn" {
                standBy(in: configuration.standbyPowerMode, at: now)
            } else {
                powerMode = "PowerOn"
            }
        case "channelup", "channeldown":
            guard activeApp?.id == Self.tuner, let tuned = tvChannel, let index = channels.firstIndex(of: tuned)
            else { return }
            let step = key == "channelup" ? 1 : channels.count - 1
            tvChannel = channels[(index + step) % channels.count]
        default:
            if let input = inputs[key], let app = configuration.apps.first(where: { $0.id == input }) {
                bringToFront(app, at: now)
            }
        }
    }

    /// A channel comes to the front, playing from its start.
    private mutating func bringToFront(_ app: RokuApp?, at now: ContinuousClock.Instant) {
        activeApp = app
        launchedAt = now
        pausedAt = nil
    }

    /// Standby in power mode `mode` (`Ready`, `DisplayOff`): on the home screen, no channel in front.
    private mutating func standBy(in mode: String, at now: ContinuousClock.Instant) {
        bringToFront(nil, at: now)
        powerMode = mode
    }

    /// The Play key: pauses the channel in front, or plays it on from where it paused.
    private mutating func togglePlay(at now: ContinuousClock.Instant) {
        guard activeApp != nil else { return }
        if let pausedAt {
            launchedAt += now - pausedAt
            self.pausedAt = nil
        } else {
            pausedAt = now
        }
    }

    /// How far the channel in front has played at `now`: from its launch, less the time it spent paused.
    private func position(at now: ContinuousClock.Instant) -> Duration {
        (pausedAt ?? now) - launchedAt
    }

    /// The answer of `/query/NAME`, laid out as Roku OS 9.2 writes it (rokuecp's captures): four spaces
    /// before each child, two in `<player>`, an empty value as an empty element.
    private func query(_ name: String, at now: ContinuousClock.Instant) -> String? {
        let header = "<?xml version=\"1.0\" encoding=\"UTF-8\" ?>\n"
        switch name {
        case "device-info":
            let lines = configuration.deviceInfo.map { field in
                configuration.deviceInfoIndent + Self.element(field.name, live(field.name, at: now) ?? field.value)
                    + "\n"
            }
            return header + "<device-info>\n" + lines.joined() + "</device-info>\n"
        case "apps":
            return header + "<apps>\n" + configuration.apps.map { "    \(Self.element($0))\n" }.joined() + "</apps>\n"
        case "active-app":
            let app = activeApp.map(Self.element) ?? "<app>Roku</app>"
            return header + "<active-app>\n    \(app)\n</active-app>\n"
        case "media-player":
            return header + mediaPlayer(at: now)
        case "tv-channels" where isTV:
            let channels = configuration.tvChannels.map { channel in
                "    <channel>\n" + Self.channelFields(channel).map { "        \($0)\n" }.joined() + "    </channel>\n"
            }
            return header + "<tv-channels>\n" + channels.joined() + "</tv-channels>\n"
        case "tv-active-channel" where isTV:
            guard let channel = configuration.tvChannels.first(where: { $0.number == tvChannel }) else {
                return header + "<tv-channel/>\n"
            }
            return header + "<tv-channel>\n    <channel>\n"
                + Self.activeChannelFields(channel, onTuner: activeApp?.id == Self.tuner).map {
                    "        \($0)\n"
                }
                .joined()
                + "   </channel>\n</tv-channel>\n"  // three spaces: as rokuecp's capture of a Roku TV has it
        default:
            return nil
        }
    }

    /// A channel as `/query/tv-channels` lists it.
    private static func channelFields(_ channel: RokuTVChannel) -> [String] {
        [
            element("number", channel.number), element("name", channel.name), element("type", "air-digital"),
            element("user-hidden", "false"),
        ]
    }

    /// The tuned channel as `/query/tv-active-channel` reports it, in rokuecp's capture's order: whether
    /// the antenna is the input in front, the signal, and the programme on it.
    private static func activeChannelFields(_ channel: RokuTVChannel, onTuner: Bool) -> [String] {
        channelFields(channel) + [
            element("active-input", onTuner ? "true" : "false"), element("signal-state", "valid"),
            element("signal-mode", "1080i"), element("signal-quality", "100"), element("signal-strength", "-50"),
            element("program-title", channel.programTitle), element("program-description", ""),
            element("program-ratings", "TV-PG"), element("program-analog-audio", "none"),
            element("program-digital-audio", "stereo"), element("program-audio-languages", "eng"),
            element("program-audio-formats", "AC3"), element("program-audio-language", "eng"),
            element("program-audio-format", "AC3"), element("program-has-cc", "true"),
        ]
    }

    /// `<player>`: closed on the home screen, with the last stream's format; playing or paused in a
    /// channel, the channel as its plugin, the stream's format, and the position since the launch.
    private func mediaPlayer(at now: ContinuousClock.Instant) -> String {
        let format = "  <format audio=\"eac3\" captions=\"none\" drm=\"none\" video=\"hevc_b\"/>\n"
        let isLive = "  <is_live>false</is_live>\n"
        guard let app = activeApp else {
            return "<player error=\"false\" state=\"close\">\n" + format + isLive + "</player>\n"
        }
        let milliseconds = position(at: now).milliseconds
        return "<player error=\"false\" state=\"\(pausedAt == nil ? "play" : "pause")\">\n"
            + "  <plugin bandwidth=\"10000000 bps\" id=\"\(SSDPRootDevice.escaped(app.id))\" "
            + "name=\"\(SSDPRootDevice.escaped(app.name))\"/>\n" + format
            + "  <position>\(milliseconds) ms</position>\n  <duration>5400000 ms</duration>\n" + isLive + "</player>\n"
    }

    /// The value of a device-info field that follows the device rather than its configuration: its UDN
    /// and names, how long it has been up, and its power mode.
    private func live(_ field: String, at now: ContinuousClock.Instant) -> String? {
        switch field {
        case "udn": String(device.udn.dropFirst("uuid:".count))
        case "friendly-device-name", "user-device-name": device.friendlyName
        case "uptime": String(Int((now - startedAt).components.seconds))
        case "power-mode": powerMode
        default: nil
        }
    }

    /// `<name>value</name>`, or `<name/>` for an empty value, as a Roku writes `keyed-developer-id`.
    private static func element(_ name: String, _ value: String) -> String {
        value.isEmpty ? "<\(name)/>" : "<\(name)>\(SSDPRootDevice.escaped(value))</\(name)>"
    }

    private static func element(_ app: RokuApp) -> String {
        "<app id=\"\(SSDPRootDevice.escaped(app.id))\" type=\"\(SSDPRootDevice.escaped(app.type))\" "
            + "version=\"\(SSDPRootDevice.escaped(app.version))\">\(SSDPRootDevice.escaped(app.name))</app>"
    }
}
