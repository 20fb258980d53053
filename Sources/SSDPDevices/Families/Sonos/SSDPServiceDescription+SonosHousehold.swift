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

// A Sonos ZonePlayer's household services: AlarmClock, MusicServices and SystemProperties, from the same
// capture as the rest of the ZonePlayer (see SSDPServiceDescription+Sonos.swift).

extension SSDPServiceDescription {
    /// AlarmClock:1 (`/xml/AlarmClock1.xml`): the alarms, the time, the time zone and its server.
    public static let sonosAlarmClock1 = SSDPServiceDescription(
        actions: [
            "SetFormat: DesiredTimeFormat=TimeFormat DesiredDateFormat=DateFormat",
            "GetFormat: -> CurrentTimeFormat=TimeFormat CurrentDateFormat=DateFormat",
            "SetTimeZone: Index=A_ARG_TYPE_TimeZoneIndex AutoAdjustDst=A_ARG_TYPE_TimeZoneAutoAdjustDst",
            "GetTimeZone: -> Index=A_ARG_TYPE_TimeZoneIndex AutoAdjustDst=A_ARG_TYPE_TimeZoneAutoAdjustDst",
            """
            GetTimeZoneAndRule: -> Index=A_ARG_TYPE_TimeZoneIndex AutoAdjustDst=A_ARG_TYPE_TimeZoneAutoAdjustDst \
            CurrentTimeZone=TimeZone
            """,
            "GetTimeZoneRule: Index=A_ARG_TYPE_TimeZoneIndex -> TimeZone=TimeZone",
            "SetTimeServer: DesiredTimeServer=TimeServer",
            "GetTimeServer: -> CurrentTimeServer=TimeServer",
            "SetTimeNow: DesiredTime=A_ARG_TYPE_ISO8601Time TimeZoneForDesiredTime=A_ARG_TYPE_TimeZoneInformation",
            "GetHouseholdTimeAtStamp: TimeStamp=A_ARG_TYPE_TimeStamp -> HouseholdUTCTime=A_ARG_TYPE_ISO8601Time",
            """
            GetTimeNow: -> CurrentUTCTime=A_ARG_TYPE_ISO8601Time CurrentLocalTime=A_ARG_TYPE_ISO8601Time \
            CurrentTimeZone=TimeZone CurrentTimeGeneration=TimeGeneration
            """,
            """
            CreateAlarm: StartLocalTime=A_ARG_TYPE_ISO8601Time Duration=A_ARG_TYPE_ISO8601Time \
            Recurrence=A_ARG_TYPE_Recurrence Enabled=A_ARG_TYPE_AlarmEnabled RoomUUID=A_ARG_TYPE_AlarmRoomUUID \
            ProgramURI=A_ARG_TYPE_AlarmProgramURI ProgramMetaData=A_ARG_TYPE_AlarmProgramMetaData \
            PlayMode=A_ARG_TYPE_AlarmPlayMode Volume=A_ARG_TYPE_AlarmVolume \
            IncludeLinkedZones=A_ARG_TYPE_AlarmIncludeLinkedZones -> AssignedID=A_ARG_TYPE_AlarmID
            """,
            """
            UpdateAlarm: ID=A_ARG_TYPE_AlarmID StartLocalTime=A_ARG_TYPE_ISO8601Time Duration=A_ARG_TYPE_ISO8601Time \
            Recurrence=A_ARG_TYPE_Recurrence Enabled=A_ARG_TYPE_AlarmEnabled RoomUUID=A_ARG_TYPE_AlarmRoomUUID \
            ProgramURI=A_ARG_TYPE_AlarmProgramURI ProgramMetaData=A_ARG_TYPE_AlarmProgramMetaData \
            PlayMode=A_ARG_TYPE_AlarmPlayMode Volume=A_ARG_TYPE_AlarmVolume \
            IncludeLinkedZones=A_ARG_TYPE_AlarmIncludeLinkedZones
            """,
            "DestroyAlarm: ID=A_ARG_TYPE_AlarmID",
            "ListAlarms: -> CurrentAlarmList=A_ARG_TYPE_AlarmList CurrentAlarmListVersion=AlarmListVersion",
            "SetDailyIndexRefreshTime: DesiredDailyIndexRefreshTime=DailyIndexRefreshTime",
            "GetDailyIndexRefreshTime: -> CurrentDailyIndexRefreshTime=DailyIndexRefreshTime",
        ],
        variables: [
            "A_ARG_TYPE_ISO8601Time string",
            "A_ARG_TYPE_Recurrence string values=ONCE|WEEKDAYS|WEEKENDS|DAILY",
            "A_ARG_TYPE_AlarmID ui4",
            "A_ARG_TYPE_AlarmList string",
            "A_ARG_TYPE_AlarmEnabled boolean",
            "A_ARG_TYPE_AlarmProgramURI string",
            "A_ARG_TYPE_AlarmProgramMetaData string",
            "A_ARG_TYPE_AlarmPlayMode string values=NORMAL|REPEAT_ALL|SHUFFLE_NOREPEAT|SHUFFLE",
            "A_ARG_TYPE_AlarmVolume ui2",
            "A_ARG_TYPE_AlarmIncludeLinkedZones boolean",
            "A_ARG_TYPE_AlarmRoomUUID string",
            "A_ARG_TYPE_TimeZoneIndex i4",
            "A_ARG_TYPE_TimeZoneAutoAdjustDst boolean",
            "A_ARG_TYPE_TimeZoneInformation string",
            "A_ARG_TYPE_TimeStamp string",
            "TimeZone string events",
            "TimeServer string events",
            "TimeGeneration ui4 events",
            "AlarmListVersion string events",
            "DailyIndexRefreshTime string events",
            "TimeFormat string events",
            "DateFormat string events",
        ]
    )

