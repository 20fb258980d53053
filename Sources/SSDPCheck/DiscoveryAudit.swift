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
import NIOConcurrencyHelpers
import NIOCore
import SSDPCore
import SSDPNIO

/// One search the checker sends, and what a conformant device does with it.
struct CheckSearch: Sendable {
    /// The check it belongs to: `discovery.answers` for a search a device must answer,
    /// `discovery.malformed` and the like for one it must not.
    var check: String
    /// What the report names it by: the ST, or what is wrong with the search.
    var subject: String
    /// The search target.
    var target: String
    /// The USNs a conformant device answers with; empty for a search it must not answer.
    var expected: Set<String>
    /// The datagram.
    var bytes: [UInt8]
    /// How long after MX the checker still listens: the time a late answer takes to be seen and named.
    var lateWait = Duration.milliseconds(1_500)

    /// The MX the datagram carries, 1 when it carries none that is a number of at least 1.
    var mx: Int {
        let message = try? SSDPParser.parseMessage(bytes)
        return message?.headers["MX"].flatMap { Int($0) }.flatMap { $0 >= 1 ? $0 : nil } ?? 1
    }

    /// How long the checker listens after sending it: MX, then `lateWait`.
    var wait: Duration { .seconds(mx) + lateWait }
}

/// An answer to one of the checker's searches.
struct CheckAnswer: Sendable {
    var elapsed: Duration
    var source: String
    var bytes: [UInt8]
    /// The UDP port it came from.
    var sourcePort = 0

    var text: String { String(decoding: bytes, as: UTF8.self) }
}

/// The discovery checks (UDA 1.1 §1.3): which searches to send a device, and what its answers say.
enum DiscoveryAudit {
    /// The MX of the searches the checker sends unless told (`check --mx`).
    static let mx = 1
    /// How long after MX an answer still counts as in time (the datagram's flight and the device's own
    /// scheduling).
    static let lateness = Duration.milliseconds(500)

    /// An M-SEARCH in multicast form (HOST the group, as control points write it even to one device), with
    /// the parts a test leaves out or changes.
    static func search(
        target: String?,
        startLine: String = "M-SEARCH * HTTP/1.1",
        man: Bool = true,
        mx: String? = "\(mx)"
    ) -> [UInt8] {
        var lines = [startLine, "HOST: 239.255.255.250:1900"]
        if man { lines.append("MAN: \"ssdp:discover\"") }
        if let mx { lines.append("MX: \(mx)") }
        if let target { lines.append("ST: \(target)") }
        return Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
    }

