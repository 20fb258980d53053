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

import Foundation
import NIOCore
import SSDPCore

/// What a device must offer to pass for one of our profiles (`--profile NAME`): its type, its services,
/// the search targets its clients search for, and the documents and queries they read.
package struct DeviceProfileExpectation: Sendable, Hashable {
    /// The profile's name, for the report.
    package var name: String
    /// The root device's type.
    package var deviceType: String
    /// Every service type of the profile's device tree.
    package var serviceTypes: [String]
    /// Targets besides the UPnP ones that its clients search for (`roku:ecp`).
    package var searchTargets: [String]
    /// The paths its clients GET, each with what it is (`/query/device-info`, "device information").
    package var paths: [(path: String, summary: String)]

    /// What a device must offer to pass for the profile `name`.
    package init(
        name: String,
        deviceType: String,
        serviceTypes: [String],
        searchTargets: [String],
        paths: [(path: String, summary: String)]
    ) {
        self.name = name
        self.deviceType = deviceType
        self.serviceTypes = serviceTypes
        self.searchTargets = searchTargets
        self.paths = paths
    }

    /// Whether two expectations ask for the same (the paths compared, not their summaries).
    package static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.name == rhs.name && lhs.deviceType == rhs.deviceType && lhs.serviceTypes == rhs.serviceTypes
            && lhs.searchTargets == rhs.searchTargets && lhs.paths.map(\.path) == rhs.paths.map(\.path)
    }

    /// Hashes the profile's name, which equal expectations share.
    package func hash(into hasher: inout Hasher) {
        hasher.combine(name)
    }
}

/// A device held to one of our profiles: what a client of the real device would miss on it.
enum ProfileAudit {
    static func check(
        _ profile: DeviceProfileExpectation,
        device: DescribedDevice,
        location: URL,
        ssdpAddress: SocketAddress?,
        fetch: HTTPFetch
    ) async -> [DeviceCheckResult] {
        var results: [DeviceCheckResult] = []
        results.append(
            .expect(
                "profile.device-type",
                profile.deviceType,
                failure: device.deviceType == profile.deviceType
                    ? nil
                    : "the root device is \(device.deviceType); the \(profile.name) profile's is \(profile.deviceType)"
            )
        )
        let offered = Set(device.allDevices.flatMap(\.services).map(\.serviceType))
        for type in profile.serviceTypes {
            results.append(
                .expect(
                    "profile.service",
                    type,
                    failure: offered.contains(type) ? nil : "the device has no such service"
                )
            )
        }
        if let ssdpAddress {
            let searches = profile.searchTargets.map {
                CheckSearch(
                    check: "profile.search",
                    subject: $0,
                    target: $0,
                    expected: [],
                    bytes: DiscoveryAudit.search(target: $0)
                )
            }
            let answers = await DiscoveryAudit.send(searches, to: ssdpAddress)
            for (search, result) in zip(searches, answers) {
                // The answer of a vendor target may carry a USN of the vendor's own (uuid:roku:ecp:SERIAL):
                // it is the device's when its LOCATION is on the device's host.
                let own = ((try? result.get()) ?? []).filter { answer in
                    (try? SSDPParser.parse(answer.bytes)).flatMap { $0.message.headers[.location] }
                        .flatMap { URL(string: $0)?.host } == location.host
                }
                results.append(
                    .expect(
                        "profile.search",
                        search.target,
                        failure: own.isEmpty
                            ? "no answer to \(search.target), which \(profile.name) clients search for" : nil,
                        passed: plural(own.count, "answer")
                    )
                )
            }
        }
        for (path, summary) in profile.paths {
            guard let url = URL(string: path, relativeTo: location.origin)?.absoluteURL else { continue }
            let exchange = await fetch.exchange("GET", url)
            results.append(
                .expect(
                    "profile.path",
                    path,
                    failure: exchange.notOK("GET \(path) (\(summary))"),
                    evidence: exchange.evidence
                )
            )
        }
        return results
    }
}
