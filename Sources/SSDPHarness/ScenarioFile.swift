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
import SSDPCore
import SSDPDeviceCore
import SSDPDevices
import SSDPSimulator
import SSDPVirtualNetwork

/// Reading scenario files: JSON in, checked `Scenario` values out, or an error naming the file, the JSON
/// path and the reason.
package enum ScenarioFile {
    /// The largest number of M-SEARCH messages a scenario may make (the original design has no limit; a
    /// scenario that needs more is a mistake).
    package static let maximumRequests = 100
    /// The longest time a scenario may refer to (event times, latency, outages).
    package static let maximumSeconds = 3_600.0

    /// Reads the scenario files among `paths`: a file is read as given, a directory contributes every
    /// `*.json` in it (not its subdirectories) except `*.schema.json`, in name order. Names must be unique.
    package static func loadAll(_ paths: [String]) throws(SimulatorInputError) -> [Scenario] {
        var scenarios: [Scenario] = []
        var fileOfName: [String: String] = [:]
        for file in try files(in: paths) {
            let scenario = try load(path: file)
            if let other = fileOfName[scenario.name] {
                throw SimulatorInputError(
                    file: file,
                    path: "$.name",
                    reason: "\"\(scenario.name)\" is also the name in \(other)"
                )
            }
            fileOfName[scenario.name] = file
            scenarios.append(scenario)
        }
        return scenarios
    }

    /// The scenario files `paths` name, directories expanded.
    static func files(in paths: [String]) throws(SimulatorInputError) -> [String] {
        var files: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw SimulatorInputError(file: path, path: "$", reason: "no such file or directory")
            }
            guard isDirectory.boolValue else {
                files.append(path)
                continue
            }
            let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            let scenarios = names.filter { $0.hasSuffix(".json") && !$0.hasSuffix(".schema.json") }.sorted()
            guard !scenarios.isEmpty else {
                throw SimulatorInputError(file: path, path: "$", reason: "the directory has no scenario files (*.json)")
            }
            files += scenarios.map { path.hasSuffix("/") ? path + $0 : path + "/" + $0 }
        }
        return files
    }

    /// Reads and checks one scenario file.
    package static func load(path: String) throws(SimulatorInputError) -> Scenario {
        try decode(try InputFile.contents(of: path), file: path)
    }

    /// Reads and checks a scenario's contents; `file` names it in errors.
    package static func decode(_ data: Data, file: String) throws(SimulatorInputError) -> Scenario {
        let specification = try InputFile.decode(ScenarioSpecification.self, from: data, file: file)
        do throws(FieldError) {
            return try specification.makeScenario(file: file)
        } catch {
            throw SimulatorInputError(file: file, path: error.path, reason: error.reason)
        }
    }
}

extension ScenarioFile {
    /// Reads an expectations file for a search of a network the harness does not run (`ssdp-sim search
    /// --expect FILE`): a scenario's `expect` block on its own, with what such a search can observe —
    /// `found`, `dropped`, `stop.reason` and `error`. The M-SEARCH messages on the wire and a client's HTTP
    /// are seen only where the harness runs the devices, so `searches`, `stop.tolerance` and `http` are errors
    /// here rather than checks that would silently never run.
    package static func loadExpectations(path: String) throws(SimulatorInputError) -> Expectations {
        let fields = try InputFile.decode(ExpectFields.self, from: try InputFile.contents(of: path), file: path)
        let unobservable = [
            ("$.searches", fields.searches != nil, "the M-SEARCH messages are counted on the devices' side"),
            ("$.stop.tolerance", fields.stop?.tolerance != nil, "the stop's timing is checked against the devices"),
            ("$.http", fields.http != nil, "a client's HTTP is watched on the devices' side (ssdp-sim run --client)"),
        ]
        for (field, given, why) in unobservable where given {
            throw SimulatorInputError(
                file: path,
                path: field,
                reason: "a search of a network the harness does not run cannot check this: \(why); use it in a scenario"
            )
        }
        do throws(FieldError) {
            return try fields.make(path: "$")
        } catch {
            throw SimulatorInputError(file: path, path: error.path, reason: error.reason)
        }
    }
}

/// A checked value that is wrong: where (JSON path) and why.
struct FieldError: Error {
    var path: String
    var reason: String

    init(_ path: String, _ reason: String) {
        self.path = path
        self.reason = reason
    }

    init(_ path: String, _ error: SSDPConfigurationError) {
        self.init("\(path).\(error.field)", error.reason(quoting: true))
    }
}

// MARK: - The file's shape

