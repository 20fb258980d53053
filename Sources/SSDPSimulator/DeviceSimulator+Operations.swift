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
import SSDPDevices
import SSDPNIO

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
    /// Seconds its advertisements stay valid (CACHE-CONTROL max-age).
    public var maxAge: Int
    /// How it misbehaves on SSDP.
    public var behaviour: SSDPDeviceBehaviour
    /// How its HTTP side misbehaves.
    public var httpFaults: HTTPFaults
    /// What it advertises: each NT with its USN.
    public var advertisements: [SSDPAdvertisement]
}

/// Why an operation on a running device was not done.
public struct DeviceOperationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of problem it is.
    public struct Code: Hashable, Sendable {
        fileprivate enum Value: Hashable, Sendable { case unknownDevice, notAllowed, invalidChange }
        fileprivate var value: Value

        /// No device has that number or UDN.
        public static let unknownDevice = Code(value: .unknownDevice)
        /// The device's state does not allow it (`alive` on a device that is up), or the device cannot
        /// (a replayed capture).
        public static let notAllowed = Code(value: .notAllowed)
        /// A change's value is not one the field takes (`field` names it).
        public static let invalidChange = Code(value: .invalidChange)
    }

    /// What kind of problem it is.
    public var code: Code
    /// What went wrong, in words a user can act on.
    public var reason: String
    /// The field of a change that was refused (`maxAge`, `behaviour.loss`, `state.Volume`), for `invalidChange`.
    public var field: String?

    /// An error of `code`, for `field` when a change's field was refused.
    public init(code: Code, reason: String, field: String? = nil) {
        self.code = code
        self.reason = reason
        self.field = field
    }

    /// The reason.
    public var description: String { reason }
}

extension DeviceSimulator {
    /// Every device as it is now, in order.
    public func statuses() -> [DeviceStatus] {
        let lifecycles = operations.lifecycles
        let roster = roster.withLockedValue { $0 }
        return roster.links[0].devices.indices.map { status(of: $0, lifecycle: lifecycles[$0], in: roster) }
    }

    /// Device `number` (from 1) as it is now.
    public func status(_ number: Int) -> DeviceStatus {
        status(of: number - 1, lifecycle: operations.lifecycle(number - 1))
    }

    /// Device `number`'s (from 1) configuration as it runs now: as configured, with every change since.
    public func configuration(of number: Int) -> SimulatedDevice {
        controls.device(number - 1)
    }

    /// The number (from 1) of the device that `id` names: its number, or its UDN.
    public func deviceNumber(_ id: String) throws(DeviceOperationError) -> Int {
        let devices = devices
        if let number = Int(id), (1...devices.count).contains(number) { return number }
        if let index = devices.firstIndex(where: { $0.device.udn == id }) { return index + 1 }
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
        if case .reboot(_, true) = operation, (1...controls.count).contains(number),
            roster.withLockedValue({ $0.serverOfDevice[number - 1] }) == nil
        {
            throw DeviceOperationError(
                code: .notAllowed,
                reason:
                    "device \(number) shares the simulator's HTTP server (its paths are /device/\(number - 1) there), so its port cannot move: give it an address or a real port of its own"
            )
        }
        let result: Result<DeviceStatus, DeviceOperationError> =
            (try? await eventLoop.submit { self.performNow(operation, on: number) }.get())
            ?? .failure(DeviceOperationError(code: .notAllowed, reason: "the simulator has stopped"))
        let status = try result.get()
        guard case .reboot(_, true) = operation else { return status }
        // Down now: its HTTP side moves before it is due back, and only then is its return timed.
        let index = number - 1
        defer { eventLoop.execute { self.scheduleReturn(of: index) } }
        do {
            try await moveHTTP(of: index)
        } catch let error as DeviceOperationError {
            throw error
        } catch {
            throw DeviceOperationError(
                code: .notAllowed,
                reason: "\((error as? SimulatorError)?.reason ?? "\(error)"); it comes back on its port"
            )
        }
        return self.status(number)
    }

