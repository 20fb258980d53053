// The ZonePlayer services of a Sonos speaker (schemas-upnp-org and schemas-sonos-com service types), with
// the actions SoCo calls right after discovery and their neighbours (svrooij/sonos-api-docs, generated
// from Sonos's SCPDs; SoCo core.py; after-discovery.md §5). Every action has an argument list and every
// related variable exists, as SoCo requires before it composes a call. Sonos's MediaServer and
// MediaRenderer also carry ContentDirectory, ConnectionManager, RenderingControl and AVTransport, which
// use the AV descriptions.

extension SSDPServiceDescription {
    /// DeviceProperties:1: the household, the room's name and icon, and the speaker's facts.
    public static let sonosDeviceProperties1 = SSDPServiceDescription(
        actions: [
            "GetHouseholdID: -> CurrentHouseholdID=A_ARG_TYPE_String",
            """
            GetZoneAttributes: -> CurrentZoneName=ZoneName CurrentIcon=Icon CurrentConfiguration=Configuration \
            CurrentTargetRoomName=A_ARG_TYPE_String
            """,
            """
            SetZoneAttributes: DesiredZoneName=ZoneName DesiredIcon=Icon DesiredConfiguration=Configuration \
            DesiredTargetRoomName=A_ARG_TYPE_String
            """,
            """
            GetZoneInfo: -> SerialNumber=SerialNumber SoftwareVersion=SoftwareVersion \
            DisplaySoftwareVersion=DisplaySoftwareVersion HardwareVersion=HardwareVersion IPAddress=IPAddress \
            MACAddress=MACAddress CopyrightInfo=CopyrightInfo ExtraInfo=ExtraInfo HTAudioIn=HTAudioIn Flags=Flags
            """,
            "GetLEDState: -> CurrentLEDState=LEDState",
            "SetLEDState: DesiredLEDState=LEDState",
        ],
        variables: [
            "A_ARG_TYPE_String string",
            "ZoneName string events",
            "Icon string events",
            "Configuration string events",
            "SerialNumber string",
            "SoftwareVersion string",
            "DisplaySoftwareVersion string",
            "HardwareVersion string",
            "IPAddress string",
            "MACAddress string",
            "CopyrightInfo string",
            "ExtraInfo string",
            "HTAudioIn ui4 default=0",
            "Flags ui4 default=0",
            "LEDState string default=On values=On|Off",
        ]
    )

    /// ZoneGroupTopology:1: every speaker of the household, its group and its address.
    public static let sonosZoneGroupTopology1 = SSDPServiceDescription(
        actions: [
            "GetZoneGroupState: -> ZoneGroupState=ZoneGroupState",
            """
            GetZoneGroupAttributes: -> CurrentZoneGroupName=ZoneGroupName CurrentZoneGroupID=ZoneGroupID \
            CurrentZonePlayerUUIDsInGroup=ZonePlayerUUIDsInGroup CurrentMuseHouseholdId=MuseHouseholdId
            """,
        ],
        variables: [
            "ZoneGroupState string events",
            "ZoneGroupName string events",
            "ZoneGroupID string events",
            "ZonePlayerUUIDsInGroup string events",
            "MuseHouseholdId string events",
        ]
    )

    /// AlarmClock:1: the alarms and the time.
    public static let sonosAlarmClock1 = SSDPServiceDescription(
        actions: [
            "ListAlarms: -> CurrentAlarmList=A_ARG_TYPE_AlarmList CurrentAlarmListVersion=AlarmListVersion",
            """
            GetTimeNow: -> CurrentUTCTime=A_ARG_TYPE_ISO8601Time CurrentLocalTime=A_ARG_TYPE_ISO8601Time \
            CurrentTimeZone=A_ARG_TYPE_TimeZoneInformation CurrentTimeGeneration=TimeGeneration
            """,
        ],
        variables: [
            "A_ARG_TYPE_AlarmList string",
            "AlarmListVersion string events",
            "A_ARG_TYPE_ISO8601Time string",
            "A_ARG_TYPE_TimeZoneInformation string",
            "TimeGeneration ui4 events default=0",
        ]
    )

