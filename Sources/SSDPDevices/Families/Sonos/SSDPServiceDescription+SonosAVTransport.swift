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

// The AVTransport of a Sonos ZonePlayer's embedded MediaRenderer, from the same capture as the rest of the
// ZonePlayer (see SSDPServiceDescription+Sonos.swift).

extension SSDPServiceDescription {
    /// AVTransport:1 as a Sonos serves it (`/xml/AVTransport1.xml`): the template's actions (its
    /// GetPositionInfo takes InstanceID alone) and Sonos's queue, grouping, sleep timer and alarms.
    public static let sonosAVTransport1 = SSDPServiceDescription(
        actions: [
            """
            SetAVTransportURI: InstanceID=A_ARG_TYPE_InstanceID CurrentURI=AVTransportURI \
            CurrentURIMetaData=AVTransportURIMetaData
            """,
            """
            SetNextAVTransportURI: InstanceID=A_ARG_TYPE_InstanceID NextURI=NextAVTransportURI \
            NextURIMetaData=NextAVTransportURIMetaData
            """,
            """
            AddURIToQueue: InstanceID=A_ARG_TYPE_InstanceID EnqueuedURI=A_ARG_TYPE_URI \
            EnqueuedURIMetaData=A_ARG_TYPE_URIMetaData DesiredFirstTrackNumberEnqueued=A_ARG_TYPE_TrackNumber \
            EnqueueAsNext=A_ARG_TYPE_EnqueueAsNext -> FirstTrackNumberEnqueued=A_ARG_TYPE_TrackNumber \
            NumTracksAdded=A_ARG_TYPE_NumTracks NewQueueLength=A_ARG_TYPE_NumTracks
            """,
            """
            AddMultipleURIsToQueue: InstanceID=A_ARG_TYPE_InstanceID UpdateID=QueueUpdateID \
            NumberOfURIs=A_ARG_TYPE_NumTracks EnqueuedURIs=A_ARG_TYPE_LIST_URI \
            EnqueuedURIsMetaData=A_ARG_TYPE_LIST_URIMetaData ContainerURI=A_ARG_TYPE_URI \
            ContainerMetaData=A_ARG_TYPE_URIMetaData DesiredFirstTrackNumberEnqueued=A_ARG_TYPE_TrackNumber \
            EnqueueAsNext=A_ARG_TYPE_EnqueueAsNext -> FirstTrackNumberEnqueued=A_ARG_TYPE_TrackNumber \
            NumTracksAdded=A_ARG_TYPE_NumTracks NewQueueLength=A_ARG_TYPE_NumTracks NewUpdateID=QueueUpdateID
            """,
            """
            ReorderTracksInQueue: InstanceID=A_ARG_TYPE_InstanceID StartingIndex=A_ARG_TYPE_TrackNumber \
            NumberOfTracks=A_ARG_TYPE_NumTracks InsertBefore=A_ARG_TYPE_TrackNumber UpdateID=QueueUpdateID
            """,
            """
            RemoveTrackFromQueue: InstanceID=A_ARG_TYPE_InstanceID ObjectID=A_ARG_TYPE_ObjectID UpdateID=QueueUpdateID
            """,
            """
            RemoveTrackRangeFromQueue: InstanceID=A_ARG_TYPE_InstanceID UpdateID=QueueUpdateID \
            StartingIndex=A_ARG_TYPE_TrackNumber NumberOfTracks=A_ARG_TYPE_NumTracks -> NewUpdateID=QueueUpdateID
            """,
            "RemoveAllTracksFromQueue: InstanceID=A_ARG_TYPE_InstanceID",
            """
            SaveQueue: InstanceID=A_ARG_TYPE_InstanceID Title=A_ARG_TYPE_SavedQueueTitle ObjectID=A_ARG_TYPE_ObjectID \
            -> AssignedObjectID=A_ARG_TYPE_ObjectID
            """,
            "BackupQueue: InstanceID=A_ARG_TYPE_InstanceID",
            """
            CreateSavedQueue: InstanceID=A_ARG_TYPE_InstanceID Title=A_ARG_TYPE_SavedQueueTitle \
            EnqueuedURI=A_ARG_TYPE_URI EnqueuedURIMetaData=A_ARG_TYPE_URIMetaData \
            -> NumTracksAdded=A_ARG_TYPE_NumTracks NewQueueLength=A_ARG_TYPE_NumTracks \
            AssignedObjectID=A_ARG_TYPE_ObjectID NewUpdateID=QueueUpdateID
            """,
            """
            AddURIToSavedQueue: InstanceID=A_ARG_TYPE_InstanceID ObjectID=A_ARG_TYPE_ObjectID UpdateID=QueueUpdateID \
            EnqueuedURI=A_ARG_TYPE_URI EnqueuedURIMetaData=A_ARG_TYPE_URIMetaData AddAtIndex=A_ARG_TYPE_TrackNumber \
            -> NumTracksAdded=A_ARG_TYPE_NumTracks NewQueueLength=A_ARG_TYPE_NumTracks NewUpdateID=QueueUpdateID
            """,
            """
            ReorderTracksInSavedQueue: InstanceID=A_ARG_TYPE_InstanceID ObjectID=A_ARG_TYPE_ObjectID \
            UpdateID=QueueUpdateID TrackList=A_ARG_TYPE_TrackList NewPositionList=A_ARG_TYPE_TrackList -> \
            QueueLengthChange=A_ARG_TYPE_NumTracksChange NewQueueLength=A_ARG_TYPE_NumTracks NewUpdateID=QueueUpdateID
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
            GetPositionInfo: InstanceID=A_ARG_TYPE_InstanceID -> Track=CurrentTrack TrackDuration=CurrentTrackDuration \
            TrackMetaData=CurrentTrackMetaData TrackURI=CurrentTrackURI RelTime=RelativeTimePosition \
            AbsTime=AbsoluteTimePosition RelCount=RelativeCounterPosition AbsCount=AbsoluteCounterPosition
            """,
            """
            GetDeviceCapabilities: InstanceID=A_ARG_TYPE_InstanceID -> PlayMedia=PossiblePlaybackStorageMedia \
            RecMedia=PossibleRecordStorageMedia RecQualityModes=PossibleRecordQualityModes
            """,
            """
            GetTransportSettings: InstanceID=A_ARG_TYPE_InstanceID -> PlayMode=CurrentPlayMode \
            RecQualityMode=CurrentRecordQualityMode
            """,
            "GetCrossfadeMode: InstanceID=A_ARG_TYPE_InstanceID -> CrossfadeMode=CurrentCrossfadeMode",
            "Stop: InstanceID=A_ARG_TYPE_InstanceID",
            "Play: InstanceID=A_ARG_TYPE_InstanceID Speed=TransportPlaySpeed",
            "Pause: InstanceID=A_ARG_TYPE_InstanceID",
            "Seek: InstanceID=A_ARG_TYPE_InstanceID Unit=A_ARG_TYPE_SeekMode Target=A_ARG_TYPE_SeekTarget",
            "Next: InstanceID=A_ARG_TYPE_InstanceID",
            "Previous: InstanceID=A_ARG_TYPE_InstanceID",
            "SetPlayMode: InstanceID=A_ARG_TYPE_InstanceID NewPlayMode=CurrentPlayMode",
            "SetCrossfadeMode: InstanceID=A_ARG_TYPE_InstanceID CrossfadeMode=CurrentCrossfadeMode",
            "NotifyDeletedURI: InstanceID=A_ARG_TYPE_InstanceID DeletedURI=AVTransportURI",
            "GetCurrentTransportActions: InstanceID=A_ARG_TYPE_InstanceID -> Actions=CurrentTransportActions",
            """
            BecomeCoordinatorOfStandaloneGroup: InstanceID=A_ARG_TYPE_InstanceID \
            -> DelegatedGroupCoordinatorID=A_ARG_TYPE_PlayerID NewGroupID=A_ARG_TYPE_GroupID
            """,
            """
            DelegateGroupCoordinationTo: InstanceID=A_ARG_TYPE_InstanceID NewCoordinator=A_ARG_TYPE_MemberID \
            RejoinGroup=A_ARG_TYPE_RejoinGroup
            """,
            """
            BecomeGroupCoordinator: InstanceID=A_ARG_TYPE_InstanceID CurrentCoordinator=A_ARG_TYPE_MemberID \
            CurrentGroupID=A_ARG_TYPE_GroupID OtherMembers=A_ARG_TYPE_MemberList \
            TransportSettings=A_ARG_TYPE_TransportSettings CurrentURI=AVTransportURI \
            CurrentURIMetaData=AVTransportURIMetaData SleepTimerState=A_ARG_TYPE_SleepTimerState \
            AlarmState=A_ARG_TYPE_AlarmState StreamRestartState=A_ARG_TYPE_StreamRestartState \
            CurrentQueueTrackList=A_ARG_TYPE_Queue CurrentVLIState=A_ARG_TYPE_VLIState
            """,
            """
            BecomeGroupCoordinatorAndSource: InstanceID=A_ARG_TYPE_InstanceID CurrentCoordinator=A_ARG_TYPE_MemberID \
            CurrentGroupID=A_ARG_TYPE_GroupID OtherMembers=A_ARG_TYPE_MemberList CurrentURI=AVTransportURI \
            CurrentURIMetaData=AVTransportURIMetaData SleepTimerState=A_ARG_TYPE_SleepTimerState \
            AlarmState=A_ARG_TYPE_AlarmState StreamRestartState=A_ARG_TYPE_StreamRestartState \
            CurrentAVTTrackList=A_ARG_TYPE_Queue CurrentQueueTrackList=A_ARG_TYPE_Queue \
            CurrentSourceState=A_ARG_TYPE_SourceState ResumePlayback=A_ARG_TYPE_ResumePlayback
            """,
            """
            ChangeCoordinator: InstanceID=A_ARG_TYPE_InstanceID CurrentCoordinator=A_ARG_TYPE_MemberID \
            NewCoordinator=A_ARG_TYPE_MemberID NewTransportSettings=A_ARG_TYPE_TransportSettings \
            CurrentAVTransportURI=A_ARG_TYPE_CurrentAVTransportURI RestartSink=A_ARG_TYPE_RestartSink
            """,
            """
            ChangeTransportSettings: InstanceID=A_ARG_TYPE_InstanceID \
            NewTransportSettings=A_ARG_TYPE_TransportSettings CurrentAVTransportURI=A_ARG_TYPE_CurrentAVTransportURI
            """,
            "ConfigureSleepTimer: InstanceID=A_ARG_TYPE_InstanceID NewSleepTimerDuration=A_ARG_TYPE_ISO8601Time",
            """
            GetRemainingSleepTimerDuration: InstanceID=A_ARG_TYPE_InstanceID \
            -> RemainingSleepTimerDuration=A_ARG_TYPE_ISO8601Time CurrentSleepTimerGeneration=SleepTimerGeneration
            """,
            """
            RunAlarm: InstanceID=A_ARG_TYPE_InstanceID AlarmID=AlarmIDRunning LoggedStartTime=AlarmLoggedStartTime \
            Duration=A_ARG_TYPE_ISO8601Time ProgramURI=AVTransportURI ProgramMetaData=AVTransportURIMetaData \
            PlayMode=CurrentPlayMode Volume=A_ARG_TYPE_AlarmVolume \
            IncludeLinkedZones=A_ARG_TYPE_AlarmIncludeLinkedZones
            """,
            """
            StartAutoplay: InstanceID=A_ARG_TYPE_InstanceID ProgramURI=AVTransportURI \
            ProgramMetaData=AVTransportURIMetaData Volume=A_ARG_TYPE_AlarmVolume \
            IncludeLinkedZones=A_ARG_TYPE_AlarmIncludeLinkedZones ResetVolumeAfter=A_ARG_TYPE_ResetVolumeAfter
            """,
            """
            GetRunningAlarmProperties: InstanceID=A_ARG_TYPE_InstanceID -> AlarmID=AlarmIDRunning \
            GroupID=A_ARG_TYPE_GroupID LoggedStartTime=AlarmLoggedStartTime
            """,
            "SnoozeAlarm: InstanceID=A_ARG_TYPE_InstanceID Duration=A_ARG_TYPE_ISO8601Time",
            "EndDirectControlSession: InstanceID=A_ARG_TYPE_InstanceID",
        ],
        variables: [
            "TransportState string values=STOPPED|PLAYING|PAUSED_PLAYBACK|TRANSITIONING",
            "TransportStatus string",
            "TransportErrorDescription string",
            "TransportErrorURI string",
            "TransportErrorHttpCode string",
            "TransportErrorHttpHeaders string",
            "PlaybackStorageMedium string values=NONE|NETWORK",
            "RecordStorageMedium string values=NONE",
            "PossiblePlaybackStorageMedia string",
            "PossibleRecordStorageMedia string",
            "CurrentPlayMode string values=NORMAL|REPEAT_ALL|REPEAT_ONE|SHUFFLE_NOREPEAT|SHUFFLE|SHUFFLE_REPEAT_ONE",
            "CurrentCrossfadeMode boolean",
            "TransportPlaySpeed string values=1",
            "RecordMediumWriteStatus string",
            "CurrentRecordQualityMode string",
            "PossibleRecordQualityModes string",
            "NumberOfTracks ui4",
            "CurrentTrack ui4",
            "CurrentSection ui4",
            "CurrentTrackDuration string",
            "CurrentMediaDuration string",
            "CurrentTrackMetaData string",
            "CurrentTrackURI string",
            "AVTransportURI string",
            "AVTransportURIMetaData string",
            "NextAVTransportURI string",
            "NextAVTransportURIMetaData string",
            "RelativeTimePosition string",
            "AbsoluteTimePosition string",
            "RelativeCounterPosition i4",
            "AbsoluteCounterPosition i4",
            "CurrentTransportActions string",
            "SleepTimerGeneration ui4",
            "SnoozeRunning boolean",
            "AlarmRunning boolean",
            "AlarmIDRunning ui4",
            "AlarmLoggedStartTime string",
            "RestartPending boolean",
            "LastChange string events",
            "NextTrackMetaData string",
            "NextTrackURI string",
            "EnqueuedTransportURIMetaData string",
            "EnqueuedTransportURI string",
            "CurrentValidPlayModes string",
            "MuseSessions string",
            "DirectControlClientID string",
            "DirectControlAccountID string",
            "DirectControlIsSuspended boolean",
            "A_ARG_TYPE_SeekMode string values=TRACK_NR|REL_TIME|TIME_DELTA",
            "A_ARG_TYPE_SeekTarget string",
            "A_ARG_TYPE_InstanceID ui4",
            "A_ARG_TYPE_MemberList string",
            "A_ARG_TYPE_TransportSettings string",
            "A_ARG_TYPE_CurrentAVTransportURI string",
            "A_ARG_TYPE_SourceState string",
            "A_ARG_TYPE_VLIState string",
            "A_ARG_TYPE_Queue string",
            "A_ARG_TYPE_MemberID string",
            "A_ARG_TYPE_URI string",
            "A_ARG_TYPE_LIST_URI string",
            "A_ARG_TYPE_URIMetaData string",
            "A_ARG_TYPE_LIST_URIMetaData string",
            "A_ARG_TYPE_ObjectID string",
            "A_ARG_TYPE_GroupID string",
            "A_ARG_TYPE_PlayerID string",
            "A_ARG_TYPE_TrackNumber ui4",
            "A_ARG_TYPE_NumTracks ui4",
            "A_ARG_TYPE_NumTracksChange i4",
            "A_ARG_TYPE_EnqueueAsNext boolean",
            "A_ARG_TYPE_SavedQueueTitle string",
            "A_ARG_TYPE_ResumePlayback boolean",
            "A_ARG_TYPE_ISO8601Time string",
            "A_ARG_TYPE_AlarmVolume ui2",
            "A_ARG_TYPE_AlarmIncludeLinkedZones boolean",
            "A_ARG_TYPE_ResetVolumeAfter boolean",
            "A_ARG_TYPE_SleepTimerState string",
            "A_ARG_TYPE_AlarmState string",
            "A_ARG_TYPE_StreamRestartState string",
            "A_ARG_TYPE_RejoinGroup boolean",
            "QueueUpdateID ui4",
            "A_ARG_TYPE_TrackList string",
            "A_ARG_TYPE_RestartSink boolean",
        ]
    )
}
