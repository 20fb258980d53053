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
import Testing

@Suite struct DeviceDescriptionTests {
    @Test func descriptionListsWhatTheDeviceAdvertises() throws {
        let device = try SimulatorFixtures.gateway
        let elements = try XMLElements.parse(device.descriptionXML(basePath: "/device/0"))
        let values = { (name: String) in elements.filter { $0.0 == name }.map(\.1) }
        #expect(Set(values("UDN")) == Set(device.device.allDevices.map(\.udn)))
        #expect(Set(values("deviceType")) == Set(device.device.allDevices.map(\.deviceType)))
        #expect(values("serviceType").count == 4)
        #expect(
            Set(values("serviceType")) == Set(device.advertisements.map(\.target).filter { $0.contains(":service:") })
        )
        #expect(values("SCPDURL") == (0..<4).map { "/device/0/service/\($0)/scpd.xml" })
        #expect(device.serviceCount == 4)
    }

    @Test func namesAreEscaped() throws {
        var device = try SimulatorFixtures.gateway
        device.device.friendlyName = "Tom & Jerry's <TV>"
        let elements = try XMLElements.parse(device.descriptionXML(basePath: "/d"))
        #expect(elements.first { $0.0 == "friendlyName" }?.1 == "Tom & Jerry's <TV>")
    }
}
