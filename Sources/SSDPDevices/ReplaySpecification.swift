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

import FoundationEssentials
import SSDPCore
import SSDPDeviceCore

/// A device's captured datagrams in a device or scenario file (`replay`), as `ssdp-sim import` writes them:
///
/// ```json
/// "replay": { "searches": 2,
///   "answers": [
///     { "search": 1, "delay": 0.412, "datagram": "HTTP/1.1 200 OK\r\nCACHE-CONTROL: max-age=1800\r\n…" },
///     { "search": 1, "delay": 0.413, "base64": "SFRUUC8xLjEgMjAwIE9LDQr/…" } ],
///   "notifications": [ { "at": 0.051, "datagram": "NOTIFY * HTTP/1.1\r\n…" } ] }
/// ```
///
/// `searches` is how many searches the capture shows. Each datagram is text (`datagram`) or, when its
/// bytes are not UTF-8, base64 (`base64`); an answer says when it left after the search it answered
/// (`search`, counting from 1; `delay`, seconds), a NOTIFY when it left after the first search (`at`).
public struct ReplaySpecification: Codable, Sendable, Hashable {
    /// One captured answer.
    public struct Answer: Codable, Sendable, Hashable, CapturedDatagram {
        /// The search it answered, counting from 1.
        public var search: Int
        /// Seconds after that search.
        public var delay: Double
        /// The datagram, when it is UTF-8 text.
        public var datagram: String?
        /// The datagram in base64, when it is not.
        public var base64: String?
        /// The packet it was in, in the capture (for finding it there; not used to run).
        public var packet: Int?

        enum CodingKeys: String, CodingKey, CaseIterable {
            case packet, search, delay, datagram, base64
        }

        /// An answer to search `search` (from 1) `delay` seconds after it, written as text when the bytes
        /// are UTF-8 and as base64 otherwise.
        public init(search: Int, delay: Double, bytes: [UInt8], packet: Int? = nil) {
            self.search = search
            self.delay = delay
            self.packet = packet
            (datagram, base64) = Self.written(bytes)
        }
    }

    /// One captured NOTIFY.
    public struct Notification: Codable, Sendable, Hashable, CapturedDatagram {
        /// Seconds after the capture's first search.
        public var at: Double
        /// The datagram, when it is UTF-8 text.
        public var datagram: String?
        /// The datagram in base64, when it is not.
        public var base64: String?
        /// The packet it was in, in the capture.
        public var packet: Int?

        enum CodingKeys: String, CodingKey, CaseIterable {
            case packet, at, datagram, base64
        }

        /// A NOTIFY sent `at` seconds after the first search.
        public init(at: Double, bytes: [UInt8], packet: Int? = nil) {
            self.at = at
            self.packet = packet
            (datagram, base64) = Self.written(bytes)
        }
    }

    /// How many searches the capture shows, answered or not.
    public var searches: Int
    /// The answers, in the order the device sent them.
    public var answers: [Answer]
    /// The NOTIFY messages, in the order the device sent them.
    public var notifications: [Notification]?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case searches, answers, notifications
    }

    /// A replay of `answers` to a capture of `searches` searches, and of `notifications`.
    public init(searches: Int, answers: [Answer], notifications: [Notification]? = nil) {
        self.searches = searches
        self.answers = answers
        self.notifications = notifications
    }

    /// The replay the device core runs; errors name the field (`replay.answers[2].delay`).
    public func makeReplay() throws(SSDPConfigurationError) -> SSDPReplay {
        var recorded: [SSDPReplay.Answer] = []
        for (index, answer) in answers.enumerated() {
            let field = "replay.answers[\(index)]"
            recorded.append(
                SSDPReplay.Answer(
                    search: answer.search - 1,
                    delay: try Self.duration(answer.delay, field: "\(field).delay"),
                    bytes: try answer.bytes(field: field)
                )
            )
        }
        var notified: [SSDPReplay.Notification] = []
        for (index, notification) in (notifications ?? []).enumerated() {
            let field = "replay.notifications[\(index)]"
            notified.append(
                SSDPReplay.Notification(
                    at: try Self.duration(notification.at, field: "\(field).at"),
                    bytes: try notification.bytes(field: field)
                )
            )
        }
        let replay = SSDPReplay(searches: searches, answers: recorded, notifications: notified)
        do throws(SSDPConfigurationError) {
            try replay.validate()
        } catch {
            throw SSDPConfigurationError(field: "replay.\(error.field)", value: error.value, reason: error.reason)
        }
        return replay
    }

    /// Seconds from a file, 0...3600, kept to the microsecond.
    private static func duration(_ seconds: Double, field: String) throws(SSDPConfigurationError) -> Duration {
        guard seconds.isFinite, (0...3_600).contains(seconds) else {
            throw SSDPConfigurationError(field: field, value: "\(seconds)", reason: "must be 0...3600 seconds")
        }
        return .microseconds(Int64((seconds * 1_000_000).rounded()))
    }

    /// The path of the first LOCATION among the answers (`/description.xml`), where the simulated device
    /// serves its description so that a client following a replayed answer finds one.
    public func descriptionPath() throws(SSDPConfigurationError) -> String? {
        for (index, answer) in answers.enumerated() {
            let bytes = try answer.bytes(field: "replay.answers[\(index)]")
            guard let location = (try? SSDPParser.parseMessage(bytes))?.headers["LOCATION"],
                location.hasPrefixIgnoringASCIICase("http://")
            else { continue }
            let afterScheme = location.dropFirst("http://".count)
            if let slash = afterScheme.firstIndex(of: "/") { return String(afterScheme[slash...]) }
        }
        return nil
    }
}

/// A captured datagram in a file: as text when its bytes are UTF-8, else in base64, never both.
protocol CapturedDatagram {
    var datagram: String? { get }
    var base64: String? { get }
}

extension CapturedDatagram {
    /// How `bytes` are written: the text, or the base64 when they are not UTF-8.
    static func written(_ bytes: [UInt8]) -> (datagram: String?, base64: String?) {
        if let text = String(validating: bytes, as: UTF8.self) { return (text, nil) }
        return (nil, Data(bytes).base64EncodedString())
    }

    /// The datagram's bytes; the error names the field.
    func bytes(field: String) throws(SSDPConfigurationError) -> [UInt8] {
        switch (datagram, base64) {
        case (let text?, nil):
            return Array(text.utf8)
        case (nil, let encoded?):
            guard let data = Data(base64Encoded: encoded) else {
                throw SSDPConfigurationError(
                    field: "\(field).base64",
                    value: encoded.count > 40 ? String(encoded.prefix(40)) + "…" : encoded,
                    reason: "not base64"
                )
            }
            return Array(data)
        default:
            throw SSDPConfigurationError(
                field: field,
                value: "",
                reason: "give the datagram or its base64, one of them"
            )
        }
    }
}