    /// The searches for `device`: each target it must answer (UDA 1.1's 3 + 2d + k), then each search it must
    /// ignore.
    static func searches(for device: DescribedDevice, mx: Int = mx) -> [CheckSearch] {
        let devices = device.allDevices
        var all: Set<String> = ["\(device.udn)::upnp:rootdevice"]
        var byTarget: [(String, Set<String>)] = [("upnp:rootdevice", ["\(device.udn)::upnp:rootdevice"])]
        for described in devices {
            all.insert(described.udn)
            all.insert("\(described.udn)::\(described.deviceType)")
            byTarget.append((described.udn, [described.udn]))
        }
        var types: [String: Set<String>] = [:]
        var order: [String] = []
        for described in devices {
            for type in [described.deviceType] + described.services.map(\.serviceType) where !type.isEmpty {
                if types[type] == nil { order.append(type) }
                types[type, default: []].insert("\(described.udn)::\(type)")
                all.insert("\(described.udn)::\(type)")
            }
        }
        byTarget += order.map { ($0, types[$0] ?? []) }
        var searches = [
            CheckSearch(
                check: "discovery.answers",
                subject: "ssdp:all",
                target: "ssdp:all",
                expected: all,
                bytes: search(target: "ssdp:all", mx: "\(mx)")
            )
        ]
        searches += byTarget.map {
            CheckSearch(
                check: "discovery.answers",
                subject: $0.0,
                target: $0.0,
                expected: $0.1,
                bytes: search(target: $0.0, mx: "\(mx)")
            )
        }
        let root = "upnp:rootdevice"
        let malformed: [(String, [UInt8])] = [
            ("no * in the start line", search(target: root, startLine: "M-SEARCH / HTTP/1.1")),
            ("HTTP/1.0", search(target: root, startLine: "M-SEARCH * HTTP/1.0")),
            ("no MAN", search(target: root, man: false)),
            ("no MX", search(target: root, mx: nil)),
            ("no ST", search(target: nil)),
            ("MX 0", search(target: root, mx: "0")),
            ("MX not a number", search(target: root, mx: "one")),
        ]
        searches += malformed.map {
            CheckSearch(check: "discovery.malformed", subject: $0.0, target: root, expected: [], bytes: $0.1)
        }
        // A device answers searches, not other devices' advertisements.
        let notify =
            [
                "NOTIFY * HTTP/1.1", "HOST: 239.255.255.250:1900", "CACHE-CONTROL: max-age=1800",
                "LOCATION: http://192.0.2.1:80/description.xml", "NT: upnp:rootdevice", "NTS: ssdp:alive",
                "SERVER: ssdp-sim-check/1 UPnP/1.1 check/1",
                "USN: uuid:\(UUID().uuidString.lowercased())::upnp:rootdevice",
            ].joined(separator: "\r\n") + "\r\n\r\n"
        searches.append(
            CheckSearch(
                check: "discovery.notify",
                subject: "a NOTIFY ssdp:alive",
                target: root,
                expected: [],
                bytes: Array(notify.utf8)
            )
        )
        let unknown = "uuid:\(UUID().uuidString.lowercased())"
        searches.append(
            CheckSearch(
                check: "discovery.unknown-uuid",
                // Named alike in every run (a report's test names must not change), searched anew each time.
                subject: "uuid:<a UUID no device has>",
                target: unknown,
                expected: [],
                bytes: search(target: unknown)
            )
        )
        if let higher = higherVersion(of: device.deviceType) {
            searches.append(
                CheckSearch(
                    check: "discovery.higher-version",
                    subject: higher,
                    target: higher,
                    expected: [],
                    bytes: search(target: higher)
                )
            )
        }
        return searches
    }

    /// `type` one version up (`…:device:MediaServer:2` for `:1`), or `nil` when its version is not a whole
    /// number (`1-0`, as Roku writes it).
    static func higherVersion(of type: String) -> String? {
        guard let colon = type.lastIndex(of: ":"), let version = Int(type[type.index(after: colon)...]),
            case (let higher, false) = version.addingReportingOverflow(1)
        else { return nil }
        return type[...colon] + "\(higher)"
    }

    /// Sends every search to `address` at once, each from its own port, and gathers each one's answers.
    static func send(_ searches: [CheckSearch], to address: SocketAddress) async -> [Result<[CheckAnswer], any Error>] {
        await withTaskGroup(of: (Int, Result<[CheckAnswer], any Error>).self) { group in
            for (index, search) in searches.enumerated() {
                group.addTask {
                    let answers = NIOLockedValueBox<[CheckAnswer]>([])
                    do {
                        _ = try await SSDPProbe.send(search.bytes, to: address, wait: search.wait) { answer in
                            answers.withLockedValue {
                                // a device that floods one search is not kept without bound
                                if $0.count < 256 {
                                    $0.append(
                                        CheckAnswer(
                                            elapsed: answer.elapsed,
                                            source: answer.source.ipAddress ?? "",
                                            bytes: answer.bytes,
                                            sourcePort: answer.source.port ?? 0
                                        )
                                    )
                                }
                            }
                        }
                        return (index, .success(answers.withLockedValue { $0 }))
                    } catch {
                        return (index, .failure(error))
                    }
                }
            }
            var results = [Result<[CheckAnswer], any Error>](repeating: .success([]), count: searches.count)
            for await (index, result) in group { results[index] = result }
            return results
        }
    }

