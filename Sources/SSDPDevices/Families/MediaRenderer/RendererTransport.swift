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

// A renderer's transport. RenderingControl needs nothing of its own: its Get/SetVolume and Get/SetMute are the
// state-variable answer (the SCPD check refuses a volume out of range, 601), and its LastChange carries
// `<Volume channel="Master" val="…"/>`.

/// AVTransport:1 as a network renderer runs it, the AV template's and Sonos's alike (after-discovery.md §5.3):
/// one track at most, played from its URI.
///
/// The transport is in one of the template's states: `NO_MEDIA_PRESENT` (nothing loaded; the state Sonos's
/// SCPD lacks, so a Sonos stays `STOPPED`), `STOPPED`, `PLAYING` or `PAUSED_PLAYBACK`. SetAVTransportURI
/// loads a track and stops; Play plays it from where it is, Pause keeps the position, Stop returns it to
/// 0:00:00, Seek moves it. Play or Pause with nothing loaded, and Pause while stopped, are refused with 701
/// "Transition not available", as the template has it and as a Sonos with an empty queue answers SoCo.
/// Each change sets TransportState, TransportStatus and CurrentTransportActions, so subscribers see it in
/// LastChange; the position is not a variable's value but this behaviour's own (`position`,
/// `playingSince`), because the template leaves RelativeTimePosition out of LastChange: it is worked out at
/// GetPositionInfo from `now`. The renderer plays nothing, so a track never ends: the position stops at the
/// duration its metadata gives (`res@duration`), and runs on without one.
public struct RendererTransport: ServiceBehaviour {
    /// Milliseconds into the track when playback last started, or where it is while not playing.
    private var position = 0
    /// The instant (milliseconds) playback started, while playing.
    private var playingSince: Int?

    /// A transport with nothing loaded.
    public init() {}

    /// The template's status, speed and play mode.
    public func initialValues(of service: ControlledService, in device: DeviceControl) -> [String: String] {
        ["TransportStatus": "OK", "TransportPlaySpeed": "1", "CurrentPlayMode": "NORMAL"]
    }

    /// The transport's actions; the rest answer from the variables they keep.
    public mutating func answer(
        _ call: SOAPActionCall,
        service: inout ControlledService,
        context: ActionContext
    ) -> Result<[SOAPArgument], UPnPError>? {
        // The template's 718: a renderer without multiple connections has instance 0 only. The SCPD check has
        // made sure the argument is a number.
        if let instance = call.argument("InstanceID"), Int(instance.trimmingASCIIWhitespace) != 0 {
            return .failure(UPnPError(code: 718, description: "Invalid InstanceID"))
        }
        let time = Self.milliseconds(of: context.now)
        switch call.actionName {
        case "SetAVTransportURI":
            load(
                uri: call.argument("CurrentURI") ?? "",
                metadata: call.argument("CurrentURIMetaData") ?? "",
                service: &service
            )
            return .success([])
        case "Play":
            return transition(service: &service) { transport in
                guard transport.state != "PLAYING" else { return }
                transport.state = "PLAYING"
                transport.playingSince = time
            }
        case "Pause":
            return transition(service: &service) { (transport: inout Transport) throws(UPnPError) in
                guard transport.state != "PAUSED_PLAYBACK" else { return }
                guard transport.state == "PLAYING" else { throw Self.transitionNotAvailable }
                transport.position = transport.position(at: time)
                transport.playingSince = nil
                transport.state = "PAUSED_PLAYBACK"
            }
        case "Stop":
            guard service.isLoaded else { return .success([]) }
            return transition(service: &service) { transport in
                transport = Transport(state: "STOPPED", position: 0, playingSince: nil, duration: transport.duration)
            }
        case "Seek":
            return seek(call, service: &service, at: time)
        case "GetPositionInfo":
            let transport = Transport(service, position: position, playingSince: playingSince)
            let position = Self.playbackTime(transport.position(at: time))
            // What a Sonos answers for what it does not count (and the template's defaults).
            return .success(
                service.answer(
                    call,
                    computed: [
                        "RelativeTimePosition": position, "AbsoluteTimePosition": "NOT_IMPLEMENTED",
                        "RelativeCounterPosition": "2147483647", "AbsoluteCounterPosition": "2147483647",
                    ],
                    unset: ["CurrentTrackDuration": "0:00:00"]
                )
            )
        default:
            // GetTransportInfo, GetMediaInfo, GetCurrentTransportActions, GetTransportSettings and the rest
            // answer from the variables that the actions above keep.
            return nil
        }
    }

