// SPDX-License-Identifier: Apache-2.0 (see LICENSE at the root of ssdp-sim)

import Foundation
import RokuRemote
import SSDPSearch
import SSDPTesting
import Testing

/// The remote against fake Rokus on loopback: real sockets, real HTTP, no root and no multicast.
@Suite struct RokuRemoteTests {
    @Test func findsEveryRokuByNameAndIgnoresTheOtherDevices() async throws {
        try await LoopbackLAN.run([.roku(count: 2), .hue(), .sonos()]) { lan in
            let remote = try RokuRemote(configuration: try lan.searchConfiguration(target: "roku:ecp"))
            let rokus = try await remote.discover()
            let expected = lan.devices.filter { $0.deviceType == "urn:roku-com:device:player:1-0" }
            #expect(Set(rokus.map(\.name)) == Set(expected.map(\.friendlyName)))
            #expect(Set(rokus.map(\.serialNumber)).count == 2)
            // One device-info request per Roku: the remote asks each once.
            #expect(lan.httpRequests.filter { $0.url.hasSuffix("/query/device-info") }.count == 2)
        }
    }

    @Test func pressingHomeReachesThatRoku() async throws {
        try await LoopbackLAN.run([.roku(count: 2)]) { lan in
            let remote = try RokuRemote(configuration: try lan.searchConfiguration(target: "roku:ecp"))
            let roku = try #require(try await remote.discover().first)
            try await remote.press("Home", on: roku)
            let pressed = lan.deviceActions.filter { $0.name == "keypress" }
            #expect(pressed.map(\.value) == ["Home"])
            #expect(pressed.first?.udn == lan.devices.first { roku.base.absoluteString == $0.location }?.udn)
        }
    }
}

/// The remote's search in virtual time: nine seconds of searching in milliseconds, the same every run.
@Suite struct RokuRemoteVirtualTimeTests {
    @Test func retriesFindRokusThatLoseAnswers() async throws {
        try await VirtualLAN.run([.roku(count: 3, behaviour: .lossy(0.5))], seed: 2) { lan in
            let remote = try RokuRemote { configuration in
                SSDPSearchSession(configuration: configuration, transport: lan.transport)
            }
            let found = try await remote.locate()
            // Half of all answers are lost, yet three searches reach every Roku with this seed; a remote
            // that searched once would miss some (see the next test).
            #expect(found.count == 3)
            #expect(lan.elapsed >= .milliseconds(9_100))
        }
    }

    @Test func oneSearchIsNotEnoughOnALossyNetwork() async throws {
        try await VirtualLAN.run([.roku(count: 3, behaviour: .lossy(0.5))], seed: 2) { lan in
            let once = try SSDPSearchSessionConfiguration.createMulticastConfiguration(
                forSearchTarget: "roku:ecp",
                maximumSearchRequestsBeforeClosing: 1
            )
            let remote = try RokuRemote(configuration: once) { configuration in
                SSDPSearchSession(configuration: configuration, transport: lan.transport)
            }
            // With this seed one search finds 1 of the 3.
            #expect(try await remote.locate().count < 3)
        }
    }
}
