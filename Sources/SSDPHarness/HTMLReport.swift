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

/// What the HTML report shows of a set of runs, as the data its page draws from: the runs with their
/// checks, and per run the lifelines, every message and what became of it, the client's reports and the
/// time bands. Built from `ScenarioResult`s (or from a capture, before any run); `Reports.html` writes it
/// into one self-contained page.
package struct HTMLReport: Sendable, Encodable {
    /// The page's title.
    package var title: String
    /// The command that made the report.
    package var command: String
    /// `ssdp-sim`'s version.
    package var version = ToolVersion.current
    /// How many runs passed (counted from `runs`, as `failed` and `skipped` are; not in the page's data).
    package var passed: Int { runs.count { $0.status == .passed } }
    /// How many runs failed.
    package var failed: Int { runs.count { $0.status == .failed } }
    /// How many runs were skipped.
    package var skipped: Int { runs.count { $0.status == .skipped } }
    /// The runs, failed first, then skipped, then passed, each group in the order they ran.
    package var runs: [Run] = []
    /// Messages kept per run: a run with more keeps its first ones and says how many it left out.
    package static let messageLimit = 20_000

    /// One run of one scenario.
    package struct Run: Sendable, Encodable {
        /// Unique in the report: the scenario's name, with the seed when the scenario ran more than once.
        package var id: String
        /// The scenario's name, file and description.
        package var name: String, file: String, description: String
        /// A run mode's name (`virtual`, `live`, `external-client`: `RunMode`'s), or `capture` for a capture
        /// shown before any run, which is not a mode a scenario runs in.
        package var mode: String
        /// The seed, as text (a `UInt64` does not fit a JavaScript number).
        package var seed: String
        /// Whether the run passed, failed or was skipped (in the page's data: `passed`, `failed`, `skipped`).
        package var status: CheckResult.Status
        /// Why the run was skipped, or the harness error that ended it.
        package var note: String?
        /// Remarks on the run: how an external client exited, what the report left out.
        package var notes: [String] = []
        /// The command that runs it again, exactly.
        package var reproduce: String
        /// How long the run took, in seconds of the run's own time (virtual or real).
        package var duration: Double
        /// The checks, in the harness's order.
        package var checks: [Check] = []
        /// The lifelines: the client first, then the multicast group, then each device.
        package var lanes: [Lane] = []
        /// Every message, in time order.
        package var messages: [Message] = []
        /// What the client reported, and its stop.
        package var marks: [Mark] = []
        /// The M-SEARCH messages' MX windows and the designed stop.
        package var bands: [Band] = []
        /// Messages left out past `messageLimit`.
        package var messagesLeftOut = 0
        /// Why there are no messages, when there are none to show.
        package var noTrace: String?
    }

    /// One check and the messages (and marks) its verdict rests on.
    package struct Check: Sendable, Encodable {
        /// The check's name and verdict, what was expected and what happened.
        package var name: String, status: CheckResult.Status, expected: String, actual: String
        /// Ids of the messages (`m…`) and marks (`k…`) behind the verdict.
        package var evidence: [String]
    }

    /// One lifeline.
    package struct Lane: Sendable, Encodable {
        /// The friendly name (or `client`, `multicast group`).
        package var name: String
        /// What it is: the profile, the client's command.
        package var detail: String
        /// Its address, in small print.
        package var address: String
        /// `client`, `group` or `device`.
        package var role: String
    }

    /// One message: a datagram, or an HTTP exchange.
    package struct Message: Sendable, Encodable {
        /// `m` and its number.
        package var id: String
        /// When it was sent, in seconds from the start of the search.
        package var t: Double
        /// The lanes of its sender and its destination.
        package var from: Int, to: Int
        /// `ssdp`, `http`, `soap` or `gena`.
        package var proto: String
        /// `M-SEARCH`, `answer`, `alive`, `byebye`, `update`, `unparseable`, or the HTTP method.
        package var kind: String
        /// A few words: the start line and the headers that tell messages apart.
        package var label: String
        /// The bytes as text (cut at 16 KiB).
        package var raw: String
        /// The size in bytes.
        package var size: Int
        /// The parsed header fields, in order.
        package var headers: [[String]]
        /// What the network did with it, in words.
        package var fate: String
        /// Each copy: the lane it went to and when it arrived (`nil`: lost); none for HTTP.
        package var copies: [Copy] = []
        /// `delivered`, `lost`, `partly lost`, `duplicated`, `delayed` or `sent`.
        package var outcome: String
        /// What the client made of it (`reported`, `dropped: duplicate`, …), where known.
        package var verdict: String? = nil
        /// The M-SEARCH it answers, for an answer.
        package var answers: String? = nil
    }

    /// One copy of a message on its way.
    package struct Copy: Sendable, Encodable {
        /// The lane it went to.
        package var to: Int
        /// When it arrived; `nil` when lost.
        package var at: Double?
    }

    /// Something the client reported, on its lifeline.
    package struct Mark: Sendable, Encodable {
        /// `k` and its number.
        package var id: String
        /// When, in seconds.
        package var t: Double
        /// `found`, `stop` or `error`.
        package var kind: String
        /// What it said.
        package var text: String
        /// The messages behind a report: the answer (or answers) it came from.
        package var from: [String] = []
    }

    /// A span of the time axis.
    package struct Band: Sendable, Encodable {
        /// Where it starts and ends, in seconds.
        package var from: Double, to: Double
        /// `mx` or `stop`.
        package var kind: String
        /// What it is, in words.
        package var label: String
    }

    /// A report of `results`; `reproduce` gives each run's command, `title` and `command` head the page.
    package init(
        _ results: [ScenarioResult],
        title: String,
        command: String,
        reproduce: (ScenarioResult) -> String
    ) {
        self.title = title
        self.command = command
        let repeated = Dictionary(grouping: results, by: \.scenario.name).filter { $0.value.count > 1 }
        var runs: [(order: Int, run: Run)] = []
        for (index, result) in results.enumerated() {
            let id =
                repeated[result.scenario.name] == nil
                ? result.scenario.name : "\(result.scenario.name)-seed-\(result.seed)"
            let run = RunBuilder(result: result, id: id, reproduce: reproduce(result)).run
            let order = run.status == .failed ? 0 : run.status == .skipped ? 1 : 2
            runs.append((order * results.count + index, run))
        }
        self.runs = runs.sorted { $0.order < $1.order }.map(\.run)
    }

    /// A report of a capture before any run: its datagrams as one run with no checks, each host a lifeline.
    package init(capture name: String, description: String, datagrams: [TraceEntry], command: String) {
        self.title = "ssdp-sim import: \(name)"
        self.command = command
        var builder = RunBuilder(name: name, description: description, trace: datagrams)
        builder.run.reproduce = command
        runs = [builder.run]
    }
}

