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

/// A device that answers as a captured one did: the datagrams it sent in a capture, byte for byte, each
/// after the delay it left after the search it answered (`ssdp-sim import`).
///
/// Its NOTIFY messages are the captured ones too, each at its captured time from the start of the search
/// (`NotificationReplay`); a replaying device multicasts nothing else, so it says byebye only where the
/// capture shows it.
///
/// The answers to the `n`th search the device hears are those recorded after the capture's `n`th search
/// (none, when it did not answer that one); a device searched more often than the capture shows answers
/// the later searches as it answered the capture's last. The search target is not looked at: the device
/// says what it said in the capture.
///
/// One thing is changed on the way out of a live simulator: the scheme, host and port of a LOCATION that
/// starts with `http://` become the simulated device's own, so a client that follows it reaches the fake,
/// never the address the capture was made on. The path stays as captured. In virtual time nothing is
/// changed (`DeviceResponder`'s `replayLocations`, `.asCaptured` there).
public struct SSDPReplay: Hashable, Sendable {
    /// One captured answer.
    public struct Answer: Hashable, Sendable {
        /// The search it answered, counting from 0.
        public var search: Int
        /// How long after that search it left.
        public var delay: Duration
        /// The datagram as captured.
        public var bytes: [UInt8]

        /// An answer to search `search` (from 0), `delay` after it.
        public init(search: Int, delay: Duration, bytes: [UInt8]) {
            self.search = search
            self.delay = delay
            self.bytes = bytes
        }
    }

    /// One captured NOTIFY.
    public struct Notification: Hashable, Sendable {
        /// When it was sent, from the device's start (the capture's first search).
        public var at: Duration
        /// The datagram as captured.
        public var bytes: [UInt8]

        /// A NOTIFY sent `at` after the device's start.
        public init(at: Duration, bytes: [UInt8]) {
            self.at = at
            self.bytes = bytes
        }
    }

    /// How many searches the capture shows (answered or not).
    public var searches: Int
    /// The captured answers, in the order they were sent.
    public var answers: [Answer]
    /// The captured NOTIFY messages, in the order they were sent.
    public var notifications: [Notification]

    /// A replay of `answers` to a capture of `searches` searches, and of `notifications`.
    public init(searches: Int, answers: [Answer], notifications: [Notification] = []) {
        self.searches = searches
        self.answers = answers
        self.notifications = notifications
    }

    /// The answers to the search at `index` (from 0): those recorded for it, or for the capture's last
    /// search when the device is searched more often than the capture shows.
    public func answers(toSearch index: Int) -> [Answer] {
        let recorded = min(index, searches - 1)
        return answers.filter { $0.search == recorded }
    }

    /// Checks the values a user gave; the error names the field.
    public func validate() throws(SSDPConfigurationError) {
        guard searches >= 1 else {
            throw SSDPConfigurationError(
                field: "searches",
                value: "\(searches)",
                reason: "a capture shows 1 search or more"
            )
        }
        for (index, answer) in answers.enumerated() {
            guard (0..<searches).contains(answer.search) else {
                throw SSDPConfigurationError(
                    field: "answers[\(index)].search",
                    value: "\(answer.search + 1)",
                    reason: "must be 1...\(searches) (searches)"
                )
            }
            guard answer.delay >= .zero, answer.delay <= .seconds(3_600) else {
                throw SSDPConfigurationError(
                    field: "answers[\(index)].delay",
                    value: "\(answer.delay)",
                    reason: "must be 0...3600 seconds"
                )
            }
            try Self.validate(answer.bytes, field: "answers[\(index)]")
        }
        for (index, notification) in notifications.enumerated() {
            guard notification.at >= .zero, notification.at <= .seconds(3_600) else {
                throw SSDPConfigurationError(
                    field: "notifications[\(index)].at",
                    value: "\(notification.at)",
                    reason: "must be 0...3600 seconds"
                )
            }
            try Self.validate(notification.bytes, field: "notifications[\(index)]")
        }
    }

