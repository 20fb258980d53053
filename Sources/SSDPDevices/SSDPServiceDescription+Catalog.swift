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

extension SSDPServiceDescription {
    /// The description a device without one of its own serves for `serviceType`, or `nil` for a type the
    /// catalog does not know (a user's own, in a device file).
    ///
    /// A UPnP standard type gets the description of the implementation the profiles copy: miniupnpd's for
    /// the IGD:1 services, MiniDLNA's for ContentDirectory:1, ConnectionManager:1 and the Microsoft
    /// registrar, the AV templates' for RenderingControl:1 and AVTransport:1. A type only Sonos uses gets
    /// Sonos's; Roku's ECP and DIAL get `withoutActions`.
    public static func standard(for serviceType: String) -> SSDPServiceDescription? {
        standards[serviceType]
    }

    /// Every service type `standard(for:)` knows, sorted.
    public static var standardServiceTypes: [String] {
        standards.keys.sorted()
    }

    /// A description without actions: what a Roku serves at `ecp_SCPD.xml`, its ECP being REST on port 8060,
    /// and, as the same document, at `dial_SCPD.xml`, DIAL being REST at the Application-URL (DIAL 2.2 §5).
    /// No `<actionList>`, one variable: the copy the brs-desktop Roku emulator serves at both paths
    /// (lvcabral/brs-desktop@699f6e1 src/app/web/ecp_SCPD.xml, routes in src/server/ecp.js; first added in
    /// 6f7b4c5 as app/ecp_SCPD.xml). No capture from a Roku itself was found. A service type of the user's
    /// own is served this too.
    public static let withoutActions = SSDPServiceDescription(
        actions: [],
        stateVariables: [StateVariable(name: "A_ARG_TYPE_DeviceID", dataType: "string")]
    )

    /// The standard types' descriptions, then the types only Sonos uses, taken from its own table (the
    /// standard ones it shares keep the standard description).
    private static let standards: [String: SSDPServiceDescription] = standardTypes.merging(sonosZonePlayer) {
        standard,
        _ in standard
    }

    private static let standardTypes: [String: SSDPServiceDescription] = [
        "urn:schemas-upnp-org:service:WANIPConnection:1": wanIPConnection1,
        "urn:schemas-upnp-org:service:WANCommonInterfaceConfig:1": wanCommonInterfaceConfig1,
        "urn:schemas-upnp-org:service:Layer3Forwarding:1": layer3Forwarding1,
        "urn:schemas-upnp-org:service:ContentDirectory:1": contentDirectory1,
        "urn:schemas-upnp-org:service:ConnectionManager:1": connectionManager1,
        "urn:microsoft.com:service:X_MS_MediaReceiverRegistrar:1": mediaReceiverRegistrar1,
        "urn:schemas-upnp-org:service:RenderingControl:1": renderingControl1,
        "urn:schemas-upnp-org:service:AVTransport:1": avTransport1,
        "urn:roku-com:service:ecp:1": withoutActions,
        // A Chromecast names `/ssdp/notfound` as this service's SCPDURL and most likely answers it 404 (not
        // confirmed); the DIAL reference server (Netflix/dial-reference server/quick_ssdp.c) lists no service
        // and answers 404 to every path but /dd.xml. A Roku serves the document above.
        "urn:dial-multiscreen-org:service:dial:1": withoutActions,
    ]
}
