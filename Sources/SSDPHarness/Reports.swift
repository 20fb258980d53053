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

/// The files `ssdp-sim run` writes: JUnit XML, JSON, and per-scenario traces (pcap and a timeline).
public enum Reports {
    // MARK: - JUnit

    /// JUnit XML as CI systems read it: one test suite per scenario run and one test case per check, a
    /// `<failure>` for a failed check, `<skipped>` with the reason for a check the mode cannot observe (an
    /// external client's drop counters) and for a run that did not apply, `<error>` for a run the harness
    /// could not make.
    public static func junit(_ results: [ScenarioResult], title: String) -> String {
        let cases = results.map { result in
            result.skipped != nil || result.harnessError != nil ? 1 : max(result.checks.count, 1)
        }.reduce(0, +)
        let failures = results.map(\.failedChecks.count).reduce(0, +)
        let errors = results.filter { $0.harnessError != nil }.count
        let skipped = results.map { $0.skipped != nil ? 1 : $0.skippedChecks.count }.reduce(0, +)
        let time = decimal(results.reduce(.zero) { $0 + $1.elapsed })
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml +=
            "<testsuites name=\"ssdp-sim \(escape(title))\" tests=\"\(cases)\" failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"\(skipped)\" time=\"\(time)\">\n"
        for result in results {
            let name = escape(caseName(result))
            let failed = result.failedChecks.count
            let skippedHere = result.skipped != nil ? 1 : result.skippedChecks.count
            let tests = result.skipped != nil || result.harnessError != nil ? 1 : max(result.checks.count, 1)
            xml +=
                "  <testsuite name=\"\(name)\" file=\"\(escape(result.scenario.file))\" tests=\"\(tests)\" failures=\"\(failed)\""
            xml +=
                " errors=\"\(result.harnessError == nil ? 0 : 1)\" skipped=\"\(skippedHere)\" time=\"\(decimal(result.elapsed))\">\n"
            xml +=
                "    <properties><property name=\"seed\" value=\"\(result.seed)\"/><property name=\"mode\" value=\"\(result.mode.rawValue)\"/>"
            xml += "<property name=\"ssdp-sim\" value=\"\(ToolVersion.current)\"/></properties>\n"
            let classname = "scenarios.\(result.mode.rawValue).\(escape(result.scenario.name))"
            if let reason = result.skipped {
                xml +=
                    "    <testcase classname=\"\(classname)\" name=\"run\"><skipped message=\"\(escape(reason))\"/></testcase>\n"
            } else if let error = result.harnessError {
                xml +=
                    "    <testcase classname=\"\(classname)\" name=\"run\"><error message=\"\(escape(error))\"/></testcase>\n"
            } else {
                for check in result.checks {
                    xml += "    <testcase classname=\"\(classname)\" name=\"\(escape(check.name))\">"
                    switch check.status {
                    case .passed:
                        break
                    case .failed:
                        let line = "expected \(check.expected); got \(check.actual)"
                        xml +=
                            "<failure message=\"\(escape(line))\" type=\"expectation\">\(escape(line + "\nseed \(result.seed)"))</failure>"
                    case .skipped:
                        xml += "<skipped message=\"\(escape(check.actual))\"/>"
                    }
                    xml += "</testcase>\n"
                }
            }
            xml += "    <system-out>\(escape(result.scenario.description))</system-out>\n"
            xml += "  </testsuite>\n"
        }
        xml += "</testsuites>\n"
        return xml
    }

    /// Each failed expectation as one line: name, expected, actual.
    public static func failureLines(_ result: ScenarioResult) -> [String] {
        if let error = result.harnessError { return ["could not run: \(error)"] }
        return result.failedChecks.map { "\($0.name): expected \($0.expected); got \($0.actual)" }
    }

    static func caseName(_ result: ScenarioResult) -> String {
        result.seed == result.scenario.seed ? result.scenario.name : "\(result.scenario.name) [seed \(result.seed)]"
    }

    // MARK: - JSON