    /// Changes device `number` as `specification` says (`PATCH /devices/{id}`), its `behaviour` and
    /// `httpFaults` laid over the device as it is then, on the event loop: two changes at once each see the
    /// other's. Returns the device as it is after.
    ///
    /// - Throws: `DeviceOperationError` with `invalidChange` and the field (`behaviour.searchLoss`) for a
    ///   value the field does not take, or as `perform` throws.
    public func change(
        _ specification: DeviceChange.Specification,
        on number: Int
    ) async throws(DeviceOperationError) -> DeviceStatus {
        let result: Result<DeviceStatus, DeviceOperationError> =
            (try? await eventLoop.submit {
                guard (1...self.controls.count).contains(number) else {
                    return .failure(DeviceOperationError(code: .unknownDevice, reason: "no device \(number)"))
                }
                do throws(SSDPConfigurationError) {
                    let change = try specification.make(current: self.controls.device(number - 1))
                    return self.performNow(.change(change), on: number)
                } catch {
                    return .failure(
                        DeviceOperationError(
                            code: .invalidChange,
                            reason: error.reason(quoting: true),
                            field: error.field
                        )
                    )
                }
            }.get()) ?? .failure(DeviceOperationError(code: .notAllowed, reason: "the simulator has stopped"))
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
        eventLoop.scheduleTask(deadline: deadline) {
            // A timed reboot keeps its port: moving it needs `perform`'s wait for the new server.
            if case .reboot(let downFor, true) = operation {
                done(self.performNow(.reboot(downFor: downFor), on: number))
            } else {
                done(self.performNow(operation, on: number))
            }
        }
    }

    /// Brings every device back to the start (`POST /reset`): its configuration as configured, its state
    /// (port mappings, volume, running apps) and subscriptions forgotten, the network faults as configured,
    /// and a device that is gone, rebooting or removed back up with the next BOOTID. A device that is up and whose description had changed
    /// announces its first one again with `ssdp:update`. Returns every device as it is after.
    public func reset() async -> [DeviceStatus] {
        (try? await eventLoop.submit { self.resetNow() }.get()) ?? statuses()
    }

    private func resetNow() -> [DeviceStatus] {
        let now = SSDPInstant(eventLoop.now)
        setNetworkNow(initialNetwork)
        let configuredDevices = configuredDevices
        let changed = (0..<controls.count).map { controls.device($0) != configuredDevices[$0] }
        let describedAnew = (0..<controls.count).map { controls.device($0).configID != configuredDevices[$0].configID }
        controls.reset()
        // Devices added since the start leave again.
        for index in growth.initialCount..<configuredDevices.count {
            guard
                let actions = try? operations.state.withLockedValue({
                    try $0.lifecycles[index].apply(.remove(byebye: true), at: now)
                }),
                !actions.isEmpty
            else { continue }
            perform(actions, device: index)
            onEvent(
                .deviceChanged(
                    status(of: index, lifecycle: operations.lifecycle(index)),
                    operation: .remove(byebye: true)
                )
            )
        }
        for index in configuredDevices.indices.prefix(growth.initialCount)
        where configuredDevices[index].behaviour.replay == nil {
            for (_, handler) in udp {
                if changed[index] { handler.value.reconfigure(configuredDevices[index], device: index) }
                handler.value.restartResponder(device: index)
            }
            var (actions, operation) = (
                operations.state.withLockedValue { $0.lifecycles[index].reset() }, DeviceOperation.alive
            )
            if actions.isEmpty, describedAnew[index] {
                operation = .update
                actions =
                    (try? operations.state.withLockedValue { try $0.lifecycles[index].apply(.update, at: now) }) ?? []
            }
            guard !actions.isEmpty else { continue }
            perform(actions, device: index)
            scheduleReturn(of: index)
            onEvent(.deviceChanged(status(of: index, lifecycle: operations.lifecycle(index)), operation: operation))
        }
        return statuses()
    }

    /// The network faults on what the simulator sends and hears, as set last.
    public var network: NetworkFaults {
        operations.state.withLockedValue { $0.network }
    }

    /// Sets the network faults on every link from the next datagram on (`PUT /network`): latency, loss,
    /// answer loss, duplicates and reordering of what the simulator sends, loss of what it hears; their
    /// windows (`after`, `times`) count from now.
    public func setNetwork(_ faults: NetworkFaults) async {
        try? await eventLoop.submit { self.setNetworkNow(faults) }.get()
    }

    /// Sets the network faults at `deadline`, as `setNetwork` does, timed by the links' event loop (a live
    /// scenario's `network` event). Cancel the returned task to call it off.
    @discardableResult
    public func scheduleNetwork(_ faults: NetworkFaults, at deadline: NIODeadline) -> Scheduled<Void> {
        eventLoop.scheduleTask(deadline: deadline) { self.setNetworkNow(faults) }
    }

    private func setNetworkNow(_ faults: NetworkFaults) {
        operations.state.withLockedValue { $0.network = faults }
        for (_, handler) in udp { handler.value.setNetwork(faults) }
        onEvent(.networkChanged(faults))
    }

    /// Every device's clock starts now, and again with the first M-SEARCH to arrive: silent windows and
    /// ignored searches count from the search's start, as a virtual run's devices count (a live run calls it
    /// just before its search begins). The search, not this call, is the start: on a loaded machine the
    /// caller's task may resume seconds after the clocks would have started.
    package func startClocks() async {
        try? await eventLoop.submit {
            for index in 0..<self.controls.count {
                for (_, handler) in self.udp { handler.value.restartResponder(device: index) }
            }
            for (_, handler) in self.udp { handler.value.clocksWaitForSearch = true }
        }.get()
    }

