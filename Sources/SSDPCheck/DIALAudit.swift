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

/// The DIAL checks (DIAL 2.2 §5–§6) of a device whose description came with an `Application-URL`: the
/// URL itself, an app's state, an unknown app, and with `--control` a launch from a foreign web origin
/// (refused), a launch, hide and stop.
enum DIALAudit {
    /// The namespace of an app's state document.
    static let namespace = "urn:dial-multiscreen-org:schemas:dial"
    /// The apps asked for when none are named (`--dial-app`): the two every DIAL client knows.
    static let wellKnownApps = ["YouTube", "Netflix"]
    /// The URL of the app `name` at the Application-URL `applicationURL` (DIAL 2.2 §6.1: the URL, a `/`
    /// where it has none, the name).
    static func appURL(_ name: String, at applicationURL: String) -> URL? {
        URL(string: (applicationURL.hasSuffix("/") ? applicationURL : applicationURL + "/") + name)
    }
    /// An origin no DIAL app allows: the `.invalid` top-level domain names no host (RFC 2606).
    static let foreignOrigin = "https://ssdp-sim-check.invalid"

    static func check(
        applicationURL text: String,
        location: URL,
        apps: [String],
        control: Bool,
        fetch: HTTPFetch
    ) async -> [DeviceCheckResult] {
        var results: [DeviceCheckResult] = []
        let url = URL(string: text)
        var problems: [String] = []
        if url?.scheme?.lowercased() != "http" || url?.host == nil {
            problems.append("it is not an absolute http:// URL")
        }
        if let url, url.host != location.host {
            problems.append("its host is not the LOCATION's, \(location.host ?? "")")
        }
        if url?.query != nil || url?.fragment != nil { problems.append("it has a query or a fragment") }
        results.append(
            .expect(
                "dial.application-url",
                text,
                failure: problems.isEmpty ? nil : problems.joined(separator: "; ") + " (DIAL 2.2 §5.4)"
            )
        )
        guard problems.isEmpty, let base = url else { return results }
        func appURL(_ name: String) -> URL { Self.appURL(name, at: text) ?? base }
        // The first of `apps` the device has: an app's state document.
        var found: (name: String, exchange: HTTPExchange)?
        for name in apps {
            let exchange = await fetch.exchange("GET", appURL(name))
            if exchange.message?.status != 404 {
                found = (name, exchange)
                break
            }
        }
        if let (name, exchange) = found {
            results.append(
                .expect(
                    "dial.app-state",
                    name,
                    failure: stateProblem(exchange, app: name),
                    passed: state(exchange).map { "state \($0)" } ?? "",
                    evidence: exchange.evidence
                )
            )
        } else {
            results.append(
                .skipped(
                    "dial.app-state",
                    "",
                    "none of \(apps.joined(separator: ", ")) is installed; name one with --dial-app"
                )
            )
        }
        let unknown = await fetch.exchange("GET", appURL("SsdpSimCheckNoSuchApp"))
        results.append(
            .expect(
                "dial.unknown-app",
                "SsdpSimCheckNoSuchApp",
                failure: unknown.message?.status == 404
                    ? nil : "answered \(unknown.statusText), not 404 (DIAL 2.2 §6.1)",
                evidence: unknown.evidence
            )
        )
        guard control else {
            results.append(.skipped("dial.launch", "", "launches apps only with --control"))
            return results
        }
        guard let name = found?.name else { return results }
        results += await launchChecks(name, url: appURL(name), fetch: fetch)
        return results
    }

    /// Launch from a foreign origin (refused), launch, the state after, hide, stop.
    private static func launchChecks(_ name: String, url: URL, fetch: HTTPFetch) async -> [DeviceCheckResult] {
        var results: [DeviceCheckResult] = []
        let foreign = await fetch.exchange(
            "POST",
            url,
            headers: [("ORIGIN", foreignOrigin), ("CONTENT-TYPE", "text/plain; charset=\"utf-8\"")]
        )
        results.append(
            .expect(
                "dial.origin",
                name,
                failure: foreign.message?.status == 403
                    ? nil
                    : "a launch from the web origin \(foreignOrigin) was answered \(foreign.statusText), not 403 Forbidden (DIAL 2.2 §6.6)",
                evidence: foreign.evidence
            )
        )
        if let status = foreign.message?.status, (200..<300).contains(status) {
            // Not left running: at the instance it named, else where DIAL's reference server puts it.
            let named = foreign.message?.header("LOCATION").flatMap { URL(string: $0, relativeTo: url)?.absoluteURL }
            _ = await fetch.exchange("DELETE", named ?? url.appendingPathComponent("run"))
        }
        let launch = await fetch.exchange("POST", url, headers: [("CONTENT-TYPE", "text/plain; charset=\"utf-8\"")])
        let instance = launch.message?.header("LOCATION").flatMap { URL(string: $0, relativeTo: url)?.absoluteURL }
        results.append(
            .expect(
                "dial.launch",
                name,
                failure: launch.message?.status != 201
                    ? "answered \(launch.statusText), not 201 Created (DIAL 2.2 §6.2)"
                    : instance == nil ? "the 201 has no LOCATION of the running instance (DIAL 2.2 §6.2)" : nil,
                passed: instance?.absoluteString ?? "",
                evidence: launch.evidence
            )
        )
        guard let instance else { return results }
        let after = await fetch.exchange("GET", url)
        results.append(
            .expect(
                "dial.running",
                name,
                failure: state(after) == "running"
                    ? nil : "after the launch its state is \(state(after) ?? "unreadable"), not running",
                evidence: after.evidence
            )
        )
        let hide = await fetch.exchange("POST", instance.appendingPathComponent("hide"))
        let hidden = hide.message?.status
        results.append(
            .expect(
                "dial.hide",
                name,
                failure: hidden == 200 || hidden == 501
                    ? nil
                    : "hiding was answered \(hide.statusText), not 200, or 501 where hiding is not supported (DIAL 2.2 §6.4)",
                passed: hidden == 501 ? "not supported (501)" : "",
                evidence: hide.evidence
            )
        )
        let stop = await fetch.exchange("DELETE", instance)
        results.append(
            .expect(
                "dial.stop",
                name,
                failure: stop.notOK("stopping", reference: "(DIAL 2.2 §6.3)"),
                evidence: stop.evidence
            )
        )
        return results
    }

    /// The `state` of an app's state document.
    static func state(_ exchange: HTTPExchange) -> String? {
        exchange.message.flatMap { SSDPXMLElement.parse($0.body) }?.child("state").map {
            $0.trimmedText
        }
    }

    /// What is wrong with an app's state document, or `nil`.
    static func stateProblem(_ exchange: HTTPExchange, app: String) -> String? {
        guard let message = exchange.message, message.status == 200 else { return exchange.notOK }
        guard message.header("Content-Type")?.lowercased().contains("xml") == true else {
            return "its Content-Type is \(message.header("Content-Type") ?? "missing"), not text/xml (DIAL 2.2 §6.1)"
        }
        guard let root = SSDPXMLElement.parse(message.body) else { return "the body is not well-formed XML" }
        if let problem = DescriptionAudit.namespaceProblem(root, name: "service", namespace: namespace) {
            return problem
        }
        let name = root.child("name").map { $0.trimmedText }
        guard name == app else { return "its name is \(name ?? "missing"), not \(app)" }
        let state = root.child("state").map { $0.trimmedText } ?? ""
        guard ["running", "stopped", "hidden"].contains(state) || state.hasPrefix("installable=") else {
            return "its state is '\(state)', not running, stopped, hidden or installable=URL (DIAL 2.2 §6.1)"
        }
        return nil
    }
}
