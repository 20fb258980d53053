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

// The ContentDirectory of a Sonos ZonePlayer's embedded MediaServer (the music library, saved queues and
// favourites), from the same capture as the rest of the ZonePlayer (see SSDPServiceDescription+Sonos.swift).
// Its ConnectionManager is the AV template's, `connectionManager1`.

extension SSDPServiceDescription {
    /// ContentDirectory:1 as a Sonos serves it (`/xml/ContentDirectory1.xml`): the template's required actions
    /// and Sonos's library indexing, prefixes and shares.
    public static let sonosContentDirectory1 = SSDPServiceDescription(
        actions: [
            "GetSearchCapabilities: -> SearchCaps=SearchCapabilities",
            "GetSortCapabilities: -> SortCaps=SortCapabilities",
            "GetSystemUpdateID: -> Id=SystemUpdateID",
            "GetAlbumArtistDisplayOption: -> AlbumArtistDisplayOption=A_ARG_TYPE_AlbumArtistDisplayOption",
            "GetLastIndexChange: -> LastIndexChange=A_ARG_TYPE_LastIndexChange",
            """
            Browse: ObjectID=A_ARG_TYPE_ObjectID BrowseFlag=A_ARG_TYPE_BrowseFlag Filter=A_ARG_TYPE_Filter \
            StartingIndex=A_ARG_TYPE_Index RequestedCount=A_ARG_TYPE_Count SortCriteria=A_ARG_TYPE_SortCriteria \
            -> Result=A_ARG_TYPE_Result NumberReturned=A_ARG_TYPE_Count TotalMatches=A_ARG_TYPE_Count \
            UpdateID=A_ARG_TYPE_UpdateID
            """,
            """
            FindPrefix: ObjectID=A_ARG_TYPE_ObjectID Prefix=A_ARG_TYPE_Prefix -> StartingIndex=A_ARG_TYPE_Index \
            UpdateID=A_ARG_TYPE_UpdateID
            """,
            """
            GetAllPrefixLocations: ObjectID=A_ARG_TYPE_ObjectID -> TotalPrefixes=A_ARG_TYPE_Count \
            PrefixAndIndexCSV=A_ARG_TYPE_Result UpdateID=A_ARG_TYPE_UpdateID
            """,
            """
            CreateObject: ContainerID=A_ARG_TYPE_ObjectID Elements=A_ARG_TYPE_Result -> ObjectID=A_ARG_TYPE_ObjectID \
            Result=A_ARG_TYPE_Result
            """,
            """
            UpdateObject: ObjectID=A_ARG_TYPE_ObjectID CurrentTagValue=A_ARG_TYPE_TagValueList \
            NewTagValue=A_ARG_TYPE_TagValueList
            """,
            "DestroyObject: ObjectID=A_ARG_TYPE_ObjectID",
            "RefreshShareIndex: AlbumArtistDisplayOption=A_ARG_TYPE_AlbumArtistDisplayOption",
            "RequestResort: SortOrder=A_ARG_TYPE_SortOrder",
            "GetShareIndexInProgress: -> IsIndexing=ShareIndexInProgress",
            "GetBrowseable: -> IsBrowseable=Browseable",
            "SetBrowseable: Browseable=Browseable",
        ],
        variables: [
            "A_ARG_TYPE_ObjectID string",
            "A_ARG_TYPE_Result string",
            "A_ARG_TYPE_SearchCriteria string",
            "A_ARG_TYPE_BrowseFlag string values=BrowseMetadata|BrowseDirectChildren",
            "A_ARG_TYPE_Filter string",
            "A_ARG_TYPE_SortCriteria string",
            "A_ARG_TYPE_Prefix string",
            "A_ARG_TYPE_Index ui4",
            "A_ARG_TYPE_Count ui4",
            "A_ARG_TYPE_UpdateID ui4",
            "A_ARG_TYPE_TagValueList string",
            "A_ARG_TYPE_AlbumArtistDisplayOption string",
            "A_ARG_TYPE_SortOrder string",
            "A_ARG_TYPE_LastIndexChange string",
            "SearchCapabilities string",
            "SortCapabilities string",
            "SystemUpdateID ui4 events",
            "ContainerUpdateIDs string events",
            "ShareIndexInProgress boolean events",
            "ShareIndexLastError string events",
            "UserRadioUpdateID string events",
            "SavedQueuesUpdateID string events",
            "ShareListUpdateID string events",
            "RecentlyPlayedUpdateID string events",
            "Browseable boolean events",
            "RadioFavoritesUpdateID ui4 events",
            "RadioLocationUpdateID ui4 events",
            "FavoritesUpdateID string events",
        ]
    )
}
