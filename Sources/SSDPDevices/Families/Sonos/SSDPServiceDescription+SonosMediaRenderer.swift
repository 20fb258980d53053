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

// The services of a Sonos ZonePlayer's embedded MediaRenderer but AVTransport (in
// SSDPServiceDescription+SonosAVTransport.swift): RenderingControl, Queue and GroupRenderingControl, from the
// same capture as the rest of the ZonePlayer (see SSDPServiceDescription+Sonos.swift).

extension SSDPServiceDescription {
    /// RenderingControl:1 as a Sonos serves it (`/xml/RenderingControl1.xml`): volume, mute, bass, treble,
    /// loudness, EQ and volume ramps. It has no presets (ListPresets, SelectPreset), which the template requires.
    public static let sonosRenderingControl1 = SSDPServiceDescription(
        actions: [
            "GetMute: InstanceID=A_ARG_TYPE_InstanceID Channel=A_ARG_TYPE_MuteChannel -> CurrentMute=Mute",
            "SetMute: InstanceID=A_ARG_TYPE_InstanceID Channel=A_ARG_TYPE_MuteChannel DesiredMute=Mute",
            """
            ResetBasicEQ: InstanceID=A_ARG_TYPE_InstanceID -> Bass=Bass Treble=Treble Loudness=Loudness \
            LeftVolume=A_ARG_TYPE_LeftVolume RightVolume=A_ARG_TYPE_RightVolume
            """,
            "ResetExtEQ: InstanceID=A_ARG_TYPE_InstanceID EQType=A_ARG_TYPE_EQType",
            "GetVolume: InstanceID=A_ARG_TYPE_InstanceID Channel=A_ARG_TYPE_Channel -> CurrentVolume=Volume",
            "SetVolume: InstanceID=A_ARG_TYPE_InstanceID Channel=A_ARG_TYPE_Channel DesiredVolume=Volume",
            """
            SetRelativeVolume: InstanceID=A_ARG_TYPE_InstanceID Channel=A_ARG_TYPE_Channel \
            Adjustment=A_ARG_TYPE_VolumeAdjustment -> NewVolume=Volume
            """,
            "GetVolumeDB: InstanceID=A_ARG_TYPE_InstanceID Channel=A_ARG_TYPE_Channel -> CurrentVolume=VolumeDB",
            "SetVolumeDB: InstanceID=A_ARG_TYPE_InstanceID Channel=A_ARG_TYPE_Channel DesiredVolume=VolumeDB",
            """
            GetVolumeDBRange: InstanceID=A_ARG_TYPE_InstanceID Channel=A_ARG_TYPE_Channel -> MinValue=VolumeDB \
            MaxValue=VolumeDB
            """,
            "GetBass: InstanceID=A_ARG_TYPE_InstanceID -> CurrentBass=Bass",
            "SetBass: InstanceID=A_ARG_TYPE_InstanceID DesiredBass=Bass",
            "GetTreble: InstanceID=A_ARG_TYPE_InstanceID -> CurrentTreble=Treble",
            "SetTreble: InstanceID=A_ARG_TYPE_InstanceID DesiredTreble=Treble",
            "GetEQ: InstanceID=A_ARG_TYPE_InstanceID EQType=A_ARG_TYPE_EQType -> CurrentValue=EQValue",
            "SetEQ: InstanceID=A_ARG_TYPE_InstanceID EQType=A_ARG_TYPE_EQType DesiredValue=EQValue",
            "GetLoudness: InstanceID=A_ARG_TYPE_InstanceID Channel=A_ARG_TYPE_Channel -> CurrentLoudness=Loudness",
            "SetLoudness: InstanceID=A_ARG_TYPE_InstanceID Channel=A_ARG_TYPE_Channel DesiredLoudness=Loudness",
            "GetSupportsOutputFixed: InstanceID=A_ARG_TYPE_InstanceID -> CurrentSupportsFixed=SupportsOutputFixed",
            "GetOutputFixed: InstanceID=A_ARG_TYPE_InstanceID -> CurrentFixed=OutputFixed",
            "SetOutputFixed: InstanceID=A_ARG_TYPE_InstanceID DesiredFixed=OutputFixed",
            "GetHeadphoneConnected: InstanceID=A_ARG_TYPE_InstanceID -> CurrentHeadphoneConnected=HeadphoneConnected",
            """
            RampToVolume: InstanceID=A_ARG_TYPE_InstanceID Channel=A_ARG_TYPE_Channel RampType=A_ARG_TYPE_RampType \
            DesiredVolume=Volume ResetVolumeAfter=A_ARG_TYPE_ResetVolumeAfter ProgramURI=A_ARG_TYPE_ProgramURI \
            -> RampTime=A_ARG_TYPE_RampTimeSeconds
            """,
            "RestoreVolumePriorToRamp: InstanceID=A_ARG_TYPE_InstanceID Channel=A_ARG_TYPE_Channel",
            "SetChannelMap: InstanceID=A_ARG_TYPE_InstanceID ChannelMap=A_ARG_TYPE_ChannelMap",
            """
            GetRoomCalibrationStatus: InstanceID=A_ARG_TYPE_InstanceID \
            -> RoomCalibrationEnabled=RoomCalibrationEnabled RoomCalibrationAvailable=RoomCalibrationAvailable
            """,
            "SetRoomCalibrationStatus: InstanceID=A_ARG_TYPE_InstanceID RoomCalibrationEnabled=RoomCalibrationEnabled",
        ],
        variables: [
            "LastChange string events",
            "Mute boolean",
            "Volume ui2",
            "A_ARG_TYPE_LeftVolume ui2",
            "A_ARG_TYPE_RightVolume ui2",
            "VolumeDB i2",
            "Bass i2",
            "Treble i2",
            "EQValue i2",
            "A_ARG_TYPE_EQType string",
            "Loudness boolean",
            "SupportsOutputFixed boolean",
            "OutputFixed boolean",
            "HeadphoneConnected boolean",
            "A_ARG_TYPE_Channel string values=Master|LF|RF",
            "A_ARG_TYPE_MuteChannel string values=Master|LF|RF",
            "A_ARG_TYPE_InstanceID ui4",
            "A_ARG_TYPE_VolumeAdjustment i4",
            "A_ARG_TYPE_RampType string values=SLEEP_TIMER_RAMP_TYPE|ALARM_RAMP_TYPE|AUTOPLAY_RAMP_TYPE",
            "A_ARG_TYPE_RampTimeSeconds ui4",
            "A_ARG_TYPE_ResetVolumeAfter boolean",
            "A_ARG_TYPE_ProgramURI string",
            "A_ARG_TYPE_ChannelMap string",
            "AudioDelay string",
            "AudioDelayLeftRear string",
            "AudioDelayRightRear string",
            "DialogLevel string",
            "SupportsMaxDialogLevel boolean",
            "SpeechEnhanceEnabled boolean",
            "SpeakerSize ui4",
            "SubCrossover string",
            "SubEnabled boolean",
            "SubGain string",
            "SubPolarity string",
            "SurroundLevel string",
            "MusicSurroundLevel string",
            "NightMode boolean",
            "SurroundEnabled boolean",
            "SurroundMode string",
            "PresetNameList string",
            "RoomCalibrationID string",
            "RoomCalibrationCoefficients string",
            "RoomCalibrationCalibrationMode string",
            "RoomCalibrationEnabled boolean",
            "RoomCalibrationAvailable boolean",
        ]
    )

