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

extension RokuConfiguration {
    /// Takes the identity, channels and state a recorded Roku's ECP answers show, so that once the device
    /// changes (a key pressed, a channel launched) and the family's ECP answers for it, it goes on as the real
    /// one from where the real one was: every `<device-info>` element in its order and indentation (serial,
    /// MACs, model and software; `uptime` and the names follow the running device), the power mode and the
    /// channel in front it started in, the channels `/query/apps` listed, and a TV's antenna channels and the
    /// one tuned. A recorded TV (`is-tv` true) dims its screen on PowerOff, as Roku TVs do. An answer that is
    /// not a 200 with the XML expected leaves that part as it was.
    public mutating func takeState(from recording: HTTPRecording) {
        if let info = Self.recordedRoot(of: "/query/device-info", in: recording, named: "device-info"),
            !info.element.children.isEmpty
        {
            deviceInfo = info.element.children.map { SSDPDeviceProperty($0.name, $0.text) }
            deviceInfoIndent = Self.indent(beforeFirstChildOf: "device-info", in: info.body)
            if info.element.child("is-tv")?.text == "true" { standbyPowerMode = "DisplayOff" }
            if let mode = info.element.child("power-mode")?.text, !mode.isEmpty { startingPowerMode = mode }
        }
        if let listed = Self.recordedRoot(of: "/query/apps", in: recording, named: "apps") {
            let recordedApps = listed.element.children.compactMap { app -> RokuApp? in
                guard app.name == "app", let id = app.attributes["id"] else { return nil }
                return RokuApp(
                    id: id,
                    name: app.text,
                    version: app.attributes["version"] ?? "",
                    type: app.attributes["type"] ?? "appl"
                )
            }
            if !recordedApps.isEmpty { apps = recordedApps }
        }
        // The home screen is an `<app>` without an id.
        if let active = Self.recordedRoot(of: "/query/active-app", in: recording, named: "active-app") {
            startingAppID = active.element.child("app")?.attributes["id"]
        }
        if let listed = Self.recordedRoot(of: "/query/tv-channels", in: recording, named: "tv-channels") {
            let tuned = Self.recordedRoot(of: "/query/tv-active-channel", in: recording, named: "tv-channel")?
                .element.child("channel")
            let channels = listed.element.children.compactMap { channel -> RokuTVChannel? in
                guard channel.name == "channel", let number = channel.child("number")?.text else { return nil }
                let title = tuned?.child("number")?.text == number ? tuned?.child("program-title")?.text : nil
                return RokuTVChannel(number: number, name: channel.child("name")?.text ?? "", programTitle: title ?? "")
            }
            if !channels.isEmpty {
                tvChannels = channels
                startingTVChannel = tuned?.child("number")?.text
            }
        }
    }

    /// The root element of the recorded 200 answer to a GET of `target`, when it is `name`, and the body.
    private static func recordedRoot(
        of target: String,
        in recording: HTTPRecording,
        named name: String
    ) -> (element: SSDPXMLElement, body: [UInt8])? {
        guard let response = recording.exchanges.first(where: { $0.method == "GET" && $0.target == target })?.response,
            HTTPRecording.status(of: response) == 200
        else { return nil }
        let body = Array(response[(HTTPRecording.headEnd(response) ?? response.count)...])
        guard let element = SSDPXMLElement.parse(body), element.name == name else { return nil }
        return (element, body)
    }

    /// How the first child of the root `root` is indented in `body`: the spaces and tabs between the line
    /// end after the root's start tag and the child; none when the child is on the same line.
    package static func indent(beforeFirstChildOf root: String, in body: [UInt8]) -> String {
        let tag = Array("<\(root)".utf8)
        guard let start = body.indices.first(where: { body[$0...].starts(with: tag) }),
            let close = body[start...].firstIndex(of: UInt8(ascii: ">")),
            let child = body[(close + 1)...].firstIndex(of: UInt8(ascii: "<"))
        else { return "" }
        let gap = body[(close + 1)..<child]
        guard let lineEnd = gap.lastIndex(of: UInt8(ascii: "\n")) else { return "" }
        let indent = gap[(lineEnd + 1)...]
        guard indent.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) else { return "" }
        return String(decoding: indent, as: UTF8.self)
    }
}
