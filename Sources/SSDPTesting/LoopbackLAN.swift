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

import Logging
import NIOCore
import NIOPosix
import SSDPCore
import SSDPDeviceCore
import SSDPDevices
import SSDPNIO
import SSDPSearch
import SSDPSimulator

/// Runs simulated devices for the length of a test, on loopback, without root or multicast.
///
/// ```swift
/// try await LoopbackLAN.run([.roku(count: 2)]) { lan in
///     let found = try await lan.searchSession(target: "roku:ecp").search()
///     #expect(found.count == 2)
/// }
/// ```
///
/// On Linux each device lives at an address of its own (127.0.0.2, 127.0.0.3, …, as devices on a LAN do);
/// elsewhere they share 127.0.0.1. Searches go to `lan.host`:`lan.port` by unicast and reach every
/// device; a search sent to one device's `address` reaches that device alone. The devices serve their
/// descriptions, SOAP actions, GENA events and device APIs at their LOCATIONs, on free ports unless
/// `Options.httpPorts` says otherwise, so runs in parallel tests never collide.
///
/// When the closure returns or throws, or the task is cancelled, the devices say byebye for everything
/// they advertised (to `Options.notifyDestination`, or the group with `Options.multicast`) and every
/// socket is closed before `run` returns.
public enum LoopbackLAN {
    /// How the devices meet the test.
    public struct Options: Sendable {
        /// The seed of every random choice: UDNs, serials, delays, loss. The same seed gives the same run.
        public var seed: UInt64 = 1
        /// Which ports the devices' HTTP sides listen on: free ones (`.any`, the default), or the real
        /// devices' (`.real`: a Roku on 8060), which parallel runs then must not share.
        public var httpPorts: HTTPPorts = .any
        /// Where the devices send NOTIFY messages (alive now and on their schedule, byebye at the end):
        /// a test's own UDP socket on loopback. `nil` (the default) sends none.
        public var notifyDestination: SocketAddress?
        /// Join 239.255.255.250 on `interface` and answer searches there on port 1900, as real devices do.
        /// Needs the group routed on that interface (a network namespace of the test's own: loopback is
        /// not multicast-capable by default).
        public var multicast = false
        /// The interface to serve on; `nil` is loopback.
        public var interface: String?
        /// Receives the simulator's log; the default discards it.
        public var logger = Logger(label: "ssdp-sim.testing") { _ in SwiftLogNoOpLogHandler() }

        /// The defaults: seed 1, free HTTP ports, no NOTIFY, no multicast, loopback, no log.
        public init() {}
    }

    /// Starts the devices of `groups`, runs `body` with the LAN they form, and shuts them down.
    ///
    /// - Throws: whatever `body` throws (after the shutdown); `SSDPConfigurationError` or
    ///   `SimulatorInputError` for a bad group (a profile that does not exist, a device file with an error,
    ///   which the error names with the field and the reason); `SimulatorError` when a socket cannot be
    ///   opened.
    public static func run<Result>(
        _ groups: [DeviceGroup],
        options: Options = Options(),
        isolation: isolated (any Actor)? = #isolation,
        _ body: (SimulatedLAN) async throws -> Result
    ) async throws -> Result {
        let devices = try DeviceGroup.devices(of: groups, seed: options.seed)
        var configuration = SimulatorConfiguration(
            devices: devices,
            interfaces: [try options.interface ?? loopbackInterface()],
            port: options.multicast ? SSDPSearchSessionConfiguration.multicastPort : 0,
            httpPort: options.httpPorts,
            listening: options.multicast ? .multicast : .unicastOnly,
            seed: options.seed
        )
        configuration.notifyDestination = options.notifyDestination
        let recorder = LANRecorder()
        let simulator = try await DeviceSimulator.start(configuration, logger: options.logger) { event in
            recorder.record(event)
        }
        let lan = SimulatedLAN(simulator: simulator, recorder: recorder)
        return try await withCleanup {
            try await body(lan)
        } cleanup: {
            await simulator.shutdown()
        }
    }

    /// The loopback interface's name: `lo` on Linux, `lo0` on macOS.
    static func loopbackInterface() throws -> String {
        let loopback = try System.enumerateDevices().first { device in
            device.address?.protocol == .inet && device.address?.isLoopback == true
        }
        guard let loopback else {
            throw SimulatorError(reason: "no loopback interface with an IPv4 address")
        }
        return loopback.name
    }
}

/// The simulated devices of one `LoopbackLAN.run`, as the test sees them: where to search, who is
/// there, and everything they heard and did so far.
public final class SimulatedLAN: Sendable {
    /// The address a search goes to to reach every device (unicast, on `port`).
    public let host: String
    /// The UDP port the devices answer searches on.
    public let port: Int
    /// Every device, in the order of the groups.
    public let devices: [LANDevice]
    private let simulator: DeviceSimulator
    private let recorder: LANRecorder

