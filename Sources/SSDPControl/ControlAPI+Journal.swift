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

import SSDPSimulator

extension ControlAPI {
    /// How many entries `GET /journal` answers when `limit` does not say, and the most it answers.
    static let defaultLimit = 1_000
    static let maximumLimit = 10_000
    /// How long `GET /journal/wait` waits when `timeout` does not say, and the longest it waits (seconds).
    static let defaultWait = 10.0
    static let maximumWait = 300.0

    /// `GET /journal`: the entries that match, oldest first, and the `since` to go on from.
    func entries(_ query: [(name: String, value: String)]) throws -> ControlResponse {
        var parameters = try JournalQuery(query)
        if let misplaced = parameters.take("count") ?? parameters.take("timeout") {
            throw ControlRefusal(
                400,
                "\(misplaced.name) is for /journal/wait; filter a field of that name with field:\(misplaced.name)"
            )
        }
        let limit = try parameters.integer("limit", in: 1...Self.maximumLimit) ?? Self.defaultLimit
        let page = journal.entries(matching: try parameters.filter(), limit: limit)
        return .json(
            200,
            ["entries": .array(page.entries.map(\.json)), "dropped": .int(page.dropped), "next": .int(page.next)]
        )
    }

    /// `GET /journal/wait`: as soon as `count` entries match, 200 with them; at the timeout, 408 with the
    /// near misses.
    func wait(_ query: [(name: String, value: String)]) async throws -> ControlResponse {
        var parameters = try JournalQuery(query)
        let count = try parameters.integer("count", in: 1...Self.maximumLimit) ?? 1
        let timeout = try parameters.seconds("timeout", atMost: Self.maximumWait) ?? Self.defaultWait
        let filter = try parameters.filter()
        let result = await journal.wait(for: filter, count: count, timeout: .milliseconds(Int64(timeout * 1_000)))
        let entries = SSDPJSONValue.array(result.entries.map(\.json))
        let nearMisses = SSDPJSONValue.array(
            result.nearMisses.map {
                .object(["entry": $0.entry.json, "mismatches": .array($0.mismatches.map(\.json))])
            }
        )
        switch result.outcome {
        case .satisfied:
            return .json(200, ["entries": entries, "next": .int(result.entries.last?.seq ?? filter.since)])
        case .timedOut:
            let reason = Self.reason(result, count: count, timeout: timeout, filter: filter)
            return .error(408, reason, extra: ["entries": entries, "nearMisses": nearMisses])
        case .cancelled:
            return .error(503, "the control server is shutting down", extra: ["entries": entries])
        case .tooManyWaits:
            return .error(503, "too many waits pending (at most \(SimulatorJournal.maximumWaits)); try again")
        }
    }

    /// `timed out after 2 s: 0 of 1 entries with kind=http path=/keypress/Home; nearest: #12 path /keypress/Back`.
    private static func reason(
        _ result: JournalWaitResult,
        count: Int,
        timeout: Double,
        filter: JournalFilter
    )
        -> String
    {
        let seconds = timeout == timeout.rounded() ? "\(Int(timeout))" : "\(timeout)"
        var reason = "timed out after \(seconds) s: \(result.entries.count) of \(count) entries with \(filter)"
        if let nearest = result.nearMisses.last {
            let differences = nearest.mismatches.map { "\($0.field) \($0.actual ?? "absent")" }
            reason += "; nearest: #\(nearest.entry.seq) \(differences.joined(separator: ", "))"
        } else {
            reason += "; no entries since #\(filter.since)"
        }
        return reason
    }
}

/// A journal query's parameters, taken one by one; what is left are field filters.
struct JournalQuery {
    /// The parameters that are not field filters; a field of one of these names is filtered as
    /// `field:NAME=VALUE`.
    static let controls = ["kind", "device", "since", "limit", "count", "timeout"]

    private var parameters: [(name: String, value: String)]

    init(_ parameters: [(name: String, value: String)]) throws {
        self.parameters = parameters
        for name in Self.controls
        where parameters.filter({ $0.name == name }).count > 1 {
            throw ControlRefusal(400, "\(name) is given more than once")
        }
    }

    /// Removes and returns parameter `name`.
    mutating func take(_ name: String) -> (name: String, value: String)? {
        guard let index = parameters.firstIndex(where: { $0.name == name }) else { return nil }
        return parameters.remove(at: index)
    }

    mutating func integer(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let parameter = take(name) else { return nil }
        guard let value = Int(parameter.value), range.contains(value) else {
            throw ControlRefusal(400, "\(name) must be a whole number, \(range.lowerBound)...\(range.upperBound)")
        }
        return value
    }

    mutating func seconds(_ name: String, atMost maximum: Double) throws -> Double? {
        guard let parameter = take(name) else { return nil }
        guard let value = Double(parameter.value), (0...maximum).contains(value) else {
            throw ControlRefusal(400, "\(name) must be a number of seconds, 0...\(Int(maximum))")
        }
        return value
    }

    /// The filter of `kind`, `device`, `since` and the remaining parameters (field filters).
    mutating func filter() throws -> JournalFilter {
        let kind = take("kind")?.value
        if let kind, !JournalEntry.kinds.contains(kind) {
            throw ControlRefusal(400, "no kind \(kind) (the kinds: \(JournalEntry.kinds.joined(separator: ", ")))")
        }
        let device = take("device")?.value
        let since = try integer("since", in: 0...Int.max) ?? 0
        let fields = parameters.map { parameter in
            let name = parameter.name.hasPrefix("field:") ? String(parameter.name.dropFirst(6)) : parameter.name
            return JournalFilter.Field(name: name, value: parameter.value)
        }
        if let empty = fields.first(where: { $0.name.isEmpty }) {
            throw ControlRefusal(400, "a filter needs a field name: got =\(empty.value)")
        }
        return JournalFilter(kind: kind, device: device, since: since, fields: fields)
    }
}
