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

import ArgumentParser
import SSDPCheck

/// What `check` and `record`, which both meet a device as a control point does, are told alike: the device,
/// where its searches go, their MX, and how long an HTTP exchange may take.
struct ControlPointOptions: ParsableArguments {
    @Argument(help: "A LOCATION URL, a device's IP address, or a search target.")
    var target: String

    @Option(help: "The UDP port searches go to.")
    var port = 1900

    @Option(help: "Where a search target is searched for: the multicast group or one address.")
    var host = "239.255.255.250"

    @Option(
        help: "The MX of the searches, 1...5: the window the device spreads its answers over (listened to 1.5 s more)."
    )
    var mx = 1

    @Option(help: "Seconds one HTTP exchange (and the wait for an event) may take, 0.1...60.")
    var timeout = 5.0

    func validate() throws {
        _ = try deviceTarget()
        guard (1...65_535).contains(port) else { throw ValidationError("--port must be 1...65535, got \(port)") }
        guard (1...5).contains(mx) else { throw ValidationError("--mx must be 1...5, got \(mx)") }
        guard isIPAddress(host) else { throw ValidationError("--host must be an IPv4 or IPv6 address, got '\(host)'") }
        guard timeout >= 0.1, timeout <= 60 else {
            throw ValidationError("--timeout must be 0.1...60 seconds, got \(timeout)")
        }
    }

    /// The device the target names.
    func deviceTarget() throws -> DeviceCheckTarget {
        do {
            return try DeviceCheckTarget(target)
        } catch {
            throw ValidationError("TARGET \(error)")
        }
    }

    /// `--timeout` as a duration.
    var exchangeTimeout: Duration { .milliseconds(Int64(timeout * 1_000)) }
}