    private static let transitionNotAvailable = UPnPError(code: 701, description: "Transition not available")

    /// SetAVTransportURI: the URI becomes the media and its one track, the duration is the metadata's, and the
    /// transport stops at 0:00:00 (an empty URI unloads it: `NO_MEDIA_PRESENT` where the SCPD has it).
    private mutating func load(uri: String, metadata: String, service: inout ControlledService) {
        let loaded = !uri.isEmpty
        let duration = loaded ? Self.duration(inMetadata: metadata) : nil
        let durationText = Self.playbackTime(duration ?? 0)
        for (name, value) in [
            ("AVTransportURI", uri), ("AVTransportURIMetaData", metadata), ("CurrentTrackURI", uri),
            ("CurrentTrackMetaData", metadata), ("NumberOfTracks", loaded ? "1" : "0"),
            ("CurrentTrack", loaded ? "1" : "0"), ("CurrentTrackDuration", durationText),
            ("CurrentMediaDuration", durationText), ("PlaybackStorageMedium", loaded ? "NETWORK" : "NONE"),
        ] {
            service.values[name] = value
        }
        let allowed = service.description.stateVariable(named: "TransportState")?.allowedValues ?? []
        let state = loaded || !allowed.contains("NO_MEDIA_PRESENT") ? "STOPPED" : "NO_MEDIA_PRESENT"
        write(Transport(state: state, position: 0, playingSince: nil, duration: duration), to: &service)
    }

    /// Seek by REL_TIME (a position), TIME_DELTA (Sonos: `+H:MM:SS` or `-H:MM:SS` from here) or TRACK_NR (the
    /// one track, `1`); the SCPD check has refused other units (600). A target the track does not have: 711.
    private mutating func seek(
        _ call: SOAPActionCall,
        service: inout ControlledService,
        at time: Int
    ) -> Result<[SOAPArgument], UPnPError> {
        let target = (call.argument("Target") ?? "").trimmingASCIIWhitespace
        let illegalTarget = UPnPError(code: 711, description: "Illegal seek target")
        return transition(service: &service) { (transport: inout Transport) throws(UPnPError) in
            let current = transport.position(at: time)
            let position: Int?
            switch call.argument("Unit") {
            case "REL_TIME":
                position = Self.milliseconds(ofPlaybackTime: target)
            case "TIME_DELTA":
                let sign = target.hasPrefix("-") ? -1 : 1
                let delta = Self.milliseconds(ofPlaybackTime: String(target.drop { $0 == "+" || $0 == "-" }))
                position = delta.map { max(0, current + sign * $0) }
            default:
                position = Int(target) == 1 ? 0 : nil
            }
            // Both terms of a delta are at most `maximumPlaybackHours`, so their sum cannot overflow; a
            // position past it is no track's.
            let end = min(transport.duration ?? .max, Self.maximumPlaybackHours * 3_600_000)
            guard let position, position <= end else { throw illegalTarget }
            transport.position = position
            transport.playingSince = transport.playingSince.map { _ in time }
        }
    }

    /// Applies `change` to the transport of `service` when media is loaded (else 701), and answers the
    /// action's out-arguments (Play, Pause, Stop and Seek have none).
    private mutating func transition(
        service: inout ControlledService,
        _ change: (inout Transport) throws(UPnPError) -> Void
    ) -> Result<[SOAPArgument], UPnPError> {
        guard service.isLoaded else { return .failure(Self.transitionNotAvailable) }
        var transport = Transport(service, position: position, playingSince: playingSince)
        do throws(UPnPError) {
            try change(&transport)
        } catch {
            return .failure(error)
        }
        write(transport, to: &service)
        return .success([])
    }

