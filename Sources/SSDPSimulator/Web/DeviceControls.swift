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
import SSDPCore
import SSDPDeviceCore
import SSDPDevices

/// The HTTP side of a simulator's devices: each device's configuration as it is now (a `PATCH` changes
/// it), its control server, the servers of its own APIs (`DeviceWeb.apis`), and whether it is up. The
/// servers are made when a device is first asked for one (a simulator may run ten thousand devices that no
/// client controls), so that a reboot reaches every one and each knows where the others live; the HTTP
/// sites look them up per request, so a change or a reset reaches connections already open.
final class DeviceControls: Sendable {
    private let seed: UInt64
    /// Where the requests to a stand-in go (`serve --record-from`).
    let forwarding: HTTPForwarding?
    /// Whether control and event requests must name the device's address and port as Host (the strict
    /// strictness, the default; `DeviceControlServer.respond(to:checksHost:)`).
    let checksHost: Bool
    private let state: NIOLockedValueBox<State>

    private struct State {
        /// The devices as configured (at the start, or when added), which a reset brings back.
        var original: [SimulatedDevice]
        /// Per device, the indices of the Sonos players in its household (itself included when it is one):
        /// found once, so that placing ten thousand devices costs ten thousand look-ups, not their square.
        var householdPlayers: [[Int]]
        /// Each device's configuration as it is now.
        var devices: [SimulatedDevice]
        var servers: [Int: DeviceControlServer] = [:]
        /// Each device's API servers once asked for, in the order of `DeviceWeb.apis`.
        var apis: [Int: [DeviceAPIServer]] = [:]
        /// Each device's LOCATION, once known.
        var locations: [String] = []
        /// Each device's path prefix on the HTTP server it is on (`/device/3` on the shared one), once known.
        var prefixes: [String] = []
        /// The devices that are gone.
        var absent: Set<Int> = []
    }

    init(devices: [SimulatedDevice], seed: UInt64, forwarding: HTTPForwarding? = nil, checksHost: Bool = true) {
        self.seed = seed
        self.forwarding = forwarding
        self.checksHost = checksHost
        let households = devices.map(\.sonosHousehold)
        var players: [String?: [Int]] = [:]
        for index in devices.indices where devices[index].device.deviceType.contains(":device:ZonePlayer:") {
            players[households[index], default: []].append(index)
        }
        state = NIOLockedValueBox(
            State(original: devices, householdPlayers: households.map { players[$0] ?? [] }, devices: devices)
        )
    }

    /// How many devices there are.
    var count: Int { state.withLockedValue { $0.original.count } }

    /// A device joins (`DeviceSimulator.add`) at `location`, its paths at the root of its own server. A
    /// Sonos player is a household of its own.
    func add(_ device: SimulatedDevice, location: String) {
        state.withLockedValue { state in
            let index = state.original.count
            state.original.append(device)
            state.devices.append(device)
            state.householdPlayers.append(device.device.deviceType.contains(":device:ZonePlayer:") ? [index] : [])
            if !state.locations.isEmpty {
                state.locations.append(location)
                state.prefixes.append("")
            }
        }
    }

    /// Device `index`'s configuration as it is now.
    func device(_ index: Int) -> SimulatedDevice {
        state.withLockedValue { $0.devices[index] }
    }

    /// The control server of device `index`, whose paths start with `prefix` (`/device/3` on the shared server).
    func server(_ index: Int, prefix: String) -> DeviceControlServer {
        state.withLockedValue { state in
            if let server = state.servers[index] { return server }
            let server = DeviceControlServer(
                device: state.devices[index],
                prefix: prefix,
                seed: SSDPRandom.derivedSeed(seed: seed, stream: UInt64(index))
            )
            if !state.locations.isEmpty { place(server, index: index, state: state) }
            state.servers[index] = server
            return server
        }
    }

    /// The servers of device `index`'s own APIs (a Roku's ECP and DIAL), made when first asked for.
    func apis(_ index: Int) -> [DeviceAPIServer] {
        state.withLockedValue { state in
            if let servers = state.apis[index] { return servers }
            let device = state.devices[index]
            let deviceSeed = SSDPRandom.derivedSeed(seed: seed, stream: UInt64(index))
            let servers = device.web.apis.map {
                DeviceAPIServer($0.makeAPI(for: device.device, seed: deviceSeed, at: .now))
            }
            state.apis[index] = servers
            return servers
        }
    }

