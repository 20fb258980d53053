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

// gmrender-resurrect's three services as Debian's gmediarender 0.1 describes them (its upnp_transport.c,
// upnp_control.c and upnp_connmgr.c, written through xmlgen.c): every action and variable in its order,
// its allowed values as it spells them (" vendor-defined ", spaces and all), an element per line ending in
// CRLF. Held to the real one by `scripts/fidelity renderer`.

extension SSDPServiceDescription {
    /// AVTransport:1 (`/upnp/rendertransportSCPD.xml`): 12 actions, SetNextAVTransportURI among them.
    public static let gmrenderAVTransport = gmrender(
        actions: [
            "GetCurrentTransportActions: InstanceID=A_ARG_TYPE_InstanceID -> Actions=CurrentTransportActions",
            """
            GetDeviceCapabilities: InstanceID=A_ARG_TYPE_InstanceID -> \
            PlayMedia=PossiblePlaybackStorageMedia RecMedia=PossibleRecordStorageMedia \
            RecQualityModes=PossibleRecordQualityModes
            """,
            """
            GetMediaInfo: InstanceID=A_ARG_TYPE_InstanceID -> NrTracks=NumberOfTracks \
            MediaDuration=CurrentMediaDuration CurrentURI=AVTransportURI \
            CurrentURIMetaData=AVTransportURIMetaData NextURI=NextAVTransportURI \
            NextURIMetaData=NextAVTransportURIMetaData PlayMedium=PlaybackStorageMedium \
            RecordMedium=RecordStorageMedium WriteStatus=RecordMediumWriteStatus
            """,
            """
            GetPositionInfo: InstanceID=A_ARG_TYPE_InstanceID -> Track=CurrentTrack \
            TrackDuration=CurrentTrackDuration TrackMetaData=CurrentTrackMetaData TrackURI=CurrentTrackURI \
            RelTime=RelativeTimePosition AbsTime=AbsoluteTimePosition RelCount=RelativeCounterPosition \
            AbsCount=AbsoluteCounterPosition
            """,
            """
            GetTransportInfo: InstanceID=A_ARG_TYPE_InstanceID -> CurrentTransportState=TransportState \
            CurrentTransportStatus=TransportStatus CurrentSpeed=TransportPlaySpeed
            """,
            """
            GetTransportSettings: InstanceID=A_ARG_TYPE_InstanceID -> PlayMode=CurrentPlayMode \
            RecQualityMode=CurrentRecordQualityMode
            """,
            "Pause: InstanceID=A_ARG_TYPE_InstanceID",
            "Play: InstanceID=A_ARG_TYPE_InstanceID Speed=TransportPlaySpeed",
            "Seek: InstanceID=A_ARG_TYPE_InstanceID Unit=A_ARG_TYPE_SeekMode Target=A_ARG_TYPE_SeekTarget",
            """
            SetAVTransportURI: InstanceID=A_ARG_TYPE_InstanceID CurrentURI=AVTransportURI \
            CurrentURIMetaData=AVTransportURIMetaData
            """,
            "Stop: InstanceID=A_ARG_TYPE_InstanceID",
            """
            SetNextAVTransportURI: InstanceID=A_ARG_TYPE_InstanceID NextURI=NextAVTransportURI \
            NextURIMetaData=NextAVTransportURIMetaData
            """,
        ],
        variables: [
            "TransportStatus string values=OK|ERROR_OCCURRED|%20vendor-defined%20",
            "NextAVTransportURI string",
            "NextAVTransportURIMetaData string",
            "CurrentTrackMetaData string",
            "RelativeCounterPosition i4",
            "A_ARG_TYPE_InstanceID ui4",
            "A_ARG_TYPE_SeekTarget string",
            """
            PlaybackStorageMedium string \
            values=UNKNOWN|DV|MINI-DV|VHS|W-VHS|S-VHS|D-VHS|VHSC|VIDEO8|HI8|CD-ROM|CD-DA|CD-R|CD-RW|VIDEO-CD|SACD|MD-AUDIO|MD-PICTURE|DVD-ROM|DVD-VIDEO|DVD-R|DVD+RW|DVD-RW|DVD-RAM|DVD-AUDIO|DAT|LD|HDD|MICRO-MV|NETWORK|NONE|NOT_IMPLEMENTED|%20vendor-defined%20
            """,
            "RelativeTimePosition string",
            "PossibleRecordStorageMedia string",
            "CurrentPlayMode string default=NORMAL values=NORMAL|REPEAT_ALL|INTRO",
            "TransportPlaySpeed string values=1|%20vendor-defined%20",
            "PossiblePlaybackStorageMedia string",
            "AbsoluteTimePosition string",
            "CurrentTrack ui4 range=0...4294967295 step=1",
            "CurrentTrackURI string",
            "CurrentTransportActions string",
            "NumberOfTracks ui4 range=0...4294967295",
            "AVTransportURI string",
            "AbsoluteCounterPosition i4",
            """
            CurrentRecordQualityMode string \
            values=0:EP|1:LP|2:SP|0:BASIC|1:MEDIUM|2:HIGH|NOT_IMPLEMENTED|%20vendor-defined%20
            """,
            "CurrentMediaDuration string",
            """
            A_ARG_TYPE_SeekMode string \
            values=ABS_TIME|REL_TIME|ABS_COUNT|REL_COUNT|TRACK_NR|CHANNEL_FREQ|TAPE-INDEX|FRAME
            """,
            "AVTransportURIMetaData string",
            """
            RecordStorageMedium string \
            values=UNKNOWN|DV|MINI-DV|VHS|W-VHS|S-VHS|D-VHS|VHSC|VIDEO8|HI8|CD-ROM|CD-DA|CD-R|CD-RW|VIDEO-CD|SACD|MD-AUDIO|MD-PICTURE|DVD-ROM|DVD-VIDEO|DVD-R|DVD+RW|DVD-RW|DVD-RAM|DVD-AUDIO|DAT|LD|HDD|MICRO-MV|NETWORK|NONE|NOT_IMPLEMENTED|%20vendor-defined%20
            """,
            "RecordMediumWriteStatus string values=WRITABLE|PROTECTED|NOT_WRITABLE|UNKNOWN|NOT_IMPLEMENTED",
            "LastChange string events",
            "CurrentTrackDuration string",
            """
            TransportState string \
            values=STOPPED|PLAYING|TRANSITIONING|PAUSED_PLAYBACK|PAUSED_RECORDING|RECORDING|NO_MEDIA_PRESENT
            """,
            "PossibleRecordQualityModes string",
        ]
    )