    /// Queue:1 (`urn:schemas-sonos-com`, `/xml/Queue1.xml`): the play queue. The real SCPD declares
    /// A_ARG_TYPE_SavedQueueTitle twice, on every model captured; so does this one.
    public static let sonosQueue1 = SSDPServiceDescription(
        actions: [
            """
            AddURI: QueueID=A_ARG_TYPE_QueueID UpdateID=A_ARG_TYPE_UpdateID EnqueuedURI=A_ARG_TYPE_URI \
            EnqueuedURIMetaData=A_ARG_TYPE_URIMetaData DesiredFirstTrackNumberEnqueued=A_ARG_TYPE_TrackNumber \
            EnqueueAsNext=A_ARG_TYPE_EnqueueAsNext -> FirstTrackNumberEnqueued=A_ARG_TYPE_TrackNumber \
            NumTracksAdded=A_ARG_TYPE_NumTracks NewQueueLength=A_ARG_TYPE_NumTracks NewUpdateID=UpdateID
            """,
            """
            AddMultipleURIs: QueueID=A_ARG_TYPE_QueueID UpdateID=A_ARG_TYPE_UpdateID ContainerURI=A_ARG_TYPE_URI \
            ContainerMetaData=A_ARG_TYPE_URIMetaData DesiredFirstTrackNumberEnqueued=A_ARG_TYPE_TrackNumber \
            EnqueueAsNext=A_ARG_TYPE_EnqueueAsNext NumberOfURIs=A_ARG_TYPE_NumTracks \
            EnqueuedURIsAndMetaData=A_ARG_TYPE_LIST_URI_AND_METADATA \
            -> FirstTrackNumberEnqueued=A_ARG_TYPE_TrackNumber NumTracksAdded=A_ARG_TYPE_NumTracks \
            NewQueueLength=A_ARG_TYPE_NumTracks NewUpdateID=UpdateID
            """,
            """
            AttachQueue: QueueOwnerID=A_ARG_TYPE_QueueOwnerID -> QueueID=A_ARG_TYPE_QueueID \
            QueueOwnerContext=A_ARG_TYPE_QueueOwnerContext
            """,
            "Backup",
            """
            Browse: QueueID=A_ARG_TYPE_QueueID StartingIndex=A_ARG_TYPE_Index RequestedCount=A_ARG_TYPE_Count \
            -> Result=A_ARG_TYPE_Result NumberReturned=A_ARG_TYPE_Count TotalMatches=A_ARG_TYPE_Count \
            UpdateID=A_ARG_TYPE_UpdateID
            """,
            """
            CreateQueue: QueueOwnerID=A_ARG_TYPE_QueueOwnerID QueueOwnerContext=A_ARG_TYPE_QueueOwnerContext \
            QueuePolicy=A_ARG_TYPE_QueuePolicy -> QueueID=A_ARG_TYPE_QueueID
            """,
            "RemoveAllTracks: QueueID=A_ARG_TYPE_QueueID UpdateID=A_ARG_TYPE_UpdateID -> NewUpdateID=UpdateID",
            """
            RemoveTrackRange: QueueID=A_ARG_TYPE_QueueID UpdateID=A_ARG_TYPE_UpdateID \
            StartingIndex=A_ARG_TYPE_TrackNumber NumberOfTracks=A_ARG_TYPE_NumTracks -> NewUpdateID=UpdateID
            """,
            """
            ReorderTracks: QueueID=A_ARG_TYPE_QueueID StartingIndex=A_ARG_TYPE_TrackNumber \
            NumberOfTracks=A_ARG_TYPE_NumTracks InsertBefore=A_ARG_TYPE_TrackNumber UpdateID=A_ARG_TYPE_UpdateID \
            -> NewUpdateID=UpdateID
            """,
            """
            ReplaceAllTracks: QueueID=A_ARG_TYPE_QueueID UpdateID=A_ARG_TYPE_UpdateID ContainerURI=A_ARG_TYPE_URI \
            ContainerMetaData=A_ARG_TYPE_URIMetaData CurrentTrackIndex=A_ARG_TYPE_TrackNumber \
            NewCurrentTrackIndices=A_ARG_TYPE_TrackNumbersCSV NumberOfURIs=A_ARG_TYPE_NumTracks \
            EnqueuedURIsAndMetaData=A_ARG_TYPE_LIST_URI_AND_METADATA -> NewQueueLength=A_ARG_TYPE_NumTracks \
            NewUpdateID=UpdateID
            """,
            """
            SaveAsSonosPlaylist: QueueID=A_ARG_TYPE_QueueID Title=A_ARG_TYPE_SavedQueueTitle \
            ObjectID=A_ARG_TYPE_ObjectID -> AssignedObjectID=A_ARG_TYPE_ObjectID
            """,
        ],
        variables: [
            "LastChange string events",
            "UpdateID ui4",
            "Curated boolean",
            "A_ARG_TYPE_UpdateID ui4",
            "A_ARG_TYPE_QueueID ui4",
            "A_ARG_TYPE_QueueOwnerID string",
            "A_ARG_TYPE_QueueOwnerContext string",
            "A_ARG_TYPE_QueuePolicy string",
            "A_ARG_TYPE_URI string",
            "A_ARG_TYPE_LIST_URI string",
            "A_ARG_TYPE_URIMetaData string",
            "A_ARG_TYPE_ObjectID string",
            "A_ARG_TYPE_TrackNumber ui4",
            "A_ARG_TYPE_NumTracks ui4",
            "A_ARG_TYPE_EnqueueAsNext boolean",
            "A_ARG_TYPE_SavedQueueTitle string",
            "A_ARG_TYPE_Index ui4",
            "A_ARG_TYPE_Count ui4",
            "A_ARG_TYPE_Result string",
            "A_ARG_TYPE_SavedQueueTitle string",
            "A_ARG_TYPE_TrackNumbersCSV string",
            "A_ARG_TYPE_LIST_URI_AND_METADATA string",
        ]
    )

