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
    /// A description written in the catalog's short notation, one string per action and per variable, each
    /// in the SCPD's order:
    ///
    /// - an action: `Name`, or `Name: InArg=Variable … -> OutArg=Variable …` (either side may be empty);
    /// - a variable: `Name type`, then any of `events`, `default=VALUE`, `values=A|B|C`, `range=MIN...MAX`
    ///   and `step=N`.
    ///
    /// A space in an allowed value is written `%20` (gmrender-resurrect's `" vendor-defined "`). The built-in
    /// catalog is written by hand in it and checked by its tests, so a string of the catalog that does not
    /// follow it is a programming error; a device file's `serviceDescriptions` are read with
    /// `init(notation:variables:field:)`, which says what is wrong instead.
    package init(actions: [String], variables: [String]) {
        do {
            try self.init(notation: actions, variables: variables, field: "catalog")
        } catch {
            preconditionFailure("\(error)")
        }
    }

    /// A description in the notation, from a user's file: an error names `field`'s entry and the reason.
    ///
    /// The description is served as written, whatever it says: a data type UDA does not name, a default
    /// outside the allowed values, an argument whose variable is not declared. That is what a file that
    /// imitates a wrong SCPD is for (`ssdp-sim check` is held to catching it).
    public init(notation actions: [String], variables: [String], field: String) throws(SSDPConfigurationError) {
        self.init(
            actions: try actions.enumerated().map { (index, line) throws(SSDPConfigurationError) in
                try Self.action(line, field: "\(field).actions[\(index)]")
            },
            stateVariables: try variables.enumerated().map { (index, line) throws(SSDPConfigurationError) in
                try Self.stateVariable(line, field: "\(field).variables[\(index)]")
            }
        )
    }

    private static func action(_ line: String, field: String) throws(SSDPConfigurationError) -> Action {
        let parts = line.split(separator: ":", maxSplits: 1)
        guard let first = parts.first, !first.contains(" ") else {
            throw SSDPConfigurationError(
                field: field,
                value: line,
                reason: "expected Name or Name: In=Variable -> Out=Variable"
            )
        }
        let name = String(first)
        guard parts.count == 2 else { return Action(name: name, arguments: []) }
        var direction = Argument.Direction.in
        var arguments: [Argument] = []
        for word in parts[1].split(separator: " ") {
            if word == "->" {
                direction = .out
                continue
            }
            let pair = word.split(separator: "=")
            guard pair.count == 2 else {
                throw SSDPConfigurationError(
                    field: field,
                    value: line,
                    reason: "argument '\(word)' is not NAME=VARIABLE"
                )
            }
            arguments.append(
                Argument(name: String(pair[0]), direction: direction, relatedStateVariable: String(pair[1]))
            )
        }
        return Action(name: name, arguments: arguments)
    }

    private static func stateVariable(_ line: String, field: String) throws(SSDPConfigurationError) -> StateVariable {
        let words = line.split(separator: " ")
        guard words.count >= 2 else {
            throw SSDPConfigurationError(field: field, value: line, reason: "a variable needs a name and a type")
        }
        var variable = StateVariable(name: String(words[0]), dataType: String(words[1]))
        for word in words.dropFirst(2) {
            let (key, value) = Self.option(word)
            switch key {
            case "events":
                variable.sendEvents = true
            case "default":
                variable.defaultValue = value
            case "values":
                variable.allowedValues = value.split(separator: "|").map { String($0).replacing("%20", with: " ") }
            case "range":
                let bounds = value.split(separator: ".", omittingEmptySubsequences: true).compactMap { Int($0) }
                guard bounds.count == 2 else {
                    throw SSDPConfigurationError(field: field, value: line, reason: "range '\(value)' is not MIN...MAX")
                }
                variable.allowedRange = AllowedValueRange(minimum: bounds[0], maximum: bounds[1])
            case "step":
                guard variable.allowedRange != nil, let step = Int(value) else {
                    throw SSDPConfigurationError(
                        field: field,
                        value: line,
                        reason: "step=N needs a whole N after a range"
                    )
                }
                variable.allowedRange?.step = step
            default:
                throw SSDPConfigurationError(
                    field: field,
                    value: line,
                    reason: "'\(word)' is not events, default=VALUE, values=A|B, range=MIN...MAX or step=N"
                )
            }
        }
        return variable
    }

    /// `key=value` split at its first `=`; a bare word is a key with an empty value.
    private static func option(_ word: Substring) -> (key: Substring, value: String) {
        guard let equals = word.firstIndex(of: "=") else { return (word, "") }
        return (word[..<equals], String(word[word.index(after: equals)...]))
    }
}