/// Builds one run of the report.
private struct RunBuilder {
    var run: HTMLReport.Run
    /// The client's lane (0) for each endpoint it searched from.
    private var laneOfClient: [SSDPEndpoint: Int] = [:]
    /// A device's lane by its key: `udn:` and its UDN, or `addr:` and the address it sent from.
    private var laneOfKey: [String: Int] = [:]
    private var groupLane: Int?
    /// The answers of each USN, by their place in `run.messages`.
    private var answersByUSN: [String: [Int]] = [:]
    /// A device's lane by an endpoint it sent from (the client's excluded).
    private var laneOfSource: [SSDPEndpoint: Int] = [:]
    /// The scenario's devices: each one's root UDN, every UDN of its tree (embedded devices' too), its
    /// friendly name and what it is.
    private var devices: [(udn: String, udns: Set<String>, name: String, detail: String)] = []
    /// The message of each HTTP request, by its place in `HTTPActivity.requests`.
    private var requestMessages: [Int: String] = [:]

    init(result: ScenarioResult, id: String, reproduce: String) {
        let scenario = result.scenario
        let status: CheckResult.Status = result.skipped != nil ? .skipped : result.passed ? .passed : .failed
        run = HTMLReport.Run(
            id: id,
            name: scenario.name,
            file: scenario.file,
            description: scenario.description,
            mode: result.mode.rawValue,
            seed: String(result.seed),
            status: status,
            note: result.skipped ?? result.harnessError,
            reproduce: reproduce,
            duration: result.record.duration.inSeconds
        )
        run.notes = result.record.notes
        devices = scenario.devices.map { device in
            (
                device.device.udn, Self.udns(of: device.device), device.device.friendlyName,
                device.profile.map { "profile \($0)" } ?? "device file"
            )
        }
        let client =
            switch result.mode {
            case .externalClient: "the client under test"
            case .live: "the search session, live"
            case .virtual: "the search session"
            }
        let parsed = result.record.trace.map { try? SSDPParser.parseMessage($0.bytes) }
        lanes(for: result.record.trace, parsed: parsed, client: client)
        messages(of: result.record, parsed: parsed)
        marks(of: result.record)
        bands(of: result, scenario: scenario)
        checks(result.checks, record: result.record)
        if result.record.trace.isEmpty {
            run.noTrace =
                result.skipped != nil
                ? "the run was skipped" : "no datagram was recorded (the run kept no trace of them)"
        }
    }

