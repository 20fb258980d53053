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
import SSDPDeviceCore

/// The Roku ECP checks of a device that says it is a Roku: what rokuecp (Home Assistant) and python-roku
/// read first, on the LOCATION's port.
enum ECPAudit {
    /// The `device-info` fields python-roku 4.1 reads and needs present (empty is allowed), and those
    /// rokuecp reads most (after-discovery.md §6.2, §6.3).
    static let deviceInfoFields = [
        "udn", "serial-number", "device-id", "vendor-name", "model-name", "model-number", "software-version",
        "software-build", "user-device-name", "friendly-device-name", "power-mode",
    ]

    static func check(origin: URL, fetch: HTTPFetch) async -> [DeviceCheckResult] {
        var results: [DeviceCheckResult] = []
        let info = await fetch.exchange("GET", origin.appendingPathComponent("query/device-info"))
        results.append(
            .expect(
                "ecp.device-info",
                "/query/device-info",
                failure: xmlProblem(info, root: "device-info") ?? missingFields(info),
                passed: "\(deviceInfoFields.count) fields clients read",
                evidence: info.evidence
            )
        )
        let apps = await fetch.exchange("GET", origin.appendingPathComponent("query/apps"))
        let appCount = apps.message.flatMap { SSDPXMLElement.parse($0.body) }?.children.count { $0.name == "app" } ?? 0
        results.append(
            .expect(
                "ecp.apps",
                "/query/apps",
                failure: xmlProblem(apps, root: "apps")
                    ?? (appCount == 0 ? "<apps> lists no <app>: rokuecp fails on an empty list" : nil),
                passed: plural(appCount, "app"),
                evidence: apps.evidence
            )
        )
        let active = await fetch.exchange("GET", origin.appendingPathComponent("query/active-app"))
        results.append(
            .expect(
                "ecp.active-app",
                "/query/active-app",
                failure: xmlProblem(active, root: "active-app"),
                evidence: active.evidence
            )
        )
        return results
    }

    /// What is wrong with an ECP query's answer as rokuecp reads it, or `nil`: 200, an XML Content-Type
    /// (rokuecp parses nothing else), the root element `root`.
    static func xmlProblem(_ exchange: HTTPExchange, root name: String) -> String? {
        guard let message = exchange.message, message.status == 200 else { return exchange.notOK }
        guard message.header("Content-Type")?.lowercased().contains("xml") == true else {
            return
                "its Content-Type is \(message.header("Content-Type") ?? "missing"): rokuecp reads only text/xml or application/xml"
        }
        guard let root = SSDPXMLElement.parse(message.body) else { return "the body is not well-formed XML" }
        return root.name == name ? nil : "the root element is <\(root.qualifiedName)>, not <\(name)>"
    }

    private static func missingFields(_ exchange: HTTPExchange) -> String? {
        guard let root = exchange.message.flatMap({ SSDPXMLElement.parse($0.body) }) else { return nil }
        let present = Set(root.children.map(\.name))
        let missing = deviceInfoFields.filter { !present.contains($0) }
        return missing.isEmpty ? nil : "fields clients read are missing: " + missing.joined(separator: ", ")
    }
}
