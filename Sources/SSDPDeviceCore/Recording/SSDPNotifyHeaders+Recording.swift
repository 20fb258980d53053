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

extension SSDPNotifyHeaders {
    /// One NOTIFY heard from a device (`ssdp-sim record --listen`).
    public struct Heard: Hashable, Sendable {
        /// When it came, from the start of the listening.
        public var at: Duration
        /// The UDP port it came from.
        public var sourcePort: Int?
        /// The IP TTL it arrived with.
        public var ttl: Int?
        /// The datagram.
        public var bytes: [UInt8]

        /// A NOTIFY heard `at` after the listening began.
        public init(at: Duration, sourcePort: Int?, ttl: Int?, bytes: [UInt8]) {
            self.at = at
            self.sourcePort = sourcePort
            self.ttl = ttl
            self.bytes = bytes
        }
    }

    /// How a device writes and sends its NOTIFYs, as `heard` shows it: the lines of its first alive (and
    /// first byebye, else `profile`'s, else the alive's HOST, NT, NTS, USN, BOOTID and CONFIGID lines), each
    /// name spelled and spaced as it came, and each value that names the device, the message or the moment
    /// (HOST, NT, USN, LOCATION, SERVER, CACHE-CONTROL's max-age, a 31-bit BOOTID, a CONFIGID) made the
    /// placeholder the device fills in, so that a played device at another address, or rebooted, says its
    /// own; every other line as it came (a vendor's, GSSDP's BOOTID -1). The copies of a set are the most
    /// alives of one NT heard within a second (of a byebye set: among its leaving's, else among its
    /// start's); the TTL the one most of them came with; a port of its own when none came from 1900 or from
    /// `ssdpPort`. Byebyes that run straight into an alive (each within a second of the next) say the device
    /// says byebye at start (GSSDP, MiniDLNA: a recording that waited for the device to start hears it); any
    /// other byebye is its leaving's. What a recording cannot show (whether a device heard only after it
    /// started says byebye at start, the byebye copies when none was heard) is `profile`'s, the device's
    /// family's. `nil` when no alive was heard.
    public init?(heard: [Heard], otherwise profile: SSDPNotifyHeaders? = nil, ssdpPort: Int = 1900) {
        let parsed = heard.compactMap { heard in
            (try? SSDPParser.parseMessage(heard.bytes)).map { (heard, $0.headers) }
        }
        let isAlive = { (headers: SSDPHeaders) in headers["NTS"]?.equalsIgnoringASCIICase("ssdp:alive") == true }
        let isByebye = { (headers: SSDPHeaders) in headers["NTS"]?.equalsIgnoringASCIICase("ssdp:byebye") == true }
        guard let alive = parsed.first(where: { isAlive($0.1) })?.0 else { return nil }
        let aliveLines = Self.templated(alive.bytes)
        let recordedByebye = parsed.first { isByebye($0.1) }.map { Self.templated($0.0.bytes) }
        let uda = ["HOST", "NT", "NTS", "USN", "BOOTID.UPNP.ORG", "CONFIGID.UPNP.ORG"]
        let derived = aliveLines.lines.filter { uda.contains($0.name.uppercased()) }.map { field in
            field.name.uppercased() == "NTS" ? SSDPHeaderField(name: field.name, value: "ssdp:byebye") : field
        }
        self.init(alive: aliveLines.lines, byebye: recordedByebye?.lines ?? profile?.byebye ?? derived)
        unspacedNames = aliveLines.unspaced.union(recordedByebye?.unspaced ?? [])
        aliveCopies = Self.mostWithinASecond(parsed.filter { isAlive($0.1) })
        // A start's byebyes run straight into its alives (each within a second of the next); any other
        // byebye is a leaving's, a power cycle's first half included.
        var startsAt: Set<Int> = []
        for index in parsed.indices where isAlive(parsed[index].1) {
            var first = index
            while first > 0, isByebye(parsed[first - 1].1), parsed[first].0.at - parsed[first - 1].0.at < .seconds(1) {
                first -= 1
            }
            startsAt.formUnion(first..<index)
        }
        let startByebyes = startsAt.sorted().map { parsed[$0] }
        let laterByebyes = parsed.indices.filter { !startsAt.contains($0) && isByebye(parsed[$0].1) }.map {
            parsed[$0]
        }
        byebyeAtStart = !startByebyes.isEmpty || profile?.byebyeAtStart == true
        byebyeCopiesAtStart = startByebyes.isEmpty ? nil : Self.mostWithinASecond(startByebyes)
        byebyeCopies =
            laterByebyes.isEmpty
            ? byebyeCopiesAtStart ?? profile?.byebyeCopies ?? 1 : Self.mostWithinASecond(laterByebyes)
        let ttls = heard.compactMap(\.ttl)
        ttl = Dictionary(grouping: ttls, by: { $0 }).max { ($0.value.count, $1.key) < ($1.value.count, $0.key) }?.key
        sentFromOwnPort = SSDPRecordedAnswers.areOwn(Set(heard.compactMap(\.sourcePort)), ssdpPort: ssdpPort)
    }