    /// MusicServices:1: the streaming services the household has.
    public static let sonosMusicServices1 = SSDPServiceDescription(
        actions: [
            """
            ListAvailableServices: -> AvailableServiceDescriptorList=A_ARG_TYPE_String \
            AvailableServiceTypeList=A_ARG_TYPE_String AvailableServiceListVersion=ServiceListVersion
            """,
            "GetSessionId: ServiceId=A_ARG_TYPE_ServiceId Username=A_ARG_TYPE_String -> SessionId=A_ARG_TYPE_String",
        ],
        variables: [
            "A_ARG_TYPE_String string",
            "A_ARG_TYPE_ServiceId ui4",
            "ServiceListVersion string events",
        ]
    )

    /// SystemProperties:1: named strings the household keeps.
    public static let sonosSystemProperties1 = SSDPServiceDescription(
        actions: [
            "GetString: VariableName=A_ARG_TYPE_VariableName -> StringValue=A_ARG_TYPE_VariableStringValue",
            "SetString: VariableName=A_ARG_TYPE_VariableName StringValue=A_ARG_TYPE_VariableStringValue",
        ],
        variables: [
            "A_ARG_TYPE_VariableName string",
            "A_ARG_TYPE_VariableStringValue string",
            "CustomerID string events",
        ]
    )

    /// GroupManagement:1: joining a speaker to a group and leaving it.
    public static let sonosGroupManagement1 = SSDPServiceDescription(
        actions: [
            """
            AddMember: MemberID=A_ARG_TYPE_String BootSeq=A_ARG_TYPE_UI4 -> CurrentTransportSettings=A_ARG_TYPE_String \
            CurrentURI=A_ARG_TYPE_String GroupUUIDJoined=A_ARG_TYPE_String ResetVolumeAfter=A_ARG_TYPE_Boolean \
            VolumeAVTransportURI=A_ARG_TYPE_String
            """,
            "RemoveMember: MemberID=A_ARG_TYPE_String",
        ],
        variables: [
            "A_ARG_TYPE_String string",
            "A_ARG_TYPE_UI4 ui4",
            "A_ARG_TYPE_Boolean boolean",
            "GroupCoordinatorIsLocal boolean events default=1",
        ]
    )

    /// Queue:1 (schemas-sonos-com): the play queue.
    public static let sonosQueue1 = SSDPServiceDescription(
        actions: [
            """
            Browse: QueueID=A_ARG_TYPE_QueueID StartingIndex=A_ARG_TYPE_UI4 RequestedCount=A_ARG_TYPE_UI4 \
            -> Result=A_ARG_TYPE_String NumberReturned=A_ARG_TYPE_UI4 TotalMatches=A_ARG_TYPE_UI4 \
            UpdateID=A_ARG_TYPE_UI4
            """,
            "RemoveAllTracks: QueueID=A_ARG_TYPE_QueueID UpdateID=A_ARG_TYPE_UI4 -> NewUpdateID=A_ARG_TYPE_UI4",
        ],
        variables: [
            "A_ARG_TYPE_QueueID ui4",
            "A_ARG_TYPE_UI4 ui4",
            "A_ARG_TYPE_String string",
            "LastChange string events",
        ]
    )

    /// GroupRenderingControl:1: the volume and mute of a whole group.
    public static let sonosGroupRenderingControl1 = SSDPServiceDescription(
        actions: [
            "GetGroupVolume: InstanceID=A_ARG_TYPE_InstanceID -> CurrentVolume=GroupVolume",
            "SetGroupVolume: InstanceID=A_ARG_TYPE_InstanceID DesiredVolume=GroupVolume",
            "GetGroupMute: InstanceID=A_ARG_TYPE_InstanceID -> CurrentMute=GroupMute",
            "SetGroupMute: InstanceID=A_ARG_TYPE_InstanceID DesiredMute=GroupMute",
        ],
        variables: [
            "A_ARG_TYPE_InstanceID ui4",
            "GroupVolume ui2 events default=20 range=0...100",
            "GroupMute boolean events default=0",
        ]
    )
}
