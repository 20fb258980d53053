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

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Devices that join a running simulator (`POST /devices`): each is a host as those there from the start,
// at an address of its own when the simulator gives its devices one (on loopback, the next free 127.0.0.x),
// with an HTTP server of its own on its real device's port, answering and advertising on every link.

extension DeviceSimulator {
    /// What grows when devices are added.
    struct Roster {
        /// Every link with the devices as they appear there.
        var links: [SimulatorLink]
        /// The devices as configured, in order.
        var configured: [SimulatedDevice]
        /// Every HTTP server, to close at the end.
        var httpChannels: [any Channel]
        /// For each device with an HTTP server of its own, that server's place in `httpChannels`.
        var serverOfDevice: [Int: Int]
    }

    /// The seed the simulator draws from (`--seed`).
    public var seed: UInt64 { growth.configuration.seed }

    /// What adding a device needs from the start.
    struct Growth: Sendable {
        let configuration: SimulatorConfiguration
        /// The address the HTTP servers of devices without one of their own listen on.
        let sharedHost: String
        let limiter: HTTPConnectionLimiter
        let group: any EventLoopGroup
        /// The BOOTID devices without a fixed one start with.
        let bootID: Int
        /// Per link, the seed its devices draw from.
        let linkSeeds: [UInt64]
        /// Whether the devices live at addresses of their own (see `DeviceAddressing`).
        let usesOwnAddresses: Bool
        /// How many devices the simulator started with: a reset removes the others.
        var initialCount: Int { configuration.devices.count }
    }

    /// Adds `devices` to the running simulator, each at an address of its own when the simulator's devices
    /// have one (its `address`, else on loopback the next free 127.0.0.x), with an HTTP server of its own
    /// (its real device's port at its own address; at the shared address, the first free port from
    /// there), answering from the next search and announcing itself with a fresh alive set on every link.
    /// Returns them as they are.
    ///
    /// - Throws: `DeviceOperationError` (`invalidChange`, with the field) for a device this simulator cannot
    ///   take (a UDN it has already, an address another device has, a replay), `SimulatorError` when its
    ///   HTTP port cannot be opened.
    public func add(_ devices: [SimulatedDevice]) async throws -> [DeviceStatus] {
        var added: [DeviceStatus] = []
        for device in devices {
            added.append(try await add(device))
        }
        return added
    }

    private func add(_ device: SimulatedDevice) async throws -> DeviceStatus {
        let address = try placement(of: device)
        let index = controls.count
        let (host, channel) = try await openServer(for: device, index: index, address: address)
        do {
            return try await eventLoop.submit {
                try self.join(device, index: index, address: address, host: host, channel: channel)
            }
            .get()
        } catch {
            try? await channel.close()
            throw error
        }
    }

    /// The device's own address, or `nil` for the link's; refuses a device the simulator cannot take.
    private func placement(of device: SimulatedDevice) throws(DeviceOperationError) -> String? {
        let refuse = { (field: String, reason: String) in
            DeviceOperationError(code: .invalidChange, reason: reason, field: field)
        }
        guard device.behaviour.replay == nil else { throw refuse("replay", "a replaying device cannot join later") }
        let roster = roster.withLockedValue { $0 }
        let udns = Set(roster.links[0].devices.flatMap { $0.device.allDevices.map(\.udn) })
        if let udn = device.device.allDevices.map(\.udn).first(where: udns.contains) {
            throw refuse("udn", "\"\(udn)\": a device of this simulator has it already")
        }
        let link = roster.links[0]
        let taken = Set(link.deviceAddresses)
        guard growth.usesOwnAddresses, roster.links.count == 1 else {
            guard device.address == nil else {
                throw refuse(
                    "address",
                    "this simulator's devices share the address of its link; serve with --addresses"
                )
            }
            return nil
        }
        if let address = device.address {
            guard !taken.contains(address) else {
                throw refuse("address", "\"\(address)\": another device has it")
            }
            return address
        }
        guard DeviceAddressing.isLoopback(link.link.urlHost) else {
            throw refuse("address", "give the device an address its interface holds (devices have their own here)")
        }
        let free = (0..<65_000).lazy.map { DeviceAddressing.loopbackAddress(index: $0) }.first { !taken.contains($0) }
        guard let free else { throw refuse("address", "no loopback address is free") }
        return free
    }

    /// Opens the device's HTTP server: at its own address on its real port (or the one `--http-port`
    /// fixes), at the shared address on the first free port from there.
    private func openServer(
        for device: SimulatedDevice,
        index: Int,
        address: String?
    ) async throws -> (host: String, channel: any Channel) {
        let host = address ?? growth.sharedHost
        let first: Int
        switch growth.configuration.httpPort {
        case .any: first = 0
        case .real: first = device.web.realPort ?? HTTPPorts.genericPort
        case .fixed(let port): first = port
        }
        // At the shared address the real port may be another device's: the next ones, then.
        let ports = address == nil && first != 0 ? first...65_535 : first...first
        let server = roster.withLockedValue { $0.httpChannels.count }
        return (
            host,
            try await openServer(of: index, owner: Self.owner(device, index), host: host, ports: ports, server: server)
        )
    }

