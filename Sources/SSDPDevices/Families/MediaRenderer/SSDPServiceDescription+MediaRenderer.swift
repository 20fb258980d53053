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

// The services of a generic media renderer after the UPnP AV:1 service templates (RenderingControl:1 and
// AVTransport:1, 2002; the generic MediaRenderer:1's ConnectionManager:1 is `connectionManager1`): every
// action and variable the templates require, in their order, plus the optional actions every renderer has
// and control points call (volume and mute, Pause, GetCurrentTransportActions: async-upnp-client's
// DmrDevice, after-discovery.md §4.3). The argument lists follow the templates, as gmrender-resurrect
// (hzeller/gmrender-resurrect@3d87b36 src/upnp_transport.c, src/upnp_control.c) writes them. Where the
// templates leave allowed values, ranges and defaults to the vendor, these are a network renderer's that
// neither records nor keeps a playlist: one track at most, a volume of 0 to 100, stopped.

extension SSDPServiceDescription {
    /// RenderingControl:1: presets (required), volume and mute of the master channel and of left and right.
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
            "Volume ui2 default=20 range=0...100 step=1",
            "A_ARG_TYPE_Channel string values=Master|LF|RF",
            "A_ARG_TYPE_InstanceID ui4",
            "A_ARG_TYPE_PresetName string values=FactoryDefaults",
        ]
    )

    /// AVTransport:1: the media to play, where playback is, and play, pause, stop, seek, next, previous.
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
            """
            TransportState string default=STOPPED \
            values=STOPPED|PAUSED_PLAYBACK|PLAYING|TRANSITIONING|NO_MEDIA_PRESENT
            """,
            "TransportStatus string default=OK values=OK|ERROR_OCCURRED",
            "PlaybackStorageMedium string default=NONE values=NETWORK|NONE",
            "RecordStorageMedium string default=NOT_IMPLEMENTED values=NOT_IMPLEMENTED",
            "PossiblePlaybackStorageMedia string default=NETWORK",
            "PossibleRecordStorageMedia string default=NOT_IMPLEMENTED",
            "CurrentPlayMode string default=NORMAL values=NORMAL|SHUFFLE|REPEAT_ONE|REPEAT_ALL|RANDOM|DIRECT_1|INTRO",
            "TransportPlaySpeed string default=1 values=1",
            "RecordMediumWriteStatus string default=NOT_IMPLEMENTED values=NOT_IMPLEMENTED",
            "CurrentRecordQualityMode string default=NOT_IMPLEMENTED values=NOT_IMPLEMENTED",
            "PossibleRecordQualityModes string default=NOT_IMPLEMENTED",
            "NumberOfTracks ui4 default=0 range=0...1",
            "CurrentTrack ui4 default=0 range=0...1 step=1",
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
            "CurrentTransportActions string",
            "LastChange string events",
            "A_ARG_TYPE_SeekMode string values=REL_TIME|TRACK_NR",
            "A_ARG_TYPE_SeekTarget string",
            "A_ARG_TYPE_InstanceID ui4",
        ]
    )
}
