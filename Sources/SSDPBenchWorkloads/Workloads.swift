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
import SSDPDeviceCore
import SSDPDevices
import SSDPSimulator

/// What `ssdp-bench` times and `ssdp-bench-probe` counts the instructions of, made in one place so that
/// the two measure the same work.
package enum Workloads {
    /// `count` generic MediaRenderer devices (3 services, so 6 advertisements each) at made-up addresses.
    package static func devices(_ count: Int) -> [SSDPRootDevice] {
        (0..<count).map { index in
            SimulatorProfile.generic.device(number: index + 1, seed: 7).rootDevice(
                baseURL: "http://10.0.\(index / 250 + 1).\(index % 250 + 1):8080/device/0",
                defaultBootID: 1
            )
        }
    }

    /// The devices the responder's instruction count runs with: fewer than the timed run's 10,000, for the
    /// same work per answer in seconds rather than minutes under callgrind.
    package static let countedResponderDevices = 1_000

    /// A responder whose rate limit and pending answers never hold a benchmark's answers back.
    package static let unlimitedResponder = SimulatorResponder.Configuration(
        answersPerSourcePerSecond: 1_000_000,
        maximumPendingAnswers: 10_000_000
    )

    /// One responder answering for `roots`, each device seeded by its position.
    package static func responder(answering roots: [SSDPRootDevice]) -> SimulatorResponder {
        SimulatorResponder(
            configuration: unlimitedResponder,
            devices: roots.enumerated().map { index, root in
                DeviceResponder(device: root, startedAt: .zero, seed: UInt64(index))
            }
        )
    }

    /// A multicast `ssdp:all` search, MX 3: every device answers with every advertisement.
    package static let searchForAll = Array(
        "M-SEARCH * HTTP/1.1\r\nHOST: 239.255.255.250:1900\r\nMAN: \"ssdp:discover\"\r\nMX: 3\r\nST: ssdp:all\r\n\r\n"
            .utf8
    )

    /// The search session whose ingest is measured: unicast, for `upnp:rootdevice`, one request.
    package static func ingestConfiguration() throws -> SSDPSearchSessionConfiguration {
        try .createUnicastConfiguration(
            forSearchTarget: "upnp:rootdevice",
            host: "10.0.0.2",
            maximumWaitResponseTime: 5,
            maximumSearchRequestsBeforeClosing: 1
        )
    }
}
