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

extension ServiceRegistry {
    /// Every service kind ssdp-sim's own stack gives a behaviour of its own, by kind, and the stacks that
    /// give every service theirs: the one place a family of ours is registered. A kind not here answers
    /// from its state variables.
    public static let builtIn = ServiceRegistry()
        .registering("WANIPConnection") { _ in InternetGatewayConnection() }
        .registering("WANPPPConnection") { _ in InternetGatewayConnection() }
        .registering("WANCommonInterfaceConfig") { _ in InternetGatewayInterfaceConfig() }
        .registering("Layer3Forwarding") { _ in MiniUPnPdService() }
        .registering("ContentDirectory") { _ in MediaServerContentDirectory() }
        .registering("ConnectionManager") { kinds in MediaServerConnectionManager.behaviour(on: kinds) }
        .registering("AVTransport") { _ in RendererTransport() }
        .registering("DeviceProperties") { _ in SonosHousehold(service: .deviceProperties) }
        .registering("ZoneGroupTopology") { _ in SonosHousehold(service: .zoneGroupTopology) }
        .registering(stack: .gmrender) { _ in GMRenderService() }
}
