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
import SSDPDeviceCore

/// The eventing checks of one service (UDA 1.1 §4): subscribe, the initial event, renew, unsubscribe,
/// and the three requests a device must refuse with 412.
enum EventingAudit {
    /// The checks of `service`, whose events go to `listener`; `stranger` is a host that is not the
    /// checker's, for the CallStranger check.
    static func check(
        _ service: DescribedDevice.Service,
        described: DescribedService?,
        fetch: HTTPFetch,
        listener: EventListener,
        stranger: String
    ) async -> [DeviceCheckResult] {
        let subject = service.serviceType
        guard let url = service.eventSubURL, let address = listener.address, let port = address.port,
            let host = address.ipAddress
        else {
            return [.skipped("gena.subscribe", subject, "the service has no eventSubURL")]
        }
        let callback = "<http://\(bracketed(host)):\(port)/ssdp-sim-check/\(UUID().uuidString)>"
        var results: [DeviceCheckResult] = []
        let subscribe = await fetch.exchange(
            "SUBSCRIBE",
            url,
            headers: [("CALLBACK", callback), ("NT", "upnp:event"), ("TIMEOUT", "Second-300")]
        )
        let sid = subscribe.message?.header("SID") ?? ""
        let timeout = subscribe.message?.header("TIMEOUT") ?? ""
        results.append(
            .expect(
                "gena.subscribe",
                subject,
                failure: subscribe.notOK("SUBSCRIBE")
                    ?? (!sid.lowercased().hasPrefix("uuid:")
                        ? "the answer has no SID of the form uuid:… (UDA 1.1 §4.1.1)"
                        : !isTimeout(timeout)
                            ? "the answer's TIMEOUT is '\(timeout)', not Second-N or Second-infinite (UDA 1.1 §4.1.1)"
                            : nil),
                passed: "\(sid), \(timeout)",
                evidence: subscribe.evidence
            )
        )
        if subscribe.message?.status == 200, !sid.isEmpty {
            results.append(
                await initialEvent(sid: sid, subject: subject, described: described, fetch: fetch, listener: listener)
            )
            let renew = await fetch.exchange("SUBSCRIBE", url, headers: [("SID", sid), ("TIMEOUT", "Second-300")])
            results.append(
                .expect(
                    "gena.renew",
                    subject,
                    failure: renew.notOK("renewing")
                        ?? (renew.message?.header("SID").map { $0 == sid } == false
                            ? "the renewal's SID is not the subscription's" : nil),
                    evidence: renew.evidence
                )
            )
            let unsubscribe = await fetch.exchange("UNSUBSCRIBE", url, headers: [("SID", sid)])
            results.append(
                .expect(
                    "gena.unsubscribe",
                    subject,
                    failure: unsubscribe.notOK("UNSUBSCRIBE"),
                    evidence: unsubscribe.evidence
                )
            )
        } else {
            for check in ["gena.initial-event", "gena.renew", "gena.unsubscribe"] {
                results.append(.skipped(check, subject, "there is no subscription to work with"))
            }
        }
        let unknown = await fetch.exchange(
            "SUBSCRIBE",
            url,
            headers: [("SID", "uuid:\(UUID().uuidString.lowercased())"), ("TIMEOUT", "Second-300")]
        )
        results.append(
            refusal("gena.unknown-sid", subject, unknown, fetch: fetch, url: url, what: "renewing an unknown SID")
        )
        let noCallback = await fetch.exchange(
            "SUBSCRIBE",
            url,
            headers: [("NT", "upnp:event"), ("TIMEOUT", "Second-300")]
        )
        results.append(
            refusal(
                "gena.missing-callback",
                subject,
                noCallback,
                fetch: fetch,
                url: url,
                what: "a SUBSCRIBE without CALLBACK"
            )
        )
        let strangerCallback = "<http://\(bracketed(stranger)):\(port)/ssdp-sim-check/stranger>"
        let strange = await fetch.exchange(
            "SUBSCRIBE",
            url,
            headers: [("CALLBACK", strangerCallback), ("NT", "upnp:event"), ("TIMEOUT", "Second-300")]
        )
        var callStranger = refusal(
            "gena.callstranger",
            subject,
            strange,
            fetch: fetch,
            url: url,
            what: "a CALLBACK on \(stranger), not the subscriber's address (CallStranger, CVE-2020-12695)",
            anyRefusal: true
        )
        if strange.message?.status == 200, let sid = strange.message?.header("SID") {
            // Not left behind: the device would keep sending to the stranger.
            _ = await fetch.exchange("UNSUBSCRIBE", url, headers: [("SID", sid)])
            callStranger.detail += "; unsubscribed again"
        }
        if noCallback.message?.status == 200, let sid = noCallback.message?.header("SID") {
            _ = await fetch.exchange("UNSUBSCRIBE", url, headers: [("SID", sid)])
        }
        results.append(callStranger)
        return results
    }

