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
import SSDPDeviceCore
import SSDPSearch
import SSDPSimulator
import SSDPTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Operations on running devices over real sockets on loopback: what a client meets when a device says
/// byebye, loses its power, comes back, reboots or announces an update.
@Suite struct DeviceOperationsTests {
    /// Options whose NOTIFY messages go to `listener`.
    private func options(_ listener: NotifyListener) -> LoopbackLAN.Options {
        var options = LoopbackLAN.Options()
        options.notifyDestination = listener.address
        return options
    }

    /// What a search of two requests finds: with one, seed 1 drew a Roku's answer 0.16 s before the session's
    /// end, where a busy machine reads it too late.
    private func found(_ lan: SimulatedLAN) async throws -> Set<String> {
        let session = try lan.searchSession(target: "upnp:rootdevice", requests: 2)
        return Set(try await session.search().map(\.uniqueServiceName))
    }

    /// The status of a GET of `url`, or `nil` when the connection ended without an answer.
    private func status(of url: String, method: String = "GET", headers: [String: String] = [:]) async -> Int? {
        guard let url = URL(string: url) else { return nil }
        var request = URLRequest(url: url, timeoutInterval: 5)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let response = try? await URLSession.shared.data(for: request).1
        return (response as? HTTPURLResponse)?.statusCode
    }

    @Test func aVanishedDeviceIsSilentEverywhereAndAliveBringsItBackWithTheNextBootID() async throws {
        let listener = try await NotifyListener.start()
        defer { listener.close() }
        try await LoopbackLAN.run([.roku(count: 2)], options: options(listener)) { lan in
            let (gone, other) = (lan.devices[0], lan.devices[1])
            let bootID = try #require(lan.statuses.first?.bootID)
            let vanished = try await lan.perform(.vanish, on: gone)
            #expect(vanished.state == .gone && vanished.bootID == bootID)
            #expect(try await found(lan) == ["\(other.udn)::upnp:rootdevice"])
            #expect(await status(of: gone.location) == nil)
            #expect(await status(of: other.location) == 200)
            #expect(!listener.received.contains { $0.nts == "ssdp:byebye" }, "a power cut says nothing")

            let back = try await lan.perform(.alive, on: gone)
            #expect(back.state == .alive && back.bootID == bootID + 1)
            #expect(await status(of: gone.location) == 200)
            #expect(try await found(lan) == Set(lan.devices.map { "\($0.udn)::upnp:rootdevice" }))
            try await listener.waitFor { received in
                received.contains { $0.nts == "ssdp:alive" && $0.usn == gone.udn && $0.bootID == "\(bootID + 1)" }
            }
            await #expect(throws: DeviceOperationError.self) { try await lan.perform(.alive, on: gone) }
        }
    }

    @Test func aByebyeCoversEveryAdvertisementAndShutdownSaysNoMore() async throws {
        let listener = try await NotifyListener.start()
        defer { listener.close() }
        var leaving: LANDevice?
        try await LoopbackLAN.run([.sonos(), .igd()], options: options(listener)) { lan in
            let device = lan.devices[1]
            leaving = device
            try await listener.waitFor { $0.contains { $0.usn == device.udn && $0.nts == "ssdp:alive" } }
            #expect(try await lan.perform(.byebye, on: device).state == .gone)
            let advertised = Set(device.advertisements.map { "\($0.target) \($0.usn)" })
            try await listener.waitFor { received in
                Set(received.filter { $0.nts == "ssdp:byebye" }.map { "\($0.nt) \($0.usn)" }) == advertised
            }
        }
        // At shutdown, the device that had left sends nothing more: one byebye per advertisement in all.
        let device = try #require(leaving)
        let advertised = Set(device.advertisements.map { "\($0.target) \($0.usn)" })
        let byebyes = listener.received.filter { $0.nts == "ssdp:byebye" && advertised.contains("\($0.nt) \($0.usn)") }
        #expect(byebyes.count == device.advertisements.count)
    }

    @Test func aRebootForgetsSubscriptionsAndTheDeviceComesBackByItself() async throws {
        let listener = try await NotifyListener.start()
        defer { listener.close() }
        try await LoopbackLAN.run([.igd()], options: options(listener)) { lan in
            let igd = lan.devices[0]
            let origin = String(igd.location.prefix { $0 != "/" }) + "//" + igd.location.split(separator: "/")[1]
            let subscribe = ["CALLBACK": "<http://127.0.0.1:9/cb>", "NT": "upnp:event", "TIMEOUT": "Second-300"]
            #expect(await status(of: origin + "/evt/IPConn", method: "SUBSCRIBE", headers: subscribe) == 200)
            let sid = try #require(
                lan.events.lazy.compactMap { event -> String? in
                    if case .subscription(let record) = event { record.sid } else { nil }
                }.first
            )
            let bootID = try #require(lan.statuses.first?.bootID)
            // A byebye revokes what was advertised: wait for the first alive set to have gone out.
            try await listener.waitFor { $0.contains { $0.nts == "ssdp:alive" && $0.usn == igd.udn } }
            let rebooting = try await lan.perform(.reboot(downFor: .seconds(1)), on: igd)
            guard case .rebooting = rebooting.state else {
                Issue.record("not rebooting: \(rebooting.state)")
                return
            }
            // (That its HTTP side is gone while it is down is the vanish test's: here the test could be
            // scheduled after the return.)
            try await listener.waitFor { received in
                received.contains { $0.nts == "ssdp:alive" && $0.usn == igd.udn && $0.bootID == "\(bootID + 1)" }
            }
            #expect(lan.statuses.first?.state == .alive)
            let renew = await status(of: origin + "/evt/IPConn", method: "SUBSCRIBE", headers: ["SID": sid])
            #expect(renew == 412)
            #expect(await status(of: origin + "/evt/IPConn", method: "SUBSCRIBE", headers: subscribe) == 200)
            #expect(listener.received.contains { $0.nts == "ssdp:byebye" && $0.usn == igd.udn })
        }
    }

    @Test func anUpdateAnnouncesTheNextBootIDAndKeepsSubscriptions() async throws {
        let listener = try await NotifyListener.start()
        defer { listener.close() }
        try await LoopbackLAN.run([.roku()], options: options(listener)) { lan in
            let roku = lan.devices[0]
            let bootID = try #require(lan.statuses.first?.bootID)
            #expect(try await lan.perform(.update, on: roku).bootID == bootID + 1)
            try await listener.waitFor { received in
                received.contains { $0.nts == "ssdp:update" && $0.usn == roku.udn && $0.nextBootID == "\(bootID + 1)" }
            }
            #expect(try await found(lan) == ["\(roku.udn)::upnp:rootdevice"])
        }
    }
}
