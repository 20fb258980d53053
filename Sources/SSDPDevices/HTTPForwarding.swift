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

import SSDPDeviceCore

/// Where the HTTP requests to some devices go instead of being answered: to the real device each stands in
/// for (`serve --record-from`, the recording proxy). A device forwarded is a recorded one
/// (`DeviceWeb.recording`); the real device's answer is played as the recorded ones are, its origin replaced
/// by the stand-in's wherever it appears, so that a client follows every URL back to the stand-in.
public struct HTTPForwarding: Sendable {
    /// The devices whose requests are forwarded, by index.
    public var devices: Set<Int>
    /// Sends `request` to the real device and gives its answer as it arrived (status line, headers and
    /// body), or `nil` when it gave none: the stand-in then answers with the document the recording holds
    /// for the request (a description, an SCPD, an icon), else 502 Bad Gateway.
    public var send: @Sendable (DeviceHTTPRequest) async -> [UInt8]?

    /// Forwards the requests to `devices` by `send`.
    public init(devices: Set<Int>, send: @escaping @Sendable (DeviceHTTPRequest) async -> [UInt8]?) {
        self.devices = devices
        self.send = send
    }
}