    /// The results of `search`'s `answers` for the device at `location`, searched at `searchedHost`.
    static func evaluate(
        _ search: CheckSearch,
        answers: [CheckAnswer],
        location: URL,
        searchedHost: String,
        deviceUUIDs: Set<String>
    ) -> [DeviceCheckResult] {
        // Answers from other devices (a multicast search) are not this device's.
        let parsed = answers.map { answer in (answer, try? SSDPParser.parse(answer.bytes)) }
        let own = parsed.filter { _, message in
            guard let usn = message?.message.headers[.usn] else { return true }
            return deviceUUIDs.contains(uuid(ofUSN: usn).lowercased())
        }
        func evidence(_ answer: CheckAnswer) -> String {
            "from \(answer.source) after \(answer.elapsed.milliseconds) ms:\n" + answer.text
        }
        guard !search.expected.isEmpty else {
            return [
                .expect(
                    search.check,
                    search.subject,
                    failure: own.isEmpty
                        ? nil : "answered \(plural(own.count, "time")); a device must ignore this search",
                    passed: "no answer",
                    evidence: own.first.map { evidence($0.0) } ?? ""
                )
            ]
        }
        var results: [DeviceCheckResult] = []
        let unparsed = own.filter { $0.1 == nil }
        // A device may describe itself at more than one LOCATION (a Roku's DIAL service is in /dial/dd.xml):
        // answers naming another one are that description's, not this one's.
        let elsewhere = Set(
            own.compactMap { _, message -> String? in
                guard let headers = message?.message.headers, let text = headers[.location],
                    !location.isSameDocument(as: text)
                else { return nil }
                return headers[.usn]
            }
        )
        let usns = Set(own.compactMap { $0.1?.message.headers[.usn] }).subtracting(elsewhere)
        let missing = search.expected.subtracting(usns).sorted()
        let unexpected = usns.subtracting(search.expected).sorted()
        var problems: [String] = []
        if own.isEmpty { problems.append("no answer within \(search.wait.shortSecondsText) s") }
        if !missing.isEmpty { problems.append("no answer with USN " + missing.joined(separator: ", ")) }
        if !unexpected.isEmpty {
            problems.append("answers this search should not get: " + unexpected.joined(separator: ", "))
        }
        if !unparsed.isEmpty { problems.append("\(plural(unparsed.count, "answer")) that cannot be parsed") }
        results.append(
            .expect(
                "discovery.answers",
                search.subject,
                failure: problems.isEmpty ? nil : problems.joined(separator: "; "),
                passed: plural(usns.count, "USN")
                    + (elsewhere.isEmpty ? "" : ", and \(plural(elsewhere.count, "USN")) at another LOCATION"),
                evidence: (unparsed.first ?? own.first).map { evidence($0.0) } ?? ""
            )
        )
        guard !own.isEmpty else { return results }
        results.append(headersResult("discovery.headers", search.subject, own, evidence: evidence))
        let wrongST = own.filter { answer, message in
            if let usn = message?.message.headers[.usn], elsewhere.contains(usn) { return false }
            guard let st = message?.message.headers[.st] else { return false }
            return search.target == "ssdp:all"
                ? !search.expected.contains { $0.hasSuffix("::" + st) || $0 == st } : st != search.target
        }
        results.append(
            .expect(
                "discovery.st",
                search.subject,
                failure: wrongST.first.map { "ST is \($0.1?.message.headers[.st] ?? ""), not the target searched for" },
                evidence: wrongST.first.map { evidence($0.0) } ?? ""
            )
        )
        results.append(mxResult(search, own.map(\.0), evidence: evidence))
        let misplaced = own.filter { answer, message in
            guard let text = message?.message.headers[.location] else { return false }
            guard let host = URL(string: text)?.host else { return true }
            return host != answer.source && host != searchedHost
        }
        results.append(
            .expect(
                "discovery.location",
                search.subject,
                failure: misplaced.first.map {
                    "LOCATION \($0.1?.message.headers[.location] ?? "") is not a URL on the address the answer came from (\($0.0.source)) or the one searched (\(searchedHost))"
                },
                evidence: misplaced.first.map { evidence($0.0) } ?? ""
            )
        )
        return results
    }

