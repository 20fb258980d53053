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
import SSDPDevices
import Testing

/// The catalog of service descriptions: each one consistent as SoCo and async-upnp-client read it, each
/// standard service with every action its UPnP template requires, Sonos's with every action SoCo calls.
@Suite struct SSDPServiceDescriptionTests {
    /// Every description of the catalog, named: the standard ones by type, and the `sonos` profile's.
    static let catalog: [String: SSDPServiceDescription] = {
        var catalog: [String: SSDPServiceDescription] = [:]
        for type in SSDPServiceDescription.standardServiceTypes {
            catalog[type] = SSDPServiceDescription.standard(for: type)
        }
        for (type, description) in SSDPServiceDescription.sonosZonePlayer {
            catalog["sonos " + type] = description
        }
        return catalog
    }()

    /// The actions the UPnP service templates require (IGD:1, AV:1), plus the optional ones the device
    /// copied serves and clients call (miniupnpd's traffic counters, a renderer's volume and mute).
    static let requiredActions: [String: [String]] = [
        "urn:schemas-upnp-org:service:WANIPConnection:1": [
            "SetConnectionType", "GetConnectionTypeInfo", "RequestConnection", "ForceTermination", "GetStatusInfo",
            "GetNATRSIPStatus", "GetGenericPortMappingEntry", "GetSpecificPortMappingEntry", "AddPortMapping",
            "DeletePortMapping", "GetExternalIPAddress",
        ],
        "urn:schemas-upnp-org:service:WANCommonInterfaceConfig:1": [
            "GetCommonLinkProperties", "GetTotalBytesSent", "GetTotalBytesReceived", "GetTotalPacketsSent",
            "GetTotalPacketsReceived",
        ],
        "urn:schemas-upnp-org:service:Layer3Forwarding:1": [
            "SetDefaultConnectionService", "GetDefaultConnectionService",
        ],
        "urn:schemas-upnp-org:service:ContentDirectory:1": [
            "GetSearchCapabilities", "GetSortCapabilities", "GetSystemUpdateID", "Browse",
        ],
        "urn:schemas-upnp-org:service:ConnectionManager:1": [
            "GetProtocolInfo", "GetCurrentConnectionIDs", "GetCurrentConnectionInfo",
        ],
        "urn:schemas-upnp-org:service:RenderingControl:1": [
            "ListPresets", "SelectPreset", "GetVolume", "SetVolume", "GetMute", "SetMute",
        ],
        "urn:schemas-upnp-org:service:AVTransport:1": [
            "SetAVTransportURI", "GetMediaInfo", "GetTransportInfo", "GetPositionInfo", "GetDeviceCapabilities",
            "GetTransportSettings", "Stop", "Play", "Seek", "Next", "Previous",
        ],
        "urn:microsoft.com:service:X_MS_MediaReceiverRegistrar:1": ["IsAuthorized", "IsValidated", "RegisterDevice"],
    ]

    // MARK: - Every description

    @Test(arguments: catalog.keys.sorted())
    func everyNameIsUniqueAndEveryArgumentsVariableExists(name: String) throws {
        let description = try #require(Self.catalog[name])
        let variables = description.stateVariables.map(\.name)
        let twice = Set(variables.filter { name in variables.filter { $0 == name }.count > 1 })
        // A real Sonos's Queue1.xml declares one variable twice; nothing else may.
        #expect(twice == (name.hasSuffix("sonos-com:service:Queue:1") ? ["A_ARG_TYPE_SavedQueueTitle"] : []))
        #expect(!variables.isEmpty, "UDA wants one state variable at least")
        #expect(Set(description.actions.map(\.name)).count == description.actions.count, "an action twice")
        for action in description.actions {
            let arguments = action.arguments.map(\.name)
            #expect(Set(arguments).count == arguments.count, "\(action.name): an argument twice")
            for argument in action.arguments {
                // SoCo looks every relatedStateVariable up and fails on a missing one.
                #expect(variables.contains(argument.relatedStateVariable), "\(action.name).\(argument.name)")
            }
            // In-arguments come before out-arguments (UDA 1.1 §2.5).
            let directions = action.arguments.map(\.direction)
            #expect(directions == directions.filter { $0 == .in } + directions.filter { $0 == .out }, "\(action.name)")
        }
    }

