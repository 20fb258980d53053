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
import Testing

@testable import SSDPDeviceCore
@testable import SSDPDevices

/// A renderer's AVTransport and RenderingControl, and a Sonos player's household services, as SoCo and
/// async-upnp-client call them (after-discovery.md §2.3, §5): transport states and the position in virtual
/// time, volume and its LastChange, the household and ZoneGroupState.
struct MediaRendererControlTests {
    private static let avTransportType = "urn:schemas-upnp-org:service:AVTransport:1"
    private static let renderingControlType = "urn:schemas-upnp-org:service:RenderingControl:1"
    private static let devicePropertiesType = "urn:schemas-upnp-org:service:DeviceProperties:1"
    private static let zoneGroupTopologyType = "urn:schemas-upnp-org:service:ZoneGroupTopology:1"
    private static let players = [
        SonosPlayer(
            uuid: "RINCON_48A6B8332C2E01400",
            location: "http://192.168.1.101:1400/xml/device_description.xml",
            zoneName: "Kitchen"
        ),
        SonosPlayer(
            uuid: "RINCON_48A6B8000A1B01400",
            location: "http://192.168.1.102:1400/xml/device_description.xml",
            zoneName: "Living Room"
        ),
    ]
    private static let metadata = """
        <DIDL-Lite xmlns="urn:schemas-upnp-org:metadata-1-0/DIDL-Lite/" xmlns:dc="http://purl.org/dc/elements/1.1/" \
        xmlns:upnp="urn:schemas-upnp-org:metadata-1-0/upnp/"><item id="1" parentID="0" restricted="1">\
        <dc:title>Song</dc:title><upnp:class>object.item.audioItem.musicTrack</upnp:class>\
        <res protocolInfo="http-get:*:audio/mpeg:*" duration="0:03:25.000">http://192.168.1.50/song.mp3</res>\
        </item></DIDL-Lite>
        """

    /// Service indices in `player`'s control.
    private static let avTransport = 0
    private static let renderingControl = 1
    private static let deviceProperties = 2
    private static let zoneGroupTopology = 3

    /// The first player of the household with the catalog's services; `sonos` picks Sonos's AVTransport over
    /// the AV template's.
    private func player(sonos: Bool = false) throws -> DeviceControl {
        let service = { (type: String, name: String, description: SSDPServiceDescription?) throws in
            ControlledService(
                serviceType: type,
                serviceID: "urn:upnp-org:serviceId:\(name)",
                controlPath: "/\(name)/Control",
                eventPath: "/\(name)/Event",
                description: try #require(description)
            )
        }
        var control = DeviceControl(
            services: [
                try service(
                    Self.avTransportType,
                    "AVTransport",
                    sonos ? .sonosAVTransport1 : .standard(for: Self.avTransportType)
                ),
                try service(Self.renderingControlType, "RenderingControl", .standard(for: Self.renderingControlType)),
                try service(Self.devicePropertiesType, "DeviceProperties", .standard(for: Self.devicePropertiesType)),
                try service(
                    Self.zoneGroupTopologyType,
                    "ZoneGroupTopology",
                    .standard(for: Self.zoneGroupTopologyType)
                ),
            ],
            registry: .builtIn,
            startedAt: .zero
        )
        control.environment.udn = "uuid:" + Self.players[0].uuid
        control.environment.friendlyName = "Sonos One 1"
        control.environment.sonosHouseholdID = "Sonos_abcdefghijklmnopqrstuvwxyz"
        control.environment.sonosPlayers = Self.players
        return control
    }

    @discardableResult
    private func call(
        _ control: inout DeviceControl,
        _ service: Int,
        _ action: String,
        _ arguments: [(String, String)] = [],
        at seconds: Int = 10
    ) -> ActionResult {
        control.call(action, arguments, service: service, at: seconds)
    }

    private func transport(
        _ control: inout DeviceControl,
        _ action: String,
        _ arguments: [(String, String)] = [],
        at seconds: Int = 10
    ) -> ActionResult {
        call(&control, Self.avTransport, action, [("InstanceID", "0")] + arguments, at: seconds)
    }

    private func load(_ control: inout DeviceControl, metadata: String = "") -> ActionResult {
        transport(
            &control,
            "SetAVTransportURI",
            [("CurrentURI", "http://192.168.1.50/song.mp3"), ("CurrentURIMetaData", metadata)]
        )
    }

    /// GetPositionInfo as SoCo sends it, with its extra `Channel`.
    private func position(_ control: inout DeviceControl, at seconds: Int) -> [String: String] {
        values(transport(&control, "GetPositionInfo", [("Channel", "Master")], at: seconds))
    }

