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

// The services of a Sonos ZonePlayer, copied from the SCPDs a Sonos One (S18) serves at /xml/*1.xml on
// firmware 95.0-77060, as svrooij/sonos-api-docs captured them (@ece20b1
// generator/sonos-docs/data/sonos-S18-2.json, 2026-07-04): every action with its arguments in order, and every
// state variable with its type, evented flag and allowed values. That capture keeps no default values and no
// ranges, so none are given. Every action SoCo's core.py calls is there with the arguments it sends, save the
// extras the device ignores (GetPositionInfo's Channel, Stop's Speed; after-discovery.md §5.3). Actions the
// real device lists without arguments (ZoneGroupTopology's ReportAlarmStartedRunning, …) are kept so: SoCo
// skips them. This file has the root device's DeviceProperties, ZoneGroupTopology and GroupManagement, and
// the profile's table; the other services are in the SonosHousehold, SonosMediaServer, SonosMediaRenderer
// and SonosAVTransport files.

extension SSDPServiceDescription {
    /// Every service of a Sonos ZonePlayer with its embedded MediaServer and MediaRenderer, by service type,
    /// for the `sonos` profile. Its ConnectionManager (one SCPD for both embedded devices) is exactly the
    /// AV template's, `connectionManager1`.
    public static let sonosZonePlayer: [String: SSDPServiceDescription] = [
        "urn:schemas-upnp-org:service:AlarmClock:1": sonosAlarmClock1,
        "urn:schemas-upnp-org:service:MusicServices:1": sonosMusicServices1,
        "urn:schemas-upnp-org:service:DeviceProperties:1": sonosDeviceProperties1,
        "urn:schemas-upnp-org:service:SystemProperties:1": sonosSystemProperties1,
        "urn:schemas-upnp-org:service:ZoneGroupTopology:1": sonosZoneGroupTopology1,
        "urn:schemas-upnp-org:service:GroupManagement:1": sonosGroupManagement1,
        "urn:schemas-upnp-org:service:ContentDirectory:1": sonosContentDirectory1,
        "urn:schemas-upnp-org:service:ConnectionManager:1": connectionManager1,
        "urn:schemas-upnp-org:service:RenderingControl:1": sonosRenderingControl1,
        "urn:schemas-upnp-org:service:AVTransport:1": sonosAVTransport1,
        "urn:schemas-sonos-com:service:Queue:1": sonosQueue1,
        "urn:schemas-upnp-org:service:GroupRenderingControl:1": sonosGroupRenderingControl1,
    ]

