// The services of a media renderer after the UPnP AV RenderingControl:1 and AVTransport:1 templates:
// their required actions, and the volume and mute actions every renderer has and clients call
// (async-upnp-client's DmrDevice, SoCo; after-discovery.md §4.3, §5.3).

extension SSDPServiceDescription {
    /// RenderingControl:1: presets, volume and mute per channel.
    public static let renderingControl1 = SSDPServiceDescription(
        actions: [
            "ListPresets: InstanceID=A_ARG_TYPE_InstanceID -> CurrentPresetNameList=PresetNameList",
            "SelectPreset: InstanceID=A_ARG_TYPE_InstanceID PresetName=A_ARG_TYPE_PresetName",
            "GetMute: InstanceID=A_ARG_TYPE_InstanceID Channel=A_ARG_TYPE_Channel -> CurrentMute=Mute",
            "SetMute: InstanceID=A_ARG_TYPE_InstanceID Channel=A_ARG_TYPE_Channel DesiredMute=Mute",
            "GetVolume: InstanceID=A_ARG_TYPE_InstanceID Channel=A_ARG_TYPE_Channel -> CurrentVolume=Volume",
            "SetVolume: InstanceID=A_ARG_TYPE_InstanceID Channel=A_ARG_TYPE_Channel DesiredVolume=Volume",
        ],
        variables: [
            "PresetNameList string default=FactoryDefaults",
            "LastChange string events",
            "Mute boolean default=0",
            "Volume ui2 default=20 range=0...100",
            "A_ARG_TYPE_Channel string values=Master|LF|RF",
            "A_ARG_TYPE_InstanceID ui4",
            "A_ARG_TYPE_PresetName string values=FactoryDefaults",
        ]
    )

    /// AVTransport:1: what plays, where it is, and play, pause, stop, seek.
    public static let avTransport1 = SSDPServiceDescription(
        actions: [
            """
            SetAVTransportURI: InstanceID=A_ARG_TYPE_InstanceID CurrentURI=AVTransportURI \
            CurrentURIMetaData=AVTransportURIMetaData
            """,
            """
            GetMediaInfo: InstanceID=A_ARG_TYPE_InstanceID -> NrTracks=NumberOfTracks \
            MediaDuration=CurrentMediaDuration CurrentURI=AVTransportURI CurrentURIMetaData=AVTransportURIMetaData \
            NextURI=NextAVTransportURI NextURIMetaData=NextAVTransportURIMetaData PlayMedium=PlaybackStorageMedium \
            RecordMedium=RecordStorageMedium WriteStatus=RecordMediumWriteStatus
            """,
            """
            GetTransportInfo: InstanceID=A_ARG_TYPE_InstanceID -> CurrentTransportState=TransportState \
            CurrentTransportStatus=TransportStatus CurrentSpeed=TransportPlaySpeed
            """,
            """
            GetPositionInfo: InstanceID=A_ARG_TYPE_InstanceID -> Track=CurrentTrack \
            TrackDuration=CurrentTrackDuration TrackMetaData=CurrentTrackMetaData TrackURI=CurrentTrackURI \
            RelTime=RelativeTimePosition AbsTime=AbsoluteTimePosition RelCount=RelativeCounterPosition \
            AbsCount=AbsoluteCounterPosition
            """,
            """
            GetDeviceCapabilities: InstanceID=A_ARG_TYPE_InstanceID -> PlayMedia=PossiblePlaybackStorageMedia \
            RecMedia=PossibleRecordStorageMedia RecQualityModes=PossibleRecordQualityModes
            """,
            """
            GetTransportSettings: InstanceID=A_ARG_TYPE_InstanceID -> PlayMode=CurrentPlayMode \
            RecQualityMode=CurrentRecordQualityMode
            """,
            "Stop: InstanceID=A_ARG_TYPE_InstanceID",
            "Play: InstanceID=A_ARG_TYPE_InstanceID Speed=TransportPlaySpeed",
            "Pause: InstanceID=A_ARG_TYPE_InstanceID",
            "Seek: InstanceID=A_ARG_TYPE_InstanceID Unit=A_ARG_TYPE_SeekMode Target=A_ARG_TYPE_SeekTarget",
            "Next: InstanceID=A_ARG_TYPE_InstanceID",
            "Previous: InstanceID=A_ARG_TYPE_InstanceID",
            "GetCurrentTransportActions: InstanceID=A_ARG_TYPE_InstanceID -> Actions=CurrentTransportActions",
        ],
        variables: [
            "TransportState string default=STOPPED values=STOPPED|PLAYING|PAUSED_PLAYBACK|TRANSITIONING|NO_MEDIA_PRESENT",
            "TransportStatus string default=OK values=OK|ERROR_OCCURRED",
            "PlaybackStorageMedium string default=NETWORK values=NETWORK|NONE",
            "RecordStorageMedium string default=NOT_IMPLEMENTED values=NOT_IMPLEMENTED",
            "PossiblePlaybackStorageMedia string default=NETWORK",
            "PossibleRecordStorageMedia string default=NOT_IMPLEMENTED",
            "CurrentPlayMode string default=NORMAL values=NORMAL|REPEAT_ALL|SHUFFLE",
            "TransportPlaySpeed string default=1 values=1",
            "RecordMediumWriteStatus string default=NOT_IMPLEMENTED values=NOT_IMPLEMENTED",
            "CurrentRecordQualityMode string default=NOT_IMPLEMENTED values=NOT_IMPLEMENTED",
            "PossibleRecordQualityModes string default=NOT_IMPLEMENTED",
            "NumberOfTracks ui4 default=0 range=0...4294967295",
            "CurrentTrack ui4 default=0 range=0...4294967295",
            "CurrentTrackDuration string default=00:00:00",
            "CurrentMediaDuration string default=00:00:00",
            "CurrentTrackMetaData string",
            "CurrentTrackURI string",
            "AVTransportURI string",
            "AVTransportURIMetaData string",
            "NextAVTransportURI string",
            "NextAVTransportURIMetaData string",
            "RelativeTimePosition string default=00:00:00",
            "AbsoluteTimePosition string default=NOT_IMPLEMENTED",
            "RelativeCounterPosition i4 default=2147483647",
            "AbsoluteCounterPosition i4 default=2147483647",
            "CurrentTransportActions string default=Play",
            "LastChange string events",
            "A_ARG_TYPE_SeekMode string values=REL_TIME|TRACK_NR",
            "A_ARG_TYPE_SeekTarget string",
            "A_ARG_TYPE_InstanceID ui4",
        ]
    )
}
