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

/// `serve` options from the environment, for containers: `SSDP_SIM_<OPTION>` (the option's name in upper
/// case with `_` for `-`) becomes `--option VALUE`, or `--option` for a flag whose value is 1, true or yes.
/// They go before the command line's own arguments, so a flag given there wins. The repeatable options
/// (`SSDP_SIM_INTERFACE`, `SSDP_SIM_SILENT`, `SSDP_SIM_DESCRIPTION_FAULT`, `SSDP_SIM_SCPD_FAULT`,
/// `SSDP_SIM_CONTROL_ALLOW_ORIGIN`) take a comma-separated list. A usage error about an option that only a
/// variable gave names the variable, since that is what a container's user wrote (see
/// `blame(_:arguments:environment:)`).
enum ServeEnvironment {
    /// Every `serve` option and whether it is a flag. A test checks this against `serve --help`.
    static let options: [(name: String, isFlag: Bool)] = [
        ("profile", false), ("count", false), ("devices", false), ("friendly-name", false), ("device-type", false),
        ("server", false), ("max-age", false), ("delay", false), ("loss", false), ("response-loss", false),
        ("ignore-first", false), ("duplicates", false), ("chatty", true), ("chatter", false), ("malformed", false),
        ("silent", false), ("no-quirks", true), ("interface", false), ("all-interfaces", true),
        ("ipv6", true), ("site-local", true), ("no-ipv4", true), ("port", false), ("http-port", false),
        ("addresses", false),
        ("shared-address", true), ("unicast-only", true),
        ("strictness", false), ("allow-any-source", true), ("rate-limit", false), ("max-pending", false),
        ("ttl", false), ("notify-copies", false), ("seed", false), ("boot-id", false), ("serve-for", false),
        ("stop-on-stdin-eof", true),
        ("description-fault", false), ("scpd-fault", false), ("event-loss", false), ("event-delay", false),
        ("control", false), ("control-allow-origin", false), ("control-token-file", false),
        ("control-token", false), ("journal-size", false), ("json", true),
        ("log-level", false), ("ready-file", false), ("record-from", false), ("output", false), ("anonymize", true),
        ("record-timeout", false), ("record-port", false),
    ]

    /// The options that may be given more than once: their variable holds a comma-separated list.
    static let repeatable: Set<String> = [
        "silent", "interface", "description-fault", "scpd-fault", "control-allow-origin",
    ]

    /// The environment variable for an option: `--http-port` → `SSDP_SIM_HTTP_PORT`.
    static func variable(for option: String) -> String {
        "SSDP_SIM_" + option.uppercased().replacingOccurrences(of: "-", with: "_")
    }

    /// `arguments` with the environment's `serve` options inserted after `serve`.
    static func arguments(
        _ arguments: [String],
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> [String] {
        guard arguments.first == "serve" else { return arguments }
        var fromEnvironment: [String] = []
        for (name, isFlag) in options {
            guard let value = environment[variable(for: name)] else { continue }
            if isFlag {
                if ["1", "true", "yes"].contains(value.lowercased()) { fromEnvironment.append("--\(name)") }
            } else if repeatable.contains(name) {
                fromEnvironment += value.split(separator: ",").flatMap { ["--\(name)", String($0)] }
            } else {
                fromEnvironment += ["--\(name)", value]
            }
        }
        return ["serve"] + fromEnvironment + arguments.dropFirst()
    }

    /// The variable to name in a usage error about `serve`: the one that gave the option `message` names,
    /// unless the command line gave that option itself. `nil` when no variable is to blame.
    static func blame(
        _ message: String,
        arguments: [String],
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> (variable: String, value: String)? {
        guard arguments.first == "serve" else { return nil }
        let given = Set(arguments.dropFirst().map { String($0.split(separator: "=", maxSplits: 1)[0]) })
        for (name, _) in options where !given.contains("--\(name)") && names(message, option: name) {
            if let value = environment[variable(for: name)] { return (variable(for: name), value) }
        }
        return nil
    }

    /// Whether `message` names `--option` as a whole word (`--port` is not in `--http-port`).
    private static func names(_ message: String, option: String) -> Bool {
        var rest = message[...]
        while let range = rest.range(of: "--\(option)") {
            let before = rest[..<range.lowerBound].last
            let after = rest[range.upperBound...].first
            let isNamePart = { (character: Character?) in character.map { $0.isLetter || $0 == "-" } ?? false }
            if !isNamePart(before) && !isNamePart(after) { return true }
            rest = rest[range.upperBound...]
        }
        return false
    }
}
