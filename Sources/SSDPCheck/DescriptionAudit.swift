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

/// A device tree as its description gives it: what the later checks (SCPDs, control, eventing) need.
struct DescribedDevice: Sendable, Hashable {
    /// One service of a device, its URLs resolved against URLBase or LOCATION.
    struct Service: Sendable, Hashable {
        var serviceType: String
        var serviceId: String
        /// `nil` when the description gives no SCPDURL or one that does not resolve.
        var scpdURL: URL?
        /// `nil` when empty: the service cannot be controlled.
        var controlURL: URL?
        /// `nil` when empty: the service sends no events.
        var eventSubURL: URL?
    }

    var deviceType: String
    var udn: String
    /// The description's specVersion, `1.0` or `1.1` (the root's; empty for an embedded device).
    var specVersion = ""
    var services: [Service]
    var embedded: [DescribedDevice]

    /// This device and every device inside it, depth first.
    var allDevices: [DescribedDevice] { [self] + embedded.flatMap(\.allDevices) }
}

extension SSDPXMLElement {
    /// The element's text without the whitespace and line ends a pretty-printed document puts around it.
    var trimmedText: String { text.trimmingCharacters(in: .whitespacesAndNewlines) }

    /// The attribute that would declare the element's namespace: `xmlns:u` for `u:GetStatusResponse`,
    /// `xmlns` for an element without a prefix.
    var namespaceAttribute: String {
        guard let colon = qualifiedName.firstIndex(of: ":") else { return "xmlns" }
        return "xmlns:" + qualifiedName[..<colon]
    }
}

/// The checks of a device description (UDA 1.1 §2.3): read whole from its bytes, no I/O.
enum DescriptionAudit {
    /// The namespace of a device description's `root`.
    static let deviceNamespace = "urn:schemas-upnp-org:device-1-0"
    /// The namespace of an SCPD's `scpd`.
    static let serviceNamespace = "urn:schemas-upnp-org:service-1-0"
    /// What every `device` element must hold (UDA 1.1 §2.3).
    static let requiredDeviceElements = ["deviceType", "friendlyName", "manufacturer", "modelName", "UDN"]
    /// What every `service` element must hold (UDA 1.1 §2.3; the two URLs may be empty, not absent).
    static let requiredServiceElements = ["serviceType", "serviceId", "SCPDURL", "controlURL", "eventSubURL"]