    /// The header lines of a recorded NOTIFY as a template, and the names written without a space after
    /// the colon.
    private static func templated(_ bytes: [UInt8]) -> (lines: [SSDPHeaderField], unspaced: Set<String>) {
        let head = bytes[..<(HTTPRecording.headEnd(bytes) ?? bytes.count)]
        var lines: [SSDPHeaderField] = []
        var unspaced: Set<String> = []
        for raw in head.split(separator: UInt8(ascii: "\n")).dropFirst() {
            let line = String(decoding: raw.last == UInt8(ascii: "\r") ? raw.dropLast() : raw, as: UTF8.self)
            guard let colon = line.firstIndex(of: ":"), colon > line.startIndex else { continue }
            let name = String(line[..<colon])
            let rest = line[line.index(after: colon)...]
            // As spelled: the serializer compares names as written.
            if let first = rest.first, first != " ", first != "\t" { unspaced.insert(name) }
            lines.append(
                SSDPHeaderField(
                    name: name,
                    value: placeholder(for: name, value: String(rest.drop { $0 == " " || $0 == "\t" }))
                )
            )
        }
        return (lines, unspaced)
    }

    /// The placeholder a NOTIFY line's value becomes, or the value as it came.
    private static func placeholder(for name: String, value: String) -> String {
        switch name.uppercased() {
        case "HOST": return "{group}"
        case "NT": return "{nt}"
        case "USN": return "{usn}"
        case "LOCATION": return "{location}"
        case "SERVER": return "{server}"
        case "CACHE-CONTROL":
            // The number after max-age=, however spaced; bytes, as the value is ASCII.
            let bytes = Array(value.utf8)
            let lowered = bytes.map { $0 | (($0 >= 65 && $0 <= 90) ? 0x20 : 0) }
            guard let start = lowered.firstRange(of: Array("max-age".utf8))?.upperBound else { return value }
            let digits = lowered[start...].firstIndex { $0 >= 48 && $0 <= 57 } ?? bytes.endIndex
            guard digits < bytes.endIndex, lowered[start..<digits].allSatisfy({ $0 == 32 || $0 == 61 }) else {
                return value
            }
            let end = lowered[digits...].firstIndex { !($0 >= 48 && $0 <= 57) } ?? bytes.endIndex
            return String(decoding: bytes[..<digits], as: UTF8.self) + "{maxAge}"
                + String(decoding: bytes[end...], as: UTF8.self)
        case "BOOTID.UPNP.ORG":
            return Int(value).map { SSDPRootDevice.bootIDs ~= $0 } == true ? "{bootId}" : value
        case "CONFIGID.UPNP.ORG":
            return Int(value).map { SSDPRootDevice.configIDs ~= $0 } == true ? "{configId}" : value
        default: return value
        }
    }

    /// The most of `heard` (one kind of NOTIFY) of one NT that came within a second of the first of them.
    private static func mostWithinASecond(_ heard: [(Heard, SSDPHeaders)]) -> Int {
        var most = 1
        for (index, (first, headers)) in heard.enumerated() {
            let copies = heard[index...].prefix { $0.0.at - first.at < .seconds(1) }
                .filter { $0.1["NT"] == headers["NT"] && $0.1["USN"] == headers["USN"] }.count
            most = max(most, copies)
        }
        return most
    }
}
