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

import SSDPCore
import SSDPDeviceCore

/// Devices the simulator tests share.
enum DeviceFixtures {
    /// An InternetGatewayDevice:2 like async_upnp_client's IGD fixture: the root with Layer3Forwarding,
    /// WANDevice with WANCommonInterfaceConfig, and WANConnectionDevice with WANIPConnection:2 — d = 2 embedded
    /// devices, k = 3 service types, so 3 + 2·2 + 3 = 10 advertisements.
    static let gateway = SSDPRootDevice(
        device: SSDPDevice(
            udn: "uuid:00000000-0000-4000-8000-000000000001",
            deviceType: "urn:schemas-upnp-org:device:InternetGatewayDevice:2",
            services: [SSDPDeviceService(serviceType: "urn:schemas-upnp-org:service:Layer3Forwarding:1")],
            embeddedDevices: [
                SSDPDevice(
                    udn: "uuid:00000000-0000-4000-8000-000000000002",
                    deviceType: "urn:schemas-upnp-org:device:WANDevice:2",
                    services: [
                        SSDPDeviceService(serviceType: "urn:schemas-upnp-org:service:WANCommonInterfaceConfig:1")
                    ],
                    embeddedDevices: [
                        SSDPDevice(
                            udn: "uuid:00000000-0000-4000-8000-000000000003",
                            deviceType: "urn:schemas-upnp-org:device:WANConnectionDevice:2",
                            services: [
                                SSDPDeviceService(serviceType: "urn:schemas-upnp-org:service:WANIPConnection:2"),
                                // A second instance of the same type is still one advertisement.
                                SSDPDeviceService(
                                    serviceType: "urn:schemas-upnp-org:service:WANIPConnection:2",
                                    serviceID: "urn:upnp-org:serviceId:WANIPConn2"
                                ),
                            ]
                        )
                    ]
                )
            ]
        ),
        location: "http://192.168.1.1:5000/rootDesc.xml",
        server: "Linux/5.10 UPnP/1.1 MiniUPnPd/2.3.3",
        maxAge: 120,
        bootID: 7,
        configID: 1337,
        extraTargets: ["urn:dial-multiscreen-org:service:dial:1"]
    )

    static let root = "uuid:00000000-0000-4000-8000-000000000001"
    static let wan = "uuid:00000000-0000-4000-8000-000000000002"
    static let connection = "uuid:00000000-0000-4000-8000-000000000003"

    /// A multicast search for `target` with MX `mx`.
    static func search(_ target: String, mx: Int = 3) -> SSDPSearchRequest {
        SSDPSearchRequest(target: SSDPSearchTarget(target), responseWindow: .seconds(mx), isMulticast: true)
    }
}

extension DeviceControl {
    /// Calls `action` on service `service` with `arguments` (names and values, in order) from `client`,
    /// `seconds` into the device's life: a control point's call as the control tests make it, without
    /// writing its envelope.
    mutating func call(
        _ action: String,
        _ arguments: [(String, String)] = [],
        service: Int = 0,
        client: String = "192.168.1.50",
        at seconds: Int = 10
    ) -> ActionResult {
        let call = SOAPActionCall(
            serviceType: services[service].serviceType,
            actionName: action,
            arguments: arguments.map { SOAPArgument($0.0, $0.1) }
        )
        return self.call(call, service: service, client: client, at: SSDPInstant(offset: .seconds(seconds)))
    }
}
