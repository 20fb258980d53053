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

/// A device's captured answers in a device or scenario file (`replay`), as `ssdp-sim import` writes them:
///
/// ```json
/// "replay": { "searches": 2, "answers": [
///   { "search": 1, "delay": 0.412, "datagram": "HTTP/1.1 200 OK\r\nCACHE-CONTROL: max-age=1800\r\n…" },
///   { "search": 1, "delay": 0.413, "base64": "SFRUUC8xLjEgMjAwIE9LDQr/…" }
/// ] }
/// ```
///
/// `searches` is how many searches the capture shows. Each answer is the datagram as text (`datagram`) or,
/// when its bytes are not UTF-8, as base64 (`base64`), and when it left after the search it answered
/// (`search`, counting from 1; `delay`, seconds).
public struct ReplaySpecification: Codable, Sendable, Hashable {
    /// One captured answer.
    public struct Answer: Codable, Sendable, Hashable {
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
        public init(search: Int, delay: Double, bytes: [UInt8]) {
            self.search = search
            self.delay = delay
            if let text = String(validating: bytes, as: UTF8.self) {
                datagram = text
            } else {
                base64 = Data(bytes).base64EncodedString()
            }
        }

        /// Reads an answer, rejecting unknown fields.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
            search = try container.decode(Int.self, forKey: .search)
            delay = try container.decode(Double.self, forKey: .delay)
            datagram = try container.decodeIfPresent(String.self, forKey: .datagram)
            base64 = try container.decodeIfPresent(String.self, forKey: .base64)
            packet = try container.decodeIfPresent(Int.self, forKey: .packet)
        }

        /// The datagram's bytes; the error names the field.
        func bytes(field: String) throws(SSDPConfigurationError) -> [UInt8] {
            switch (datagram, base64) {
            case (let text?, nil):
                return Array(text.utf8)
            case (nil, let encoded?):
                guard let data = Data(base64Encoded: encoded) else {
                    throw SSDPConfigurationError(field: "\(field).base64", value: "", reason: "not base64")
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

    /// How many searches the capture shows, answered or not.
    public var searches: Int
    /// The answers, in the order the device sent them.
    public var answers: [Answer]

    enum CodingKeys: String, CodingKey, CaseIterable {
        case searches, answers
    }

    /// A replay of `answers` to a capture of `searches` searches.
    public init(searches: Int, answers: [Answer]) {
        self.searches = searches
        self.answers = answers
    }

    /// Reads a replay, rejecting unknown fields.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
        searches = try container.decode(Int.self, forKey: .searches)
        answers = try container.decode([Answer].self, forKey: .answers)
    }

    /// The replay the device core runs; errors name the field (`replay.answers[2].delay`).
    public func makeReplay() throws(SSDPConfigurationError) -> SSDPReplay {
        var recorded: [SSDPReplay.Answer] = []
        for (index, answer) in answers.enumerated() {
            let field = "replay.answers[\(index)]"
            guard answer.delay.isFinite, (0...3_600).contains(answer.delay) else {
                throw SSDPConfigurationError(
                    field: "\(field).delay",
                    value: "\(answer.delay)",
                    reason: "must be 0...3600 seconds"
                )
            }
            recorded.append(
                SSDPReplay.Answer(
                    search: answer.search - 1,
                    delay: .microseconds(Int64((answer.delay * 1_000_000).rounded())),
                    bytes: try answer.bytes(field: field)
                )
            )
        }
        let replay = SSDPReplay(searches: searches, answers: recorded)
        do throws(SSDPConfigurationError) {
            try replay.validate()
        } catch {
            throw SSDPConfigurationError(field: "replay.\(error.field)", value: error.value, reason: error.reason)
        }
        return replay
    }

    /// The path of the first LOCATION among the answers (`/description.xml`), where the simulated device
    /// serves its description so that a client following a replayed answer finds one.
    public func descriptionPath() throws(SSDPConfigurationError) -> String? {
        for (index, answer) in answers.enumerated() {
            let bytes = try answer.bytes(field: "replay.answers[\(index)]")
            guard let location = (try? SSDPParser.parse(bytes))?.message.headers["LOCATION"],
                location.hasPrefixIgnoringASCIICase("http://")
            else { continue }
            let afterScheme = location.dropFirst("http://".count)
            if let slash = afterScheme.firstIndex(of: "/") { return String(afterScheme[slash...]) }
        }
        return nil
    }
}
