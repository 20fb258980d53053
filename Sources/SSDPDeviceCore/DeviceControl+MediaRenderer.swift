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

// A renderer's transport and a Sonos player's household services. RenderingControl needs nothing here: its
// Get/SetVolume and Get/SetMute are the generic answer (the SCPD check refuses a volume out of range, 601),
// and its LastChange carries `<Volume channel="Master" val="…"/>`.

// MARK: - AVTransport

/// AVTransport:1 as a network renderer runs it, the AV template's and Sonos's alike (after-discovery.md §5.3):
/// one track at most, played from its URI.
///
/// The transport is in one of the template's states: `NO_MEDIA_PRESENT` (nothing loaded; the state Sonos's
/// SCPD lacks, so a Sonos stays `STOPPED`), `STOPPED`, `PLAYING` or `PAUSED_PLAYBACK`. SetAVTransportURI
/// loads a track and stops; Play plays it from where it is, Pause keeps the position, Stop returns it to
/// 0:00:00, Seek moves it. Play or Pause with nothing loaded, and Pause while stopped, are refused with 701
/// "Transition not available", as the template has it and as a Sonos with an empty queue answers SoCo.
/// Each change sets TransportState, TransportStatus and CurrentTransportActions, so subscribers see it in
/// LastChange; the position is not a variable's value but kept apart (`playingSince`, `pausedAt`), because
/// the template leaves RelativeTimePosition out of LastChange: it is worked out at GetPositionInfo from
/// `now`. The renderer plays nothing, so a track never ends: the position stops at the duration its
/// metadata gives (`res@duration`), and runs on without one.
extension DeviceControl {
    /// Where the position is kept in the service's values, under names no SCPD variable has: the position in
    /// milliseconds when playback last started or stopped, and the instant (milliseconds) playing began.
    private static let positionKey = "#PositionMilliseconds"
    private static let playingSinceKey = "#PlayingSinceMilliseconds"

