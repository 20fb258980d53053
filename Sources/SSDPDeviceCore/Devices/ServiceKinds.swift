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

/// Every service kind with a behaviour of its own, by kind (the service type's name, `WANIPConnection`): the
/// one place a new kind is registered. A kind not here answers from its state variables.
enum ServiceKinds {
    /// The behaviour of a service of `kind` on a device whose services are of `kinds`, written by `stack`.
    static func behaviour(for kind: String, on kinds: Set<String>, stack: ControlStack) -> any ServiceBehaviour {
        switch stack {
        case .uda: registered[kind]?(kinds) ?? StateVariableService()
        case .gmrender: GMRenderService()
        }
    }

    /// The kinds ssdp-sim's own stack gives a behaviour, each made from the kinds of its device's services.
    private static let registered: [String: @Sendable (Set<String>) -> any ServiceBehaviour] = [
        "WANIPConnection": { _ in InternetGatewayConnection() },
        "WANPPPConnection": { _ in InternetGatewayConnection() },
        "WANCommonInterfaceConfig": { _ in InternetGatewayInterfaceConfig() },
        "Layer3Forwarding": { _ in MiniUPnPdService() },
        "ContentDirectory": { _ in MediaServerContentDirectory() },
        "ConnectionManager": { kinds in MediaServerConnectionManager.behaviour(on: kinds) },
        "AVTransport": { _ in RendererTransport() },
        "DeviceProperties": { _ in SonosHousehold(service: .deviceProperties) },
        "ZoneGroupTopology": { _ in SonosHousehold(service: .zoneGroupTopology) },
    ]
}