    @Test(arguments: catalog.keys.sorted())
    func everyDefaultIsAnAllowedValueWithinItsRange(name: String) throws {
        for variable in try #require(Self.catalog[name]).stateVariables {
            if let value = variable.defaultValue, !variable.allowedValues.isEmpty {
                #expect(variable.allowedValues.contains(value), "\(variable.name)'s default is not allowed")
            }
            if let range = variable.allowedRange {
                #expect(range.minimum <= range.maximum, "\(variable.name)")
                if let value = variable.defaultValue {
                    #expect(Int(value).map { range.minimum <= $0 && $0 <= range.maximum } == true, "\(variable.name)")
                }
            }
        }
    }

    @Test(arguments: requiredActions.keys.sorted())
    func everyStandardServiceHasItsTemplatesRequiredActions(serviceType: String) throws {
        let description = try #require(SSDPServiceDescription.standard(for: serviceType))
        let missing = Set(Self.requiredActions[serviceType] ?? []).subtracting(description.actions.map(\.name))
        #expect(missing.isEmpty, "\(serviceType) lacks \(missing.sorted())")
    }

    @Test func theRESTServicesAndUnknownTypesHaveNoActions() {
        #expect(SSDPServiceDescription.standard(for: "urn:roku-com:service:ecp:1")?.actions == [])
        #expect(SSDPServiceDescription.standard(for: "urn:dial-multiscreen-org:service:dial:1")?.actions == [])
        #expect(SSDPServiceDescription.standard(for: "urn:example-com:service:Thing:1") == nil)
        #expect(SSDPServiceDescription.withoutActions.stateVariables.map(\.name) == ["A_ARG_TYPE_DeviceID"])
    }

    // MARK: - The devices' own details

    @Test func miniupnpdNamesArgumentsAfterTheirVariables() throws {
        let entry = try #require(SSDPServiceDescription.wanIPConnection1.action(named: "GetGenericPortMappingEntry"))
        #expect(
            entry.arguments.map(\.name) == [
                "NewPortMappingIndex", "NewRemoteHost", "NewExternalPort", "NewProtocol", "NewInternalPort",
                "NewInternalClient", "NewEnabled", "NewPortMappingDescription", "NewLeaseDuration",
            ]
        )
        #expect(entry.arguments.first?.relatedStateVariable == "PortMappingNumberOfEntries")
        let connection = SSDPServiceDescription.wanIPConnection1
        let lease = try #require(connection.stateVariable(named: "PortMappingLeaseDuration"))
        #expect(lease.defaultValue == "3600" && lease.allowedRange == .init(minimum: 0, maximum: 604_800))
        #expect(
            connection.eventedVariables.map(\.name)
                == ["PossibleConnectionTypes", "ConnectionStatus", "ExternalIPAddress", "PortMappingNumberOfEntries"]
        )
        #expect(SSDPServiceDescription.wanCommonInterfaceConfig1.eventedVariables.map(\.name) == ["PhysicalLinkStatus"])
    }

    /// What SoCo's core.py (SoCo/SoCo@1ed4fdc) calls, with the in-arguments it sends: each must be an
    /// argument of the action, but those `ignored`, extras the real device's SCPD lacks and the device does
    /// not refuse. (AddHTSatellite is left out: SoCo calls it on soundbars only, with a name the real SCPD
    /// does not have.)
    static let soCoCalls: [(service: String, action: String, arguments: [String], ignored: [String])] = [
        ("DeviceProperties", "GetHouseholdID", [], []),
        ("DeviceProperties", "GetZoneAttributes", [], []),
        ("DeviceProperties", "SetZoneAttributes", ["DesiredZoneName", "DesiredIcon", "DesiredConfiguration"], []),
        ("DeviceProperties", "GetZoneInfo", [], []),
        ("DeviceProperties", "GetLEDState", [], []),
        ("DeviceProperties", "SetLEDState", ["DesiredLEDState"], []),
        ("DeviceProperties", "GetButtonLockState", [], []),
        ("DeviceProperties", "SetButtonLockState", ["DesiredButtonLockState"], []),
        ("DeviceProperties", "AddBondedZones", ["ChannelMapSet"], []),
        ("DeviceProperties", "RemoveBondedZones", ["ChannelMapSet", "KeepGrouped"], []),
        ("DeviceProperties", "RemoveHTSatellite", ["SatRoomUUID"], []),
        ("ZoneGroupTopology", "GetZoneGroupState", [], []),
        ("ZoneGroupTopology", "GetZoneGroupAttributes", [], []),
        (
            "ContentDirectory", "Browse",
            ["ObjectID", "BrowseFlag", "Filter", "StartingIndex", "RequestedCount", "SortCriteria"], []
        ),
        ("ContentDirectory", "DestroyObject", ["ObjectID"], []),
        ("RenderingControl", "GetVolume", ["InstanceID", "Channel"], []),
        ("RenderingControl", "SetVolume", ["InstanceID", "Channel", "DesiredVolume"], []),
        ("RenderingControl", "SetRelativeVolume", ["InstanceID", "Channel", "Adjustment"], []),
        ("RenderingControl", "GetMute", ["InstanceID", "Channel"], []),
        ("RenderingControl", "SetMute", ["InstanceID", "Channel", "DesiredMute"], []),
        ("RenderingControl", "GetBass", ["InstanceID"], ["Channel"]),
        ("RenderingControl", "SetBass", ["InstanceID", "DesiredBass"], []),
        ("RenderingControl", "GetTreble", ["InstanceID"], ["Channel"]),
        ("RenderingControl", "SetTreble", ["InstanceID", "DesiredTreble"], []),
        ("RenderingControl", "GetLoudness", ["InstanceID", "Channel"], []),
        ("RenderingControl", "SetLoudness", ["InstanceID", "Channel", "DesiredLoudness"], []),
        ("RenderingControl", "GetEQ", ["InstanceID", "EQType"], []),
        ("RenderingControl", "SetEQ", ["InstanceID", "EQType", "DesiredValue"], []),
        ("RenderingControl", "GetOutputFixed", ["InstanceID"], []),
        ("RenderingControl", "SetOutputFixed", ["InstanceID", "DesiredFixed"], []),
        ("RenderingControl", "GetSupportsOutputFixed", ["InstanceID"], []),
        ("RenderingControl", "GetRoomCalibrationStatus", ["InstanceID"], []),
        ("RenderingControl", "SetRoomCalibrationStatus", ["InstanceID", "RoomCalibrationEnabled"], []),
        (
            "RenderingControl", "RampToVolume",
            ["InstanceID", "Channel", "RampType", "DesiredVolume", "ResetVolumeAfter", "ProgramURI"], []
        ),
        ("AVTransport", "GetTransportInfo", ["InstanceID"], []),
        ("AVTransport", "GetPositionInfo", ["InstanceID"], ["Channel"]),
        ("AVTransport", "GetMediaInfo", ["InstanceID"], []),
        ("AVTransport", "GetTransportSettings", ["InstanceID"], []),
        ("AVTransport", "GetCurrentTransportActions", ["InstanceID"], []),
        ("AVTransport", "SetAVTransportURI", ["InstanceID", "CurrentURI", "CurrentURIMetaData"], []),
        ("AVTransport", "Play", ["InstanceID", "Speed"], []),
        ("AVTransport", "Pause", ["InstanceID"], ["Speed"]),
        ("AVTransport", "Stop", ["InstanceID"], ["Speed"]),
        ("AVTransport", "Next", ["InstanceID"], ["Speed"]),
        ("AVTransport", "Previous", ["InstanceID"], ["Speed"]),
        ("AVTransport", "Seek", ["InstanceID", "Unit", "Target"], []),
        ("AVTransport", "SetPlayMode", ["InstanceID", "NewPlayMode"], []),
        ("AVTransport", "GetCrossfadeMode", ["InstanceID"], []),
        ("AVTransport", "SetCrossfadeMode", ["InstanceID", "CrossfadeMode"], []),
        ("AVTransport", "ConfigureSleepTimer", ["InstanceID", "NewSleepTimerDuration"], []),
        ("AVTransport", "GetRemainingSleepTimerDuration", ["InstanceID"], []),
        ("AVTransport", "BecomeCoordinatorOfStandaloneGroup", ["InstanceID"], []),
        ("AVTransport", "EndDirectControlSession", ["InstanceID"], []),
        (
            "AVTransport", "AddURIToQueue",
            ["InstanceID", "EnqueuedURI", "EnqueuedURIMetaData", "DesiredFirstTrackNumberEnqueued", "EnqueueAsNext"],
            []
        ),
        (
            "AVTransport", "AddMultipleURIsToQueue",
            [
                "InstanceID", "UpdateID", "NumberOfURIs", "EnqueuedURIs", "EnqueuedURIsMetaData", "ContainerURI",
                "ContainerMetaData", "DesiredFirstTrackNumberEnqueued", "EnqueueAsNext",
            ],
            []
        ),
        ("AVTransport", "RemoveTrackFromQueue", ["InstanceID", "ObjectID", "UpdateID"], []),
        ("AVTransport", "RemoveAllTracksFromQueue", ["InstanceID"], []),
        ("AVTransport", "SaveQueue", ["InstanceID", "Title", "ObjectID"], []),
        ("AVTransport", "CreateSavedQueue", ["InstanceID", "Title", "EnqueuedURI", "EnqueuedURIMetaData"], []),
        (
            "AVTransport", "AddURIToSavedQueue",
            ["InstanceID", "ObjectID", "UpdateID", "EnqueuedURI", "EnqueuedURIMetaData", "AddAtIndex"], []
        ),
        (
            "AVTransport", "ReorderTracksInSavedQueue",
            ["InstanceID", "ObjectID", "UpdateID", "TrackList", "NewPositionList"], []
        ),
    ]

    @Test func sonosHasEveryActionSoCoCallsWithTheArgumentsItSends() throws {
        for call in Self.soCoCalls {
            let type = "urn:schemas-upnp-org:service:\(call.service):1"
            let description = try #require(SSDPServiceDescription.sonosZonePlayer[type], "\(type)")
            let action = try #require(description.action(named: call.action), "\(call.service).\(call.action)")
            // SoCo cannot see an action without an argument list (after-discovery.md §5.1).
            #expect(!action.arguments.isEmpty, "\(call.action) has no argument list")
            let inArguments = Set(action.arguments.filter { $0.direction == .in }.map(\.name))
            #expect(inArguments.isSuperset(of: call.arguments), "\(call.service).\(call.action): \(inArguments)")
            #expect(inArguments.isDisjoint(with: call.ignored), "\(call.service).\(call.action)")
        }
    }

    @Test func sonosDiscoveryActionsAnswerWhatSoCoReads() throws {
        let properties = SSDPServiceDescription.sonosDeviceProperties1
        let household = try #require(properties.action(named: "GetHouseholdID"))
        #expect(household.arguments.map(\.name) == ["CurrentHouseholdID"])
        let topology = try #require(SSDPServiceDescription.sonosZoneGroupTopology1.action(named: "GetZoneGroupState"))
        #expect(topology.arguments.map(\.name) == ["ZoneGroupState"] && topology.arguments[0].direction == .out)
        let zoneInfo = try #require(properties.action(named: "GetZoneInfo"))
        #expect(zoneInfo.arguments.map(\.name).contains("HTAudioIn"))
        #expect(properties.stateVariable(named: "HTAudioIn")?.dataType == "ui4")
    }

    // MARK: - The writer

    @Test func theWriterKeepsOrderAndEscapesText() throws {
        let description = SSDPServiceDescription(
            actions: [
                .init(
                    name: "Get",
                    arguments: [
                        .init(name: "In", direction: .in, relatedStateVariable: "A<B"),
                        .init(name: "Out", direction: .out, relatedStateVariable: "A<B"),
                    ]
                ),
                .init(name: "Later", arguments: []),
            ],
            stateVariables: [
                .init(
                    name: "A<B",
                    dataType: "string",
                    sendEvents: true,
                    defaultValue: "x&y",
                    allowedValues: ["x&y", "\"q\""]
                ),
                .init(name: "Z", dataType: "ui2", allowedRange: .init(minimum: -5, maximum: 5, step: 1)),
            ]
        )
        let xml = description.xml
        #expect(xml.hasPrefix("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"))
        #expect(xml.contains("\n<scpd xmlns=\"urn:schemas-upnp-org:service-1-0\">\n"))
        #expect(xml.contains("<specVersion><major>1</major><minor>0</minor></specVersion>"))
        #expect(
            xml.contains(
                """
                        <argument>
                          <name>In</name>
                          <direction>in</direction>
                          <relatedStateVariable>A&lt;B</relatedStateVariable>
                        </argument>
                """
            )
        )
        let names = ["Get", "In", "Out", "Later", "A&lt;B", "Z"].map { "<name>\($0)</name>" }
        let positions = try names.map { try #require(xml.firstRange(of: $0)?.lowerBound, "\($0)") }
        #expect(positions == positions.sorted())
        #expect(xml.contains("<name>Later</name>\n    </action>"), "an action without arguments has no argumentList")
        #expect(xml.contains("<stateVariable sendEvents=\"yes\">\n      <name>A&lt;B</name>\n      <dataType>string<"))
        #expect(xml.contains("<defaultValue>x&amp;y</defaultValue>"))
        #expect(xml.contains("<allowedValue>x&amp;y</allowedValue>\n        <allowedValue>&quot;q&quot;<"))
        #expect(xml.contains("<minimum>-5</minimum>\n        <maximum>5</maximum>\n        <step>1</step>"))
        #expect(xml.ranges(of: "<allowedValueRange>").count == 1, "no range where none is given")
    }

    @Test func aServiceWithoutActionsLeavesTheActionListOut() {
        let xml = SSDPServiceDescription.withoutActions.xml
        #expect(!xml.contains("actionList"))
        #expect(xml.contains("<stateVariable sendEvents=\"no\">\n      <name>A_ARG_TYPE_DeviceID</name>"))
    }

    @Test func theGenericRenderersVolumeHasItsRangeAndStep() throws {
        let volume = try #require(SSDPServiceDescription.renderingControl1.stateVariable(named: "Volume"))
        #expect(volume.dataType == "ui2" && volume.allowedRange == .init(minimum: 0, maximum: 100, step: 1))
        let xml = SSDPServiceDescription.renderingControl1.xml
        #expect(xml.contains("<minimum>0</minimum>\n        <maximum>100</maximum>\n        <step>1</step>"))
    }
}