    /// RenderingControl:1 (`/upnp/rendercontrolSCPD.xml`): 21 actions, the picture controls of a TV among them.
    public static let gmrenderRenderingControl = gmrender(
        actions: [
            """
            GetBlueVideoBlackLevel: InstanceID=A_ARG_TYPE_InstanceID -> \
            CurrentBlueVideoBlackLevel=BlueVideoBlackLevel
            """,
            "GetBlueVideoGain: InstanceID=A_ARG_TYPE_InstanceID -> CurrentBlueVideoGain=BlueVideoGain",
            "GetBrightness: InstanceID=A_ARG_TYPE_InstanceID -> CurrentBrightness=Brightness",
            "GetColorTemperature: InstanceID=A_ARG_TYPE_InstanceID -> CurrentColorTemperature=ColorTemperature",
            "GetContrast: InstanceID=A_ARG_TYPE_InstanceID -> CurrentContrast=Contrast",
            """
            GetGreenVideoBlackLevel: InstanceID=A_ARG_TYPE_InstanceID -> \
            CurrentGreenVideoBlackLevel=GreenVideoBlackLevel
            """,
            "GetGreenVideoGain: InstanceID=A_ARG_TYPE_InstanceID -> CurrentGreenVideoGain=GreenVideoGain",
            """
            GetHorizontalKeystone: InstanceID=A_ARG_TYPE_InstanceID -> \
            CurrentHorizontalKeystone=HorizontalKeystone
            """,
            "GetLoudness: InstanceID=A_ARG_TYPE_InstanceID Channel=A_ARG_TYPE_Channel -> CurrentLoudness=Loudness",
            "GetMute: InstanceID=A_ARG_TYPE_InstanceID Channel=A_ARG_TYPE_Channel -> CurrentMute=Mute",
            """
            GetRedVideoBlackLevel: InstanceID=A_ARG_TYPE_InstanceID -> \
            CurrentRedVideoBlackLevel=RedVideoBlackLevel
            """,
            "GetRedVideoGain: InstanceID=A_ARG_TYPE_InstanceID -> CurrentRedVideoGain=RedVideoGain",
            "GetSharpness: InstanceID=A_ARG_TYPE_InstanceID -> CurrentSharpness=Sharpness",
            "GetVerticalKeystone: InstanceID=A_ARG_TYPE_InstanceID -> CurrentVerticalKeystone=VerticalKeystone",
            "GetVolume: InstanceID=A_ARG_TYPE_InstanceID Channel=A_ARG_TYPE_Channel -> CurrentVolume=Volume",
            "GetVolumeDB: InstanceID=A_ARG_TYPE_InstanceID Channel=A_ARG_TYPE_Channel -> CurrentVolume=VolumeDB",
            """
            GetVolumeDBRange: InstanceID=A_ARG_TYPE_InstanceID Channel=A_ARG_TYPE_Channel -> \
            MinValue=VolumeDB MaxValue=VolumeDB
            """,
            "ListPresets: InstanceID=A_ARG_TYPE_InstanceID -> CurrentPresetNameList=PresetNameList",
            "SetMute: InstanceID=A_ARG_TYPE_InstanceID Channel=A_ARG_TYPE_Channel DesiredMute=Mute",
            "SetVolume: InstanceID=A_ARG_TYPE_InstanceID Channel=A_ARG_TYPE_Channel DesiredVolume=Volume",
            "SetVolumeDB: InstanceID=A_ARG_TYPE_InstanceID Channel=A_ARG_TYPE_Channel DesiredVolume=VolumeDB",
        ],
        variables: [
            "GreenVideoGain ui2 range=0...100 step=1",
            "BlueVideoBlackLevel ui2 range=0...100 step=1",
            "VerticalKeystone i2 range=-32768...32767 step=1",
            "GreenVideoBlackLevel ui2 range=0...100 step=1",
            "Volume ui2 range=0...100 step=1",
            "Loudness boolean",
            "A_ARG_TYPE_InstanceID ui4",
            "RedVideoGain ui2 range=0...100 step=1",
            "ColorTemperature ui2 range=0...65535 step=1",
            "Sharpness ui2 range=0...100 step=1",
            "A_ARG_TYPE_PresetName string values=FactoryDefaults|InstallationDefaults|Vendor%20defined",
            "RedVideoBlackLevel ui2 range=0...100 step=1",
            "BlueVideoGain ui2 range=0...100 step=1",
            "Mute boolean",
            "LastChange string events",
            "A_ARG_TYPE_Channel string values=Master|LF|RF",
            "HorizontalKeystone i2 range=-32768...32767 step=1",
            "VolumeDB i2 range=-15360...0",
            "PresetNameList string",
            "Contrast ui2 range=0...100 step=1",
            "Brightness ui2 range=0...100 step=1",
        ]
    )

