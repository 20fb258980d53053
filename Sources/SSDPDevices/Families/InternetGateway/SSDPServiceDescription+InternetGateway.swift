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

// The services of an Internet Gateway Device:1 as miniupnpd serves them, copied from its description
// generator (miniupnp/miniupnp@b91c025 miniupnpd/upnpdescgen.c: WANIPCnActions and WANIPCnVars, WANCfgActions
// and WANCfgVars, L3FActions and L3FVars, the tables upnptypes, upnpdefaultvalues, upnpallowedvalues and
// upnpallowedranges, and genServiceDesc's argument naming) as a build without IGD_V2 writes them, with
// ENABLE_EVENTS and ENABLE_L3F_SERVICE on; `miniupnpdInternetGateway1` is what OpenWrt's IGD v2 build serves
// in v1 mode. Tables keep its order. An argument is named `New` + its variable,
// `PortMapping` dropped except before `Description`, and PortMappingNumberOfEntries becomes
// `NewPortMappingIndex` (after-discovery.md §3).

extension SSDPServiceDescription {
    /// WANIPConnection:1 (`/WANIPCn.xml`): port mappings, the external address and the connection's status;
    /// the eleven actions the IGD:1 template requires, and no optional one.
    public static let wanIPConnection1 = SSDPServiceDescription(
        actions: [
            "SetConnectionType: NewConnectionType=ConnectionType",
            """
            GetConnectionTypeInfo: -> NewConnectionType=ConnectionType \
            NewPossibleConnectionTypes=PossibleConnectionTypes
            """,
            "RequestConnection",
            "ForceTermination",
            """
            GetStatusInfo: -> NewConnectionStatus=ConnectionStatus NewLastConnectionError=LastConnectionError \
            NewUptime=Uptime
            """,
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
            ConnectionStatus string events default=Unconfigured \
            values=Unconfigured|Connecting|Connected|PendingDisconnect|Disconnecting|Disconnected
            """,
            "Uptime ui4",
            "LastConnectionError string default=ERROR_NONE values=ERROR_NONE",
            "RSIPAvailable boolean default=0",
            "NATEnabled boolean default=1",
            "ExternalIPAddress string events",
            "PortMappingNumberOfEntries ui2 events",
            "PortMappingEnabled boolean",
            "PortMappingLeaseDuration ui4 default=3600 range=0...604800",
            "RemoteHost string",
            "ExternalPort ui2",
            "InternalPort ui2 range=1...65535",
            "PortMappingProtocol string values=TCP|UDP",
            "InternalClient string",
            "PortMappingDescription string",
        ]
    )

    /// WANCommonInterfaceConfig:1 (`/WANCfg.xml`): the link's type, speed and state, and the four traffic
    /// counters the template makes optional and miniupnpd serves.
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
            "WANAccessType string values=DSL|POTS|Cable|Ethernet",
            "Layer1UpstreamMaxBitRate ui4",
            "Layer1DownstreamMaxBitRate ui4",
            "PhysicalLinkStatus string events values=Up|Down|Initializing|Unavailable",
            "TotalBytesSent ui4",
            "TotalBytesReceived ui4",
            "TotalPacketsSent ui4",
            "TotalPacketsReceived ui4",
        ]
    )

    /// Layer3Forwarding:1 (`/L3F.xml`): which connection service is the default route.
    public static let layer3Forwarding1 = SSDPServiceDescription(
        actions: [
            "SetDefaultConnectionService: NewDefaultConnectionService=DefaultConnectionService",
            "GetDefaultConnectionService: -> NewDefaultConnectionService=DefaultConnectionService",
        ],
        variables: ["DefaultConnectionService string events"]
    )

    /// The services of miniupnpd's IGD:1, by service type, for the `igd` profile.
    public static let miniupnpdInternetGateway1: [String: SSDPServiceDescription] = [
        "urn:schemas-upnp-org:service:WANIPConnection:1": wanIPConnection1.asBuiltForIGD2(
            adding: ["SystemUpdateID ui4 events", "A_ARG_TYPE_Manage boolean", "A_ARG_TYPE_PortListing string"]
        ),
        "urn:schemas-upnp-org:service:WANCommonInterfaceConfig:1": wanCommonInterfaceConfig1.asBuiltForIGD2(),
        "urn:schemas-upnp-org:service:Layer3Forwarding:1": layer3Forwarding1.asBuiltForIGD2(),
    ]

    /// The description as miniupnpd built for IGD v2 writes it when told to describe itself as v1
    /// (`force_igd_desc_v1`, OpenWrt's default): `specVersion` 1.1, and the v2 state variables `variables`
    /// left in the table (upnpdescgen.c drops the v2 actions, not their variables).
    private func asBuiltForIGD2(adding variables: [String] = []) -> SSDPServiceDescription {
        var description = self
        description.specVersionMinor = 1
        description.stateVariables += SSDPServiceDescription(actions: [], variables: variables).stateVariables
        return description
    }
}