    /// The description's checks, and its device tree when it could be read.
    static func audit(
        _ body: [UInt8],
        location: URL
    ) -> (results: [DeviceCheckResult], device: DescribedDevice?) {
        var results: [DeviceCheckResult] = []
        let excerpt = String(decoding: body.prefix(2_048), as: UTF8.self)
        guard let root = SSDPXMLElement.parse(body) else {
            results.append(
                .failed("description.well-formed", "", Self.malformedReason(body), evidence: excerpt)
            )
            return (results, nil)
        }
        results.append(.passed("description.well-formed", "", "\(body.count) bytes"))
        results.append(
            .expect(
                "description.namespace",
                failure: namespaceProblem(root, name: "root", namespace: deviceNamespace),
                passed: deviceNamespace,
                evidence:
                    "<\(root.qualifiedName) \(root.attributes.sorted { $0.key < $1.key }.map { "\($0.key)=\"\($0.value)\"" }.joined(separator: " "))>"
            )
        )
        let major = root.child("specVersion")?.child("major")?.trimmedText
        let minor = root.child("specVersion")?.child("minor")?.trimmedText
        results.append(
            .expect(
                "description.spec-version",
                failure: major == "1" && minor.flatMap { Int($0) } != nil
                    ? nil
                    : "specVersion is \(major ?? "missing").\(minor ?? "missing"); UDA 1.x needs major 1 and a minor",
                passed: "\(major ?? "").\(minor ?? "")"
            )
        )
        guard let deviceElement = root.child("device") else {
            results.append(.failed("description.device", "", "the root has no <device>", evidence: excerpt))
            return (results, nil)
        }
        let base = root.child("URLBase").flatMap { URL(string: $0.trimmedText) } ?? location
        var device = described(deviceElement, base: base, into: &results)
        device.specVersion = "\(major ?? "").\(minor ?? "")"
        return (results, device)
    }

    /// Why `body` is not one well-formed element, as near as can be said without a full XML parser.
    static func malformedReason(_ body: [UInt8]) -> String {
        let text = String(decoding: body.prefix(4_096), as: UTF8.self)
        if body.isEmpty { return "the document is empty" }
        if text.contains("<!ENTITY") {
            return "not well-formed: the DOCTYPE declares entities (not expanded, so no entity expansion attack)"
        }
        return "not well-formed XML (an unclosed or mismatched tag, a broken entity, or nesting deeper than "
            + "\(SSDPXMLElement.maximumDepth))"
    }

    /// Why `element` is not `name` in `namespace`, or `nil` when it is.
    static func namespaceProblem(_ element: SSDPXMLElement, name: String, namespace: String) -> String? {
        guard element.name == name else {
            return "the document's root element is <\(element.qualifiedName)>, not <\(name)>"
        }
        let declared = element.attributes[element.namespaceAttribute]
        guard declared == namespace else {
            return "<\(name)> is in the namespace \(declared.map { "\"\($0)\"" } ?? "none"), not \"\(namespace)\""
        }
        return nil
    }

    /// The device of `element` and its embedded devices, with their element checks appended.
    private static func described(
        _ element: SSDPXMLElement,
        base: URL,
        into results: inout [DeviceCheckResult]
    ) -> DescribedDevice {
        func text(_ element: SSDPXMLElement, _ name: String) -> String? {
            element.child(name).map { $0.trimmedText }
        }
        let udn = text(element, "UDN") ?? ""
        let subject = udn.isEmpty ? (text(element, "deviceType") ?? "device") : udn
        let missing = requiredDeviceElements.filter { (text(element, $0) ?? "").isEmpty }
        var problems = missing.isEmpty ? [] : ["missing or empty: " + missing.joined(separator: ", ")]
        if !udn.isEmpty, !udn.lowercased().hasPrefix("uuid:") {
            problems.append("the UDN \(udn) does not start with uuid:")
        }
        results.append(
            .expect(
                "description.device-elements",
                subject,
                failure: problems.isEmpty ? nil : problems.joined(separator: "; ")
            )
        )
        var services: [DescribedDevice.Service] = []
        for serviceElement in element.child("serviceList")?.children.filter({ $0.name == "service" }) ?? [] {
            let serviceType = text(serviceElement, "serviceType") ?? ""
            let absent =
                requiredServiceElements.filter { serviceElement.child($0) == nil }
                + ["serviceType", "serviceId", "SCPDURL"].filter {
                    serviceElement.child($0) != nil && (text(serviceElement, $0) ?? "").isEmpty
                }
            results.append(
                .expect(
                    "description.service-elements",
                    serviceType.isEmpty ? subject : serviceType,
                    failure: absent.isEmpty ? nil : "missing or empty: " + absent.joined(separator: ", ")
                )
            )
            func url(_ name: String) -> URL? {
                guard let value = text(serviceElement, name), !value.isEmpty else { return nil }
                return URL(string: value, relativeTo: base)?.absoluteURL
            }
            services.append(
                .init(
                    serviceType: serviceType,
                    serviceId: text(serviceElement, "serviceId") ?? "",
                    scpdURL: url("SCPDURL"),
                    controlURL: url("controlURL"),
                    eventSubURL: url("eventSubURL")
                )
            )
        }
        let embedded = (element.child("deviceList")?.children.filter { $0.name == "device" } ?? []).map {
            described($0, base: base, into: &results)
        }
        return DescribedDevice(
            deviceType: text(element, "deviceType") ?? "",
            udn: udn,
            services: services,
            embedded: embedded
        )
    }
}
