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

// The services of a DLNA media server as MiniDLNA 1.3.1 serves them, copied from its description generator
// (glebius/minidlna@cf671a7 upnpdescgen.c: ContentDirectoryActions and ContentDirectoryVars,
// ConnectionManagerActions and ConnectionManagerVars, X_MS_MediaReceiverRegistrarActions and
// X_MS_MediaReceiverRegistrarVars, with the tables upnptypes and upnpallowedvalues; after-discovery.md §4).
// Tables keep its order; it writes no default values. Its ContentDirectory and ConnectionManager have every
// action and variable the AV:1 templates require (its comments mark them), so they are also the standard
// descriptions of those service types.

extension SSDPServiceDescription {
    /// ContentDirectory:1 (`/ContentDir.xml`): the four required actions, and the optional Search and
    /// UpdateObject MiniDLNA answers.
    public static let contentDirectory1 = SSDPServiceDescription(
        actions: [
            "GetSearchCapabilities: -> SearchCaps=SearchCapabilities",
            "GetSortCapabilities: -> SortCaps=SortCapabilities",
            "GetSystemUpdateID: -> Id=SystemUpdateID",
            """
            Browse: ObjectID=A_ARG_TYPE_ObjectID BrowseFlag=A_ARG_TYPE_BrowseFlag Filter=A_ARG_TYPE_Filter \
            StartingIndex=A_ARG_TYPE_Index RequestedCount=A_ARG_TYPE_Count SortCriteria=A_ARG_TYPE_SortCriteria \
            -> Result=A_ARG_TYPE_Result NumberReturned=A_ARG_TYPE_Count TotalMatches=A_ARG_TYPE_Count \
            UpdateID=A_ARG_TYPE_UpdateID
            """,
            """
            Search: ContainerID=A_ARG_TYPE_ObjectID SearchCriteria=A_ARG_TYPE_SearchCriteria \
            Filter=A_ARG_TYPE_Filter StartingIndex=A_ARG_TYPE_Index RequestedCount=A_ARG_TYPE_Count \
            SortCriteria=A_ARG_TYPE_SortCriteria -> Result=A_ARG_TYPE_Result NumberReturned=A_ARG_TYPE_Count \
            TotalMatches=A_ARG_TYPE_Count UpdateID=A_ARG_TYPE_UpdateID
            """,
            """
            UpdateObject: ObjectID=A_ARG_TYPE_ObjectID CurrentTagValue=A_ARG_TYPE_TagValueList \
            NewTagValue=A_ARG_TYPE_TagValueList
            """,
        ],
        variables: [
            "TransferIDs string events",
            "A_ARG_TYPE_ObjectID string",
            "A_ARG_TYPE_Result string",
            "A_ARG_TYPE_SearchCriteria string",
            "A_ARG_TYPE_BrowseFlag string values=BrowseMetadata|BrowseDirectChildren",
            "A_ARG_TYPE_Filter string",
            "A_ARG_TYPE_SortCriteria string",
            "A_ARG_TYPE_Index ui4",
            "A_ARG_TYPE_Count ui4",
            "A_ARG_TYPE_UpdateID ui4",
            "A_ARG_TYPE_TagValueList string",
            "SearchCapabilities string",
            "SortCapabilities string",
            "SystemUpdateID ui4 events",
        ]
    )

    /// ConnectionManager:1 (`/ConnectionMgr.xml`): the formats a device sources or sinks and its
    /// connections; the three required actions and the template's required variables, as a renderer needs
    /// them too.
    public static let connectionManager1 = SSDPServiceDescription(
        actions: [
            "GetProtocolInfo: -> Source=SourceProtocolInfo Sink=SinkProtocolInfo",
            "GetCurrentConnectionIDs: -> ConnectionIDs=CurrentConnectionIDs",
            """
            GetCurrentConnectionInfo: ConnectionID=A_ARG_TYPE_ConnectionID -> RcsID=A_ARG_TYPE_RcsID \
            AVTransportID=A_ARG_TYPE_AVTransportID ProtocolInfo=A_ARG_TYPE_ProtocolInfo \
            PeerConnectionManager=A_ARG_TYPE_ConnectionManager PeerConnectionID=A_ARG_TYPE_ConnectionID \
            Direction=A_ARG_TYPE_Direction Status=A_ARG_TYPE_ConnectionStatus
            """,
        ],
        variables: [
            "SourceProtocolInfo string events",
            "SinkProtocolInfo string events",
            "CurrentConnectionIDs string events",
            """
            A_ARG_TYPE_ConnectionStatus string \
            values=OK|ContentFormatMismatch|InsufficientBandwidth|UnreliableChannel|Unknown
            """,
            "A_ARG_TYPE_ConnectionManager string",
            "A_ARG_TYPE_Direction string values=Input|Output",
            "A_ARG_TYPE_ProtocolInfo string",
            "A_ARG_TYPE_ConnectionID i4",
            "A_ARG_TYPE_AVTransportID i4",
            "A_ARG_TYPE_RcsID i4",
        ]
    )

    /// X_MS_MediaReceiverRegistrar:1 (`/X_MS_MediaReceiverRegistrar.xml`): what an Xbox asks before it
    /// browses.
    public static let mediaReceiverRegistrar1 = SSDPServiceDescription(
        actions: [
            "IsAuthorized: DeviceID=A_ARG_TYPE_DeviceID -> Result=A_ARG_TYPE_Result",
            "IsValidated: DeviceID=A_ARG_TYPE_DeviceID -> Result=A_ARG_TYPE_Result",
            """
            RegisterDevice: RegistrationReqMsg=A_ARG_TYPE_RegistrationReqMsg \
            -> RegistrationRespMsg=A_ARG_TYPE_RegistrationRespMsg
            """,
        ],
        variables: [
            "A_ARG_TYPE_DeviceID string",
            "A_ARG_TYPE_RegistrationReqMsg bin.base64",
            "A_ARG_TYPE_RegistrationRespMsg bin.base64",
            "A_ARG_TYPE_Result int",
            "AuthorizationDeniedUpdateID ui4 events",
            "AuthorizationGrantedUpdateID ui4 events",
            "ValidationRevokedUpdateID ui4 events",
            "ValidationSucceededUpdateID ui4 events",
        ]
    )

    /// The services of MiniDLNA's MediaServer:1, by service type, for the `dlna-server` profile.
    public static let miniDLNAMediaServer1: [String: SSDPServiceDescription] = [
        "urn:schemas-upnp-org:service:ContentDirectory:1": contentDirectory1,
        "urn:schemas-upnp-org:service:ConnectionManager:1": connectionManager1,
        "urn:microsoft.com:service:X_MS_MediaReceiverRegistrar:1": mediaReceiverRegistrar1,
    ]
}
