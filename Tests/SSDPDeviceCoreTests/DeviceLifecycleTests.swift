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

    @Test func aRemovedDeviceSaysByebyeUnlessToldNotToAndTakesNothingAfter() throws {
        var device = DeviceLifecycle(bootID: 3)
        #expect(try device.apply(.remove(byebye: true), at: at(1)) == [.sayByebye, .fallSilent, .closeHTTP])
        #expect(device.state == .removed && device.generation == 1)
        for operation in [DeviceOperation.alive, .byebye, .update, .change(DeviceChange(maxAge: 60))] {
            #expect(throws: DeviceLifecycle.Refusal.self) { try device.apply(operation, at: at(2)) }
        }
        var silent = DeviceLifecycle(bootID: 3)
        #expect(try silent.apply(.remove(byebye: false), at: at(1)) == [.fallSilent, .closeHTTP])
        var gone = DeviceLifecycle(bootID: 3)
        _ = try gone.apply(.vanish, at: at(1))
        #expect(try gone.apply(.remove(byebye: true), at: at(2)) == [] && gone.state == .removed)
    }

    @Test func aChangeToTheDescriptionIsAnnouncedWithAnUpdateOnlyWhileUp() throws {
        var device = DeviceLifecycle(bootID: 5)
        #expect(try device.apply(.change(DeviceChange(maxAge: 60)), at: at(1)) == [])
        #expect(try device.apply(.change(DeviceChange(friendlyName: "Den")), at: at(1)) == [.sayUpdate(nextBootID: 6)])
        _ = try device.apply(.vanish, at: at(2))
        #expect(try device.apply(.change(DeviceChange(friendlyName: "Hall")), at: at(3)) == [])
        #expect(device.state == .gone && device.bootID == 6)
    }

    @Test func configIDMovesOnAndWrapsWithinItsRange() {
        #expect(DeviceChange.nextConfigID(after: 1) == 2)
        #expect(DeviceChange.nextConfigID(after: 16_777_215) == 0)
        #expect(DeviceChange(friendlyName: "Den").changesDescription)
        #expect(!DeviceChange(maxAge: 60, state: ["Volume": "3"]).changesDescription)
        #expect(DeviceChange(maxAge: 60, state: ["Volume": "3"]).fields == ["maxAge", "state"])
    }

    @Test func aResetBringsBackADeviceThatIsDownWhateverTheReason() throws {
        for down in [DeviceOperation.vanish, .remove(byebye: true), .reboot(downFor: .seconds(60))] {
            var device = DeviceLifecycle(bootID: 1)
            _ = try device.apply(down, at: at(0))
            #expect(device.reset() == [.openHTTP, .boot(bootID: 2)], "\(down.name)")
            #expect(device.state == .alive)
            #expect(device.timerFired(at: at(61)) == [], "a reboot's return is not done twice")
        }
        var up = DeviceLifecycle(bootID: 1)
        #expect(up.reset() == [] && up.bootID == 1)
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
