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

@testable import SSDPDeviceCore

/// What each operation does to a running device, as the control API, scenarios and SSDPTesting ask for it.
struct DeviceLifecycleTests {
    private let at = { (seconds: Int) in SSDPInstant(offset: .seconds(seconds)) }

    @Test func byebyeSaysSoThenFallsSilentAndAliveBringsItBackWithTheNextBootID() throws {
        var device = DeviceLifecycle(bootID: 7)
        #expect(try device.apply(.byebye, at: at(1)) == [.sayByebye, .fallSilent, .closeHTTP])
        #expect(device.state == .gone && device.generation == 1 && device.bootID == 7)
        // HTTP is back before anything announces the device: a control point fetches LOCATION at once.
        #expect(try device.apply(.alive, at: at(2)) == [.openHTTP, .boot(bootID: 8)])
        #expect(device.state == .alive && device.bootID == 8)
    }

    @Test func aVanishedDeviceSaysNothing() throws {
        var device = DeviceLifecycle(bootID: 1)
        #expect(try device.apply(.vanish, at: at(1)) == [.fallSilent, .closeHTTP])
        // Going down again while down sends nothing and keeps it down.
        #expect(try device.apply(.byebye, at: at(2)) == [])
        #expect(device.state == .gone && device.generation == 1)
    }

    @Test func aRebootForgetsSubscriptionsAndComesBackAtItsTimeNotBefore() throws {
        var device = DeviceLifecycle(bootID: 1)
        #expect(
            try device.apply(.reboot(downFor: .seconds(5)), at: at(10))
                == [.sayByebye, .fallSilent, .closeHTTP, .forgetSubscriptions]
        )
        #expect(device.state == .rebooting(until: at(15)) && device.nextDeadline == at(15))
        #expect(device.timerFired(at: at(14)) == [])
        #expect(device.timerFired(at: at(15)) == [.openHTTP, .boot(bootID: 2)])
        #expect(device.state == .alive && device.nextDeadline == nil)
        #expect(device.timerFired(at: at(20)) == [])
    }

    @Test func aByebyeWhileRebootingKeepsTheDeviceDown() throws {
        var device = DeviceLifecycle(bootID: 1)
        _ = try device.apply(.reboot(downFor: .seconds(5)), at: at(0))
        #expect(try device.apply(.byebye, at: at(1)) == [])
        #expect(device.timerFired(at: at(6)) == [] && device.state == .gone)
    }

    @Test func anUpdateMovesTheBootIDAndWrapsAt31Bits() throws {
        var device = DeviceLifecycle(bootID: 0x7FFF_FFFE)
        #expect(try device.apply(.update, at: at(0)) == [.sayUpdate(nextBootID: 0x7FFF_FFFF)])
        #expect(try device.apply(.update, at: at(0)) == [.sayUpdate(nextBootID: 0)])
        #expect(device.state == .alive && device.generation == 0)
    }

    @Test(arguments: [
        (
            DeviceOperation.alive, DeviceLifecycle(bootID: 1),
            "it is up already (alive brings back a device that is gone)"
        ),
        (
            .update,
            {
                var gone = DeviceLifecycle(bootID: 1)
                _ = try? gone.apply(.vanish, at: .zero)
                return gone
            }(),
            "it is gone (update needs a device that is up; alive brings it back)"
        ),
        (
            .reboot(downFor: .seconds(1)),
            {
                var gone = DeviceLifecycle(bootID: 1)
                _ = try? gone.apply(.vanish, at: .zero)
                return gone
            }(),
            "it is gone (reboot needs a device that is up; alive brings it back)"
        ),
    ])
    func operationsTheStateDoesNotAllowAreRefused(operation: DeviceOperation, device: DeviceLifecycle, reason: String) {
        var device = device
        let before = device
        #expect(throws: DeviceLifecycle.Refusal.self) { try device.apply(operation, at: .zero) }
        do {
            _ = try device.apply(operation, at: .zero)
        } catch {
            #expect(error.description == reason)
        }
        #expect(device == before)
    }
}