    /// `perform`'s work, on the event loop: checks the device, applies the operation, reports the change.
    private func performNow(
        _ operation: DeviceOperation,
        on number: Int
    ) -> Result<DeviceStatus, DeviceOperationError> {
        let index = number - 1
        guard (0..<controls.count).contains(index) else {
            return .failure(DeviceOperationError(code: .unknownDevice, reason: "no device \(number)"))
        }
        guard controls.device(index).behaviour.replay == nil else {
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
        if case .change(let change) = operation, operations.lifecycle(index).state != .removed {
            if let refusal = reconfigure(index, with: change) { return .failure(refusal) }
        }
        let now = SSDPInstant(eventLoop.now)
        let outcome = operations.state.withLockedValue { state in
            Result { () throws(DeviceLifecycle.Refusal) in try state.lifecycles[index].apply(operation, at: now) }
        }
        switch outcome {
        case .success(let actions):
            perform(actions, device: index)
            // A reboot onto a new port is timed once its HTTP side has moved (`perform`).
            if case .reboot(_, true) = operation {} else { scheduleReturn(of: index) }
            return .success(status(of: index, lifecycle: operations.lifecycle(index)))
        case .failure(let refusal):
            return .failure(DeviceOperationError(code: .notAllowed, reason: "device \(index + 1): \(refusal)"))
        }
    }

    /// Applies `change`'s fields to device `index` on every link and its HTTP side, all or none: its live
    /// state first (the part that can be refused), then its configuration, with the next CONFIGID when its
    /// description changes. Returns why not, or `nil` when done; the lifecycle announces the change after.
    private func reconfigure(_ index: Int, with change: DeviceChange) -> DeviceOperationError? {
        let device: SimulatedDevice
        do throws(SSDPConfigurationError) {
            device = try controls.device(index).changed(by: change)
        } catch {
            return DeviceOperationError(code: .invalidChange, reason: error.reason(quoting: true), field: error.field)
        }
        if !change.state.isEmpty {
            switch controls.set(change.state, device: index) {
            case .success(let events):
                for record in events.records { onEvent(record) }
                for delivery in events.events { EventNotifier.deliver(delivery, on: eventLoop, onEvent: onEvent) }
            case .failure(let error):
                return DeviceOperationError(code: .invalidChange, reason: error.reason, field: "state.\(error.field)")
            }
        }
        controls.reconfigure(index, to: device)
        for (_, handler) in udp { handler.value.reconfigure(device, device: index) }
        return nil
    }

    /// Arms the timer that brings a rebooting device back.
    func scheduleReturn(of index: Int) {
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

    private func status(of index: Int, lifecycle: DeviceLifecycle, in roster: Roster? = nil) -> DeviceStatus {
        let (root, address, profile) =
            roster.map {
                ($0.links[0].devices[index], $0.links[0].deviceAddresses[index], $0.configured[index].profile)
            }
            ?? self.roster.withLockedValue {
                ($0.links[0].devices[index], $0.links[0].deviceAddresses[index], $0.configured[index].profile)
            }
        let configured = controls.device(index)
        return DeviceStatus(
            number: index + 1,
            udn: root.device.udn,
            friendlyName: configured.device.friendlyName,
            deviceType: root.device.deviceType,
            profile: profile,
            address: address,
            location: root.location,
            state: lifecycle.state,
            bootID: lifecycle.bootID,
            configID: configured.configID,
            maxAge: configured.maxAge,
            behaviour: configured.behaviour,
            httpFaults: configured.web.httpFaults,
            advertisements: root.advertisements
        )
    }
}

/// The lifecycle of every device of a simulator, which operations change on the links' event loop and
/// anyone may read.
final class DeviceOperations: Sendable {
    struct State {
        var lifecycles: [DeviceLifecycle]
        /// The network faults as set last.
        var network: NetworkFaults
    }

    let state: NIOLockedValueBox<State>

    init(bootIDs: [Int], network: NetworkFaults) {
        state = NIOLockedValueBox(State(lifecycles: bootIDs.map(DeviceLifecycle.init(bootID:)), network: network))
    }

    var lifecycles: [DeviceLifecycle] { state.withLockedValue { $0.lifecycles } }

    /// Device `index`'s lifecycle, read without copying the others' (an operation on one of ten thousand
    /// devices must not copy all of them).
    func lifecycle(_ index: Int) -> DeviceLifecycle { state.withLockedValue { $0.lifecycles[index] } }
}