    init(name: String, description: String, trace: [TraceEntry]) {
        run = HTMLReport.Run(
            id: name,
            name: name,
            file: "",
            description: description,
            mode: "capture",
            seed: "0",
            status: .passed,
            reproduce: "",
            duration: trace.last.map { $0.at.inSeconds } ?? 0
        )
        let parsed = trace.map { try? SSDPParser.parseMessage($0.bytes) }
        lanes(for: trace, parsed: parsed, client: "a host that searched")
        messages(of: RunRecord(trace: trace), parsed: parsed)
    }

    // MARK: - Lifelines

    /// The client is every endpoint that sent an M-SEARCH; the group is the multicast address; a device is
    /// the UDN in the USNs it sent (several devices can share one socket, as live runs on loopback do), or
    /// else the address it sent from. Devices are named by their UDN, matched to the scenario's.
    /// `parsed` holds each datagram as the parser reads it, in the trace's order.
    private mutating func lanes(for trace: [TraceEntry], parsed: [SSDPMessage?], client: String) {
        var searchers: [SSDPEndpoint] = []
        var keys: [String] = []
        var sourceOfKey: [String: SSDPEndpoint] = [:]
        var searched: [SSDPEndpoint] = []
        for (entry, message) in zip(trace, parsed) {
            if Self.isSearch(entry.bytes) {
                if !searchers.contains(entry.source) { searchers.append(entry.source) }
                if !Self.isGroup(entry.destination), !searched.contains(entry.destination) {
                    searched.append(entry.destination)
                }
                continue
            }
            let key = key(of: entry, usn: message?.headers[.usn])
            if sourceOfKey[key] == nil {
                keys.append(key)
                sourceOfKey[key] = entry.source
            }
        }
        let clientAddresses = Set(searchers.map(\.address)).sorted().joined(separator: ", ")
        run.lanes.append(HTMLReport.Lane(name: "client", detail: client, address: clientAddresses, role: "client"))
        for searcher in searchers { laneOfClient[searcher] = 0 }
        if trace.contains(where: { Self.isGroup($0.destination) }) {
            groupLane = run.lanes.count
            run.lanes.append(
                HTMLReport.Lane(name: "multicast group", detail: "SSDP", address: "239.255.255.250:1900", role: "group")
            )
        }
        // Devices in the scenario's order where their UDN names them, the others as they appeared.
        let known = devices.map { "udn:" + $0.udn }
        let ordered = keys.enumerated().sorted { a, b in
            (known.firstIndex(of: a.element) ?? Int.max, a.offset) < (
                known.firstIndex(of: b.element) ?? Int.max, b.offset
            )
        }.map(\.element)
        let sharing = Dictionary(grouping: ordered, by: { sourceOfKey[$0]?.address ?? "" }).mapValues(\.count)
        for key in ordered {
            let source = sourceOfKey[key] ?? SSDPEndpoint(address: "?", port: 0)
            if laneOfSource[source] == nil { laneOfSource[source] = run.lanes.count }
            let device = devices.first { "udn:" + $0.udn == key }
            laneOfKey[key] = run.lanes.count
            run.lanes.append(
                HTMLReport.Lane(
                    name: device?.name ?? "device",
                    detail: device?.detail ?? (key.hasPrefix("udn:") ? String(key.dropFirst(4)) : "no USN sent"),
                    address: (sharing[source.address] ?? 0) > 1 ? "\(source)" : source.address,
                    role: "device"
                )
            )
        }
        // Where a datagram went to an address several devices share, or none sent from, a lane stands for it.
        let recipients = searched + trace.flatMap { $0.copies.map(\.to) }
        for destination in recipients where laneOfClient[destination] == nil && !Self.isGroup(destination) {
            guard laneOfSource[destination] == nil, laneOfKey["addr:\(destination)"] == nil,
                lanesAt(destination.address).count != 1
            else { continue }
            let shared = !lanesAt(destination.address).isEmpty
            laneOfKey["addr:\(destination)"] = run.lanes.count
            run.lanes.append(
                HTMLReport.Lane(
                    name: shared ? "devices at \(destination)" : "host \(destination.address)",
                    detail: shared ? "one socket" : "sent nothing",
                    address: "\(destination)",
                    role: "device"
                )
            )
        }
    }

