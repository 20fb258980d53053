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

import SSDPDeviceCore
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
        let entries = JSONValue.array(result.entries.map(\.json))
        let nearMisses = JSONValue.array(
            result.nearMisses.map {
                JSONValue(["entry": $0.entry.json, "mismatches": .array($0.mismatches.map(\.json))])
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
            reason += "; no \(result.entries.isEmpty ? "entry" : "other entry") came near since #\(filter.since)"
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
        let word = take("kind")?.value
        let kind = word.flatMap(JournalEntry.Kind.init(rawValue:))
        if let word, kind == nil {
            let kinds = JournalEntry.Kind.allCases.map(\.rawValue).joined(separator: ", ")
            throw ControlRefusal(400, "no kind \(word) (the kinds: \(kinds))")
        }
        let device = take("device")?.value
        let since = try integer("since", in: 0...Int.max) ?? 0
        // What is left are field conditions, unless one is a parameter of the other path (`limit` here).
        if let other = parameters.first(where: { Self.controls.contains($0.name) }) {
            throw ControlRefusal(400, "\(other.name) is not a parameter of this path")
        }
        let fields = parameters.map { parameter in
            let name = parameter.name.hasPrefix("field:") ? String(parameter.name.dropFirst(6)) : parameter.name
            return JournalFilter.Field(name: name, value: parameter.value)
        }
        if let unnamed = fields.first(where: { $0.name.prefix { $0 != "." }.isEmpty }) {
            throw ControlRefusal(400, "a filter needs a field name: got \(unnamed.name)=\(unnamed.value)")
        }
        // A field no entry has would match nothing: a mistyped `stauts=200` would make "no 200 was seen" pass.
        for field in fields {
            let name = String(field.name.prefix { $0 != "." })
            guard !JournalEntry.fieldNames.contains(name) else { continue }
            let others = JournalEntry.fieldNames.union(Self.controls).subtracting([name])
            let hint =
                closest(to: name, among: others).map { "did you mean \($0)?" }
                ?? "the fields: \(JournalEntry.fieldNames.sorted().joined(separator: ", "))"
            throw ControlRefusal(400, "no journal entry has a field \(name) (\(hint))")
        }
        return JournalFilter(kind: kind, device: device, since: since, fields: fields)
    }

    /// The name of `names` nearest `name`, when it is one or two edits away (a letter added, removed,
    /// changed, or two neighbours swapped), the first in order among equals; else `nil`.
    func closest(to name: String, among names: Set<String>) -> String? {
        let typed = Array(name.lowercased().utf8)
        let scored = names.sorted().map { ($0, editDistance(typed, Array($0.lowercased().utf8))) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= 2 else { return nil }
        return best.0
    }

    /// The optimal string alignment distance between `a` and `b`: insertions, deletions, substitutions and
    /// swaps of neighbours, each one edit.
    private func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        // Three rows of the table, reused in turn: row i is rows[i % 3], and it needs the two before it.
        var rows = [
            Array(0...b.count), Array(repeating: 0, count: b.count + 1), Array(repeating: 0, count: b.count + 1),
        ]
        for i in 1...a.count {
            let (current, previous, beforeThat) = (i % 3, (i + 2) % 3, (i + 1) % 3)
            rows[current][0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var distance = min(rows[previous][j] + 1, rows[current][j - 1] + 1, rows[previous][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    distance = min(distance, rows[beforeThat][j - 2] + 1)
                }
                rows[current][j] = distance
            }
        }
        return rows[a.count % 3][b.count]
    }
}