    /// DeviceProperties:1 (`/xml/DeviceProperties1.xml`): the household, the room's name and icon, the
    /// speaker's facts, its LED and buttons, bonded zones and home-theatre satellites.
    public static let sonosDeviceProperties1 = SSDPServiceDescription(
        actions: [
            "SetLEDState: DesiredLEDState=LEDState",
            "GetLEDState: -> CurrentLEDState=LEDState",
            "AddBondedZones: ChannelMapSet=ChannelMapSet",
            "RemoveBondedZones: ChannelMapSet=ChannelMapSet KeepGrouped=KeepGrouped",
            "CreateStereoPair: ChannelMapSet=ChannelMapSet",
            "SeparateStereoPair: ChannelMapSet=ChannelMapSet",
            """
            SetZoneAttributes: DesiredZoneName=ZoneName DesiredIcon=Icon DesiredConfiguration=Configuration \
            DesiredTargetRoomName=TargetRoomName
            """,
            """
            GetZoneAttributes: -> CurrentZoneName=ZoneName CurrentIcon=Icon CurrentConfiguration=Configuration \
            CurrentTargetRoomName=TargetRoomName
            """,
            "GetHouseholdID: -> CurrentHouseholdID=HouseholdID",
            """
            GetZoneInfo: -> SerialNumber=SerialNumber SoftwareVersion=SoftwareVersion \
            DisplaySoftwareVersion=DisplaySoftwareVersion HardwareVersion=HardwareVersion IPAddress=IPAddress \
            MACAddress=MACAddress CopyrightInfo=CopyrightInfo ExtraInfo=ExtraInfo HTAudioIn=HTAudioIn Flags=Flags
            """,
            "SetAutoplayLinkedZones: IncludeLinkedZones=AutoplayIncludeLinkedZones Source=AutoplaySource",
            "GetAutoplayLinkedZones: Source=AutoplaySource -> IncludeLinkedZones=AutoplayIncludeLinkedZones",
            "SetAutoplayRoomUUID: RoomUUID=AutoplayRoomUUID Source=AutoplaySource",
            "GetAutoplayRoomUUID: Source=AutoplaySource -> RoomUUID=AutoplayRoomUUID",
            "SetAutoplayVolume: Volume=AutoplayVolume Source=AutoplaySource",
            "GetAutoplayVolume: Source=AutoplaySource -> CurrentVolume=AutoplayVolume",
            "SetUseAutoplayVolume: UseVolume=AutoplayUseVolume Source=AutoplaySource",
            "GetUseAutoplayVolume: Source=AutoplaySource -> UseVolume=AutoplayUseVolume",
            "AddHTSatellite: HTSatChanMapSet=HTSatChanMapSet",
            "RemoveHTSatellite: SatRoomUUID=SatRoomUUID",
            "EnterConfigMode: Mode=ConfigMode Options=A_ARG_TYPE_ConfigModeOptions -> State=A_ARG_TYPE_ConfigModeState",
            "ExitConfigMode: Options=A_ARG_TYPE_ConfigModeOptions",
            "GetButtonState: -> State=A_ARG_TYPE_ButtonState",
            "SetButtonLockState: DesiredButtonLockState=ButtonLockState",
            "GetButtonLockState: -> CurrentButtonLockState=ButtonLockState",
            """
            RoomDetectionStartChirping: Channel=A_ARG_TYPE_RoomDetectionChirpChannel \
            DurationMilliseconds=A_ARG_TYPE_RoomDetectionDurationMilliseconds \
            ChirpIfPlayingSwappableAudio=A_ARG_TYPE_RoomDetectionChirpIfPlayingSwappableAudio \
            -> PlayId=A_ARG_TYPE_RoomDetectionPlayId
            """,
            "RoomDetectionStopChirping: PlayId=A_ARG_TYPE_RoomDetectionPlayId",
        ],
        variables: [
            "HouseholdID string",
            "SettingsReplicationState string events",
            "ZoneName string events",
            "Icon string events",
            "Configuration string events",
            "TargetRoomName string",
            "Invisible boolean events",
            "IsZoneBridge boolean events",
            "AirPlayEnabled boolean events",
            "SupportsAudioIn boolean events",
            "SupportsAudioClip boolean events",
            "IsIdle boolean events",
            "MoreInfo string events",
            "ChannelMapSet string events",
            "HTSatChanMapSet string events",
            "HTBondedZoneCommitState ui4 events",
            "Orientation i4 events",
            "LastChangedPlayState string events",
            "RoomCalibrationState i4 events",
            "AvailableRoomCalibration string events",
            "SatRoomUUID string",
            "LEDState string values=On|Off",
            "SerialNumber string",
            "SoftwareVersion string",
            "DisplaySoftwareVersion string",
            "HardwareVersion string",
            "IPAddress string",
            "MACAddress string",
            "CopyrightInfo string",
            "ExtraInfo string",
            "HTAudioIn ui4",
            "Flags ui4",
            "AutoplayIncludeLinkedZones boolean",
            "AutoplayRoomUUID string",
            "AutoplaySource string",
            "AutoplayVolume ui2",
            "AutoplayUseVolume boolean",
            "TVConfigurationError boolean events",
            "HdmiCecAvailable boolean events",
            "WirelessMode ui4 events",
            "ConnectionType ui4 events",
            "HasConfiguredSSID boolean events",
            "ChannelFreq ui4 events",
            "BehindWifiExtender ui4 events",
            "WifiEnabled boolean events",
            "EthLink boolean events",
            "ConfigMode string events",
            "SecureRegState ui4 events",
            "A_ARG_TYPE_ConfigModeOptions string",
            "A_ARG_TYPE_ConfigModeState string",
            "A_ARG_TYPE_ButtonState string",
            "ButtonLockState string values=On|Off",
            "VoiceConfigState ui4 events",
            "MicEnabled ui4 events",
            "SvcActive boolean events",
            "HeadphoneId string events",
            "AvailableHeadphoneSessions ui4 events",
            "KeepGrouped boolean",
            "A_ARG_TYPE_RoomDetectionChirpChannel ui2",
            "A_ARG_TYPE_RoomDetectionDurationMilliseconds ui4",
            "A_ARG_TYPE_RoomDetectionPlayId ui4",
            "A_ARG_TYPE_RoomDetectionChirpIfPlayingSwappableAudio boolean",
        ]
    )