    /// Every UDN in a device's tree: its own and its embedded devices'.
    private static func udns(of device: SSDPDevice) -> Set<String> {
        device.embeddedDevices.reduce(into: [device.udn]) { $0.formUnion(udns(of: $1)) }
    }

    /// A device's lane key: the root UDN of the device whose USN it sent (an embedded device is its root's),
    /// the UDN itself for a device the scenario does not know (a capture's), or the address it sent from.
    private func key(of entry: TraceEntry, usn: String?) -> String {
        guard let usn, let udn = usn.components(separatedBy: "::").first, !udn.isEmpty else {
            return "addr:" + entry.source.address
        }
        return "udn:" + (devices.first { $0.udns.contains(udn) }?.udn ?? udn)
    }

    private static func isSearch(_ bytes: [UInt8]) -> Bool {
        bytes.starts(with: Array("M-SEARCH".utf8))
    }

    private static func isGroup(_ endpoint: SSDPEndpoint) -> Bool {
        endpoint.address == "239.255.255.250" || endpoint.address.lowercased().hasPrefix("ff0")
    }

    /// The device lanes whose devices sent from `address`.
    private func lanesAt(_ address: String) -> [Int] {
        run.lanes.indices.filter { run.lanes[$0].role == "device" && run.lanes[$0].address.hasPrefix(address) }
            .filter { run.lanes[$0].address == address || run.lanes[$0].address.hasPrefix(address + ":") }
    }

    /// The lane of the sender of `entry`.
    private func sender(of entry: TraceEntry, usn: String?) -> Int {
        if let lane = laneOfClient[entry.source] { return lane }
        return laneOfKey[key(of: entry, usn: usn)] ?? recipient(entry.source)
    }

    /// The lane of a datagram's destination (or a copy's recipient).
    private func recipient(_ endpoint: SSDPEndpoint) -> Int {
        if let lane = laneOfClient[endpoint] { return lane }
        if Self.isGroup(endpoint) { return groupLane ?? 0 }
        if let lane = laneOfKey["addr:\(endpoint)"] ?? laneOfSource[endpoint] { return lane }
        let lanes = lanesAt(endpoint.address)
        return lanes.count == 1 ? lanes[0] : laneOfKey["addr:" + endpoint.address] ?? 0
    }

