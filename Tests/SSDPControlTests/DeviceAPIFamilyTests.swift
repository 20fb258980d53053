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

@testable import SSDPControl
@testable import SSDPDevices
@testable import SSDPSimulator

/// A device family's REST API is one type behind `DeviceAPI`, whatever the family: a family of this test's
/// own, a toaster, added to a Roku through `DeviceWeb.otherAPIs` without touching the simulator, is served
/// beside the Roku's ECP, its live state set through the control API, its actions journaled, its
/// endpoints listed, and a reset makes it anew.
@Suite(.tags(.live)) struct DeviceAPIFamilyTests {
    @Test func aFamilyOfTheTestsOwnIsServedControlledAndReset() async throws {
        var roku = SimulatorProfile.roku.device(number: 1, seed: 21)
        roku.web.otherAPIs = [AnyDeviceAPIConfiguration(ToasterConfiguration(slots: 4))]
        #expect(roku.httpEndpoints().contains { $0.path == "/toaster/lever" && $0.methods == "POST" })
        #expect(roku.httpEndpoints().contains { $0.path == "/query/device-info" })
        try await ControlHarness.run([roku]) { harness in
            let location = try #require(try await harness.request("/devices/1").json()["location"] as? String)
            func toaster() async throws -> String { try await PlainHTTP.request(url: location + "toaster").body }
            #expect(try await toaster() == "lever up, 4 slots")

            // One PATCH sets the state of both APIs, each name to the API that has it.
            let change = #"{"state": {"lever": "down", "powerMode": "DisplayOff"}}"#
            let changed = try await harness.request("PATCH", "/devices/1", body: Array(change.utf8))
            #expect(changed.status == 200, "\(changed.body)")
            #expect(try await toaster() == "lever down, 4 slots")
            let info = try await PlainHTTP.request(url: location + "query/device-info").body
            #expect(info.contains("<power-mode>DisplayOff</power-mode>"))

            // A value refused is refused by name, and nothing of the PATCH is applied: not the toaster's
            // value before the Roku's refused one, nor before a state variable the device does not have.
            for (bad, path) in [
                (#"{"state": {"lever": "up", "powerMode": "Asleep"}}"#, "$.state.powerMode"),
                (#"{"state": {"lever": "up", "NoSuchVariable": "1"}}"#, "$.state.NoSuchVariable"),
                (#"{"state": {"lever": "sideways", "powerMode": "PowerOn"}}"#, "$.state.lever"),
            ] {
                let refused = try await harness.request("PATCH", "/devices/1", body: Array(bad.utf8))
                #expect(refused.status == 400, "\(refused.body)")
                #expect(try refused.json()["path"] as? String == path)
                #expect(try await toaster() == "lever down, 4 slots")
                #expect(try await PlainHTTP.request(url: location + "query/device-info").body.contains("DisplayOff"))
            }

            // What a client made it do is an action in the journal, as a key press on the Roku is.
            #expect(try await PlainHTTP.request("POST", url: location + "toaster/lever", body: []).status == 200)
            let toasted = try await harness.request("/journal?kind=action&action=toast").json()
            let entries = try #require(toasted["entries"] as? [[String: Any]])
            #expect(entries.count == 1)
            #expect((entries.first?["fields"] as? [String: Any])?["value"] as? String == "4 slots")

            // A path neither API has is the device's 404; a reset makes the toaster anew.
            #expect(try await PlainHTTP.request(url: location + "toaster/crumbs").status == 404)
            #expect(try await harness.request("POST", "/reset").status == 200)
            #expect(try await toaster() == "lever up, 4 slots")
        }
    }
}

/// A toaster's REST API: `GET /toaster` tells its lever and slots, `POST /toaster/lever` toasts (an
/// action); its lever is live state the control API sets.
private struct ToasterConfiguration: DeviceAPIConfiguration {
    var slots: Int

    func makeAPI(for device: SSDPDevice, seed: UInt64, at time: DeviceAPITime) -> any DeviceAPI {
        ToasterAPI(udn: device.udn, slots: slots)
    }

    var endpoints: [DeviceHTTPEndpoint] {
        [
            DeviceHTTPEndpoint(methods: "GET", path: "/toaster", summary: "the lever and the slots"),
            DeviceHTTPEndpoint(methods: "POST", path: "/toaster/lever", summary: "toast (recorded)"),
        ]
    }
}

private struct ToasterAPI: DeviceAPI {
    let udn: String
    let slots: Int
    var lever = "up"

    var liveState: Set<String> { ["lever"] }

    func check(_ name: String, _ value: String) -> String? {
        ["up", "down"].contains(value) ? nil : "must be up or down"
    }

    mutating func set(_ name: String, to value: String, at time: DeviceAPITime) {
        lever = value
    }

    mutating func respond(to request: DeviceHTTPRequest, at time: DeviceAPITime) -> DeviceAPIAnswer? {
        switch (request.method, request.path) {
        case ("GET", "/toaster"):
            let text = SSDPHeaderField(name: "Content-Type", value: "text/plain")
            return DeviceAPIAnswer(status: 200, headers: [text], content: .text("lever \(lever), \(slots) slots"))
        case ("POST", "/toaster/lever"):
            lever = "down"
            return DeviceAPIAnswer(
                status: 200,
                actions: [DeviceAction(udn: udn, name: "toast", value: "\(slots) slots")]
            )
        default:
            return nil
        }
    }
}
