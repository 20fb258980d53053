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
import SSDPDeviceCore

// The text forms of behaviours, shared by command-line flags and device files, so both accept the same
// spellings and reject bad ones with the same reasons.

extension SSDPDeviceBehaviour.Delay {
    /// `uniform`, `immediate`, `whole-seconds`, `fixed:SECONDS` or `late:SECONDS` (seconds may have decimals).
    public init(text: String) throws(SSDPConfigurationError) {
        let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
        switch (parts.first, parts.count) {
        case ("uniform", 1): self = .uniform
        case ("immediate", 1): self = .immediate
        case ("whole-seconds", 1): self = .wholeSeconds
        case ("fixed", 2): self = .fixed(try seconds(parts[1], field: "delay"))
        case ("late", 2): self = .late(try seconds(parts[1], field: "delay"))
        default:
            throw SSDPConfigurationError(
                field: "delay",
                value: text,
                reason: "expected uniform, immediate, whole-seconds, fixed:SECONDS or late:SECONDS"
            )
        }
    }

    /// The text form, as `init(text:)` reads it.
    public var text: String {
        switch self {
        case .uniform: "uniform"
        case .immediate: "immediate"
        case .wholeSeconds: "whole-seconds"
        case .fixed(let delay): "fixed:\(delay.shortSecondsText)"
        case .late(let delay): "late:\(delay.shortSecondsText)"
        }
    }
}

extension SSDPDeviceBehaviour.SilentWindow {
    /// `FROM-UNTIL` in seconds from the device's start, e.g. `2-5` or `0.5-1.5`.
    public init(text: String) throws(SSDPConfigurationError) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2 else {
            throw SSDPConfigurationError(
                field: "silent",
                value: text,
                reason: "expected FROM-UNTIL in seconds, e.g. 2-5"
            )
        }
        let start = try seconds(parts[0], field: "silent")
        let end = try seconds(parts[1], field: "silent")
        guard start < end else {
            throw SSDPConfigurationError(field: "silent", value: text, reason: "a window must end after it starts")
        }
        self.init(start: start, end: end)
    }
}

/// Reads a comma-separated list of names (`lf-only,missing-ext`) into values of `Name`.
public func parseNames<Name: RawRepresentable & CaseIterable>(
    _ text: String,
    field: String
) throws(SSDPConfigurationError) -> Set<Name> where Name.RawValue == String {
    var names = Set<Name>()
    for part in text.split(separator: ",") {
        let raw = String(part.trimmingCharacters(" "))
        guard let name = Name(rawValue: raw) else {
            throw SSDPConfigurationError(
                field: field,
                value: raw,
                reason: "expected one of \(Name.allCases.map(\.rawValue).joined(separator: ", "))"
            )
        }
        names.insert(name)
    }
    return names
}

/// A non-negative number of seconds, at most an hour, as a duration to the millisecond.
func seconds(_ text: String, field: String) throws(SSDPConfigurationError) -> Duration {
    guard let value = Double(text), value.isFinite, value >= 0, value <= 3_600 else {
        throw SSDPConfigurationError(field: field, value: text, reason: "expected seconds, 0...3600")
    }
    return .milliseconds(Int64((value * 1_000).rounded()))
}

extension StringProtocol {
    fileprivate func trimmingCharacters(_ character: Character) -> SubSequence {
        let start = firstIndex { $0 != character } ?? endIndex
        let end = lastIndex { $0 != character }.map { index(after: $0) } ?? start
        return self[start..<Swift.max(start, end)]
    }
}

extension SSDPDeviceBehaviour {
    /// The parts that differ from a well-behaved device, in the flags' words (`delay immediate, chatter
    /// notifies`), or `well-behaved`.
    public var summary: String {
        let standard = SSDPDeviceBehaviour()
        var parts: [String] = []
        if delay != standard.delay { parts.append("delay \(delay.text)") }
        if searchLoss != 0 { parts.append("loss \(searchLoss)") }
        if responseLoss != 0 { parts.append("response-loss \(responseLoss)") }
        if ignoredSearches != 0 { parts.append("ignore-first \(ignoredSearches)") }
        if duplicates != 1 { parts.append("duplicates \(duplicates)") }
        if !chatter.isEmpty { parts.append("chatter \(chatter.map(\.rawValue).sorted().joined(separator: ","))") }
        if !malformations.isEmpty {
            parts.append("malformed \(malformations.map(\.rawValue).sorted().joined(separator: ","))")
        }
        for window in silentWindows {
            parts.append("silent \(window.start.shortSecondsText)-\(window.end.shortSecondsText)")
        }
        return parts.isEmpty ? "well-behaved" : parts.joined(separator: ", ")
    }
}