    mutating func avTransport(
        _ call: SOAPActionCall,
        service index: Int,
        at now: SSDPInstant
    ) -> Result<[SOAPArgument], UPnPError>? {
        // The template's 718: a renderer without multiple connections has instance 0 only. The SCPD check has
        // made sure the argument is a number.
        if let instance = call.argument("InstanceID"), Int(instance.trimmingASCIIWhitespace) != 0 {
            return .failure(UPnPError(code: 718, description: "Invalid InstanceID"))
        }
        let time = Self.milliseconds(of: now)
        switch call.actionName {
        case "SetAVTransportURI":
            load(
                uri: call.argument("CurrentURI") ?? "",
                metadata: call.argument("CurrentURIMetaData") ?? "",
                service: index
            )
            return .success([])
        case "Play":
            return transition(service: index) { transport in
                guard transport.state != "PLAYING" else { return }
                transport.state = "PLAYING"
                transport.playingSince = time
            }
        case "Pause":
            return transition(service: index) { (transport: inout Transport) throws(UPnPError) in
                guard transport.state != "PAUSED_PLAYBACK" else { return }
                guard transport.state == "PLAYING" else { throw Self.transitionNotAvailable }
                transport.position = transport.position(at: time)
                transport.playingSince = nil
                transport.state = "PAUSED_PLAYBACK"
            }
        case "Stop":
            guard services[index].isLoaded else { return .success([]) }
            return transition(service: index) { transport in
                transport = Transport(state: "STOPPED", position: 0, playingSince: nil, duration: transport.duration)
            }
        case "Seek":
            return seek(call, service: index, at: time)
        case "GetPositionInfo":
            let transport = Transport(services[index])
            let position = Self.playbackTime(transport.position(at: time))
            // What a Sonos answers for what it does not count (and the template's defaults).
            return .success(
                answer(
                    call,
                    service: index,
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
    private mutating func load(uri: String, metadata: String, service index: Int) {
        let loaded = !uri.isEmpty
        let duration = loaded ? Self.duration(inMetadata: metadata) : nil
        let durationText = Self.playbackTime(duration ?? 0)
        for (name, value) in [
            ("AVTransportURI", uri), ("AVTransportURIMetaData", metadata), ("CurrentTrackURI", uri),
            ("CurrentTrackMetaData", metadata), ("NumberOfTracks", loaded ? "1" : "0"),
            ("CurrentTrack", loaded ? "1" : "0"), ("CurrentTrackDuration", durationText),
            ("CurrentMediaDuration", durationText), ("PlaybackStorageMedium", loaded ? "NETWORK" : "NONE"),
        ] {
            services[index].values[name] = value
        }
        let allowed = services[index].description.stateVariable(named: "TransportState")?.allowedValues ?? []
        let state = loaded || !allowed.contains("NO_MEDIA_PRESENT") ? "STOPPED" : "NO_MEDIA_PRESENT"
        Transport(state: state, position: 0, playingSince: nil, duration: duration).write(to: &services[index])
    }

    /// Seek by REL_TIME (a position), TIME_DELTA (Sonos: `+H:MM:SS` or `-H:MM:SS` from here) or TRACK_NR (the
    /// one track, `1`); the SCPD check has refused other units (600). A target the track does not have: 711.
    private mutating func seek(
        _ call: SOAPActionCall,
        service index: Int,
        at time: Int
    ) -> Result<[SOAPArgument], UPnPError> {
        let target = (call.argument("Target") ?? "").trimmingASCIIWhitespace
        let illegalTarget = UPnPError(code: 711, description: "Illegal seek target")
        return transition(service: index) { (transport: inout Transport) throws(UPnPError) in
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

    /// Applies `change` to the transport of service `index` when media is loaded (else 701), and answers the
    /// action's out-arguments (Play, Pause, Stop and Seek have none).
    private mutating func transition(
        service index: Int,
        _ change: (inout Transport) throws(UPnPError) -> Void
    ) -> Result<[SOAPArgument], UPnPError> {
        guard services[index].isLoaded else { return .failure(Self.transitionNotAvailable) }
        var transport = Transport(services[index])
        do throws(UPnPError) {
            try change(&transport)
        } catch {
            return .failure(error)
        }
        transport.write(to: &services[index])
        return .success([])
    }

    /// The transport of one AVTransport service as its values hold it.
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

        init(_ service: ControlledService) {
            let duration = DeviceControl.milliseconds(ofPlaybackTime: service.value(of: "CurrentTrackDuration"))
            self.init(
                state: service.value(of: "TransportState"),
                position: service.values[DeviceControl.positionKey].flatMap { Int($0) } ?? 0,
                playingSince: service.values[DeviceControl.playingSinceKey].flatMap { Int($0) },
                duration: duration == 0 ? nil : duration
            )
        }

        /// The position at `time` (milliseconds): it runs while playing, up to the track's end.
        func position(at time: Int) -> Int {
            let position = self.position + (playingSince.map { max(0, time - $0) } ?? 0)
            return min(position, duration ?? .max)
        }

        /// Writes the state, with the status and the actions it allows, and the position to `service`.
        func write(to service: inout ControlledService) {
            service.values["TransportState"] = state
            service.values["TransportStatus"] = "OK"
            service.values["CurrentTransportActions"] =
                switch state {
                case "PLAYING": "Pause,Stop,Seek"
                case "PAUSED_PLAYBACK": "Play,Stop,Seek"
                case "STOPPED": "Play,Seek"
                default: ""
                }
            service.values[DeviceControl.positionKey] = String(position)
            service.values[DeviceControl.playingSinceKey] = playingSince.map { String($0) }
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

    // MARK: - Answers

    /// Each out-argument of `call`'s action from its variable: the value in `computed` if there is one, else
    /// the variable's, else (set by nothing and without an SCPD default) the one in `unset`, which is what the
    /// real device answers where Sonos's SCPDs give no default.
    private func answer(
        _ call: SOAPActionCall,
        service index: Int,
        computed: [String: String] = [:],
        unset: [String: String] = [:]
    ) -> [SOAPArgument] {
        let service = services[index]
        let arguments = service.description.action(named: call.actionName)?.arguments ?? []
        return arguments.filter { $0.direction == .out }.map { argument in
            let name = argument.relatedStateVariable
            let value =
                computed[name] ?? service.values[name] ?? service.description.stateVariable(named: name)?.defaultValue
                ?? unset[name] ?? service.value(of: name)
            return SOAPArgument(argument.name, value)
        }
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

// MARK: - Sonos household

/// A Sonos player's DeviceProperties and ZoneGroupTopology as SoCo reads them (after-discovery.md §5): the
/// household of `environment.sonosHouseholdID`, the player's room, and every player of the run in
/// ZoneGroupState, each in a group of its own. The speaker's facts are a Sonos One's (S18) on the catalog's
/// firmware, 95.0-77060.
extension DeviceControl {
    /// The player's firmware, as the catalog's SCPDs were captured from (SSDPServiceDescription+Sonos.swift),
    /// the version the Sonos app shows for it, the board's, and the oldest a player must run to join it (one
    /// major version back, as real players report). The description document says the same.
    public static let sonosSoftwareVersion = "95.0-77060"
    /// The firmware version the Sonos app shows (DisplaySoftwareVersion).
    public static let sonosDisplayVersion = "18.1"
    /// The player's hardware version (HardwareVersion).
    public static let sonosHardwareVersion = "1.26.1.7-1.2"
    /// The oldest firmware a player must run to join it (MinCompatibleVersion).
    public static let sonosMinCompatibleVersion = "94.0-00000"
    /// The oldest firmware of the previous generation it works with (LegacyCompatibleVersion).
    public static let sonosLegacyCompatibleVersion = "58.0-00000"
    /// The room icon of a player whose room was never named otherwise.
    static let sonosDefaultIcon = "x-rincon-roomicon:living"

    mutating func sonosHousehold(_ call: SOAPActionCall, service index: Int) -> Result<[SOAPArgument], UPnPError>? {
        switch call.actionName {
        case "GetHouseholdID":
            return .success(answer(call, service: index, computed: ["HouseholdID": environment.sonosHouseholdID]))
        case "GetZoneAttributes":
            // SetZoneAttributes stores what it is given (the generic answer); until then, the room's.
            return .success(answer(call, service: index, unset: sonosZoneAttributes))
        case "GetZoneInfo":
            return .success(answer(call, service: index, unset: zoneInfo))
        case "GetZoneGroupState":
            return .success(answer(call, service: index, computed: ["ZoneGroupState": zoneGroupState]))
        case "GetZoneGroupAttributes":
            return .success(answer(call, service: index, computed: sonosZoneGroupValues))
        default:
            return nil
        }
    }

    /// ZoneGroupTopology's variables for this player's group (the player alone) and household.
    var sonosZoneGroupValues: [String: String] {
        let group = ownGroup
        return [
            "ZoneGroupState": zoneGroupState, "ZoneGroupName": sonosZoneAttributes["ZoneName"] ?? "",
            "ZoneGroupID": group.id, "ZonePlayerUUIDsInGroup": group.uuid,
            "MuseHouseholdId": environment.sonosHouseholdID,
        ]
    }

    /// The ZoneGroupState document (after-discovery.md §5.2), unescaped: every player of the household in a
    /// group it coordinates alone, with the attributes SoCo reads and those a real player adds.
    var zoneGroupState: String {
        var xml = "<ZoneGroupState><ZoneGroups>"
        for (number, player) in environment.sonosPlayers.enumerated() {
            let attributes = player.uuid == ownUUID ? sonosZoneAttributes : [:]
            let member: [(String, String)] = [
                ("UUID", player.uuid), ("Location", player.location),
                ("ZoneName", attributes["ZoneName"] ?? player.zoneName),
                ("Icon", attributes["Icon"] ?? Self.sonosDefaultIcon),
                ("Configuration", attributes["Configuration"] ?? "1"),
                ("SoftwareVersion", Self.sonosSoftwareVersion), ("SWGen", "2"),
                ("MinCompatibleVersion", Self.sonosMinCompatibleVersion),
                ("LegacyCompatibleVersion", Self.sonosLegacyCompatibleVersion),
                // The player's X-RINCON-BOOTSEQ is not known here.
                ("BootSeq", "1"), ("TVConfigurationError", "0"), ("HdmiCecAvailable", "0"), ("WirelessMode", "0"),
                ("WirelessLeafOnly", "0"), ("ChannelFreq", "2437"), ("BehindWifiExtender", "0"), ("WifiEnabled", "1"),
                ("EthLink", "1"), ("Orientation", "0"), ("RoomCalibrationState", "4"), ("SecureRegState", "3"),
                ("VoiceConfigState", "0"), ("MicEnabled", "0"), ("AirPlayEnabled", "0"), ("IdleState", "1"),
                ("MoreInfo", ""), ("SSLPort", "1443"), ("HHSSLPort", "1843"),
            ]
            xml += #"<ZoneGroup Coordinator="\#(player.uuid)" ID="\#(Self.groupID(of: player.uuid, number: number))">"#
            xml += "<ZoneGroupMember"
            for (name, value) in member { xml += #" \#(name)="\#(SSDPRootDevice.escaped(value))""# }
            xml += "/></ZoneGroup>"
        }
        return xml + "</ZoneGroups><VanishedDevices/></ZoneGroupState>"
    }

    /// `RINCON_…:<n>`: a group is named by its coordinator and a number (real ones count the household's
    /// regroupings; here the player's place in the household).
    private static func groupID(of uuid: String, number: Int) -> String {
        "\(uuid):\(number + 1)"
    }

    /// This player's UDN without `uuid:`.
    private var ownUUID: String {
        environment.udn.hasPrefix("uuid:") ? String(environment.udn.dropFirst("uuid:".count)) : environment.udn
    }

    /// This player in the household, when the environment lists it.
    private var ownPlayer: SonosPlayer? {
        environment.sonosPlayers.first { $0.uuid == ownUUID }
    }

    /// This player's group: its ID and members (the player alone).
    private var ownGroup: (id: String, uuid: String) {
        let number = environment.sonosPlayers.firstIndex { $0.uuid == ownUUID } ?? 0
        return (Self.groupID(of: ownUUID, number: number), ownUUID)
    }

    /// The room of this player by DeviceProperties variable: what SetZoneAttributes set, else the zone name
    /// the household knows it by (or its friendly name), the living-room icon, configuration 1.
    var sonosZoneAttributes: [String: String] {
        var attributes = [
            "ZoneName": ownPlayer?.zoneName ?? environment.friendlyName, "Icon": Self.sonosDefaultIcon,
            "Configuration": "1", "TargetRoomName": "",
        ]
        if let properties = services.first(where: {
            ControlledService.baseType(of: $0.serviceType) == "DeviceProperties"
        }) {
            let set = properties.values.filter { attributes[$0.key] != nil }
            attributes.merge(set) { _, set in set }
        }
        return attributes
    }

    /// GetZoneInfo's facts by variable, a Sonos One's: the serial number and MAC address in the UDN
    /// (`RINCON_<MAC>01400`), the address in the player's LOCATION.
    private var zoneInfo: [String: String] {
        let uuid = ownUUID
        let hex = uuid.hasPrefix("RINCON_") ? String(uuid.dropFirst("RINCON_".count).prefix(12)) : ""
        let octets =
            hex.count == 12 && hex.allSatisfy(\.isHexDigit)
            ? stride(from: 0, to: 12, by: 2).map { offset in
                String(hex.dropFirst(offset).prefix(2)).uppercased()
            } : []
        let host = ownPlayer.map { Self.host(of: $0.location) } ?? ""
        return [
            "SerialNumber": octets.isEmpty ? "" : octets.joined(separator: "-") + ":1",
            "SoftwareVersion": Self.sonosSoftwareVersion, "DisplaySoftwareVersion": Self.sonosDisplayVersion,
            "HardwareVersion": Self.sonosHardwareVersion, "IPAddress": host,
            "MACAddress": octets.joined(separator: ":"),
            "CopyrightInfo": "© 2004-2026 Sonos, Inc. All rights reserved.", "ExtraInfo": "", "HTAudioIn": "0",
            "Flags": "0",
        ]
    }

    /// The host of `http://host:port/path`.
    private static func host(of location: String) -> String {
        let afterScheme = location.firstRange(of: "//").map { location[$0.upperBound...] } ?? location[...]
        return String(afterScheme.prefix { $0 != ":" && $0 != "/" })
    }
}