    /// Keeps `transport`'s position and writes its state, with the status and the actions it allows, to
    /// `service`.
    private mutating func write(_ transport: Transport, to service: inout ControlledService) {
        position = transport.position
        playingSince = transport.playingSince
        service.values["TransportState"] = transport.state
        service.values["TransportStatus"] = "OK"
        service.values["CurrentTransportActions"] =
            switch transport.state {
            case "PLAYING": "Pause,Stop,Seek"
            case "PAUSED_PLAYBACK": "Play,Stop,Seek"
            case "STOPPED": "Play,Seek"
            default: ""
            }
    }

    /// The transport of one AVTransport service: its state as its values hold it, and the position.
    private struct Transport {
        var state: String
        /// Milliseconds into the track when playback last started, or where it is while not playing.
        var position: Int
        /// The instant (milliseconds) playback started, while playing.
        var playingSince: Int?
        /// The track's length in milliseconds, when its metadata gives it.
        var duration: Int?

        init(state: String, position: Int, playingSince: Int?, duration: Int?) {
            self.state = state
            self.position = position
            self.playingSince = playingSince
            self.duration = duration
        }

        init(_ service: ControlledService, position: Int, playingSince: Int?) {
            let duration = RendererTransport.milliseconds(ofPlaybackTime: service.value(of: "CurrentTrackDuration"))
            self.init(
                state: service.value(of: "TransportState"),
                position: position,
                playingSince: playingSince,
                duration: duration == 0 ? nil : duration
            )
        }

        /// The position at `time` (milliseconds): it runs while playing, up to the track's end.
        func position(at time: Int) -> Int {
            let position = self.position + (playingSince.map { max(0, time - $0) } ?? 0)
            return min(position, duration ?? .max)
        }
    }

    // MARK: - Times

    /// `H:MM:SS`, the template's `H+:MM:SS` as a Sonos writes it, for a position in milliseconds.
    static func playbackTime(_ milliseconds: Int) -> String {
        let seconds = milliseconds / 1000
        let twoDigits = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
        return "\(seconds / 3600):\(twoDigits(seconds / 60 % 60)):\(twoDigits(seconds % 60))"
    }

    /// The most hours a playback time may give: over a century, which no track lasts. Within it, a time in
    /// milliseconds and the sum or difference of two stay far from `Int`'s limits.
    static let maximumPlaybackHours = 999_999

    /// The milliseconds of an `H+:MM:SS[.F+]` time (`00:03:25`, `0:03:25.500`), or `nil` when it is not one
    /// or its hours pass `maximumPlaybackHours` (a client's `9999999999999999:00:00`).
    static func milliseconds(ofPlaybackTime text: String) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, let hours = Int(parts[0]), let minutes = Int(parts[1]),
            (0...maximumPlaybackHours).contains(hours), (0..<60).contains(minutes)
        else { return nil }
        let secondParts = parts[2].split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let seconds = Int(secondParts[0]), (0..<60).contains(seconds) else { return nil }
        // A fraction is decimal (`.5`) or the template's `F0/F1`, which is not worth a millisecond here.
        let decimals = secondParts.count == 2 ? secondParts[1] : ""
        let fraction = decimals.allSatisfy(\.isWholeNumber) ? Int(decimals.prefix(3).zeroPadded(to: 3)) ?? 0 : 0
        return ((hours * 60 + minutes) * 60 + seconds) * 1000 + fraction
    }

    /// `now` in milliseconds since the clock's origin.
    private static func milliseconds(of now: SSDPInstant) -> Int {
        Int(now.offset.milliseconds)
    }

    /// The length DIDL-Lite metadata gives its item: the first `res` element's `duration`.
    private static func duration(inMetadata metadata: String) -> Int? {
        func duration(in element: SSDPXMLElement) -> String? {
            if element.name == "res", let duration = element.attributes["duration"] { return duration }
            return element.children.lazy.compactMap(duration(in:)).first
        }
        return SSDPXMLElement.parse(Array(metadata.utf8)).flatMap(duration(in:)).flatMap(milliseconds(ofPlaybackTime:))
    }
}

extension ControlledService {
    /// Whether an AVTransport has media loaded.
    fileprivate var isLoaded: Bool {
        !value(of: "AVTransportURI").isEmpty
    }
}

extension Substring {
    /// The text padded on the right with `0`s to `length` characters.
    fileprivate func zeroPadded(to length: Int) -> String {
        String(self) + String(repeating: "0", count: Swift.max(0, length - count))
    }
}
