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

import Foundation
import SSDPCore
import Testing

@testable import SSDPDevices
@testable import SSDPSimulator

@Suite struct DeviceAddressingTests {
    @Test func aRangeGivesEachAddressInOrderUpToTheLimit() throws {
        #expect(
            try DeviceAddressing.parse("10.77.0.2-10.77.0.4", limit: 10) == ["10.77.0.2", "10.77.0.3", "10.77.0.4"]
        )
        #expect(try DeviceAddressing.parse("10.77.0.254-10.77.1.1", limit: 2) == ["10.77.0.254", "10.77.0.255"])
    }

    @Test func aCIDRBlockGivesItsUsableHosts() throws {
        #expect(try DeviceAddressing.parse("10.77.0.0/29", limit: 100) == (1...6).map { "10.77.0.\($0)" })
        #expect(try DeviceAddressing.parse("10.77.0.9/31", limit: 100) == ["10.77.0.8", "10.77.0.9"])
        #expect(try DeviceAddressing.parse("127.0.0.0/8", limit: 3) == ["127.0.0.1", "127.0.0.2", "127.0.0.3"])
    }

    @Test func oneAddressIsARangeOfOne() throws {
        #expect(try DeviceAddressing.parse("10.77.0.5", limit: 3) == ["10.77.0.5"])
    }

    @Test(arguments: [
        "10.0.0.1-", "10.0.0/24", "10.0.0.256", "10.0.0.0/33", "1.2.3.256-1.2.3.257", "a-b", "10.0.0.01-10.0.0.2",
    ])
    func badRangesAreErrorsNamingTheField(text: String) {
        #expect(throws: SSDPConfigurationError.self) { try DeviceAddressing.parse(text, limit: 5) }
        do {
            _ = try DeviceAddressing.parse(text, limit: 5)
        } catch {
            #expect(error.field == "addresses" && error.value == text)
        }
    }

    @Test func loopbackAddressesCountOnFrom127002() {
        #expect((0..<3).map { DeviceAddressing.loopbackAddress(index: $0) } == ["127.0.0.2", "127.0.0.3", "127.0.0.4"])
        #expect(DeviceAddressing.loopbackAddress(index: 9_999) == "127.0.39.17")
        #expect(DeviceAddressing.isLoopback("127.9.9.9") && !DeviceAddressing.isLoopback("10.0.0.1"))
    }

    @Test func aDeviceFileGivesConsecutiveAddressesFromItsAddress() throws {
        let file = try DeviceFile.decode(
            Data(#"{"devices": [{"profile": "roku", "count": 2, "address": "10.77.0.20"}, {"profile": "hue"}]}"#.utf8),
            file: "devices.json",
            seed: 1
        )
        #expect(file.devices.map(\.address) == ["10.77.0.20", "10.77.0.21", nil])
        #expect(throws: SimulatorInputError.self) {
            try DeviceFile.decode(Data(#"{"devices": [{"address": "10.77.0"}]}"#.utf8), file: "devices.json", seed: 1)
        }
    }
}
