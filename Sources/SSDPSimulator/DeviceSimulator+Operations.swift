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

import NIOConcurrencyHelpers
import NIOCore
import SSDPCore
import SSDPDeviceCore

/// One device of a running simulator as it is now, for the control API, `serve` and tests.
public struct DeviceStatus: Hashable, Sendable {
    /// The device's number, from 1, in the order of the configuration (as `serve` lists them).
    public var number: Int
    /// The root device's UDN.
    public var udn: String
    /// The name in its description.
    public var friendlyName: String
    /// The root device's type.
    public var deviceType: String
    /// The built-in profile it was made from, when it was.
    public var profile: String?
    /// Where it lives on the first link: the source of its answers and its LOCATION's host.
    public var address: String
    /// Its LOCATION on the first link.
    public var location: String
    /// Up, gone or rebooting.
    public var state: DeviceLifecycle.State
    /// The BOOTID.UPNP.ORG it announces now.
    public var bootID: Int
    /// Its CONFIGID.UPNP.ORG.
    public var configID: Int
    /// What it advertises: each NT with its USN.
    public var advertisements: [SSDPAdvertisement]
}

/// Why an operation on a running device was not done.
public struct DeviceOperationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of problem it is.
    public struct Code: Hashable, Sendable {
        fileprivate enum Value: Hashable, Sendable { case unknownDevice, notAllowed }
        fileprivate var value: Value

        /// No device has that number or UDN.
        public static let unknownDevice = Code(value: .unknownDevice)
        /// The device's state does not allow it (`alive` on a device that is up), or the device cannot
        /// (a replayed capture).
        public static let notAllowed = Code(value: .notAllowed)
    }

    /// What kind of problem it is.
    public var code: Code
    /// What went wrong, in words a user can act on.
    public var reason: String

    /// The reason.
    public var description: String { reason }
}

extension DeviceSimulator {
    /// Every device as it is now, in order.
    public func statuses() -> [DeviceStatus] {
        let lifecycles = operations.lifecycles
        return links[0].devices.indices.map { status(of: $0, lifecycle: lifecycles[$0]) }
    }

    /// The number (from 1) of the device that `id` names: its number, or its UDN.
    public func deviceNumber(_ id: String) throws(DeviceOperationError) -> Int {
        if let number = Int(id), (1...links[0].devices.count).contains(number) { return number }
        if let index = links[0].devices.firstIndex(where: { $0.device.udn == id }) { return index + 1 }
        throw DeviceOperationError(code: .unknownDevice, reason: "no device \(id) (a number from 1, or a UDN)")
    }

    /// Does `operation` to device `number` (from 1) on every link, and returns the device as it is after.
    ///
    /// A byebye or a reboot says byebye on every link first; a device that is gone answers no search, sends
    /// no NOTIFY and closes every HTTP connection unanswered; a rebooting device comes back by itself.
    public func perform(
        _ operation: DeviceOperation,
        on number: Int
    ) async throws(DeviceOperationError) -> DeviceStatus {
        let result: Result<DeviceStatus, DeviceOperationError> =
            (try? await eventLoop.submit { self.performNow(operation, on: number) }.get())
            ?? .failure(DeviceOperationError(code: .notAllowed, reason: "the simulator has stopped"))
        return try result.get()
    }

    /// Does `operation` to device `number` at `deadline`, as `perform` does, timed by the event loop the
    /// links run on (not by a task a busy cooperative pool may wake late); `done` gets what came of it.
    /// Cancel the returned task to call the operation off.
    @discardableResult
    public func schedule(
        _ operation: DeviceOperation,
        on number: Int,
        at deadline: NIODeadline,
        done: @escaping @Sendable (Result<DeviceStatus, DeviceOperationError>) -> Void = { _ in }
    ) -> Scheduled<Void> {
        eventLoop.scheduleTask(deadline: deadline) { done(self.performNow(operation, on: number)) }
    }