    /// MusicServices:1 (`/xml/MusicServices1.xml`): the streaming services the household can use.
    public static let sonosMusicServices1 = SSDPServiceDescription(
        actions: [
            "GetSessionId: ServiceId=ServiceId Username=Username -> SessionId=SessionId",
            """
            ListAvailableServices: -> AvailableServiceDescriptorList=A_ARG_TYPE_ServiceDescriptorList \
            AvailableServiceTypeList=A_ARG_TYPE_ServiceTypeList AvailableServiceListVersion=ServiceListVersion
            """,
            "UpdateAvailableServices",
        ],
        variables: [
            "A_ARG_TYPE_ServiceDescriptorList string",
            "A_ARG_TYPE_ServiceTypeList string",
            "ServiceId ui4",
            "ServiceListVersion string events",
            "SessionId string",
            "Username string",
        ]
    )

    /// SystemProperties:1 (`/xml/SystemProperties1.xml`): named strings the household keeps, and its
    /// music-service accounts.
    public static let sonosSystemProperties1 = SSDPServiceDescription(
        actions: [
            "SetString: VariableName=A_ARG_TYPE_VariableName StringValue=A_ARG_TYPE_VariableStringValue",
            "GetString: VariableName=A_ARG_TYPE_VariableName -> StringValue=A_ARG_TYPE_VariableStringValue",
            "Remove: VariableName=A_ARG_TYPE_VariableName",
            "GetWebCode: AccountType=A_ARG_TYPE_AccountType -> WebCode=A_ARG_TYPE_VariableStringValue",
            """
            ProvisionCredentialedTrialAccountX: AccountType=A_ARG_TYPE_AccountType AccountID=A_ARG_TYPE_AccountID \
            AccountPassword=A_ARG_TYPE_AccountPassword -> IsExpired=A_ARG_TYPE_IsExpired \
            AccountUDN=A_ARG_TYPE_AccountUDN
            """,
            """
            AddAccountX: AccountType=A_ARG_TYPE_AccountType AccountID=A_ARG_TYPE_AccountID \
            AccountPassword=A_ARG_TYPE_AccountPassword -> AccountUDN=A_ARG_TYPE_AccountUDN
            """,
            """
            AddOAuthAccountX: AccountType=A_ARG_TYPE_AccountType AccountToken=A_ARG_TYPE_AccountCredential \
            AccountKey=A_ARG_TYPE_AccountCredential OAuthDeviceID=A_ARG_TYPE_OAuthDeviceID \
            AuthorizationCode=A_ARG_TYPE_AuthorizationCode RedirectURI=A_ARG_TYPE_RedirectURI \
            UserIdHashCode=A_ARG_TYPE_UserIdHashCode AccountTier=A_ARG_TYPE_AccountTier \
            -> AccountUDN=A_ARG_TYPE_AccountUDN AccountNickname=A_ARG_TYPE_AccountNickname
            """,
            "RemoveAccount: AccountType=A_ARG_TYPE_AccountType AccountID=A_ARG_TYPE_AccountID",
            """
            EditAccountPasswordX: AccountType=A_ARG_TYPE_AccountType AccountID=A_ARG_TYPE_AccountID \
            NewAccountPassword=A_ARG_TYPE_AccountPassword
            """,
            "SetAccountNicknameX: AccountUDN=A_ARG_TYPE_AccountUDN AccountNickname=A_ARG_TYPE_AccountNickname",
            """
            RefreshAccountCredentialsX: AccountType=A_ARG_TYPE_AccountType AccountUID=A_ARG_TYPE_AccountUID \
            AccountToken=A_ARG_TYPE_AccountCredential AccountKey=A_ARG_TYPE_AccountCredential
            """,
            """
            EditAccountMd: AccountType=A_ARG_TYPE_AccountType AccountID=A_ARG_TYPE_AccountID \
            NewAccountMd=A_ARG_TYPE_AccountMd
            """,
            "DoPostUpdateTasks",
            "ResetThirdPartyCredentials",
            "EnableRDM: RDMValue=A_ARG_TYPE_RDMEnabled",
            "GetRDM: -> RDMValue=A_ARG_TYPE_RDMEnabled",
            """
            ReplaceAccountX: AccountUDN=A_ARG_TYPE_AccountUDN NewAccountID=A_ARG_TYPE_AccountID \
            NewAccountPassword=A_ARG_TYPE_AccountPassword AccountToken=A_ARG_TYPE_AccountCredential \
            AccountKey=A_ARG_TYPE_AccountCredential OAuthDeviceID=A_ARG_TYPE_OAuthDeviceID \
            -> NewAccountUDN=A_ARG_TYPE_AccountUDN
            """,
        ],
        variables: [
            "A_ARG_TYPE_VariableName string",
            "A_ARG_TYPE_VariableStringValue string",
            "A_ARG_TYPE_AccountType ui4",
            "A_ARG_TYPE_AccountUID ui4",
            "A_ARG_TYPE_AccountUDN string",
            "A_ARG_TYPE_AccountID string",
            "A_ARG_TYPE_AccountPassword string",
            "A_ARG_TYPE_AccountNickname string",
            "A_ARG_TYPE_AccountCredential string",
            "A_ARG_TYPE_AccountMd string",
            "A_ARG_TYPE_IsExpired boolean",
            "A_ARG_TYPE_StubsCreated string",
            "A_ARG_TYPE_RDMEnabled boolean",
            "A_ARG_TYPE_OAuthDeviceID string",
            "A_ARG_TYPE_AuthorizationCode string",
            "A_ARG_TYPE_UserIdHashCode string",
            "A_ARG_TYPE_AccountTier ui4",
            "A_ARG_TYPE_RedirectURI string",
            "CustomerID string events",
            "UpdateID ui4 events",
            "UpdateIDX ui4 events",
            "VoiceUpdateID ui4 events",
            "ThirdPartyHash string events",
        ]
    )
}