    private static func validate(_ bytes: [UInt8], field: String) throws(SSDPConfigurationError) {
        guard !bytes.isEmpty, bytes.count <= 65_507 else {
            throw SSDPConfigurationError(
                field: field,
                value: "\(bytes.count) bytes",
                reason: "a datagram is 1...65507 bytes"
            )
        }
    }

    /// Where replayed LOCATIONs point: as captured, or at simulated devices.
    public enum Locations: Hashable, Sendable {
        /// Byte for byte (a virtual network, which reaches no real address).
        case asCaptured
        /// `http://host:port` as captured (lower case) → the simulated device that serves it; one not in
        /// the table points at the replaying device itself. Answers and NOTIFY messages alike.
        case relocated([String: String])

        /// Every LOCATION that one of `devices` replays, pointed at the first of them that replays it, so
        /// that a LOCATION two devices named alike in the capture still names one device (`base` is a
        /// device's `http://host:port`).
        public static func relocated(_ devices: [(replay: SSDPReplay?, base: String)]) -> Locations {
            var table: [String: String] = [:]
            for (replay, base) in devices {
                let datagrams = (replay?.answers.map(\.bytes) ?? []) + (replay?.notifications.map(\.bytes) ?? [])
                for bytes in datagrams {
                    guard let range = locationAuthority(in: bytes) else { continue }
                    let captured = String(decoding: bytes[range], as: UTF8.self).asciiLowercased()
                    if table[captured] == nil { table[captured] = base }
                }
            }
            return .relocated(table)
        }
    }

    /// `bytes` with the `http://host:port` of its LOCATION pointed where `locations` says (`own`, the
    /// replaying device's, for one the table does not name); unchanged for `asCaptured`, or when the
    /// LOCATION does not start with `http://`.
    public static func relocating(_ bytes: [UInt8], _ locations: Locations, own: String) -> [UInt8] {
        guard case .relocated(let table) = locations, let range = locationAuthority(in: bytes) else { return bytes }
        let captured = String(decoding: bytes[range], as: UTF8.self).asciiLowercased()
        return Array(bytes[..<range.lowerBound]) + Array((table[captured] ?? own).utf8)
            + Array(bytes[range.upperBound...])
    }

    /// Where `http://host:port` of the LOCATION header is, when its value starts with `http://`.
    private static func locationAuthority(in bytes: [UInt8]) -> Range<Int>? {
        let newline = UInt8(ascii: "\n")
        var lineStart = 0
        while lineStart < bytes.count {
            let lineEnd = bytes[lineStart...].firstIndex(of: newline) ?? bytes.count
            let line = bytes[lineStart..<lineEnd]
            // The header section ends at the first empty line.
            if line.isEmpty || line == [UInt8(ascii: "\r")] { return nil }
            if let valueStart = locationValueStart(line) {
                let scheme = Array("http://".utf8)
                let value = bytes[valueStart..<lineEnd]
                guard value.count > scheme.count, zip(value, scheme).allSatisfy({ asciiLowercased($0) == $1 }) else {
                    return nil
                }
                let authorityEnd =
                    bytes[(valueStart + scheme.count)..<lineEnd].firstIndex {
                        $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: " ")
                    } ?? lineEnd
                return valueStart..<authorityEnd
            }
            lineStart = lineEnd + 1
        }
        return nil
    }

    /// Where the value of a `LOCATION:` header line starts (after the colon and any spaces), or `nil`
    /// for any other line.
    private static func locationValueStart(_ line: ArraySlice<UInt8>) -> Int? {
        let name = Array("location".utf8)
        guard line.count > name.count,
            zip(line, name).allSatisfy({ asciiLowercased($0) == $1 })
        else { return nil }
        var index = line.startIndex + name.count
        while index < line.endIndex, isSpaceOrTab(line[index]) { index += 1 }
        guard index < line.endIndex, line[index] == UInt8(ascii: ":") else { return nil }
        index += 1
        while index < line.endIndex, isSpaceOrTab(line[index]) { index += 1 }
        return index
    }
}