struct ScenarioSpecification: Codable {
    var name: String
    var description: String
    var seed: UInt64
    var tags: [String]?
    var search: SearchFields
    var devices: [DeviceSpecification]
    var events: [EventFields]?
    var network: NetworkFaultsSpecification?
    var expect: ExpectFields?
    var provenance: ScenarioProvenance?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case name, description, seed, tags, search, devices, events, network, expect, provenance
    }

    /// The expectations. A scenario must say what the search finds: without it, a session that finds
    /// nothing would pass.
    private func makeExpectations() throws(FieldError) -> Expectations {
        let expectations = try expect?.make(path: "$.expect")
        guard let expectations, expectations.found != nil else {
            throw FieldError(
                "$.expect.found",
                "required: say what the search must find (services, [] for nothing; including; count)"
            )
        }
        return expectations
    }

    func makeScenario(file: String) throws(FieldError) -> Scenario {
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || "-_.".contains($0) }) else {
            throw FieldError(
                "$.name",
                "\"\(name)\": use letters, digits, '-', '_' and '.' (it names report and trace files)"
            )
        }
        let knownTags = ["live"]
        for (index, tag) in (tags ?? []).enumerated() where !knownTags.contains(tag) {
            throw FieldError("$.tags[\(index)]", "\"\(tag)\": unknown tag (tags: \(knownTags.joined(separator: ", ")))")
        }
        let simulated: [SimulatedDevice]
        do throws(ScenarioDevices.Problem) {
            simulated = try ScenarioDevices.make(devices, seed: seed)
        } catch {
            throw FieldError(error.path, error.reason)
        }
        let search = try self.search.make(deviceCount: simulated.count)
        // Events in time order: a change lays over the device as the changes before it left it.
        var current = simulated
        var events: [TimedEvent] = []
        let fields = (self.events ?? []).enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }
        for (index, event) in fields {
            let made = try event.make(path: "$.events[\(index)]", devices: current)
            if made.action == .change, let changed = try? current[made.device - 1].changed(by: made.change) {
                current[made.device - 1] = changed
            }
            events.append(made)
        }
        let faults: NetworkFaults
        do throws(SSDPConfigurationError) {
            faults = try network?.make() ?? NetworkFaults()
        } catch {
            throw FieldError("$.network", error)
        }
        if (tags ?? []).contains("live") {
            // Live runs use the real network (loopback) and the simulator as it serves: its devices take the
            // timed events through their operations, and the network faults apply to what the simulator
            // sends and hears; one simulator answers a unicast search for all its devices.
            if search.mode == .unicast, simulated.count > 1 {
                throw FieldError("$.tags", "a live unicast scenario can have only one device")
            }
            if search.addressPlan == .ipv6 {
                throw FieldError(
                    "$.search.ipv6",
                    "live runs search IPv4 loopback; run IPv6 live between hosts with scripts/ssdp-lab (scripts/labs/ipv6.json)"
                )
            }
        }
        return Scenario(
            name: name,
            description: description,
            seed: seed,
            tags: tags ?? [],
            search: search,
            devices: simulated,
            events: events,
            network: faults,
            expect: try makeExpectations(),
            provenance: provenance,
            file: file
        )
    }
}

struct SearchFields: Codable {
    var target: String
    var mx: Int?
    var requests: Int?
    var mode: String?
    var device: Int?
    var ipv6: Bool?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case target, mx, requests, mode, device, ipv6
    }

    func make(deviceCount: Int) throws(FieldError) -> SearchSpecification {
        let modes = SearchSpecification.Mode.allCases.map(\.rawValue)
        guard let mode = SearchSpecification.Mode(rawValue: self.mode ?? "multicast") else {
            throw FieldError("$.search.mode", "\"\(self.mode ?? "")\": must be one of \(modes.joined(separator: ", "))")
        }
        let requests = self.requests ?? 3
        guard (0...ScenarioFile.maximumRequests).contains(requests) else {
            throw FieldError("$.search.requests", "\"\(requests)\": must be 0...\(ScenarioFile.maximumRequests)")
        }
        if let device, mode == .multicast {
            throw FieldError("$.search.device", "\"\(device)\": only a unicast search is sent to one device")
        }
        let device = self.device ?? 1
        guard (1...deviceCount).contains(device) else {
            throw FieldError("$.search.device", "\"\(device)\": there are devices 1...\(deviceCount)")
        }
        var search = SearchSpecification(target: target, mx: mx ?? 3, requests: requests, mode: mode, device: device)
        search.addressPlan = ipv6 == true ? .ipv6 : .ipv4
        do throws(SSDPConfigurationError) {
            _ = try search.configuration(host: "192.0.2.1", port: 1900)
        } catch {
            let names = [
                "searchTarget": "target", "maximumWaitResponseTime": "mx",
                "maximumSearchRequestsBeforeClosing": "requests",
            ]
            throw FieldError("$.search.\(names[error.field] ?? error.field)", error.reason(quoting: true))
        }
        return search
    }
}

