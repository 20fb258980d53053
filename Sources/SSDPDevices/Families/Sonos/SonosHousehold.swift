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

extension ControlEnvironment {
    /// The Sonos household the device is in.
    public var sonosHouseholdID: String {
        get { self[HouseholdIDKey.self] }
        set { self[HouseholdIDKey.self] = newValue }
    }

    /// Every Sonos player of the run in that household, this device included, at their own addresses, as
    /// ZoneGroupState lists them; none until the simulator sets them.
    public var sonosPlayers: [SonosPlayer] {
        get { self[PlayersKey.self] }
        set { self[PlayersKey.self] = newValue }
    }

    private enum HouseholdIDKey: ControlEnvironmentKey {
        static let defaultValue = "Sonos_simulated0000000000000"
    }

    private enum PlayersKey: ControlEnvironmentKey {
        static let defaultValue: [SonosPlayer] = []
    }
}

/// A Sonos player's DeviceProperties and ZoneGroupTopology as SoCo reads them (after-discovery.md §5): the
/// household of `environment.sonosHouseholdID`, the player's room, and every player of the run in
/// ZoneGroupState, each in a group of its own. The speaker's facts are a Sonos One's (S18) on the catalog's
/// firmware, 95.0-77060.
///
/// Both services work out their answers from the device's surroundings and the room DeviceProperties keeps
/// (SetZoneAttributes stores what it is given, as the state-variable answer does).
public struct SonosHousehold: ServiceBehaviour {
    /// Which of the household's two services this is.
    public enum Service: Sendable {
        /// DeviceProperties: the household ID, the room and the speaker's facts.
        case deviceProperties
        /// ZoneGroupTopology: the household's groups.
        case zoneGroupTopology
    }

    /// Which of the household's two services this is.
    public let service: Service

    /// The behaviour of `service`.
    public init(service: Service) {
        self.service = service
    }

    /// The household's answers; SetZoneAttributes and the rest answer from the variables.
    public mutating func answer(
        _ call: SOAPActionCall,
        service: inout ControlledService,
        context: ActionContext
    ) -> Result<[SOAPArgument], UPnPError>? {
        let household = Household(device: context.device)
        switch call.actionName {
        case "GetHouseholdID":
            return .success(service.answer(call, computed: ["HouseholdID": context.environment.sonosHouseholdID]))
        case "GetZoneAttributes":
            // SetZoneAttributes stores what it is given (the state-variable answer); until then, the room's.
            return .success(service.answer(call, unset: household.zoneAttributes))
        case "GetZoneInfo":
            return .success(service.answer(call, unset: household.zoneInfo))
        case "GetZoneGroupState":
            return .success(service.answer(call, computed: ["ZoneGroupState": household.zoneGroupState]))
        case "GetZoneGroupAttributes":
            return .success(service.answer(call, computed: household.zoneGroupValues))
        default:
            return nil
        }
    }

    /// The evented values worked out from the household: the room (DeviceProperties) or the group
    /// (ZoneGroupTopology).
    public func computedValues(of service: ControlledService, in device: DeviceControl) -> [String: String] {
        let household = Household(device: device)
        return switch self.service {
        case .deviceProperties: household.zoneAttributes
        case .zoneGroupTopology: household.zoneGroupValues
        }
    }
}

/// The household as one player sees it: its surroundings and its own room.
private struct Household {
    /// The player's device.
    let device: DeviceControl

    /// What the player knows of its surroundings.
    var environment: ControlEnvironment { device.environment }

    /// ZoneGroupTopology's variables for this player's group (the player alone) and household.
    var zoneGroupValues: [String: String] {
        let group = ownGroup
        return [
            "ZoneGroupState": zoneGroupState, "ZoneGroupName": zoneAttributes["ZoneName"] ?? "",
            "ZoneGroupID": group.id, "ZonePlayerUUIDsInGroup": group.uuid,
            "MuseHouseholdId": environment.sonosHouseholdID,
        ]
    }

