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

extension SSDPServiceDescription {
    /// A description written in the catalog's short notation, one string per action and per variable, each
    /// in the SCPD's order:
    ///
    /// - an action: `Name`, or `Name: InArg=Variable … -> OutArg=Variable …` (either side may be empty);
    /// - a variable: `Name type`, then any of `events`, `default=VALUE`, `values=A|B|C`, `range=MIN...MAX`
    ///   and `step=N`.
    ///
    /// A space in an allowed value is written `%20` (gmrender-resurrect's `" vendor-defined "`). The notation
    /// is for the built-in catalog, written by hand and checked by its tests; a string that does not follow
    /// it is a programming error.
    init(actions: [String], variables: [String]) {
        self.init(
            actions: actions.map(Self.action(_:)),
            stateVariables: variables.map(Self.stateVariable(_:))
        )
    }

    private static func action(_ line: String) -> Action {
        let parts = line.split(separator: ":", maxSplits: 1)
        let name = String(parts[0])
        guard parts.count == 2 else { return Action(name: name, arguments: []) }
        var direction = Argument.Direction.in
        var arguments: [Argument] = []
        for word in parts[1].split(separator: " ") {
            if word == "->" {
                direction = .out
                continue
            }
            let pair = word.split(separator: "=")
            precondition(pair.count == 2, "catalog: argument '\(word)' of \(name) is not NAME=VARIABLE")
            arguments.append(
                Argument(name: String(pair[0]), direction: direction, relatedStateVariable: String(pair[1]))
            )
        }
        return Action(name: name, arguments: arguments)
    }

    private static func stateVariable(_ line: String) -> StateVariable {
        let words = line.split(separator: " ")
        precondition(words.count >= 2, "catalog: variable '\(line)' needs a name and a type")
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
                precondition(bounds.count == 2, "catalog: range '\(value)' of \(variable.name) is not MIN...MAX")
                variable.allowedRange = AllowedValueRange(minimum: bounds[0], maximum: bounds[1])
            case "step":
                precondition(variable.allowedRange != nil && Int(value) != nil, "catalog: step of \(variable.name)")
                variable.allowedRange?.step = Int(value)
            default:
                preconditionFailure("catalog: '\(word)' of variable \(variable.name)")
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