    // MARK: - Messages

    private mutating func messages(of record: RunRecord, parsed: [SSDPMessage?]) {
        var verdicts: [DeliveryKey: [String]] = [:]
        for delivery in record.deliveries {
            verdicts[DeliveryKey(at: delivery.at, source: delivery.source), default: []].append(delivery.verdict)
        }
        var lastSearch: String?
        for (entry, parsed) in zip(record.trace, parsed).prefix(HTMLReport.messageLimit) {
            let id = "m\(run.messages.count)"
            let kind = Self.kind(of: parsed)
            if kind == "M-SEARCH" { lastSearch = id }
            let copies = entry.copies.map { HTMLReport.Copy(to: recipient($0.to), at: $0.arrival?.inSeconds) }
            var verdict: [String] = []
            for copy in entry.copies where recipient(copy.to) == 0 {
                guard let arrival = copy.arrival else { continue }
                let key = DeliveryKey(at: arrival, source: entry.source)
                if let first = verdicts[key]?.first {
                    verdict.append(first)
                    verdicts[key]?.removeFirst()
                }
            }
            run.messages.append(
                HTMLReport.Message(
                    id: id,
                    t: entry.at.inSeconds,
                    from: sender(of: entry, usn: parsed?.headers[.usn]),
                    to: recipient(entry.destination),
                    proto: "ssdp",
                    kind: kind,
                    label: Reports.summary(of: parsed, size: entry.bytes.count),
                    raw: Self.text(of: entry.bytes),
                    size: entry.bytes.count,
                    headers: parsed?.headers.fields.map { [$0.name, $0.value] } ?? [],
                    fate: entry.fate,
                    copies: copies,
                    outcome: Self.outcome(entry),
                    verdict: verdict.isEmpty ? nil : verdict.joined(separator: "; "),
                    answers: kind == "answer" ? lastSearch : nil
                )
            )
        }
        run.messagesLeftOut = max(0, record.trace.count - HTMLReport.messageLimit)
        guard let http = record.http else { return }
        // A request is the device's whose LOCATION's directory is the longest start of its URL (devices that
        // share one server have LOCATIONs like http://host:port/device/2/description.xml).
        let bases = http.locations.map { location in
            String(location[...(location.lastIndex(of: "/") ?? location.startIndex)])
        }
        for (number, request) in http.requests.enumerated() {
            let device =
                bases.indices.filter { request.url.hasPrefix(bases[$0]) }.max { bases[$0].count < bases[$1].count }
                ?? http.locations.firstIndex { Self.origin($0) == Self.origin(request.url) }
            requestMessages[number] = "m\(run.messages.count)"
            let lane = device.flatMap { devices[safe: $0].flatMap { laneOfKey["udn:" + $0.udn] } } ?? 0
            let proto =
                switch request.method {
                case "POST": "soap"
                case "SUBSCRIBE", "UNSUBSCRIBE", "NOTIFY": "gena"
                default: "http"
                }
            let action = http.actions.first {
                abs($0.at.inSeconds - request.at.inSeconds) < 0.5 && request.method == "POST"
            }
            let actionText = action.map { call in
                "\n\nSOAP action \(call.action)("
                    + call.arguments.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", ")
                    + ")" + (call.errorCode.map { " → UPnP error \($0)" } ?? "")
            }
            run.messages.append(
                HTMLReport.Message(
                    id: "m\(run.messages.count)",
                    t: request.at.inSeconds,
                    from: 0,
                    to: lane,
                    proto: proto,
                    kind: request.method,
                    label:
                        "\(request.method) \(Self.path(request.url)) → \(request.status == 0 ? "no answer" : String(request.status))",
                    raw: "\(request.method) \(request.url)\n\nstatus \(request.status)" + (actionText ?? ""),
                    size: 0,
                    headers: [],
                    fate: request.status == 0 ? "never answered" : "answered \(request.status)",
                    outcome: request.status == 0 ? "lost" : "delivered"
                )
            )
        }
        for event in http.events {
            let lane = devices.first { $0.udns.contains(event.udn) }.flatMap { laneOfKey["udn:" + $0.udn] } ?? 0
            let service = event.serviceType.split(separator: ":").dropLast().last.map(String.init) ?? event.serviceType
            let answer = event.lost ? "lost" : event.status.map { "answered \($0)" } ?? "never answered"
            run.messages.append(
                HTMLReport.Message(
                    id: "m\(run.messages.count)",
                    t: event.at.inSeconds,
                    from: lane,
                    to: 0,
                    proto: "gena",
                    kind: "event",
                    label:
                        "NOTIFY event \(service) SEQ \(event.sequence) → \(event.status.map(String.init) ?? (event.lost ? "lost" : "no answer"))",
                    raw: "NOTIFY \(event.callback)\nSID: \(event.sid)\nSEQ: \(event.sequence)\n\n\(event.body)",
                    size: event.body.utf8.count,
                    headers: [["SID", event.sid], ["SEQ", String(event.sequence)], ["CALLBACK", event.callback]],
                    fate: answer,
                    outcome: event.lost || event.status == nil ? "lost" : "delivered"
                )
            )
        }
        run.messages.sort { $0.t < $1.t }
    }

    private struct DeliveryKey: Hashable {
        var at: Duration
        var source: SSDPEndpoint
    }

    private static func origin(_ url: String) -> String {
        url.split(separator: "/", maxSplits: 3, omittingEmptySubsequences: false).prefix(3).joined(separator: "/")
    }

    private static func path(_ url: String) -> String {
        let parts = url.split(separator: "/", maxSplits: 3, omittingEmptySubsequences: false)
        return parts.count > 3 ? "/" + parts[3] : url
    }

    private static func kind(of message: SSDPMessage?) -> String {
        guard let message else { return "unparseable" }
        switch message.kind {
        case .search: return "M-SEARCH"
        case .response: return "answer"
        case .notify:
            switch message.notificationSubtype {
            case .alive?: return "alive"
            case .byebye?: return "byebye"
            case .update?: return "update"
            default: return "NOTIFY"
            }
        }
    }

    private static func outcome(_ entry: TraceEntry) -> String {
        guard !entry.copies.isEmpty else {
            return entry.fate.hasPrefix("too large") ? "lost" : "sent"
        }
        let arrivals = entry.copies.compactMap(\.arrival)
        if arrivals.isEmpty { return "lost" }
        if arrivals.count < entry.copies.count { return "partly lost" }
        if Set(entry.copies.map(\.to)).count < entry.copies.count { return "duplicated" }
        if arrivals.contains(where: { $0 - entry.at >= .milliseconds(50) }) { return "delayed" }
        return "delivered"
    }

    /// The bytes as text: UTF-8 where it is, every other byte as `\xNN`, cut at 16 KiB.
    private static func text(of bytes: [UInt8]) -> String {
        let limit = 16 * 1_024
        let shown = bytes.prefix(limit)
        var text = ""
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = shown.makeIterator()
        var position = shown.startIndex
        loop: while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                text.unicodeScalars.append(Unicode.UTF8.decode(encoded))
                position += encoded.count
            case .error(let length):
                for byte in shown[position..<(position + length)] {
                    text += "\\x" + (byte < 16 ? "0" : "") + String(byte, radix: 16)
                }
                position += length
            case .emptyInput:
                break loop
            }
        }
        if bytes.count > limit { text += "\n… \(bytes.count - limit) more bytes not shown" }
        return text
    }

    // MARK: - Marks, bands and checks

    private mutating func marks(of record: RunRecord) {
        for (index, message) in run.messages.enumerated() where message.kind == "answer" {
            if let usn = message.headers.first(where: { $0[0].uppercased() == "USN" })?[1] {
                answersByUSN[usn, default: []].append(index)
            }
        }
        for (index, entry) in record.outcomes.enumerated() {
            let id = "k\(index)"
            switch entry.outcome {
            case .found(let service):
                run.marks.append(
                    HTMLReport.Mark(
                        id: id,
                        t: entry.at.inSeconds,
                        kind: "found",
                        text: "found \(service.usn) (ST \(service.st))",
                        from: answers(behind: service, at: entry.at.inSeconds)
                    )
                )
            case .stopped(let reason, let found):
                run.marks.append(
                    HTMLReport.Mark(
                        id: id,
                        t: entry.at.inSeconds,
                        kind: "stop",
                        text: "stop: \(RunRecord.StopReason.describe(reason)), \(found) found"
                    )
                )
            case .failed(let reason):
                run.marks.append(
                    HTMLReport.Mark(id: id, t: entry.at.inSeconds, kind: "error", text: "error: \(reason)")
                )
            }
        }
    }

    /// The answers a report came from: the ones with its USN that reached the client at the report's time,
    /// or else the last that reached it before.
    private func answers(behind service: ReportedService, at time: Double) -> [String] {
        let candidates = (answersByUSN[service.usn] ?? []).map { run.messages[$0] }
        let arrivals = candidates.compactMap { message -> (id: String, at: Double)? in
            let arrival =
                message.copies.filter { $0.to == 0 }.compactMap(\.at).filter { $0 <= time + 1e-9 }.max()
                ?? (message.copies.isEmpty && message.t <= time + 1e-9 ? message.t : nil)
            return arrival.map { (message.id, $0) }
        }
        guard let latest = arrivals.map(\.at).max() else { return [] }
        return arrivals.filter { abs($0.at - latest) < 1e-9 }.map(\.id)
    }

    private mutating func bands(of result: ScenarioResult, scenario: Scenario) {
        for search in result.record.searches {
            let mx = Double(search.headers["MX"].flatMap { Int($0) } ?? scenario.search.mx)
            run.bands.append(
                HTMLReport.Band(
                    from: search.at.inSeconds,
                    to: search.at.inSeconds + mx,
                    kind: "mx",
                    label: "MX \(Int(mx)) s"
                )
            )
        }
        if result.mode != .externalClient, scenario.search.requests > 0 {
            let stop = scenario.search.designedStop.inSeconds
            run.bands.append(HTMLReport.Band(from: stop, to: stop, kind: "stop", label: "designed stop"))
        }
    }

    private mutating func checks(_ checks: [CheckResult], record: RunRecord) {
        let reportMarks = run.marks.filter { $0.kind == "found" }
        let searchMessages = run.messages.filter { $0.kind == "M-SEARCH" }
        for check in checks {
            var evidence: [String] = []
            for index in check.evidence.searches where record.searches.indices.contains(index) {
                let at = record.searches[index].at.inSeconds
                let nearest = searchMessages.min { abs($0.t - at) < abs($1.t - at) }
                if let nearest, abs(nearest.t - at) < 0.002 {
                    evidence += searchMessages.filter { abs($0.t - nearest.t) < 1e-9 }.map(\.id)
                }
            }
            for index in check.evidence.reports where reportMarks.indices.contains(index) {
                evidence.append(reportMarks[index].id)
                evidence += reportMarks[index].from
            }
            if check.evidence.ending {
                evidence += run.marks.filter { $0.kind != "found" }.map(\.id)
            }
            evidence += check.evidence.requests.compactMap { requestMessages[$0] }
            var seen = Set<String>()
            run.checks.append(
                HTMLReport.Check(
                    name: check.name,
                    status: check.status,
                    expected: check.expected,
                    actual: check.actual,
                    evidence: evidence.filter { seen.insert($0).inserted }
                )
            )
        }
    }
}

extension RunRecord {
    /// A record holding only datagrams: what a capture shows.
    fileprivate init(trace: [TraceEntry]) {
        self.init(mode: .live, seed: 0)
        self.trace = trace
    }
}

extension Array {
    fileprivate subscript(safe index: Int) -> Element? {
        indices.contains(index) ? self[index] : nil
    }
}