    /// The `discovery.mx` result of a search's answers: failed for an answer after MX; warned when every
    /// answer to `ssdp:all` came at once, since UDA asks for each to wait a random time within MX, so
    /// that a network's devices do not all answer in the same instant.
    static func mxResult(
        _ search: CheckSearch,
        _ answers: [CheckAnswer],
        evidence: (CheckAnswer) -> String
    ) -> DeviceCheckResult {
        let times = answers.map(\.elapsed)
        let latest = times.max() ?? .zero
        let mx = search.mx
        if let late = answers.first(where: { $0.elapsed > .seconds(mx) + lateness }) {
            return .failed(
                "discovery.mx",
                search.subject,
                "answered after \(late.elapsed.milliseconds) ms, outside MX \(mx) s (UDA 1.1 §1.3.3)",
                evidence: evidence(late)
            )
        }
        if search.target == "ssdp:all", answers.count > 1, latest < .milliseconds(100) {
            return .warned(
                "discovery.mx",
                search.subject,
                "all \(answers.count) answers within \(latest.milliseconds) ms: UDA 1.1 §1.3.3 asks for a random delay within MX"
            )
        }
        return .passed("discovery.mx", search.subject, "latest after \(latest.milliseconds) ms")
    }

    /// The largest UDP payload one Ethernet frame carries (1,500 bytes less the IPv4 and UDP headers).
    static let maximumUnfragmented = 1_472

    /// The headers UDA 1.1 and 2.0 name for SSDP messages, as they spell them.
    static let udaHeaderNames: Set<String> = [
        "HOST", "CACHE-CONTROL", "DATE", "EXT", "LOCATION", "SERVER", "ST", "USN", "NT", "NTS", "MAN", "MX",
        "BOOTID.UPNP.ORG", "CONFIGID.UPNP.ORG", "NEXTBOOTID.UPNP.ORG", "SEARCHPORT.UPNP.ORG",
        "SECURELOCATION.UPNP.ORG", "OPT", "01-NLS",
    ]

    /// The `discovery.headers` (or `advertisement.headers`) result of `answers`, messages of the UDA
    /// template at `template` (§1.3.3 for answers, §1.2.2 for NOTIFYs): failed for a rule broken (a header
    /// UDA 1.1 requires missing, bare line feeds, a broken CACHE-CONTROL), warned for a spelling clients
    /// trip on; each problem in words with its section, and counted when several messages share it.
    static func headersResult(
        _ check: String,
        _ subject: String,
        _ answers: [(CheckAnswer, SSDPParsedMessage?)],
        template: String = "§1.3.3",
        evidence: (CheckAnswer) -> String
    ) -> DeviceCheckResult {
        var failing: (CheckAnswer, [HeaderProblem])?
        var warning: (CheckAnswer, [HeaderProblem])?
        var messagesWithProblems = 0
        for (answer, message) in answers {
            // A vendor's header (X-User-Agent, hue-bridgeid) may be spelt as the vendor likes.
            let diagnostics = (message?.diagnostics ?? []).filter {
                $0.code != .lowercaseHeaderName || udaHeaderNames.contains($0.field?.uppercased() ?? "")
            }
            let size =
                answer.bytes.count > maximumUnfragmented
                ? [HeaderProblem.oversized(answer.bytes.count, limit: maximumUnfragmented)] : []
            let problems =
                diagnostics.map { HeaderProblem($0, template: template) } + size
                + (message.map { HeaderProblem.numbers($0.message.headers) } ?? [])
            if !problems.isEmpty { messagesWithProblems += 1 }
            let failures = problems.filter { !$0.isWarning }
            if failing == nil, !failures.isEmpty { failing = (answer, failures) }
            if warning == nil, !problems.isEmpty, failures.isEmpty { warning = (answer, problems) }
        }
        let count = messagesWithProblems > 1 ? " (in \(messagesWithProblems) of \(answers.count) messages)" : ""
        if let (answer, problems) = failing {
            return .failed(
                check,
                subject,
                problems.map(\.description).joined(separator: "; ") + count,
                evidence: evidence(answer)
            )
        }
        if let (answer, problems) = warning {
            return .warned(
                check,
                subject,
                "allowed, but clients that match bytes miss it: "
                    + problems.map(\.description).joined(separator: "; ") + count,
                evidence: evidence(answer)
            )
        }
        return .passed(check, subject)
    }

    /// The `uuid:…` part of a USN.
    static func uuid(ofUSN usn: String) -> String {
        guard let range = usn.range(of: "::") else { return usn }
        return String(usn[..<range.lowerBound])
    }
}

/// "1 answer", "3 answers".
func plural(_ count: Int, _ noun: String) -> String {
    "\(count) \(noun)\(count == 1 ? "" : "s")"
}