    private func code(_ result: ActionResult) -> Int? {
        if case .failure(let error) = result.outcome { error.code } else { nil }
    }

    private func names(_ result: ActionResult) -> [String] {
        guard case .success(let arguments) = result.outcome else { return [] }
        return arguments.map(\.name)
    }

    private func values(_ result: ActionResult) -> [String: String] {
        guard case .success(let arguments) = result.outcome else { return [:] }
        return Dictionary(arguments.map { ($0.name, $0.value) }) { $1 }
    }

    /// The names of an action's out-arguments in the SCPD's order.
    private func declaredOutArguments(_ control: DeviceControl, _ service: Int, _ action: String) -> [String] {
        control.services[service].description.action(named: action)?.arguments.filter { $0.direction == .out }
            .map(\.name) ?? []
    }

    // MARK: - AVTransport

    @Test(arguments: [false, true])
    func playThenGetTransportInfoSaysPlaying(sonos: Bool) throws {
        var control = try player(sonos: sonos)
        #expect(values(transport(&control, "GetTransportInfo"))["CurrentTransportState"] == "STOPPED")
        _ = load(&control)
        #expect(code(transport(&control, "Play", [("Speed", "1")])) == nil)
        let info = transport(&control, "GetTransportInfo")
        #expect(names(info) == ["CurrentTransportState", "CurrentTransportStatus", "CurrentSpeed"])
        #expect(
            values(info) == ["CurrentTransportState": "PLAYING", "CurrentTransportStatus": "OK", "CurrentSpeed": "1"]
        )
        #expect(values(transport(&control, "GetCurrentTransportActions"))["Actions"] == "Pause,Stop,Seek")
    }

    /// The times that trapped on arithmetic overflow and took every device of the simulator down with them
    /// (issue 38): a track of 10^16 hours, a seek to it, and deltas whose sum passes `Int.max`.
    @Test(arguments: [false, true])
    func timesPastAnyTracksLengthAreRefusedNotATrap(sonos: Bool) throws {
        var control = try player(sonos: sonos)
        let huge = "9999999999999999:00:00"
        let metadata = Self.metadata.split(separator: "0:03:25.000").joined(separator: huge)
        #expect(code(load(&control, metadata: metadata)) == nil)
        // No length is read from it: the track runs on, as one without a duration.
        #expect(values(transport(&control, "GetMediaInfo"))["MediaDuration"] == "0:00:00")
        #expect(code(transport(&control, "Seek", [("Unit", "REL_TIME"), ("Target", huge)])) == 711)
        for target in ["+2562047788015:00:00", "+999999:00:00", "+999999:00:00", "+999999:59:59"] {
            _ = transport(&control, "Seek", [("Unit", "TIME_DELTA"), ("Target", target)])
        }
        #expect(code(transport(&control, "Seek", [("Unit", "REL_TIME"), ("Target", "999999:00:00")])) == nil)
        #expect(position(&control, at: 10)["RelTime"] == "999999:00:00")
        // Past the longest position, a delta is an illegal target; only Sonos seeks by delta at all (600).
        #expect(
            code(transport(&control, "Seek", [("Unit", "TIME_DELTA"), ("Target", "+0:00:01")])) == (sonos ? 711 : 600)
        )
        #expect(code(transport(&control, "Seek", [("Unit", "REL_TIME"), ("Target", "0:00:01.-99")])) == nil)
        #expect(position(&control, at: 10)["RelTime"] == "0:00:01")
    }

    @Test(arguments: [false, true])
    func playOrPauseWithNothingLoadedIsTransitionNotAvailable(sonos: Bool) throws {
        var control = try player(sonos: sonos)
        #expect(code(transport(&control, "Play", [("Speed", "1")])) == 701)
        #expect(code(transport(&control, "Pause")) == 701)
        #expect(values(transport(&control, "GetTransportInfo"))["CurrentTransportState"] == "STOPPED")
    }

    @Test func pauseWhileStoppedIsTransitionNotAvailable() throws {
        var control = try player()
        _ = load(&control)
        #expect(code(transport(&control, "Pause")) == 701)
        #expect(code(transport(&control, "Stop")) == nil)
    }

    @Test func anInstanceOtherThanZeroIsInvalid() throws {
        var control = try player()
        let result = call(&control, Self.avTransport, "GetTransportInfo", [("InstanceID", "1")])
        #expect(code(result) == 718)
    }

    @Test(arguments: [false, true])
    func relTimeRunsWhilePlayingHoldsWhilePausedAndResetsOnStop(sonos: Bool) throws {
        var control = try player(sonos: sonos)
        _ = load(&control)
        _ = transport(&control, "Play", [("Speed", "1")], at: 10)
        #expect(position(&control, at: 10)["RelTime"] == "0:00:00")
        #expect(position(&control, at: 75)["RelTime"] == "0:01:05")
        _ = transport(&control, "Pause", at: 80)
        #expect(position(&control, at: 80)["RelTime"] == "0:01:10")
        #expect(position(&control, at: 500)["RelTime"] == "0:01:10")
        _ = transport(&control, "Play", [("Speed", "1")], at: 500)
        #expect(position(&control, at: 505)["RelTime"] == "0:01:15")
        _ = transport(&control, "Stop", at: 510)
        #expect(position(&control, at: 600)["RelTime"] == "0:00:00")
        #expect(values(transport(&control, "GetTransportInfo"))["CurrentTransportState"] == "STOPPED")
    }

    @Test(arguments: [false, true])
    func setAVTransportURILoadsTheTrackWithItsMetadataDuration(sonos: Bool) throws {
        var control = try player(sonos: sonos)
        _ = load(&control, metadata: Self.metadata)
        let media = values(transport(&control, "GetMediaInfo"))
        #expect(media["CurrentURI"] == "http://192.168.1.50/song.mp3")
        #expect(media["CurrentURIMetaData"] == Self.metadata)
        #expect(media["NrTracks"] == "1")
        #expect(media["MediaDuration"] == "0:03:25")
        #expect(media["PlayMedium"] == "NETWORK")
        _ = transport(&control, "Play", [("Speed", "1")], at: 10)
        let info = position(&control, at: 70)
        #expect(Set(info.keys) == Set(declaredOutArguments(control, Self.avTransport, "GetPositionInfo")))
        #expect(info["Track"] == "1")
        #expect(info["TrackDuration"] == "0:03:25")
        #expect(info["TrackURI"] == "http://192.168.1.50/song.mp3")
        #expect(info["TrackMetaData"] == Self.metadata)
        #expect(info["RelTime"] == "0:01:00")
        #expect(info["AbsTime"] == "NOT_IMPLEMENTED")
        #expect(info["RelCount"] == "2147483647")
        // The track's end holds the position: nothing plays, so nothing ends it.
        #expect(position(&control, at: 1000)["RelTime"] == "0:03:25")
    }

    @Test func seekMovesThePositionWithinTheTrack() throws {
        var control = try player(sonos: true)
        _ = load(&control, metadata: Self.metadata)
        _ = transport(&control, "Play", [("Speed", "1")], at: 10)
        #expect(code(transport(&control, "Seek", [("Unit", "REL_TIME"), ("Target", "0:02:00")], at: 20)) == nil)
        #expect(position(&control, at: 25)["RelTime"] == "0:02:05")
        _ = transport(&control, "Seek", [("Unit", "TIME_DELTA"), ("Target", "-0:01:00")], at: 25)
        #expect(position(&control, at: 25)["RelTime"] == "0:01:05")
        #expect(code(transport(&control, "Seek", [("Unit", "REL_TIME"), ("Target", "1:00:00")])) == 711)
        #expect(code(transport(&control, "Seek", [("Unit", "REL_TIME"), ("Target", "soon")])) == 711)
    }

    @Test(arguments: [false, true])
    func transportChangesAreReportedInLastChange(sonos: Bool) throws {
        var control = try player(sonos: sonos)
        _ = load(&control)
        let play = transport(&control, "Play", [("Speed", "1")])
        #expect(play.changedVariables.contains("TransportState"))
        let event = control.eventProperties(service: Self.avTransport, changed: play.changedVariables)
        let lastChange = try #require(event.first { $0.name == "LastChange" }?.value)
        let document = try #require(SSDPXMLElement.parse(Array(lastChange.utf8)))
        #expect(document.attributes["xmlns"] == "urn:schemas-upnp-org:metadata-1-0/AVT/")
        let instance = try #require(document.child("InstanceID"))
        #expect(instance.child("TransportState")?.attributes["val"] == "PLAYING")
        #expect(instance.child("RelativeTimePosition") == nil)
        // A GetPositionInfo changes nothing, so it sends no event.
        #expect(transport(&control, "GetPositionInfo", at: 60).changedVariables.isEmpty)
    }

    // MARK: - RenderingControl

    @Test func setVolumeThenGetVolumeAndItsLastChange() throws {
        var control = try player()
        let set = call(
            &control,
            Self.renderingControl,
            "SetVolume",
            [("InstanceID", "0"), ("Channel", "Master"), ("DesiredVolume", "30")]
        )
        #expect(code(set) == nil)
        #expect(set.changedVariables == ["Volume"])
        let get = call(&control, Self.renderingControl, "GetVolume", [("InstanceID", "0"), ("Channel", "Master")])
        #expect(values(get) == ["CurrentVolume": "30"])
        #expect(
            control.eventProperties(service: Self.renderingControl, changed: set.changedVariables) == [
                SOAPArgument(
                    "LastChange",
                    #"<Event xmlns="urn:schemas-upnp-org:metadata-1-0/RCS/"><InstanceID val="0">"#
                        + #"<Volume channel="Master" val="30"/></InstanceID></Event>"#
                )
            ]
        )
    }

    @Test func aVolumeAbove100IsOutOfRange() throws {
        var control = try player()
        let set = call(
            &control,
            Self.renderingControl,
            "SetVolume",
            [("InstanceID", "0"), ("Channel", "Master"), ("DesiredVolume", "101")]
        )
        #expect(code(set) == 601)
        #expect(set.changedVariables.isEmpty)
        let channel = call(&control, Self.renderingControl, "GetVolume", [("InstanceID", "0"), ("Channel", "Centre")])
        #expect(code(channel) == 600)
    }

    @Test func setMuteThenGetMute() throws {
        var control = try player()
        call(
            &control,
            Self.renderingControl,
            "SetMute",
            [("InstanceID", "0"), ("Channel", "Master"), ("DesiredMute", "1")]
        )
        let get = call(&control, Self.renderingControl, "GetMute", [("InstanceID", "0"), ("Channel", "Master")])
        #expect(values(get) == ["CurrentMute": "1"])
    }

    // MARK: - Sonos household

    @Test func getHouseholdIDAnswersTheEnvironments() throws {
        var control = try player()
        let result = call(&control, Self.deviceProperties, "GetHouseholdID")
        #expect(values(result) == ["CurrentHouseholdID": "Sonos_abcdefghijklmnopqrstuvwxyz"])
    }

    @Test func zoneAttributesAreTheRoomsUntilSet() throws {
        var control = try player()
        let before = call(&control, Self.deviceProperties, "GetZoneAttributes")
        #expect(names(before) == declaredOutArguments(control, Self.deviceProperties, "GetZoneAttributes"))
        #expect(values(before)["CurrentZoneName"] == "Kitchen")
        #expect(values(before)["CurrentIcon"] == "x-rincon-roomicon:living")
        #expect(values(before)["CurrentConfiguration"] == "1")
        call(
            &control,
            Self.deviceProperties,
            "SetZoneAttributes",
            [
                ("DesiredZoneName", "Office"), ("DesiredIcon", "x-rincon-roomicon:office"),
                ("DesiredConfiguration", "1"),
                ("DesiredTargetRoomName", ""),
            ]
        )
        #expect(values(call(&control, Self.deviceProperties, "GetZoneAttributes"))["CurrentZoneName"] == "Office")
        let state = values(call(&control, Self.zoneGroupTopology, "GetZoneGroupState"))["ZoneGroupState"] ?? ""
        #expect(state.contains(#"ZoneName="Office""#))
    }

    @Test func zoneInfoAnswersEveryDeclaredArgument() throws {
        var control = try player()
        let result = call(&control, Self.deviceProperties, "GetZoneInfo")
        #expect(names(result) == declaredOutArguments(control, Self.deviceProperties, "GetZoneInfo"))
        let info = values(result)
        #expect(info["SerialNumber"] == "48-A6-B8-33-2C-2E:1")
        #expect(info["MACAddress"] == "48:A6:B8:33:2C:2E")
        #expect(info["IPAddress"] == "192.168.1.101")
        #expect(info["SoftwareVersion"] == "95.0-77060")
        #expect(info["HTAudioIn"] == "0")
        #expect(info["Flags"] == "0")
        // A player at an IPv6 address: the whole address, without brackets.
        control.environment.sonosPlayers[0].location = "http://[2001:db8::1]:1400/xml/device_description.xml"
        #expect(values(call(&control, Self.deviceProperties, "GetZoneInfo"))["IPAddress"] == "2001:db8::1")
    }

    @Test func zoneGroupStateListsEveryPlayerAsItsOwnCoordinator() throws {
        var control = try player()
        let result = call(&control, Self.zoneGroupTopology, "GetZoneGroupState")
        let text = try #require(values(result)["ZoneGroupState"])
        let state = try #require(SSDPXMLElement.parse(Array(text.utf8)))
        #expect(state.name == "ZoneGroupState")
        #expect(state.child("VanishedDevices") != nil)
        let groups = try #require(state.child("ZoneGroups")).children
        #expect(groups.count == Self.players.count)
        for (group, player) in zip(groups, Self.players) {
            #expect(group.attributes["Coordinator"] == player.uuid)
            #expect(group.attributes["ID"]?.hasPrefix(player.uuid + ":") == true)
            let member = try #require(group.child("ZoneGroupMember"))
            #expect(member.attributes["UUID"] == player.uuid)
            #expect(member.attributes["Location"] == player.location)
            #expect(member.attributes["ZoneName"] == player.zoneName)
            #expect(member.attributes["SoftwareVersion"] == "95.0-77060")
            #expect(member.attributes["BootSeq"] != nil)
        }
    }

    @Test func zoneGroupStateIsEscapedOnceInTheResponse() throws {
        var control = try player()
        let result = call(&control, Self.zoneGroupTopology, "GetZoneGroupState")
        guard case .success(let arguments) = result.outcome else { throw UPnPError.actionFailed }
        let envelope = SOAPEnvelope.response(
            serviceType: Self.zoneGroupTopologyType,
            actionName: "GetZoneGroupState",
            arguments: arguments
        )
        let parsed = try #require(SSDPXMLElement.parse(Array(envelope.utf8)))
        let text = try #require(parsed.child("Body")?.child("GetZoneGroupStateResponse")?.child("ZoneGroupState")?.text)
        #expect(text == values(result)["ZoneGroupState"])
        #expect(SSDPXMLElement.parse(Array(text.utf8))?.child("ZoneGroups")?.children.count == 2)
    }

    @Test func zoneGroupAttributesNameThePlayersOwnGroup() throws {
        var control = try player()
        let result = call(&control, Self.zoneGroupTopology, "GetZoneGroupAttributes")
        #expect(names(result) == declaredOutArguments(control, Self.zoneGroupTopology, "GetZoneGroupAttributes"))
        #expect(values(result)["CurrentZoneGroupName"] == "Kitchen")
        #expect(values(result)["CurrentZoneGroupID"] == Self.players[0].uuid + ":1")
        #expect(values(result)["CurrentZonePlayerUUIDsInGroup"] == Self.players[0].uuid)
    }

    @Test func theInitialTopologyEventCarriesTheHouseholdAndItsGroups() throws {
        // SoCo subscribes to ZoneGroupTopology and reads the players from the event, not from an action.
        let control = try player()
        let event = Dictionary(control.eventProperties(service: Self.zoneGroupTopology).map { ($0.name, $0.value) }) {
            $1
        }
        let text = try #require(event["ZoneGroupState"])
        let state = try #require(SSDPXMLElement.parse(Array(text.utf8)))
        #expect(state.child("ZoneGroups")?.children.map { $0.attributes["Coordinator"] } == Self.players.map(\.uuid))
        #expect(event["MuseHouseholdId"] == "Sonos_abcdefghijklmnopqrstuvwxyz")
        #expect(event["ZoneGroupName"] == "Kitchen")
        let room = Dictionary(control.eventProperties(service: Self.deviceProperties).map { ($0.name, $0.value) }) {
            $1
        }
        #expect(room["ZoneName"] == "Kitchen")
    }

    @Test(arguments: [false, true])
    func aNewTransportIsOKAtNormalSpeed(sonos: Bool) throws {
        var control = try player(sonos: sonos)
        let info = values(transport(&control, "GetTransportInfo"))
        #expect(info["CurrentTransportStatus"] == "OK")
        #expect(info["CurrentSpeed"] == "1")
    }

    // MARK: - Times

    @Test func playbackTimesReadAndWriteAsHMMSS() {
        #expect(RendererTransport.playbackTime(3_725_999) == "1:02:05")
        #expect(RendererTransport.milliseconds(ofPlaybackTime: "00:03:25.5") == 205_500)
        #expect(RendererTransport.milliseconds(ofPlaybackTime: "0:03:25") == 205_000)
        #expect(RendererTransport.milliseconds(ofPlaybackTime: "0:61:00") == nil)
        #expect(RendererTransport.milliseconds(ofPlaybackTime: "NOT_IMPLEMENTED") == nil)
    }
}