    /// The check of the event a new subscription gets at once: SEQ 0, every evented variable.
    private static func initialEvent(
        sid: String,
        subject: String,
        described: DescribedService?,
        fetch: HTTPFetch,
        listener: EventListener
    ) async -> DeviceCheckResult {
        guard let event = await listener.take(timeout: fetch.timeout, where: { $0.header("SID") == sid }) else {
            return .failed(
                "gena.initial-event",
                subject,
                "no event for \(sid) within \(fetch.timeout.shortSecondsText) s of the SUBSCRIBE (UDA 1.1 §4.2.1)"
            )
        }
        let evidence =
            ([event.startLine] + event.headers.map { "\($0.name): \($0.value)" }).joined(separator: "\n")
            + "\n\n" + String(decoding: event.body.prefix(2_048), as: UTF8.self)
        var problems: [String] = []
        if !event.startLine.hasPrefix("NOTIFY ") { problems.append("the request is not a NOTIFY") }
        if event.header("SEQ") != "0" { problems.append("SEQ is \(event.header("SEQ") ?? "missing"), not 0") }
        if event.header("NT") != "upnp:event" { problems.append("NT is not upnp:event") }
        if event.header("NTS") != "upnp:propchange" { problems.append("NTS is not upnp:propchange") }
        if let root = SSDPXMLElement.parse(event.body) {
            if let problem = DescriptionAudit.namespaceProblem(
                root,
                name: "propertyset",
                namespace: "urn:schemas-upnp-org:event-1-0"
            ) {
                problems.append(problem)
            }
            let sent = Set(root.children.filter { $0.name == "property" }.flatMap(\.children).map(\.name))
            let missing = (described?.eventedVariables.map(\.name) ?? []).filter { !sent.contains($0) }
            if !missing.isEmpty { problems.append("evented variables missing: " + missing.joined(separator: ", ")) }
        } else {
            problems.append("the body is not well-formed XML")
        }
        return .expect(
            "gena.initial-event",
            subject,
            failure: problems.isEmpty ? nil : problems.joined(separator: "; ") + " (UDA 1.1 §4.2.1)",
            passed: "SEQ 0",
            evidence: evidence
        )
    }

    /// The check that `exchange` was refused with 412 Precondition Failed (or, with `anyRefusal`, with
    /// anything but a 2xx).
    private static func refusal(
        _ check: String,
        _ subject: String,
        _ exchange: HTTPExchange,
        fetch: HTTPFetch,
        url: URL,
        what: String,
        anyRefusal: Bool = false
    ) -> DeviceCheckResult {
        let status = exchange.message?.status
        let refused = anyRefusal ? status.map { !(200..<300).contains($0) } ?? false : status == 412
        return .expect(
            check,
            subject,
            failure: refused
                ? nil
                : "\(what) was answered \(exchange.statusText), not "
                    + (anyRefusal
                        ? "refused, as stacks fixed since 2020 refuse it" : "412 Precondition Failed (UDA 1.1 §4.1)"),
            passed: "\(status.map(String.init) ?? "")",
            evidence: exchange.evidence
        )
    }

    /// An address as a URL's host: an IPv6 one in brackets.
    static func bracketed(_ host: String) -> String {
        host.contains(":") ? "[\(host)]" : host
    }

    static func isTimeout(_ value: String) -> Bool {
        guard value.lowercased().hasPrefix("second-") else { return false }
        let rest = value.dropFirst("second-".count)
        return rest.lowercased() == "infinite" || Int(rest) != nil
    }
}
