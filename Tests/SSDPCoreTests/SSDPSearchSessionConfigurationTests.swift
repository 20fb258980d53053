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
import Testing

@Suite struct SSDPSearchSessionConfigurationTests {
    typealias Configuration = SSDPSearchSessionConfiguration

    // MARK: - Factories

    @Test func multicastConfigurationHasTheSeedsDefaults() throws {
        let configuration = try Configuration.createMulticastConfiguration(forSearchTarget: "roku:ecp")
        #expect(configuration.searchTarget == "roku:ecp")
        #expect(configuration.host == "239.255.255.250")
        #expect(configuration.port == 1_900)
        #expect(configuration.maximumWaitResponseTime == 3)
        #expect(configuration.maximumSearchRequestsBeforeClosing == 3)
        #expect(configuration.isMulticast)
        #expect(configuration.searchTimeout == .milliseconds(9_100))
    }

    @Test func multicastConfigurationTakesMXAndRequestCount() throws {
        let configuration = try Configuration.createMulticastConfiguration(
            forSearchTarget: "ssdp:all",
            maximumWaitResponseTime: 1,
            maximumSearchRequestsBeforeClosing: 5
        )
        #expect(configuration.maximumWaitResponseTime == 1)
        #expect(configuration.maximumSearchRequestsBeforeClosing == 5)
    }

    @Test func unicastConfigurationSearchesOneDevice() throws {
        let configuration = try Configuration.createUnicastConfiguration(
            forSearchTarget: "roku:ecp",
            host: "192.168.1.20"
        )
        #expect(configuration.host == "192.168.1.20")
        #expect(configuration.port == 1_900)
        #expect(configuration.maximumWaitResponseTime == 3)
        #expect(configuration.maximumSearchRequestsBeforeClosing == 3)
        #expect(!configuration.isMulticast)
        #expect(
            configuration.searchMessage.serialized()
                == seedSearchDatagram(searchTarget: "roku:ecp", maximumWaitResponseTime: 3, host: "192.168.1.20:1900")
        )
    }

    @Test func unicastConfigurationTakesAPort() throws {
        let configuration = try Configuration.createUnicastConfiguration(
            forSearchTarget: "roku:ecp",
            host: "192.168.1.20",
            port: 8_060
        )
        #expect(configuration.port == 8_060)
        #expect(configuration.searchMessage.headers["HOST"] == "192.168.1.20:8060")
    }

    @Test func ipv6HostIsBracketedInTheHostHeader() throws {
        let configuration = try Configuration.createUnicastConfiguration(forSearchTarget: "ssdp:all", host: "fe80::1")
        #expect(configuration.searchMessage.headers["HOST"] == "[fe80::1]:1900")
    }

    @Test(arguments: [("roku:ecp", 3), ("ssdp:all", 1), ("urn:dial-multiscreen-org:service:dial:1", 5)])
    func searchMessageIsTheSeedsByteForByte(searchTarget: String, mx: Int) throws {
        let configuration = try Configuration.createMulticastConfiguration(
            forSearchTarget: searchTarget,
            maximumWaitResponseTime: mx
        )
        #expect(
            configuration.searchMessage.serialized()
                == seedSearchDatagram(searchTarget: searchTarget, maximumWaitResponseTime: mx)
        )
    }

    // MARK: - Validation

    @Test(arguments: 1...5)
    func acceptsEveryMXFromOneToFive(mx: Int) throws {
        let configuration = try Configuration.createMulticastConfiguration(
            forSearchTarget: "ssdp:all",
            maximumWaitResponseTime: mx
        )
        #expect(configuration.maximumWaitResponseTime == mx)
    }

    @Test(arguments: [0, 6, 9, -1])
    func rejectsMXOutsideOneToFive(mx: Int) {
        let error = #expect(throws: SSDPConfigurationError.self) {
            try Configuration(
                searchTarget: "ssdp:all",
                host: "239.255.255.250",
                port: 1_900,
                maximumWaitResponseTime: mx,
                maximumSearchRequestsBeforeClosing: 3
            )
        }
        #expect(error?.field == "maximumWaitResponseTime")
        #expect(error?.value == "\(mx)")
        #expect(error?.description.contains("maximumWaitResponseTime") == true)
        let viaFactory = #expect(throws: SSDPConfigurationError.self) {
            try Configuration.createMulticastConfiguration(forSearchTarget: "ssdp:all", maximumWaitResponseTime: mx)
        }
        #expect(viaFactory == error)
    }

    @Test(arguments: [-1, -3, Int.min])
    func rejectsANegativeRequestCount(requests: Int) {
        let error = #expect(throws: SSDPConfigurationError.self) {
            try Configuration.createMulticastConfiguration(
                forSearchTarget: "ssdp:all",
                maximumSearchRequestsBeforeClosing: requests
            )
        }
        #expect(error?.field == "maximumSearchRequestsBeforeClosing")
        #expect(error?.value == "\(requests)")
    }

    @Test func acceptsZeroRequests() throws {
        let configuration = try Configuration.createMulticastConfiguration(
            forSearchTarget: "ssdp:all",
            maximumSearchRequestsBeforeClosing: 0
        )
        #expect(configuration.maximumSearchRequestsBeforeClosing == 0)
    }

    @Test(arguments: [0, 65_536, -1])
    func rejectsAPortOutsideOneTo65535(port: Int) {
        let error = #expect(throws: SSDPConfigurationError.self) {
            try Configuration.createUnicastConfiguration(forSearchTarget: "ssdp:all", host: "192.168.1.20", port: port)
        }
        #expect(error?.field == "port")
        #expect(error?.value == "\(port)")
    }

    @Test(arguments: [1, 65_535])
    func acceptsPortsAtTheEnds(port: Int) throws {
        let configuration = try Configuration.createUnicastConfiguration(
            forSearchTarget: "ssdp:all",
            host: "192.168.1.20",
            port: port
        )
        #expect(configuration.port == port)
    }

    @Test(arguments: ["", "ssdp:all\r\nMX: 1", "roku:ecp\n"])
    func rejectsASearchTargetThatIsNotOneNonEmptyLine(searchTarget: String) {
        let error = #expect(throws: SSDPConfigurationError.self) {
            try Configuration.createMulticastConfiguration(forSearchTarget: searchTarget)
        }
        #expect(error?.field == "searchTarget")
    }

    @Test func rejectsAnEmptyHost() {
        let error = #expect(throws: SSDPConfigurationError.self) {
            try Configuration.createUnicastConfiguration(forSearchTarget: "ssdp:all", host: "")
        }
        #expect(error?.field == "host")
    }

    // MARK: - Timing

    @Test(arguments: [(1, 1, 1_100), (3, 3, 9_100), (0, 3, 100), (5, 5, 25_100), (4, 2, 8_100)])
    func searchTimeoutIsNTimesMXPlusATenthOfASecond(requests: Int, mx: Int, milliseconds: Int) throws {
        let configuration = try Configuration.createMulticastConfiguration(
            forSearchTarget: "ssdp:all",
            maximumWaitResponseTime: mx,
            maximumSearchRequestsBeforeClosing: requests
        )
        #expect(configuration.searchTimeout == .milliseconds(milliseconds))
    }

    @Test func lastSearchLeavesAFullMXBeforeTheTimeout() throws {
        let configuration = try Configuration.createMulticastConfiguration(forSearchTarget: "ssdp:all")
        #expect(configuration.searchRequestOffset(0) == .zero)
        #expect(configuration.searchRequestOffset(2) == .milliseconds(6_100))
        #expect(configuration.searchTimeout - configuration.searchRequestOffset(2) == .seconds(3))
    }
}
