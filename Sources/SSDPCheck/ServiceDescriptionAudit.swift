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

/// A service's SCPD as read: what the control and eventing checks call and expect.
struct DescribedService: Sendable, Hashable {
    struct Argument: Sendable, Hashable {
        var name: String
        /// `in` or `out`, as written.
        var direction: String
        var relatedStateVariable: String
    }

    struct Action: Sendable, Hashable {
        var name: String
        var arguments: [Argument]

        var inArguments: [Argument] { arguments.filter { $0.direction.lowercased() == "in" } }
        var outArguments: [Argument] { arguments.filter { $0.direction.lowercased() == "out" } }
    }

    struct StateVariable: Sendable, Hashable {
        var name: String
        var dataType: String
        var sendEvents: Bool
        var defaultValue: String?
        var allowedValues: [String]
        var minimum: String?
        var maximum: String?
    }

    var actions: [Action]
    var stateVariables: [StateVariable]

    /// The variables the service sends in its events.
    var eventedVariables: [StateVariable] { stateVariables.filter(\.sendEvents) }
}

/// The checks of one SCPD (UDA 1.1 §2.5): read whole from its bytes, no I/O.
enum ServiceDescriptionAudit {
    /// The data types UDA 1.1 §2.5 lists (UDA 2.0 adds `ui8` and `i8`), spelled as it spells them.
    static let dataTypes: Set<String> = [
        "ui1", "ui2", "ui4", "ui8", "i1", "i2", "i4", "i8", "int", "r4", "r8", "number", "fixed.14.4", "float",
        "char", "string", "date", "dateTime", "dateTime.tz", "time", "time.tz", "boolean", "bin.base64",
        "bin.hex", "uri", "uuid",
    ]

    /// The SCPD's checks for the service `subject` (its type), and the service when it could be read.
    static func audit(
        _ body: [UInt8],
        subject: String,
        hasControlURL: Bool
    ) -> (results: [DeviceCheckResult], service: DescribedService?) {
        let excerpt = String(decoding: body.prefix(2_048), as: UTF8.self)
        guard let root = SSDPXMLElement.parse(body) else {
            return (
                [.failed("scpd.well-formed", subject, DescriptionAudit.malformedReason(body), evidence: excerpt)], nil
            )
        }
        var results: [DeviceCheckResult] = [.passed("scpd.well-formed", subject, "\(body.count) bytes")]
        results.append(
            .expect(
                "scpd.namespace",
                subject,
                failure: DescriptionAudit.namespaceProblem(
                    root,
                    name: "scpd",
                    namespace: DescriptionAudit.serviceNamespace
                ),
                passed: DescriptionAudit.serviceNamespace,
                evidence: excerpt
            )
        )
        let service = read(root)
        if hasControlURL {
            results.append(
                .expect(
                    "scpd.not-empty",
                    subject,
                    failure: service.actions.isEmpty && service.stateVariables.isEmpty
                        ? "the service has a controlURL, but its SCPD lists no action and no state variable"
                        : nil,
                    passed: "\(service.actions.count) actions, \(service.stateVariables.count) state variables",
                    evidence: excerpt
                )
            )
        }
        let declared = Set(service.stateVariables.map(\.name))
        var undeclared: [String] = []
        var directions: [String] = []
        for action in service.actions {
            for argument in action.arguments {
                if !declared.contains(argument.relatedStateVariable) {
                    undeclared.append(
                        "\(action.name)(\(argument.name)) names \(argument.relatedStateVariable.isEmpty ? "no variable" : argument.relatedStateVariable)"
                    )
                }
                if argument.direction != "in", argument.direction != "out" {
                    directions.append("\(action.name)(\(argument.name)) has direction '\(argument.direction)'")
                }
            }
        }
        results.append(
            .expect(
                "scpd.related-state-variables",
                subject,
                failure: (undeclared + directions).isEmpty
                    ? nil : "not declared in serviceStateTable: " + (undeclared + directions).joined(separator: "; "),
                evidence: excerpt
            )
        )
        let misspelt = service.stateVariables.filter { !dataTypes.contains($0.dataType) }
        results.append(
            .expect(
                "scpd.data-types",
                subject,
                failure: misspelt.isEmpty
                    ? nil
                    : "not a UDA data type: "
                        + misspelt.map { "\($0.name) is '\($0.dataType)'" }.joined(separator: "; "),
                evidence: excerpt
            )
        )
        let outside = service.stateVariables.compactMap(defaultProblem)
        results.append(
            .expect(
                "scpd.defaults",
                subject,
                failure: outside.isEmpty ? nil : outside.joined(separator: "; "),
                evidence: excerpt
            )
        )
        return (results, service)
    }

    /// Why `variable`'s default is outside what it allows, or `nil`.
    static func defaultProblem(_ variable: DescribedService.StateVariable) -> String? {
        guard let value = variable.defaultValue else { return nil }
        if !variable.allowedValues.isEmpty, !variable.allowedValues.contains(value) {
            return "\(variable.name)'s default '\(value)' is not in its allowedValueList"
        }
        if variable.minimum != nil || variable.maximum != nil {
            guard let number = Double(value) else {
                return "\(variable.name)'s default '\(value)' is not a number, but it has an allowedValueRange"
            }
            if let minimum = variable.minimum.flatMap(Double.init), number < minimum {
                return "\(variable.name)'s default \(value) is below its minimum \(variable.minimum ?? "")"
            }
            if let maximum = variable.maximum.flatMap(Double.init), number > maximum {
                return "\(variable.name)'s default \(value) is above its maximum \(variable.maximum ?? "")"
            }
        }
        return nil
    }

    /// The actions and variables of an `scpd` element.
    static func read(_ root: SSDPXMLElement) -> DescribedService {
        func text(_ element: SSDPXMLElement?, _ name: String) -> String? {
            element?.child(name).map { $0.trimmedText }
        }
        let actions = (root.child("actionList")?.children.filter { $0.name == "action" } ?? []).map { action in
            DescribedService.Action(
                name: text(action, "name") ?? "",
                arguments: (action.child("argumentList")?.children.filter { $0.name == "argument" } ?? []).map {
                    DescribedService.Argument(
                        name: text($0, "name") ?? "",
                        direction: text($0, "direction") ?? "",
                        relatedStateVariable: text($0, "relatedStateVariable") ?? ""
                    )
                }
            )
        }
        let variables = (root.child("serviceStateTable")?.children.filter { $0.name == "stateVariable" } ?? []).map {
            variable in
            DescribedService.StateVariable(
                name: text(variable, "name") ?? "",
                dataType: text(variable, "dataType") ?? "",
                sendEvents: (variable.attributes["sendEvents"] ?? "yes").lowercased() != "no",
                defaultValue: text(variable, "defaultValue"),
                allowedValues: (variable.child("allowedValueList")?.children.filter { $0.name == "allowedValue" } ?? [])
                    .map { $0.trimmedText },
                minimum: text(variable.child("allowedValueRange"), "minimum"),
                maximum: text(variable.child("allowedValueRange"), "maximum")
            )
        }
        return DescribedService(actions: actions, stateVariables: variables)
    }
}
