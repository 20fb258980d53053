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

/// A change to a running device's configuration: the fields of a device file that can change while it
/// runs (`PATCH /devices/{id}`, a scenario's `change` event, `LoopbackLAN.perform(.change(…), on:)`).
/// A field left `nil` stays as it is.
public struct DeviceChange: Hashable, Sendable {
    /// The name in its description; a new one bumps CONFIGID and is announced with `ssdp:update`.
    public var friendlyName: String?
    /// Seconds an advertisement stays valid (CACHE-CONTROL max-age), from the next message.
    public var maxAge: Int?
    /// How it misbehaves on SSDP, from the next search.
    public var behaviour: SSDPDeviceBehaviour?
    /// How its HTTP side misbehaves, from the next request (on connections already open too).
    public var httpFaults: HTTPFaults?
    /// The user's answers for chosen SOAP actions, replacing the ones it had.
    public var actions: [ActionResponse]?
    /// Its live state by name: a state variable of one of its services (`ExternalIPAddress`,
    /// `ConnectionStatus`, `Volume`, `TransportState`), or a Roku's `powerMode` and `activeApp`.
    /// Subscribers of the service hear the change.
    public var state: [String: String]

    /// A change of the fields given.
    public init(
        friendlyName: String? = nil,
        maxAge: Int? = nil,
        behaviour: SSDPDeviceBehaviour? = nil,
        httpFaults: HTTPFaults? = nil,
        actions: [ActionResponse]? = nil,
        state: [String: String] = [:]
    ) {
        self.friendlyName = friendlyName
        self.maxAge = maxAge
        self.behaviour = behaviour
        self.httpFaults = httpFaults
        self.actions = actions
        self.state = state
    }

    /// Whether the change alters what the device's description says, which UDA 1.1 §1.2.2 marks with a new
    /// CONFIGID.UPNP.ORG, announced with `ssdp:update`.
    public var changesDescription: Bool { friendlyName != nil }

    /// The names of the fields it changes, in the order the device file lists them (`friendlyName`, `state`).
    public var fields: [String] {
        [
            friendlyName.map { _ in "friendlyName" }, maxAge.map { _ in "maxAge" },
            behaviour.map { _ in "behaviour" }, httpFaults.map { _ in "httpFaults" }, actions.map { _ in "actions" },
            state.isEmpty ? nil : "state",
        ].compactMap { $0 }
    }

    /// The CONFIGID after `configID`: one more, within 0...16777215 (UDA 1.1 §1.2.2).
    public static func nextConfigID(after configID: Int) -> Int {
        configID >= 16_777_215 ? 0 : configID + 1
    }
}