    /// ZoneGroupTopology:1 (`/xml/ZoneGroupTopology1.xml`): every speaker of the household, its group and its
    /// address (`GetZoneGroupState`), and software updates.
    public static let sonosZoneGroupTopology1 = SSDPServiceDescription(
        actions: [
            """
            CheckForUpdate: UpdateType=A_ARG_TYPE_UpdateType CachedOnly=A_ARG_TYPE_CachedOnly \
            Version=A_ARG_TYPE_Version -> UpdateItem=A_ARG_TYPE_UpdateItem
            """,
            """
            BeginSoftwareUpdate: UpdateURL=A_ARG_TYPE_UpdateURL Flags=A_ARG_TYPE_UpdateFlags \
            ExtraOptions=A_ARG_TYPE_UpdateExtraOptions
            """,
            """
            ReportUnresponsiveDevice: DeviceUUID=A_ARG_TYPE_MemberID \
            DesiredAction=A_ARG_TYPE_UnresponsiveDeviceActionType
            """,
            "ReportAlarmStartedRunning",
            """
            SubmitDiagnostics: IncludeControllers=A_ARG_TYPE_IncludeControllers Type=A_ARG_TYPE_Origin \
            -> DiagnosticID=DiagnosticID
            """,
            """
            RegisterMobileDevice: MobileDeviceName=A_ARG_TYPE_MobileDeviceName \
            MobileDeviceUDN=A_ARG_TYPE_MobileDeviceUDN MobileIPAndPort=A_ARG_TYPE_MobileIPAndPort
            """,
            """
            GetZoneGroupAttributes: -> CurrentZoneGroupName=ZoneGroupName CurrentZoneGroupID=ZoneGroupID \
            CurrentZonePlayerUUIDsInGroup=ZonePlayerUUIDsInGroup CurrentMuseHouseholdId=MuseHouseholdId
            """,
            "GetZoneGroupState: -> ZoneGroupState=ZoneGroupState",
        ],
        variables: [
            "AvailableSoftwareUpdate string events",
            "ZoneGroupState string events",
            "ThirdPartyMediaServersX string events",
            "AlarmRunSequence string events",
            "MuseHouseholdId string events",
            "ZoneGroupName string events",
            "ZoneGroupID string events",
            "ZonePlayerUUIDsInGroup string events",
            "A_ARG_TYPE_UpdateType string values=All|Software",
            "A_ARG_TYPE_CachedOnly boolean",
            "A_ARG_TYPE_UpdateItem string",
            "A_ARG_TYPE_UpdateURL string",
            "A_ARG_TYPE_UpdateFlags ui4",
            "A_ARG_TYPE_UpdateExtraOptions string",
            "A_ARG_TYPE_Version string",
            "A_ARG_TYPE_MemberID string",
            """
            A_ARG_TYPE_UnresponsiveDeviceActionType string \
            values=Remove|TopologyMonitorProbe|VerifyThenRemoveSystemwide
            """,
            "DiagnosticID ui4",
            "A_ARG_TYPE_IncludeControllers boolean",
            "A_ARG_TYPE_Origin string",
            "A_ARG_TYPE_MobileDeviceName string",
            "A_ARG_TYPE_MobileDeviceUDN string",
            "A_ARG_TYPE_MobileIPAndPort string",
            "AreasUpdateID string events",
            "SourceAreasUpdateID string events",
            "NetsettingsUpdateID string events",
        ]
    )

    /// GroupManagement:1 (`/xml/GroupManagement1.xml`): a speaker joining a group's coordinator and leaving it.
    public static let sonosGroupManagement1 = SSDPServiceDescription(
        actions: [
            """
            AddMember: MemberID=A_ARG_TYPE_MemberID BootSeq=A_ARG_TYPE_BootSeq \
            -> CurrentTransportSettings=A_ARG_TYPE_TransportSettings CurrentURI=A_ARG_TYPE_AVTransportURI \
            GroupUUIDJoined=LocalGroupUUID ResetVolumeAfter=ResetVolumeAfter VolumeAVTransportURI=VolumeAVTransportURI
            """,
            "RemoveMember: MemberID=A_ARG_TYPE_MemberID",
            "ReportTrackBufferingResult: MemberID=A_ARG_TYPE_MemberID ResultCode=A_ARG_TYPE_BufferingResultCode",
            "SetSourceAreaIds: DesiredSourceAreaIds=SourceAreaIds",
        ],
        variables: [
            "A_ARG_TYPE_MemberID string",
            "A_ARG_TYPE_TransportSettings string",
            "A_ARG_TYPE_AVTransportURI string",
            "A_ARG_TYPE_BufferingResultCode i4",
            "A_ARG_TYPE_BootSeq ui4",
            "GroupCoordinatorIsLocal boolean events",
            "LocalGroupUUID string events",
            "VirtualLineInGroupID string events",
            "SourceAreaIds string",
            "ResetVolumeAfter boolean events",
            "VolumeAVTransportURI string events",
        ]
    )
}