    /// Every run with its checks, counts and timings.
    public static func json(_ results: [ScenarioResult]) throws -> Data {
        let document = Document(
            version: ToolVersion.current,
            passed: results.filter(\.passed).count,
            failed: results.filter { !$0.passed && $0.skipped == nil }.count,
            skipped: results.filter { $0.skipped != nil }.count,
            checksSkipped: results.map(\.skippedChecks.count).reduce(0, +),
            scenarios: results.map(Document.Run.init)
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(document)
    }

    private struct Document: Encodable {
        struct Run: Encodable {
            var name: String
            var file: String
            var mode: String
            var seed: UInt64
            var passed: Bool
            var skipped: String?
            var error: String?
            var elapsedSeconds: Double
            var searchesSent: Int
            var reported: Int
            var stopSeconds: Double?
            var statistics: [String: Int]?
            var checks: [CheckResult]
            var notes: [String]

            init(_ result: ScenarioResult) {
                name = result.scenario.name
                file = result.scenario.file
                mode = result.mode.rawValue
                seed = result.seed
                passed = result.passed
                skipped = result.skipped
                error = result.harnessError
                elapsedSeconds = Reports.seconds(result.elapsed)
                searchesSent = result.record.searches.count
                reported = result.record.reports.count
                stopSeconds = result.record.endings.first.map { Reports.seconds($0.at) }
                statistics = result.record.statistics.map { statistics in
                    var fields = [
                        "searchesSent": statistics.searchesSent, "datagramsReceived": statistics.datagramsReceived,
                        "servicesReported": statistics.servicesReported,
                    ]
                    for drop in SearchSessionStatistics.Drop.allCases {
                        fields[drop.rawValue] = statistics[drop]
                    }
                    return fields
                }
                checks = result.checks
                notes = result.record.notes
            }
        }

        /// The ssdp-sim that wrote the report.
        var version: String
        var passed: Int
        var failed: Int
        var skipped: Int
        /// Checks the runs' modes could not observe (each also listed with `"status": "skipped"`).
        var checksSkipped: Int
        var scenarios: [Run]
    }

    // MARK: - Traces

    /// A pcap file (LINKTYPE_RAW: each packet an IPv4 header, a UDP header and the datagram) of every
    /// datagram in the trace, stamped `start` seconds after 1970 plus its time from the start of the
    /// search. Virtual runs start at 0, so `tcpdump -tt` prints virtual seconds.
    public static func pcap(_ trace: [TraceEntry], startingAt start: Double = 0) -> [UInt8] {
        let start = Duration.microseconds(Int64(start * 1_000_000))
        var file: [UInt8] = []
        file.appendLittleEndian(UInt32(0xA1B2_C3D4))  // microsecond timestamps
        file.appendLittleEndian(UInt16(2))
        file.appendLittleEndian(UInt16(4))
        file.appendLittleEndian(UInt32(0))  // GMT offset
        file.appendLittleEndian(UInt32(0))  // accuracy
        file.appendLittleEndian(UInt32(65_535))  // snapshot length
        file.appendLittleEndian(UInt32(101))  // LINKTYPE_RAW
        for entry in trace {
            let packet = entry.source.address.contains(":") ? ipv6Packet(entry) : ipv4Packet(entry)
            let time = max(.zero, start + entry.at)
            let (seconds, attoseconds) = time.components
            file.appendLittleEndian(UInt32(truncatingIfNeeded: seconds))
            file.appendLittleEndian(UInt32(attoseconds / 1_000_000_000_000))
            file.appendLittleEndian(UInt32(packet.count))
            file.appendLittleEndian(UInt32(packet.count))
            file += packet
        }
        return file
    }

    static func ipv4Packet(_ entry: TraceEntry) -> [UInt8] {
        let payload = entry.bytes.prefix(65_507)
        let udpLength = 8 + payload.count
        let totalLength = 20 + udpLength
        let multicast = entry.destination.address.hasPrefix("239.")
        var header: [UInt8] = [0x45, 0]
        header.appendBigEndian(UInt16(totalLength))
        header += [0, 0, 0x40, 0]  // identification 0, don't fragment
        header += [multicast ? 2 : 64, 17, 0, 0]  // TTL, UDP, checksum (filled below)
        header += octets(entry.source.address) + octets(entry.destination.address)
        let checksum = internetChecksum(header)
        header[10] = UInt8(checksum >> 8)
        header[11] = UInt8(checksum & 0xFF)
        var udp: [UInt8] = []
        udp.appendBigEndian(UInt16(entry.source.port))
        udp.appendBigEndian(UInt16(entry.destination.port))
        udp.appendBigEndian(UInt16(udpLength))
        udp.appendBigEndian(UInt16(0))  // no UDP checksum (allowed over IPv4)
        return header + udp + payload
    }

    static func ipv6Packet(_ entry: TraceEntry) -> [UInt8] {
        let payload = Array(entry.bytes.prefix(65_487))
        let udpLength = 8 + payload.count
        let (source, destination) = (ipv6Octets(entry.source.address), ipv6Octets(entry.destination.address))
        var header: [UInt8] = [0x60, 0, 0, 0]  // version 6, no traffic class or flow label
        header.appendBigEndian(UInt16(udpLength))
        header += [17, destination[0] == 0xFF ? 2 : 64]  // UDP, hop limit
        header += source + destination
        var udp: [UInt8] = []
        udp.appendBigEndian(UInt16(entry.source.port))
        udp.appendBigEndian(UInt16(entry.destination.port))
        udp.appendBigEndian(UInt16(udpLength))
        udp.appendBigEndian(UInt16(0))
        // IPv6 requires the UDP checksum, over a pseudo-header of addresses, length and protocol.
        var pseudo = source + destination
        pseudo.appendBigEndian(UInt32(udpLength))
        pseudo += [0, 0, 0, 17]
        let checksum = internetChecksum(pseudo + udp + payload)
        udp[6] = UInt8((checksum == 0 ? 0xFFFF : checksum) >> 8)
        udp[7] = UInt8((checksum == 0 ? 0xFFFF : checksum) & 0xFF)
        return header + udp + payload
    }

    private static func ipv6Octets(_ address: String) -> [UInt8] {
        var raw = in6_addr()
        guard inet_pton(AF_INET6, address, &raw) == 1 else { return Array(repeating: 0, count: 16) }
        return withUnsafeBytes(of: raw) { Array($0) }
    }

    private static func octets(_ address: String) -> [UInt8] {
        let parts = address.split(separator: ".").compactMap { UInt8($0) }
        return parts.count == 4 ? parts : [0, 0, 0, 0]
    }

    private static func internetChecksum(_ bytes: [UInt8]) -> UInt16 {
        var sum: UInt32 = 0
        for index in stride(from: 0, to: bytes.count, by: 2) {
            sum += UInt32(bytes[index]) << 8 | UInt32(index + 1 < bytes.count ? bytes[index + 1] : 0)
        }
        while sum > 0xFFFF { sum = (sum & 0xFFFF) + (sum >> 16) }
        return ~UInt16(sum)
    }

    /// A plain-text timeline: every datagram with what it was and what became of it, and what the client
    /// reported, in time order.
    public static func timeline(_ result: ScenarioResult) -> String {
        var lines: [(at: Duration, order: Int, text: String)] = []
        for (index, entry) in result.record.trace.enumerated() {
            lines.append(
                (
                    entry.at, index,
                    "\(entry.source) → \(entry.destination)  \(summary(of: entry.bytes))  [\(entry.fate)]"
                )
            )
        }
        for (index, entry) in result.record.outcomes.enumerated() {
            let text: String
            switch entry.outcome {
            case .found(let service): text = "client reports \(service.usn) (ST \(service.st))"
            case .stopped(let reason, let found): text = "client stops: \(reason), \(found) found"
            case .failed(let reason): text = "client fails: \(reason)"
            }
            lines.append((entry.at, result.record.trace.count + index, text))
        }
        lines.sort { ($0.at, $0.order) < ($1.at, $1.order) }
        var text =
            "# \(result.scenario.name) (\(result.mode.rawValue), seed \(result.seed)): \(result.scenario.description)\n"
        text += "# time (s)  source → destination  message  [fate]\n"
        for line in lines {
            let time = line.at.secondsText
            text += String(repeating: " ", count: max(0, 10 - time.count)) + time + "  " + line.text + "\n"
        }
        for check in result.checks {
            let status =
                switch check.status {
                case .passed: "pass"
                case .failed: "FAIL"
                case .skipped: "skip"
                }
            text += "# \(status) \(check.name): expected \(check.expected); got \(check.actual)\n"
        }
        return text
    }

    /// A datagram in a few words: its start line and the headers that tell answers apart.
    public static func summary(of bytes: [UInt8]) -> String {
        guard let parsed = try? SSDPParser.parse(bytes) else { return "unparseable (\(bytes.count) bytes)" }
        let message = parsed.message
        let start: String
        switch message.kind {
        case .search: start = "M-SEARCH"
        case .notify: start = "NOTIFY \(message.headers["NTS"] ?? "")"
        case .response: start = "200 OK"
        }
        let keys = message.kind == .notify ? ["NT", "USN"] : message.kind == .search ? ["ST", "MX"] : ["ST", "USN"]
        let fields = keys.compactMap { key in message.headers[key].map { "\(key)=\($0)" } }
        return ([start] + fields).joined(separator: " ")
    }

    // MARK: - Writing files

    /// Writes `data` to `path` whole or not at all: a temporary file beside it, then a rename.
    public static func writeAtomically(_ data: Data, to path: String) throws {
        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).tmp")
        do {
            try data.write(to: temporary)
            guard rename(temporary.path, url.path) == 0 else {
                throw HarnessError(reason: String(cString: strerror(errno)))
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw HarnessError(reason: "cannot write \(path): \(error)")
        }
    }

    /// Seconds with six decimals and never an exponent, as JUnit's `xs:decimal` times need.
    static func decimal(_ duration: Duration) -> String {
        String(format: "%.6f", seconds(duration))
    }

    static func seconds(_ duration: Duration) -> Double {
        duration.inSeconds
    }

    private static func escape(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "\n", "\t": escaped.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || (0xFFFE...0xFFFF).contains(scalar.value): escaped += "?"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}

extension [UInt8] {
    fileprivate mutating func appendLittleEndian<T: FixedWidthInteger>(_ value: T) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }

    fileprivate mutating func appendBigEndian<T: FixedWidthInteger>(_ value: T) {
        Swift.withUnsafeBytes(of: value.bigEndian) { append(contentsOf: $0) }
    }
}