    /// The ZoneGroupState document (after-discovery.md §5.2), unescaped: every player of the household in a
    /// group it coordinates alone, with the attributes SoCo reads and those a real player adds.
    var zoneGroupState: String {
        var xml = "<ZoneGroupState><ZoneGroups>"
        for (number, player) in environment.sonosPlayers.enumerated() {
            let attributes = player.uuid == ownUUID ? zoneAttributes : [:]
            let member: [(String, String)] = [
                ("UUID", player.uuid), ("Location", player.location),
                ("ZoneName", attributes["ZoneName"] ?? player.zoneName),
                ("Icon", attributes["Icon"] ?? SonosPlayer.defaultIcon),
                ("Configuration", attributes["Configuration"] ?? "1"),
                ("SoftwareVersion", SonosPlayer.softwareVersion), ("SWGen", "2"),
                ("MinCompatibleVersion", SonosPlayer.minCompatibleVersion),
                ("LegacyCompatibleVersion", SonosPlayer.legacyCompatibleVersion),
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
    var zoneAttributes: [String: String] {
        var attributes = [
            "ZoneName": ownPlayer?.zoneName ?? environment.friendlyName, "Icon": SonosPlayer.defaultIcon,
            "Configuration": "1", "TargetRoomName": "",
        ]
        if let properties = device.services.first(where: { $0.kind == "DeviceProperties" }) {
            let set = properties.values.filter { attributes[$0.key] != nil }
            attributes.merge(set) { _, set in set }
        }
        return attributes
    }

    /// GetZoneInfo's facts by variable, a Sonos One's: the serial number and MAC address in the UDN
    /// (`RINCON_<MAC>01400`), the address in the player's LOCATION.
    var zoneInfo: [String: String] {
        let uuid = ownUUID
        let hex = uuid.hasPrefix("RINCON_") ? String(uuid.dropFirst("RINCON_".count).prefix(12)) : ""
        let octets =
            hex.count == 12 && hex.allSatisfy(\.isHexDigit)
            ? stride(from: 0, to: 12, by: 2).map { offset in
                String(hex.dropFirst(offset).prefix(2)).uppercased()
            } : []
        // The address as it is, without an IPv6 address's brackets.
        let host = ownPlayer.map { SSDPRootDevice.host(of: $0.location).filter { $0 != "[" && $0 != "]" } } ?? ""
        return [
            "SerialNumber": octets.isEmpty ? "" : octets.joined(separator: "-") + ":1",
            "SoftwareVersion": SonosPlayer.softwareVersion, "DisplaySoftwareVersion": SonosPlayer.displayVersion,
            "HardwareVersion": SonosPlayer.hardwareVersion, "IPAddress": host,
            "MACAddress": octets.joined(separator: ":"),
            "CopyrightInfo": "© 2004-2026 Sonos, Inc. All rights reserved.", "ExtraInfo": "", "HTAudioIn": "0",
            "Flags": "0",
        ]
    }
}

/// One Sonos player of the household, as ZoneGroupState lists it.
public struct SonosPlayer: Hashable, Sendable {
    /// `RINCON_…01400`, the UDN without `uuid:`.
    public var uuid: String
    /// The player's LOCATION.
    public var location: String
    /// The room the player is in, as the Sonos app names it (ZoneName).
    public var zoneName: String

    /// A player of the household; `uuid` is its UDN without `uuid:`.
    public init(uuid: String, location: String, zoneName: String) {
        self.uuid = uuid
        self.location = location
        self.zoneName = zoneName
    }
}

extension SonosPlayer {
    /// The player's firmware, as the catalog's SCPDs were captured from (SSDPServiceDescription+Sonos.swift),
    /// the version the Sonos app shows for it, the board's, and the oldest a player must run to join it (one
    /// major version back, as real players report). The description document says the same.
    public static let softwareVersion = "95.0-77060"
    /// The firmware version the Sonos app shows (DisplaySoftwareVersion).
    public static let displayVersion = "18.1"
    /// The player's hardware version (HardwareVersion).
    public static let hardwareVersion = "1.26.1.7-1.2"
    /// The oldest firmware a player must run to join it (MinCompatibleVersion).
    public static let minCompatibleVersion = "94.0-00000"
    /// The oldest firmware of the previous generation it works with (LegacyCompatibleVersion).
    public static let legacyCompatibleVersion = "58.0-00000"
    /// The room icon of a player whose room was never named otherwise.
    static let defaultIcon = "x-rincon-roomicon:living"
}
