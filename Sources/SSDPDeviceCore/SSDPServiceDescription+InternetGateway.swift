// The services of an Internet Gateway Device as miniupnpd 2.3 describes them (upnpdescgen.c:
// WANIPCnActions, WANCfgActions, L3FActions and their variable tables; after-discovery.md §3).
// Arguments are named `New` + the variable they carry.

extension SSDPServiceDescription {
    /// WANIPConnection:1: port mappings, the external address and the connection's status.
    public static let wanIPConnection1 = SSDPServiceDescription(
        actions: [
            "SetConnectionType: NewConnectionType=ConnectionType",
            "GetConnectionTypeInfo: -> NewConnectionType=ConnectionType NewPossibleConnectionTypes=PossibleConnectionTypes",
            "RequestConnection",
            "ForceTermination",
            "GetStatusInfo: -> NewConnectionStatus=ConnectionStatus NewLastConnectionError=LastConnectionError NewUptime=Uptime",
            "GetNATRSIPStatus: -> NewRSIPAvailable=RSIPAvailable NewNATEnabled=NATEnabled",
            """
            GetGenericPortMappingEntry: NewPortMappingIndex=PortMappingNumberOfEntries -> NewRemoteHost=RemoteHost \
            NewExternalPort=ExternalPort NewProtocol=PortMappingProtocol NewInternalPort=InternalPort \
            NewInternalClient=InternalClient NewEnabled=PortMappingEnabled \
            NewPortMappingDescription=PortMappingDescription NewLeaseDuration=PortMappingLeaseDuration
            """,
            """
            GetSpecificPortMappingEntry: NewRemoteHost=RemoteHost NewExternalPort=ExternalPort \
            NewProtocol=PortMappingProtocol -> NewInternalPort=InternalPort NewInternalClient=InternalClient \
            NewEnabled=PortMappingEnabled NewPortMappingDescription=PortMappingDescription \
            NewLeaseDuration=PortMappingLeaseDuration
            """,
            """
            AddPortMapping: NewRemoteHost=RemoteHost NewExternalPort=ExternalPort NewProtocol=PortMappingProtocol \
            NewInternalPort=InternalPort NewInternalClient=InternalClient NewEnabled=PortMappingEnabled \
            NewPortMappingDescription=PortMappingDescription NewLeaseDuration=PortMappingLeaseDuration
            """,
            "DeletePortMapping: NewRemoteHost=RemoteHost NewExternalPort=ExternalPort NewProtocol=PortMappingProtocol",
            "GetExternalIPAddress: -> NewExternalIPAddress=ExternalIPAddress",
        ],
        variables: [
            "ConnectionType string default=IP_Routed",
            "PossibleConnectionTypes string events values=Unconfigured|IP_Routed|IP_Bridged",
            """
            ConnectionStatus string events default=Connected \
            values=Unconfigured|Connecting|Connected|PendingDisconnect|Disconnecting|Disconnected
            """,
            "Uptime ui4",
            "LastConnectionError string default=ERROR_NONE values=ERROR_NONE",
            "RSIPAvailable boolean default=0",
            "NATEnabled boolean default=1",
            "ExternalIPAddress string events",
            "PortMappingNumberOfEntries ui2 events default=0",
            "PortMappingEnabled boolean default=1",
            "PortMappingLeaseDuration ui4 range=0...604800",
            "RemoteHost string",
            "ExternalPort ui2",
            "InternalPort ui2 range=1...65535",
            "PortMappingProtocol string values=TCP|UDP",
            "InternalClient string",
            "PortMappingDescription string",
        ]
    )

    /// WANCommonInterfaceConfig:1: the link's type, speed and state, and the traffic counters.
    public static let wanCommonInterfaceConfig1 = SSDPServiceDescription(
        actions: [
            """
            GetCommonLinkProperties: -> NewWANAccessType=WANAccessType \
            NewLayer1UpstreamMaxBitRate=Layer1UpstreamMaxBitRate \
            NewLayer1DownstreamMaxBitRate=Layer1DownstreamMaxBitRate NewPhysicalLinkStatus=PhysicalLinkStatus
            """,
            "GetTotalBytesSent: -> NewTotalBytesSent=TotalBytesSent",
            "GetTotalBytesReceived: -> NewTotalBytesReceived=TotalBytesReceived",
            "GetTotalPacketsSent: -> NewTotalPacketsSent=TotalPacketsSent",
            "GetTotalPacketsReceived: -> NewTotalPacketsReceived=TotalPacketsReceived",
        ],
        variables: [
            "WANAccessType string default=Cable values=DSL|POTS|Cable|Ethernet",
            "Layer1UpstreamMaxBitRate ui4 default=8000000",
            "Layer1DownstreamMaxBitRate ui4 default=50000000",
            "PhysicalLinkStatus string events default=Up values=Up|Down",
            "TotalBytesSent ui4 default=0",
            "TotalBytesReceived ui4 default=0",
            "TotalPacketsSent ui4 default=0",
            "TotalPacketsReceived ui4 default=0",
        ]
    )

    /// Layer3Forwarding:1: which connection service is the default route.
    public static let layer3Forwarding1 = SSDPServiceDescription(
        actions: [
            "SetDefaultConnectionService: NewDefaultConnectionService=DefaultConnectionService",
            "GetDefaultConnectionService: -> NewDefaultConnectionService=DefaultConnectionService",
        ],
        variables: ["DefaultConnectionService string events"]
    )
}