struct EventFields: Codable {
    var at: Double
    var action: String
    var device: Int?
    var downFor: Double?
    var set: DeviceChange.Specification?
    var network: NetworkFaultsSpecification?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case at, action, device, downFor, set, network
    }

    /// The event; a change's `behaviour` and `httpFaults` lay over `devices[device - 1]` as it is by then.
    func make(path: String, devices: [SimulatedDevice]) throws(FieldError) -> TimedEvent {
        guard let action = TimedEvent.Action(rawValue: action) else {
            let actions = TimedEvent.Action.allCases.map(\.rawValue).joined(separator: ", ")
            throw FieldError("\(path).action", "\"\(self.action)\": must be one of \(actions)")
        }
        if downFor != nil, action != .reboot {
            throw FieldError("\(path).downFor", "only a reboot has a time down")
        }
        if set != nil, action != .change {
            throw FieldError("\(path).set", "only a change sets fields")
        }
        if network != nil, action != .network {
            throw FieldError("\(path).network", "only a network event sets the network's faults")
        }
        var event = TimedEvent(
            at: try seconds(at, path: "\(path).at"),
            action: action,
            device: 0,
            downFor: try seconds(downFor ?? 0.5, path: "\(path).downFor")
        )
        if action == .network {
            guard device == nil else { throw FieldError("\(path).device", "a network event is about no device") }
            guard let network else { throw FieldError("\(path).network", "required field is missing") }
            do throws(SSDPConfigurationError) {
                event.network = try network.make()
            } catch {
                throw FieldError("\(path).network", error)
            }
            return event
        }
        guard let device else { throw FieldError("\(path).device", "required field is missing") }
        guard (1...devices.count).contains(device) else {
            throw FieldError("\(path).device", "\"\(device)\": there are devices 1...\(devices.count)")
        }
        event.device = device
        if action == .change {
            guard let set else { throw FieldError("\(path).set", "required field is missing") }
            do throws(SSDPConfigurationError) {
                event.change = try set.make(current: devices[device - 1])
                _ = try devices[device - 1].changed(by: event.change)
            } catch {
                throw FieldError("\(path).set", error)
            }
        }
        return event
    }
}

struct ExpectFields: Codable {
    var found: FoundFields?
    var stop: StopFields?
    var searches: SearchesFields?
    var dropped: [String: CountFields]?
    var http: HTTPFields?
    var error: String?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case found, stop, searches, dropped, http, error
    }

    /// The expectations, checked; `path` is the block's JSON path in its file, for errors.
    func make(path: String) throws(FieldError) -> Expectations {
        var expectations = Expectations()
        expectations.found = try found?.make(path: "\(path).found")
        if let stop {
            let reasons: [RunRecord.StopReason] = [.timedOut, .noSearchRequests]
            if let reason = stop.reason {
                guard let expected = RunRecord.StopReason(rawValue: reason), reasons.contains(expected) else {
                    throw FieldError(
                        "\(path).stop.reason",
                        "\"\(reason)\": must be one of \(reasons.map(\.rawValue).joined(separator: ", "))"
                    )
                }
                expectations.stopReason = expected
            }
            expectations.stopTolerance = try stop.tolerance.map { (value) throws(FieldError) in
                try seconds(value, path: "\(path).stop.tolerance")
            }
        }
        if let sent = searches?.sent {
            guard (0...ScenarioFile.maximumRequests).contains(sent) else {
                throw FieldError("\(path).searches.sent", "\"\(sent)\": must be 0...\(ScenarioFile.maximumRequests)")
            }
            expectations.searchesSent = sent
        }
        for (name, count) in (dropped ?? [:]).sorted(by: { $0.key < $1.key }) {
            guard let drop = SearchSessionStatistics.Drop(rawValue: name) else {
                let names = SearchSessionStatistics.Drop.allCases.map(\.rawValue).joined(separator: ", ")
                throw FieldError("\(path).dropped.\(name)", "unknown drop reason (reasons: \(names))")
            }
            expectations.dropped[drop] = try count.make(path: "\(path).dropped.\(name)")
        }
        if let http {
            var expectation = HTTPExpectation()
            expectation.locationFetches = try http.locationFetches?.make(path: "\(path).http.locationFetches")
            for (index, action) in (http.actions ?? []).enumerated() {
                let actionPath = "\(path).http.actions[\(index)]"
                guard !action.action.isEmpty else { throw FieldError("\(actionPath).action", "must name an action") }
                expectation.actions.append(
                    HTTPExpectation.Action(
                        action: action.action,
                        arguments: action.arguments ?? [:],
                        count: try action.count?.make(path: "\(actionPath).count") ?? CountExpectation(1...Int.max)
                    )
                )
            }
            guard expectation.locationFetches != nil || !expectation.actions.isEmpty else {
                throw FieldError("\(path).http", "give locationFetches, actions or both")
            }
            expectations.http = expectation
        }
        if let error, error.trimmingCharacters(in: .whitespaces).isEmpty {
            throw FieldError("\(path).error", "must not be empty: an empty text would match any error")
        }
        expectations.error = error
        return expectations
    }
}