    /// ConnectionManager:1 (`/upnp/renderconnmgrSCPD.xml`): 4 actions, PrepareForConnection among them.
    public static let gmrenderConnectionManager = gmrender(
        actions: [
            "GetCurrentConnectionIDs: -> ConnectionIDs=CurrentConnectionIDs",
            """
            GetCurrentConnectionInfo: ConnectionID=A_ARG_TYPE_ConnectionID -> RcsID=A_ARG_TYPE_RcsID \
            AVTransportID=A_ARG_TYPE_AVTransportID ProtocolInfo=A_ARG_TYPE_ProtocolInfo \
            PeerConnectionManager=A_ARG_TYPE_ConnectionManager PeerConnectionID=A_ARG_TYPE_ConnectionID \
            Direction=A_ARG_TYPE_Direction Status=A_ARG_TYPE_ConnectionStatus
            """,
            "GetProtocolInfo: -> Source=SourceProtocolInfo Sink=SinkProtocolInfo",
            """
            PrepareForConnection: RemoteProtocolInfo=A_ARG_TYPE_ProtocolInfo \
            PeerConnectionManager=A_ARG_TYPE_ConnectionManager PeerConnectionID=A_ARG_TYPE_ConnectionID \
            Direction=A_ARG_TYPE_Direction -> ConnectionID=A_ARG_TYPE_ConnectionID \
            AVTransportID=A_ARG_TYPE_AVTransportID RcsID=A_ARG_TYPE_RcsID
            """,
        ],
        variables: [
            "A_ARG_TYPE_ConnectionManager string",
            "SinkProtocolInfo string events",
            """
            A_ARG_TYPE_ConnectionStatus string \
            values=OK|ContentFormatMismatch|InsufficientBandwidth|UnreliableChannel|Unknown
            """,
            "A_ARG_TYPE_AVTransportID i4",
            "A_ARG_TYPE_Direction string values=Input|Output",
            "A_ARG_TYPE_RcsID i4",
            "A_ARG_TYPE_ProtocolInfo string",
            "A_ARG_TYPE_ConnectionID i4",
            "SourceProtocolInfo string events",
            "CurrentConnectionIDs string events",
        ]
    )

    /// A service description in gmrender-resurrect's layout (UPnP 1.0, a line per element, CRLF).
    private static func gmrender(actions: [String], variables: [String]) -> SSDPServiceDescription {
        var description = SSDPServiceDescription(actions: actions, variables: variables)
        description.style = .lines
        return description
    }
}