    init(simulator: DeviceSimulator, recorder: LANRecorder) {
        let link = simulator.links[0]
        self.simulator = simulator
        self.recorder = recorder
        host = simulator.udpAddress.ipAddress.flatMap { $0 == "0.0.0.0" || $0 == "::" ? nil : $0 } ?? link.link.urlHost
        port = simulator.udpAddress.port ?? 0
        devices = zip(link.devices, link.deviceAddresses).map { LANDevice($0, address: $1) }
    }

    /// A search of every device for `target`: unicast to `host`:`port`, `requests` M-SEARCH messages
    /// `maximumWaitResponseTime` seconds apart, as `SSDPSearchSession` sends them.
    public func searchConfiguration(
        target: String = "ssdp:all",
        maximumWaitResponseTime: Int = 1,
        requests: Int = 3
    ) throws(SSDPConfigurationError) -> SSDPSearchSessionConfiguration {
        try .createUnicastConfiguration(
            forSearchTarget: target,
            host: host,
            port: port,
            maximumWaitResponseTime: maximumWaitResponseTime,
            maximumSearchRequestsBeforeClosing: requests
        )
    }

    /// A search session for `target` that reaches every device (see `searchConfiguration`).
    public func searchSession(
        target: String = "ssdp:all",
        maximumWaitResponseTime: Int = 1,
        requests: Int = 3
    ) throws(SSDPConfigurationError) -> SSDPSearchSession {
        SSDPSearchSession(
            configuration: try searchConfiguration(
                target: target,
                maximumWaitResponseTime: maximumWaitResponseTime,
                requests: requests
            )
        )
    }

    /// Every event so far, in order (see `SimulatorEvent`).
    public var events: [SimulatorEvent] { recorder.events }
    /// The M-SEARCH messages the devices heard.
    public var searches: [HeardSearch] { recorder.searches }
    /// The answers the devices sent.
    public var answers: [SentAnswer] { recorder.answers }
    /// The HTTP requests the devices served: descriptions, SOAP, GENA, device APIs.
    public var httpRequests: [ServedRequest] { recorder.httpRequests }
    /// The SOAP actions called, with what each device answered.
    public var actions: [ActionRecord] { recorder.actions }
    /// What clients made the devices do through their own APIs (a Roku key press, a DIAL launch).
    public var deviceActions: [DeviceAction] { recorder.deviceActions }
    /// The NOTIFY rounds sent: `ssdp:alive`, `ssdp:update`, `ssdp:byebye`, with the number of messages.
    public var notifications: [(subtype: SSDPNotificationSubtype, count: Int)] { recorder.notifications }

    /// The simulator's counters: datagrams received, dropped (and why), answers sent.
    public func counters() async -> SimulatorCounters {
        await simulator.counters()
    }

    /// Reboots every device: `ssdp:update` with a new BOOTID, and event subscriptions forgotten.
    public func reboot() async {
        await simulator.announceUpdate()
    }

    /// Does `operation` to `device` while the test runs, as the control API and a scenario's events do: a
    /// byebye, a power cut (`vanish`), a return (`alive`), a reboot that forgets its subscriptions, an
    /// `ssdp:update`, a `change` of its fields or live state, a `remove`. Returns the device as it is after.
    ///
    /// - Throws: `DeviceOperationError` when the device's state does not allow it (`alive` on a device that
    ///   is up), or `device` is not one of this LAN's.
    @discardableResult
    public func perform(_ operation: DeviceOperation, on device: LANDevice) async throws -> DeviceStatus {
        try await simulator.perform(operation, on: simulator.deviceNumber(device.udn))
    }

    /// Sets the network faults on what the devices send (answers, NOTIFYs) and hear (searches) from the
    /// next datagram on, as `PUT /network` and a scenario's `network` event do: `NetworkFaults()` clears them.
    public func setNetwork(_ faults: NetworkFaults) async {
        await simulator.setNetwork(faults)
    }

    /// Brings every device back to the start, as `POST /reset` does: configuration, state, subscriptions
    /// and network faults as the LAN started, every device up. Returns every device as it is after.
    @discardableResult
    public func reset() async -> [DeviceStatus] {
        await simulator.reset()
    }

    /// Every device as it is now: up, gone or rebooting, and its BOOTID.
    public var statuses: [DeviceStatus] { simulator.statuses() }
}

/// The name `LoopbackLAN` had before 0.15.0, beside `VirtualLAN`.
@available(*, deprecated, renamed: "LoopbackLAN")
public typealias SimulatedDevices = LoopbackLAN
