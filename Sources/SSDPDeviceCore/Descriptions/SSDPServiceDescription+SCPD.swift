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

extension SSDPServiceDescription {
    /// The service an SCPD document (`<scpd>…`) describes, as a recorded device serves it: its actions with
    /// their arguments, and its state variables with their types, defaults and allowed values, each in the
    /// document's order. `nil` when `bytes` are not an SCPD. A range whose bounds are not integers (an `r4`'s)
    /// is left out, as is an argument without a name.
    public init?(scpd bytes: [UInt8]) {
        guard let root = SSDPXMLElement.parse(bytes), root.name == "scpd" else { return nil }
        let text = { (element: SSDPXMLElement?, name: String) in
            element?.child(name).map { $0.text.trimmingASCIIWhitespace }
        }
        let actions = (root.child("actionList")?.children ?? []).filter { $0.name == "action" }.compactMap {
            action -> Action? in
            guard let name = text(action, "name"), !name.isEmpty else { return nil }
            let arguments = (action.child("argumentList")?.children ?? []).filter { $0.name == "argument" }
                .compactMap { argument -> Argument? in
                    guard let name = text(argument, "name"), !name.isEmpty else { return nil }
                    let direction: Argument.Direction =
                        text(argument, "direction")?.asciiLowercased() == "out" ? .out : .in
                    return Argument(
                        name: name,
                        direction: direction,
                        relatedStateVariable: text(argument, "relatedStateVariable") ?? ""
                    )
                }
            return Action(name: name, arguments: arguments)
        }
        let variables = (root.child("serviceStateTable")?.children ?? []).filter { $0.name == "stateVariable" }
            .compactMap { variable -> StateVariable? in
                guard let name = text(variable, "name"), !name.isEmpty else { return nil }
                let range = variable.child("allowedValueRange")
                return StateVariable(
                    name: name,
                    dataType: text(variable, "dataType") ?? "string",
                    sendEvents: (variable.attributes["sendEvents"] ?? "yes").asciiLowercased() != "no",
                    defaultValue: text(variable, "defaultValue"),
                    allowedValues: (variable.child("allowedValueList")?.children ?? [])
                        .filter { $0.name == "allowedValue" }.map { $0.text.trimmingASCIIWhitespace },
                    allowedRange: text(range, "minimum").flatMap(Int.init).flatMap { minimum in
                        text(range, "maximum").flatMap(Int.init).map { maximum in
                            AllowedValueRange(
                                minimum: minimum,
                                maximum: maximum,
                                step: text(range, "step").flatMap(Int.init)
                            )
                        }
                    }
                )
            }
        self.init(actions: actions, stateVariables: variables)
    }
}