    /// `perform`'s work, on the event loop: checks the device, applies the operation, reports the change.
    private func performNow(
        _ operation: DeviceOperation,
        on number: Int
    ) -> Result<DeviceStatus, DeviceOperationError> {
        let index = number - 1
        guard links[0].devices.indices.contains(index) else {
            return .failure(DeviceOperationError(code: .unknownDevice, reason: "no device \(number)"))
        }
        guard configuredDevices[index].behaviour.replay == nil else {
            return .failure(
                DeviceOperationError(
                    code: .notAllowed,
                    reason: "device \(number) replays a capture, which says what it does and when"
                )
            )
        }
        let result = apply(operation, to: index)
        if case .success(let status) = result { onEvent(.deviceChanged(status, operation: operation)) }
        return result
    }

    /// Applies `operation` on the event loop the links share, so that it reaches every link at once.
    private func apply(_ operation: DeviceOperation, to index: Int) -> Result<DeviceStatus, DeviceOperationError> {
        let now = SSDPInstant(eventLoop.now)
        let outcome = operations.state.withLockedValue { state in
            Result { () throws(DeviceLifecycle.Refusal) in try state.lifecycles[index].apply(operation, at: now) }
        }
        switch outcome {
        case .success(let actions):
            perform(actions, device: index)
            scheduleReturn(of: index)
            return .success(status(of: index, lifecycle: operations.lifecycle(index)))
        case .failure(let refusal):
            return .failure(DeviceOperationError(code: .notAllowed, reason: "device \(index + 1): \(refusal)"))
        }
    }

    /// Arms the timer that brings a rebooting device back.
    private func scheduleReturn(of index: Int) {
        guard let deadline = operations.lifecycle(index).nextDeadline else { return }
        eventLoop.scheduleTask(deadline: NIODeadline(deadline)) {
            let now = SSDPInstant(self.eventLoop.now)
            let actions = self.operations.state.withLockedValue { $0.lifecycles[index].timerFired(at: now) }
            guard !actions.isEmpty else { return }
            self.perform(actions, device: index)
            self.onEvent(
                .deviceChanged(
                    self.status(of: index, lifecycle: self.operations.lifecycle(index)),
                    operation: .alive
                )
            )
        }
    }

    /// Carries out the lifecycle's `actions` for device `index`, in order, on every link (on the event loop).
    private func perform(_ actions: [DeviceLifecycle.Action], device index: Int) {
        for action in actions {
            switch action {
            case .closeHTTP: controls.setPresent(false, device: index)
            case .openHTTP: controls.setPresent(true, device: index)
            case .forgetSubscriptions: controls.reboot(device: index)
            default:
                for (_, handler) in udp { handler.value.perform(action, device: index) }
            }
        }
    }

    private func status(of index: Int, lifecycle: DeviceLifecycle) -> DeviceStatus {
        let root = links[0].devices[index]
        return DeviceStatus(
            number: index + 1,
            udn: root.device.udn,
            friendlyName: root.device.friendlyName,
            deviceType: root.device.deviceType,
            profile: configuredDevices[index].profile,
            address: links[0].deviceAddresses[index],
            location: root.location,
            state: lifecycle.state,
            bootID: lifecycle.bootID,
            configID: root.configID,
            advertisements: root.advertisements
        )
    }
}

/// The lifecycle of every device of a simulator, which operations change on the links' event loop and
/// anyone may read.
final class DeviceOperations: Sendable {
    struct State {
        var lifecycles: [DeviceLifecycle]
    }

    let state: NIOLockedValueBox<State>

    init(bootIDs: [Int]) {
        state = NIOLockedValueBox(State(lifecycles: bootIDs.map(DeviceLifecycle.init(bootID:))))
    }

    var lifecycles: [DeviceLifecycle] { state.withLockedValue { $0.lifecycles } }

    /// Device `index`'s lifecycle, read without copying the others' (an operation on one of ten thousand
    /// devices must not copy all of them).
    func lifecycle(_ index: Int) -> DeviceLifecycle { state.withLockedValue { $0.lifecycles[index] } }
}