    /// How errors name device `index`: `device 3 (Attic Roku, uuid:…)`.
    static func owner(_ device: SimulatedDevice, _ index: Int) -> String {
        "device \(index + 1) (\(device.device.friendlyName), \(device.device.udn))"
    }

    /// Device `index`'s own HTTP server at `host`, number `server` of the connection limiter's, on the
    /// first port of `ports` no other socket holds. Any other failure, or the last port taken, is the error
    /// `bindHTTP` words, unless `exhausted` words the last one.
    private func openServer(
        of index: Int,
        owner: String,
        host: String,
        ports: ClosedRange<Int>,
        server: Int,
        exhausted: (@Sendable () -> any Error)? = nil
    ) async throws -> any Channel {
        var port = ports.lowerBound
        while true {
            let open = { [port] in
                try await Self.startHTTPServer(
                    host: host,
                    port: port,
                    site: DeviceSite(controls: self.controls, index: index),
                    limiter: (self.growth.limiter, server: server, devices: 1),
                    group: self.growth.group,
                    onEvent: self.onEvent
                )
            }
            do {
                return try await open()
            } catch let error as IOError where error.errnoCode == EADDRINUSE && port < ports.upperBound {
                port += 1
            } catch let error as IOError where error.errnoCode == EADDRINUSE && exhausted != nil {
                throw exhausted?() ?? error
            } catch {
                return try await Self.bindHTTP(host: host, port: port, owner: owner) { throw error }
            }
        }
    }

    /// Puts the device on every link, its HTTP side and its lifecycle, on the event loop.
    private func join(
        _ device: SimulatedDevice,
        index: Int,
        address: String?,
        host: String,
        channel: any Channel
    ) throws -> DeviceStatus {
        let port = channel.localAddress?.port ?? 0
        let links = roster.withLockedValue { $0.links }
        let roots = links.map { link in
            device.rootDevice(baseURL: "http://\(address ?? link.link.urlHost):\(port)", defaultBootID: growth.bootID)
        }
        controls.add(device, location: roots[0].location)
        operations.state.withLockedValue { $0.lifecycles.append(DeviceLifecycle(bootID: roots[0].bootID)) }
        roster.withLockedValue { roster in
            for number in roster.links.indices {
                roster.links[number].devices.append(roots[number])
                roster.links[number].deviceAddresses.append(address ?? roster.links[number].link.urlHost)
            }
            roster.configured.append(device)
            roster.serverOfDevice[index] = roster.httpChannels.count
            roster.httpChannels.append(channel)
        }
        for (number, (_, handler)) in udp.enumerated() {
            try handler.value.add(roots[number], configured: device, address: address)
        }
        let status = status(index + 1)
        onEvent(.deviceAdded(status))
        return status
    }

    /// Moves device `index`'s HTTP side to another port while it is down (a `reboot` with `newPort`): a new
    /// server on the next free port at the same address, its LOCATION on every link with it, the old server
    /// closed. The device comes back announcing the new LOCATION.
    ///
    /// - Throws: `DeviceOperationError` (`notAllowed`) for a device on the simulator's shared server (its
    ///   paths are `/device/N` there, its port everyone's), `SimulatorError` when no port could be opened.
    func moveHTTP(of index: Int) async throws {
        let (slot, old) = roster.withLockedValue { roster in
            (roster.serverOfDevice[index], roster.serverOfDevice[index].map { roster.httpChannels[$0] })
        }
        guard let slot, let old, let host = old.localAddress?.ipAddress, let oldPort = old.localAddress?.port else {
            throw DeviceOperationError(
                code: .notAllowed,
                reason:
                    "device \(index + 1) shares the simulator's HTTP server (its paths are /device/\(index) there), so its port cannot move: give it an address or a real port of its own"
            )
        }
        let owner = Self.owner(controls.device(index), index)
        let ports = (oldPort + 1)...min(oldPort + 100, 65_535)
        let channel = try await openServer(of: index, owner: owner, host: host, ports: ports, server: slot) {
            SimulatorError(
                reason: "\(owner): no port is free at \(host) from \(ports.lowerBound) to \(ports.upperBound)"
            )
        }
        guard let newPort = channel.localAddress?.port else {
            throw SimulatorError(reason: "\(owner): the new HTTP server has no address")
        }
        try await eventLoop.submit {
            let links = self.roster.withLockedValue { $0.links }
            let configured = self.controls.device(index)
            let roots = links.map { link in
                var root = configured.rootDevice(
                    baseURL: "http://\(link.deviceAddresses[index]):\(newPort)",
                    defaultBootID: self.growth.bootID
                )
                root.bootID = link.devices[index].bootID
                return root
            }
            self.roster.withLockedValue { roster in
                for number in roster.links.indices { roster.links[number].devices[index] = roots[number] }
                roster.httpChannels[slot] = channel
            }
            self.controls.relocate(index, to: roots[0].location)
            for (number, (_, handler)) in self.udp.enumerated() {
                handler.value.relocate(device: index, to: roots[number])
            }
        }.get()
        try? await old.close()
    }
}