/// `expect.http`: `{ "locationFetches": 1, "actions": [ { "action": "AddPortMapping", "arguments":
/// { "NewExternalPort": "8080" }, "count": 1 } ] }`.
struct HTTPFields: Codable {
    struct Action: Codable {
        var action: String
        var arguments: [String: String]?
        var count: CountFields?

        enum CodingKeys: String, CodingKey, CaseIterable {
            case action, arguments, count
        }
    }

    var locationFetches: CountFields?
    var actions: [Action]?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case locationFetches, actions
    }
}

struct FoundFields: Codable {
    struct Service: Codable {
        var usn: String
        var st: String

        enum CodingKeys: String, CodingKey, CaseIterable {
            case usn, st
        }
    }

    var services: [Service]?
    var including: [Service]?
    var count: CountFields?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case services, including, count
    }

    func make(path: String) throws(FieldError) -> FoundExpectation {
        guard services != nil || including != nil || count != nil else {
            throw FieldError(path, "give services, including, count, or several of them")
        }
        return FoundExpectation(
            services: services?.map { FoundExpectation.Service(usn: $0.usn, st: $0.st) },
            including: including?.map { FoundExpectation.Service(usn: $0.usn, st: $0.st) },
            count: try count?.make(path: "\(path).count")
        )
    }
}

struct StopFields: Codable {
    var reason: String?
    var tolerance: Double?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case reason, tolerance
    }
}

struct SearchesFields: Codable {
    var sent: Int?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case sent
    }
}

/// A count (`3`) or a range (`{"min": 1}`, `{"min": 1, "max": 4}`).
struct CountFields: Codable {
    var min: Int?
    var max: Int?
    /// Whether it is written as a number (one count) rather than `{"min", "max"}`, as it was read.
    var isNumber = false

    enum CodingKeys: String, CodingKey, CaseIterable {
        case min, max
    }

    init(from decoder: any Decoder) throws {
        if let value = try? decoder.singleValueContainer().decode(Int.self) {
            (min, max, isNumber) = (value, value, true)
            return
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        min = try container.decodeIfPresent(Int.self, forKey: .min)
        max = try container.decodeIfPresent(Int.self, forKey: .max)
    }

    /// A count of exactly `count`, written as a number.
    init(exactly count: Int) {
        (min, max, isNumber) = (count, count, true)
    }

    /// Counts from `min` up to `max`, or without a limit; written as `{"min", "max"}`.
    init(min: Int, max: Int? = nil) {
        self.min = min
        self.max = max
    }

    /// A number when it was one, else `{"min", "max"}`.
    func encode(to encoder: any Encoder) throws {
        if isNumber, let min {
            var container = encoder.singleValueContainer()
            return try container.encode(min)
        }
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(min, forKey: .min)
        try container.encodeIfPresent(max, forKey: .max)
    }

    func make(path: String) throws(FieldError) -> CountExpectation {
        let lower = min ?? 0
        let upper = max ?? Int.max
        guard lower >= 0 else { throw FieldError(path, "\"\(lower)\": a count cannot be negative") }
        guard lower <= upper else { throw FieldError(path, "min must not be above max") }
        return CountExpectation(lower...upper)
    }
}

// MARK: - Value checks

/// Seconds from a file as a `Duration`, checked to be 0...3600.
private func seconds(_ value: Double, path: String) throws(FieldError) -> Duration {
    guard value.isFinite, (0...ScenarioFile.maximumSeconds).contains(value) else {
        throw FieldError(path, "\"\(value)\": must be 0...\(Int(ScenarioFile.maximumSeconds)) seconds")
    }
    return .milliseconds(Int64((value * 1_000).rounded()))
}

private func probability(_ value: Double?, path: String) throws(FieldError) -> Double {
    guard let value else { return 0 }
    guard value.isFinite, (0...1).contains(value) else {
        throw FieldError(path, "\"\(value)\": a probability must be 0...1")
    }
    return value
}
