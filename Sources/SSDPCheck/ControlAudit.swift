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

/// The control checks of one service (UDA 1.1 §3), made only when asked since a call can change a device:
/// each read-only action (`Get…` whose in-arguments, if any, all have a conventional value: AVTransport's
/// and RenderingControl's `InstanceID=0`, `Channel=Master`) answers with exactly its out-arguments, an
/// unknown action gets fault 401, a missing argument fault 402.
enum ControlAudit {
    /// The values every client gives these in-arguments when it has nothing else to say: the AV transport
    /// instance and the connection a renderer has from the start (0 in UPnP AV's AVTransport:1 and
    /// ConnectionManager:1), and RenderingControl:1's master channel.
    static let conventionalArguments = ["InstanceID": "0", "ConnectionID": "0", "Channel": "Master"]

    /// The in-arguments a read-only call of `action` gives, or `nil` when one has no conventional value.
    static func readOnlyArguments(of action: DescribedService.Action) -> [(String, String)]? {
        guard action.name.hasPrefix("Get") else { return nil }
        var arguments: [(String, String)] = []
        for argument in action.inArguments {
            guard let value = conventionalArguments[argument.name] else { return nil }
            arguments.append((argument.name, value))
        }
        return arguments
    }

    static func check(
        _ service: DescribedDevice.Service,
        described: DescribedService,
        fetch: HTTPFetch
    ) async -> [DeviceCheckResult] {
        let type = service.serviceType
        guard let url = service.controlURL else { return [] }
        var results: [DeviceCheckResult] = []
        for action in described.actions {
            guard let arguments = readOnlyArguments(of: action) else { continue }
            let exchange = await call(action.name, arguments: arguments, type: type, url: url, fetch: fetch)
            results.append(
                .expect(
                    "control.read-only-action",
                    "\(type)#\(action.name)",
                    failure: responseProblem(exchange, action: action, type: type),
                    passed: plural(action.outArguments.count, "out-argument"),
                    evidence: exchange.evidence
                )
            )
        }
        if results.isEmpty {
            results.append(
                .skipped(
                    "control.read-only-action",
                    type,
                    "the SCPD has no Get… action whose in-arguments have conventional values (InstanceID, Channel)"
                )
            )
        }
        let unknown = await call("SsdpSimCheckNoSuchAction", arguments: [], type: type, url: url, fetch: fetch)
        results.append(fault(401, "control.unknown-action", type, unknown))
        if let action = described.actions.first(where: { $0.name.hasPrefix("Get") && !$0.inArguments.isEmpty }) {
            let missing = await call(action.name, arguments: [], type: type, url: url, fetch: fetch)
            results.append(fault(402, "control.missing-argument", "\(type)#\(action.name)", missing))
        } else {
            results.append(
                .skipped(
                    "control.missing-argument",
                    type,
                    "no Get… action has in-arguments (another could change the device)"
                )
            )
        }
        return results
    }

    /// A SOAP call of `action` with `arguments`.
    static func call(
        _ action: String,
        arguments: [(String, String)],
        type: String,
        url: URL,
        fetch: HTTPFetch
    ) async -> HTTPExchange {
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/" \
            s:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"><s:Body>\
            <u:\(action) xmlns:u="\(SSDPRootDevice.escaped(type))">\
            \(arguments.map { "<\($0.0)>\(SSDPRootDevice.escaped($0.1))</\($0.0)>" }.joined())\
            </u:\(action)></s:Body></s:Envelope>
            """
        return await fetch.exchange(
            "POST",
            url,
            headers: [("CONTENT-TYPE", "text/xml; charset=\"utf-8\""), ("SOAPACTION", "\"\(type)#\(action)\"")],
            body: Array(body.utf8)
        )
    }

    /// What is wrong with the answer to a call of `action`, or `nil`.
    static func responseProblem(_ exchange: HTTPExchange, action: DescribedService.Action, type: String) -> String? {
        guard let message = exchange.message, message.status == 200 else { return exchange.notOK }
        guard let envelope = SSDPXMLElement.parse(message.body), envelope.name == "Envelope",
            let response = envelope.child("Body")?.children.first
        else { return "the body is not a SOAP envelope with a Body (UDA 1.1 §3.2.2)" }
        guard response.name == action.name + "Response" else {
            return "the Body holds <\(response.qualifiedName)>, not <\(action.name)Response>"
        }
        // Declared on the response, or on the envelope around it.
        let namespace =
            response.attributes[response.namespaceAttribute] ?? envelope.attributes[response.namespaceAttribute]
        guard namespace == type else {
            return
                "<\(response.qualifiedName)> is in the namespace \(namespace ?? "none"), not the service type \(type)"
        }
        let sent = response.children.map(\.name)
        let declared = action.outArguments.map(\.name)
        guard sent == declared else {
            return
                "out-arguments are [\(sent.joined(separator: ", "))], the SCPD declares [\(declared.joined(separator: ", "))] in that order (UDA 1.1 §3.2.2)"
        }
        return nil
    }

    /// The check that `exchange` is a SOAP fault with UPnPError `code` (UDA 1.1 §3.2.2).
    static func fault(_ code: Int, _ check: String, _ subject: String, _ exchange: HTTPExchange) -> DeviceCheckResult {
        let message = exchange.message
        let errorCode = message.flatMap { SSDPXMLElement.parse($0.body) }?
            .child("Body")?.child("Fault")?.child("detail")?.child("UPnPError")?.child("errorCode")?.trimmedText
        let failure: String? =
            message?.status != 500
            ? "answered \(exchange.statusText), not 500 with a SOAP fault"
            : errorCode == nil
                ? "the 500 carries no Fault/detail/UPnPError/errorCode"
                : errorCode != "\(code)" ? "the UPnPError's errorCode is \(errorCode ?? ""), not \(code)" : nil
        return .expect(
            check,
            subject,
            failure: failure.map { $0 + " (UDA 1.1 §3.2.2)" },
            passed: "fault \(code)",
            evidence: exchange.evidence
        )
    }
}
