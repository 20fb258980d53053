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
import SSDPCapture
import SSDPCore
import SSDPDevices
import SSDPSimulator

/// Turns a packet capture into a scenario that reproduces it (`ssdp-sim import`): the search the capture
/// shows, one device per address and UDN that answered it, replaying those answers byte for byte at their
/// captured delays, and expectations of what a correct session reports for that traffic.
///
/// The expectations come from running the new scenario in virtual time with the project's session and
/// taking what it reported and dropped, and the import checks that the scenario passes before writing it.
package enum CaptureImport {
    /// What the user asked for besides the capture.
    package struct Options: Sendable {
        /// The scenario's name; by default the capture's file name without its extension.
        package var name: String?
        /// The search target instead of the captured one.
        package var target: String?
        /// MX instead of the captured one.
        package var mx: Int?
        /// M-SEARCH messages instead of as many as the capture shows.
        package var requests: Int?
        /// Replace addresses, UUIDs, serial numbers and vendor identifiers (`CaptureAnonymizer`).
        package var anonymize = false

        /// Options with the captured search and no anonymizing.
        package init(
            name: String? = nil,
            target: String? = nil,
            mx: Int? = nil,
            requests: Int? = nil,
            anonymize: Bool = false
        ) {
            self.name = name
            self.target = target
            self.mx = mx
            self.requests = requests
            self.anonymize = anonymize
        }
    }

    /// An imported scenario: the file's JSON, and the scenario as the harness reads it back.
    package struct Result: Sendable {
        /// The scenario file's contents.
        package var json: Data
        /// The scenario, read back from `json`.
        package var scenario: Scenario
        /// Answers replayed, over all devices.
        package var answers: Int
        /// NOTIFY messages replayed, over all devices.
        package var notifications: Int
        /// The ST of the captured client's first M-SEARCH (the scenario's own may be another, `--st`).
        package var capturedTarget: String
        /// How many M-SEARCH messages the captured client sent.
        package var capturedSearches: Int
        /// Every SSDP datagram of the capture (anonymized with the scenario), in time order, timed from the
        /// client's first M-SEARCH: what `import --html` draws.
        package var datagrams: [TraceEntry]
    }

    /// Why a capture gives no scenario.
    package struct ImportError: Error, Sendable, CustomStringConvertible {
        /// What is missing or wrong, for the user.
        package var description: String
    }

    /// The scenario for the datagrams of `capture`, read from `file`.
    package static func scenario(
        from capture: PacketCapture,
        file: String,
        options: Options = .init()
    ) throws(ImportError) -> Result {
        var traffic = SSDPTraffic(capture.datagrams)
        guard let client = traffic.busiestSearcher else {
            throw ImportError(description: "no M-SEARCH in it: " + traffic.whatItHolds(capture))
        }
        if options.anonymize {
            traffic = CaptureAnonymizer.anonymize(traffic)
        }
        let searches = traffic.searches.filter { $0.source == traffic.searcher(client) }
        var notes: [String] = []
        let others = Set(traffic.searches.map(\.source)).subtracting([searches[0].source])
        if !others.isEmpty {
            let answers = traffic.answers.filter { $0.destination != searches[0].source }.count
            notes.append(
                "\(others.count) other searching \(others.count == 1 ? "client" : "clients") and \(answers) answers to them left out"
            )
        }
        let search = try searchFields(searches, options: options, notes: &notes)
        let capturedTarget = (try? SSDPParser.parseMessage(searches[0].payload))?.headers["ST"] ?? search.target
        let devices = makeDevices(
            answers: traffic.answers.filter { $0.destination == searches[0].source },
            notifications: traffic.notifications,
            searches: searches,
            notes: &notes
        )
        guard !devices.isEmpty else {
            throw ImportError(
                description:
                    "the \(searches.count) M-SEARCH from \(searches[0].source) got no answer and no device advertised after it: there is no device to replay"
            )
        }
        let answers = devices.reduce(0) { $0 + $1.replay.answers.count }
        let notifications = devices.reduce(0) { $0 + ($1.replay.notifications?.count ?? 0) }
        let name = options.name ?? Self.name(from: file)
        let imported = ScenarioSpecification(
            name: name,
            description:
                "Imported from \((file as NSString).lastPathComponent): \(searches.count) M-SEARCH for \(capturedTarget) from \(searches[0].source); \(devices.count) \(devices.count == 1 ? "device" : "devices") replaying \(answers) answers and \(notifications) NOTIFY.",
            seed: 1,
            tags: search.ipv6 == true ? nil : ["live"],
            search: search,
            devices: devices.map(\.specification),
            expect: ExpectFields(found: FoundFields(count: CountFields(min: 0))),
            provenance: provenance(of: capture, file: file, searches: searches, devices: devices, notes: notes, options)
        )
        let (expected, scenario) = try expecting(imported, as: "\(name).json")
        return Result(
            json: try encode(expected),
            scenario: scenario,
            answers: answers,
            notifications: notifications,
            capturedTarget: capturedTarget,
            capturedSearches: searches.count,
            datagrams: (traffic.searches + traffic.answers + traffic.notifications).sorted { $0.time < $1.time }.map {
                TraceEntry(
                    at: .seconds($0.time - searches[0].time),
                    source: $0.source,
                    destination: $0.destination,
                    bytes: $0.payload,
                    fate: "captured (packet \($0.packet))"
                )
            }
        )
    }

    /// Where the scenario came from: the capture, the client and the packets it searched in, the devices
    /// by address and UDN, and what the import left out or changed.
    private static func provenance(
        of capture: PacketCapture,
        file: String,
        searches: [PacketCapture.Datagram],
        devices: [Device],
        notes: [String],
        _ options: Options
    ) -> ScenarioProvenance {
        let start = capture.datagrams.first?.time ?? 0
        let end = capture.datagrams.last?.time ?? start
        return ScenarioProvenance(
            capture: (file as NSString).lastPathComponent,
            format: capture.format,
            packets: capture.packets,
            from: isoTime(start),
            to: isoTime(end),
            client: searches[0].source.description,
            searchPackets: searches.map(\.packet),
            devices: devices.enumerated().map { index, device in
                ScenarioProvenance.Device(device: index + 1, address: device.address, udn: device.udn)
            },
            notes: notes
                + (capture.incompleteFragments > 0
                    ? ["\(capture.incompleteFragments) IP fragments never completed"] : []),
            anonymized: options.anonymize
        )
    }

    /// `imported` with the expectations of what a correct session reports for its traffic (the project's
    /// session on the replay), and the scenario read back from it, which must pass its own checks.
    private static func expecting(
        _ imported: ScenarioSpecification,
        as scenarioFile: String
    ) throws(ImportError) -> (ScenarioSpecification, Scenario) {
        let trial = try read(imported, as: scenarioFile)
        let record: RunRecord
        do {
            record = try VirtualRun.run(trial)
        } catch {
            throw ImportError(description: "the replay could not run: \(error)")
        }
        var imported = imported
        imported.expect = ExpectFields(record: record)
        if let note = lateAnswersNote(trial, imported) { imported.provenance?.notes.append(note) }
        let scenario = try read(imported, as: scenarioFile)
        let checks = ScenarioChecks(
            scenario: scenario,
            record: record,
            tolerance: .zero,
            searchHost: "\(VirtualRun.searchDestination(scenario.search))"
        )
        let failed = checks.evaluate().filter { $0.failed }
        guard failed.isEmpty else {
            throw ImportError(
                description: "the imported scenario fails its own checks: \(failed.map(\.name).joined(separator: ", "))"
            )
        }
        return (imported, scenario)
    }

    /// How close to the session's end a datagram may reach it and still be read in time by a live run on a
    /// busy machine, which reads each a moment after it arrives: closer, and the live run may count it as
    /// late, or not at all, where the virtual run (and the expectations) counted it.
    package static let liveMargin: Duration = .milliseconds(250)

    /// A note naming the answers `trial` (the scenario `imported` reads as) delivers less than `liveMargin`
    /// before its session's end, by captured packet, if any: a live run of the scenario may miss them.
    private static func lateAnswersNote(_ trial: Scenario, _ imported: ScenarioSpecification) -> String? {
        let late = trial.replayedAnswers(within: liveMargin)
        guard !late.isEmpty else { return nil }
        let listed =
            late.prefix(5).map { late in
                let packet = imported.devices[late.device - 1].replay?.answers[late.answer].packet
                return (packet.map { "packet \($0), " } ?? "") + "device \(late.device), at \(late.at.secondsText) s"
            } + (late.count > 5 ? ["\(late.count - 5) more"] : [])
        let (count, them) = late.count == 1 ? ("1 answer reaches", "it") : ("\(late.count) answers reach", "them")
        return
            "\(count) the session less than \(liveMargin.shortSecondsText) s before its end at "
            + "\(trial.search.designedStop.secondsText) s (\(listed.joined(separator: "; "))): "
            + "a live run on a busy machine may read \(them) too late and fail its counts"
    }

    // MARK: - The search

    private static func searchFields(
        _ searches: [PacketCapture.Datagram],
        options: Options,
        notes: inout [String]
    ) throws(ImportError) -> SearchFields {
        let headers = (try? SSDPParser.parseMessage(searches[0].payload))?.headers
        guard let target = options.target ?? headers?["ST"] else {
            throw ImportError(description: "the M-SEARCH in packet \(searches[0].packet) has no ST; give one with --st")
        }
        let capturedMX = headers?["MX"].flatMap { Int($0.trimmingSpacesAndTabs()) }
        var mx = options.mx ?? capturedMX ?? 3
        if options.mx == nil, !(1...5).contains(mx) {
            notes.append("the captured MX \(mx) is outside 1...5; the scenario searches with MX \(min(max(mx, 1), 5))")
            mx = min(max(mx, 1), 5)
        }
        let targets = Set(searches.compactMap { (try? SSDPParser.parseMessage($0.payload))?.headers["ST"] })
        if targets.count > 1 {
            notes.append(
                "the client searched for \(targets.sorted().joined(separator: ", ")); the scenario searches for \(target)"
            )
        }
        if searches.count > 1 {
            let gaps = zip(searches, searches.dropFirst()).map { String(format: "%.3f", $1.time - $0.time) }
            notes.append(
                "the captured M-SEARCH messages were \(gaps.joined(separator: ", ")) s apart; the session spaces its own by MX"
            )
        }
        let requests = options.requests ?? min(searches.count, ScenarioFile.maximumRequests)
        return SearchFields(
            target: target,
            mx: mx,
            requests: requests,
            ipv6: searches[0].source.address.contains(":") ? true : nil
        )
    }

    // MARK: - The devices

    private struct Device {
        var address: String
        var udn: String?
        var replay: ReplaySpecification
        var specification: DeviceSpecification
    }

    /// What one address and UDN sent: its answers and NOTIFY messages, and the headers of the first.
    private struct Sender {
        var address: String
        var udn: String?
        var answers: [ReplaySpecification.Answer] = []
        var notifications: [ReplaySpecification.Notification] = []
        var headers: SSDPHeaders?
    }

    /// One device per address and UDN, in the order they first answered or advertised; each answer goes
    /// with the last search before it, each NOTIFY with its time from the first search.
    private static func makeDevices(
        answers: [PacketCapture.Datagram],
        notifications: [PacketCapture.Datagram],
        searches: [PacketCapture.Datagram],
        notes: inout [String]
    ) -> [Device] {
        var used: Set<String> = []
        return senders(answers: answers, notifications: notifications, searches: searches, notes: &notes)
            .enumerated().map { index, sender in
                device(replaying: sender, number: index + 1, searches: searches.count, used: &used)
            }
    }

    /// The senders of `answers` and `notifications`, in the order they first sent; what came before the
    /// first search is left out, with a note.
    private static func senders(
        answers: [PacketCapture.Datagram],
        notifications: [PacketCapture.Datagram],
        searches: [PacketCapture.Datagram],
        notes: inout [String]
    ) -> [Sender] {
        var order: [String] = []
        var grouped: [String: Sender] = [:]
        /// The entry of the device that sent `datagram` (by address and the UDN in its USN), made when new.
        func key(of datagram: PacketCapture.Datagram) -> String {
            let headers = (try? SSDPParser.parseMessage(datagram.payload))?.headers
            let udn = headers?["USN"].map { usn in String(usn.split(separator: "::", maxSplits: 1).first ?? "") }
            let key = "\(datagram.source.address) \(udn ?? "")"
            if grouped[key] == nil {
                order.append(key)
                grouped[key] = Sender(address: datagram.source.address, udn: udn)
            }
            if grouped[key]!.headers == nil { grouped[key]!.headers = headers }
            return key
        }
        let events = (answers.map { ($0, true) } + notifications.map { ($0, false) }).sorted {
            $0.0.packet < $1.0.packet
        }
        var early = (answers: 0, notifications: 0)
        for (datagram, isAnswer) in events {
            guard let search = searches.lastIndex(where: { $0.time <= datagram.time }) else {
                if isAnswer { early.answers += 1 } else { early.notifications += 1 }
                continue
            }
            let entry = key(of: datagram)
            if isAnswer {
                let delay = microseconds(datagram.time - searches[search].time)
                grouped[entry]!.answers.append(
                    ReplaySpecification.Answer(
                        search: search + 1,
                        delay: delay,
                        bytes: datagram.payload,
                        packet: datagram.packet
                    )
                )
            } else {
                let at = microseconds(datagram.time - searches[0].time)
                grouped[entry]!.notifications.append(
                    ReplaySpecification.Notification(at: at, bytes: datagram.payload, packet: datagram.packet)
                )
            }
        }
        if early.answers > 0 {
            notes.append("\(early.answers) answers to the client before its first M-SEARCH left out")
        }
        if early.notifications > 0 {
            notes.append(
                "\(early.notifications) NOTIFY before the first M-SEARCH left out (a run starts with the search)"
            )
        }
        return order.map { grouped[$0]! }
    }

    /// The device that replays what `entry` sent, number `number` of the scenario; `used` holds the UDNs
    /// of the devices before it.
    private static func device(replaying entry: Sender, number: Int, searches: Int, used: inout Set<String>) -> Device {
        let replay = ReplaySpecification(
            searches: searches,
            answers: entry.answers,
            notifications: entry.notifications.isEmpty ? nil : entry.notifications
        )
        // A simulated device needs a UDN and a type of its own. Its datagrams carry the captured USNs
        // whatever it is called, so one whose datagrams name none, or the UDN of a device at another
        // address (a device answering from two addresses), gets a made-up UDN.
        var udn =
            entry.udn.flatMap { $0.hasPrefix("uuid:") && $0.count > 5 ? $0 : nil }
            ?? "uuid:00000000-0000-4000-8000-\(String(format: "%012x", number))"
        if !used.insert(udn).inserted {
            udn = "uuid:00000000-0000-4000-8000-\(String(format: "%012x", number))"
            used.insert(udn)
        }
        let texts = entry.answers.compactMap(\.datagram) + entry.notifications.compactMap(\.datagram)
        let deviceType =
            texts.lazy.compactMap { text -> String? in
                guard let message = try? SSDPParser.parseMessage(Array(text.utf8)),
                    let target = message.searchTarget, case .deviceType = SSDPSearchTarget(target)
                else { return nil }
                return target
            }.first ?? "urn:schemas-upnp-org:device:Basic:1"
        return Device(
            address: entry.address,
            udn: entry.udn,
            replay: replay,
            specification: DeviceSpecification(
                udn: udn,
                deviceType: deviceType,
                services: [],
                server: entry.headers?["SERVER"],
                replay: replay
            )
        )
    }

    /// Seconds rounded to the microsecond, as a capture keeps them.
    private static func microseconds(_ seconds: Double) -> Double {
        (seconds * 1_000_000).rounded() / 1_000_000
    }

    // MARK: - Writing

    private static func read(_ file: ScenarioSpecification, as name: String) throws(ImportError) -> Scenario {
        do {
            return try ScenarioFile.decode(try encode(file), file: name)
        } catch {
            throw ImportError(description: "the imported scenario does not read back: \(error)")
        }
    }

    private static func encode(_ file: ScenarioSpecification) throws(ImportError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            return try encoder.encode(file) + Data("\n".utf8)
        } catch {
            throw ImportError(description: "the scenario could not be written: \(error)")
        }
    }

    private static func name(from file: String) -> String {
        let base = ((file as NSString).lastPathComponent as NSString).deletingPathExtension
        let name = String(base.map { $0.isLetter || $0.isNumber || "-_.".contains($0) ? $0 : "-" })
        return name.isEmpty ? "imported" : name
    }

    private static func isoTime(_ seconds: Double) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: Date(timeIntervalSince1970: seconds))
    }
}

extension ExpectFields {
    /// What a run reported and dropped, exactly: the expectations of an imported scenario.
    init(record: RunRecord) {
        let reports = record.reports.map(\.service)
        let services = reports.map { FoundFields.Service(usn: $0.usn, st: $0.st) }.sorted {
            ($0.usn, $0.st) < ($1.usn, $1.st)
        }
        let statistics = record.statistics ?? SearchSessionStatistics()
        // Answers after the stop reach a virtual session, which counts them, but not a live one, which has
        // closed its socket: at most as many as the replay delivered.
        let dropped = SearchSessionStatistics.Drop.allCases.map { drop in
            (
                drop.rawValue,
                drop == .notSearching
                    ? CountFields(min: 0, max: statistics[drop]) : CountFields(exactly: statistics[drop])
            )
        }
        self.init(
            found: FoundFields(services: services, count: CountFields(exactly: reports.count)),
            dropped: Dictionary(uniqueKeysWithValues: dropped)
        )
    }
}