    /// GroupRenderingControl:1 (`/xml/GroupRenderingControl1.xml`): the volume and mute of a whole group.
    public static let sonosGroupRenderingControl1 = SSDPServiceDescription(
        actions: [
            "GetGroupMute: InstanceID=A_ARG_TYPE_InstanceID -> CurrentMute=GroupMute",
            "SetGroupMute: InstanceID=A_ARG_TYPE_InstanceID DesiredMute=GroupMute",
            "GetGroupVolume: InstanceID=A_ARG_TYPE_InstanceID -> CurrentVolume=GroupVolume",
            "SetGroupVolume: InstanceID=A_ARG_TYPE_InstanceID DesiredVolume=GroupVolume",
            """
            SetRelativeGroupVolume: InstanceID=A_ARG_TYPE_InstanceID Adjustment=A_ARG_TYPE_VolumeAdjustment \
            -> NewVolume=GroupVolume
            """,
            "SnapshotGroupVolume: InstanceID=A_ARG_TYPE_InstanceID",
        ],
        variables: [
            "GroupMute boolean events",
            "GroupVolume ui2 events",
            "GroupVolumeChangeable boolean events",
            "A_ARG_TYPE_InstanceID ui4",
            "A_ARG_TYPE_VolumeAdjustment i4",
        ]
    )
}