    /// Tells every device where the devices live, once each has its LOCATION (and its paths' `prefixes`): a
    /// Sonos player's household is every Sonos player of the run that advertises the same
    /// `X-RINCON-HOUSEHOLD`, a media server's content is served from its own origin.
    func place(locations: [String], prefixes: [String]) {
        state.withLockedValue { state in
            state.locations = locations
            state.prefixes = prefixes
            for (index, server) in state.servers { place(server, index: index, state: state) }
        }
    }

    /// Device `index` serves at `location` now (its HTTP side moved): answers that name its URL follow.
    func relocate(_ index: Int, to location: String) {
        state.withLockedValue { state in
            guard state.locations.indices.contains(index) else { return }
            state.locations[index] = location
            if let server = state.servers[index] { place(server, index: index, state: state) }
        }
    }

    /// Every device rebooted: every subscription is gone.
    func reboot() {
        for server in state.withLockedValue({ Array($0.servers.values) }) { server.reboot() }
    }

    /// Device `index` rebooted: its subscriptions are gone (a device no client has controlled has none).
    func reboot(device index: Int) {
        state.withLockedValue { $0.servers[index] }?.reboot()
    }

    /// Whether device `index` is up: a device that is gone closes every HTTP connection unanswered.
    func isPresent(_ index: Int) -> Bool {
        !state.withLockedValue { $0.absent.contains(index) }
    }

    /// Brings device `index`'s HTTP side up or takes it down.
    func setPresent(_ present: Bool, device index: Int) {
        state.withLockedValue { state in
            if present { state.absent.remove(index) } else { state.absent.insert(index) }
        }
    }

    /// Device `index` now runs as `device` (`PATCH /devices/{id}`): its documents, HTTP faults, action
    /// answers and names, from the next request on.
    func reconfigure(_ index: Int, to device: SimulatedDevice) {
        let (server, apis) = state.withLockedValue { state in
            state.devices[index] = device
            return (state.servers[index], state.apis[index] ?? [])
        }
        server?.reconfigure(device)
        for api in apis { api.update(device: device.device) }
    }

    /// Sets device `index`'s live state as the device itself would, all or none: the state its APIs have
    /// (a Roku's `powerMode` and `activeApp`, a Hue bridge's `linkButton`), else state variables of its
    /// services. Returns the event messages its subscribers are due, or the first value refused and why.
    func set(_ values: [String: String], device index: Int) -> Result<DeviceHTTPResponse, StateError> {
        let apis = apis(index)
        var forAPIs: [(api: DeviceAPIServer, name: String, value: String)] = []
        var variables: [(name: String, value: String)] = []
        for (name, value) in values.sorted(by: { $0.key < $1.key }) {
            if let api = apis.first(where: { $0.liveState.contains(name) }) {
                forAPIs.append((api, name, value))
            } else {
                variables.append((name, value))
            }
        }
        for (api, name, value) in forAPIs {
            if let reason = api.check(name, value) { return .failure(StateError(field: name, reason: reason)) }
        }
        var response = DeviceHTTPResponse(status: 200)
        let prefix = state.withLockedValue { $0.prefixes.indices.contains(index) ? $0.prefixes[index] : "" }
        if !variables.isEmpty {
            switch server(index, prefix: prefix).set(variables) {
            case .success(let events): response = events
            case .failure(let error): return .failure(error)
            }
        }
        for (api, name, value) in forAPIs { api.set(name, to: value) }
        if !forAPIs.isEmpty {
            server(index, prefix: prefix).leaveRecordedState()
        }
        return .success(response)
    }

    /// Why a device's live state cannot take a value: the state's name, and the reason.
    struct StateError: Error {
        var field: String
        var reason: String
    }

    /// Every device back to its configuration at the start, every control and API server made
    /// anew when next asked for (port mappings, volumes, subscriptions, running apps and paired apps
    /// forgotten).
    func reset() {
        state.withLockedValue { state in
            state.devices = state.original
            state.servers = [:]
            state.apis = [:]
        }
    }

    private func place(_ server: DeviceControlServer, index: Int, state: State) {
        let locations = state.locations
        let players = state.householdPlayers[index].map {
            let device = state.original[$0].device
            return SonosPlayer(
                uuid: String(device.udn.dropFirst("uuid:".count)),
                location: locations[$0],
                zoneName: device.properties.first { $0.name == "roomName" }?.value ?? device.friendlyName
            )
        }
        let origin = locations[index].split(separator: "/", maxSplits: 3, omittingEmptySubsequences: false).prefix(3)
            .joined(separator: "/")
        server.updateEnvironment { environment in
            environment.sonosPlayers = players
            environment.mediaLibrary.baseURL = origin
        }
    }
}
