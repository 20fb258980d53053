// The services of a DLNA media server as MiniDLNA 1.3 describes them (upnpdescgen.c: ContentDirectory,
// ConnectionManager and X_MS_MediaReceiverRegistrar; after-discovery.md §4), which follow the UPnP AV
// ContentDirectory:1 and ConnectionManager:1 templates.

extension SSDPServiceDescription {
    /// ContentDirectory:1: browsing and searching the media tree.
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
            "SystemUpdateID ui4 events default=0",
        ]
    )

    /// ConnectionManager:1: the formats a device sources or sinks, and its connections.
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
            "CurrentConnectionIDs string events default=0",
            "A_ARG_TYPE_ConnectionStatus string values=OK|ContentFormatMismatch|InsufficientBandwidth|UnreliableChannel|Unknown",
            "A_ARG_TYPE_ConnectionManager string",
            "A_ARG_TYPE_Direction string values=Input|Output",
            "A_ARG_TYPE_ProtocolInfo string",
            "A_ARG_TYPE_ConnectionID i4",
            "A_ARG_TYPE_AVTransportID i4",
            "A_ARG_TYPE_RcsID i4",
        ]
    )

    /// X_MS_MediaReceiverRegistrar:1: what an Xbox asks before it browses.
    public static let mediaReceiverRegistrar1 = SSDPServiceDescription(
        actions: [
            "IsAuthorized: DeviceID=A_ARG_TYPE_DeviceID -> Result=A_ARG_TYPE_Result",
            "RegisterDevice: RegistrationReqMsg=A_ARG_TYPE_RegistrationReqMsg -> RegistrationRespMsg=A_ARG_TYPE_RegistrationRespMsg",
            "IsValidated: DeviceID=A_ARG_TYPE_DeviceID -> Result=A_ARG_TYPE_Result",
        ],
        variables: [
            "A_ARG_TYPE_DeviceID string",
            "A_ARG_TYPE_Result int default=1",
            "A_ARG_TYPE_RegistrationReqMsg bin.base64",
            "A_ARG_TYPE_RegistrationRespMsg bin.base64",
            "AuthorizationGrantedUpdateID ui4 events default=0",
            "AuthorizationDeniedUpdateID ui4 events default=0",
            "ValidationSucceededUpdateID ui4 events default=0",
            "ValidationRevokedUpdateID ui4 events default=0",
        ]
    )
}
