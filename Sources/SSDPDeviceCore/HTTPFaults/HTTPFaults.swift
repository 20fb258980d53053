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

/// How a device's HTTP side misbehaves on demand: the bugs users of discovery libraries report after the
/// device was found (a description fetch that hangs for minutes, 503 just after the alive, an empty or
/// broken document, an event that never comes or comes late). Seeded like the SSDP faults, so a run
/// replays.
public struct HTTPFaults: Hashable, Sendable {
    /// What happens to a document request; several apply in order (`503:2` then `delay:1`).
    public enum DocumentFault: Hashable, Sendable {
        /// The first `count` fetches get 503 Service Unavailable (a device still starting).
        case unavailable(first: Int)
        /// Answered after this long.
        case delayed(Duration)
        /// Never answered: the connection stays open until the client gives up (or `hangLimit`).
        case hanging
        /// The document cut off in the middle.
        case truncated
        /// 200 with an empty body.
        case empty
        /// A document that is not well-formed XML (a closing tag misspelt).
        case malformed
    }

    /// The device description at LOCATION.
    public var description: [DocumentFault]
    /// Every service description (SCPD).
    public var serviceDescriptions: [DocumentFault]
    /// The probability that an event message is never sent.
    public var eventLoss: Double
    /// How long each event message waits before it is sent.
    public var eventDelay: Duration

    /// How long a hanging request is held before the connection is closed, so a client without a timeout
    /// of its own does not keep the simulator's connection forever.
    public static let hangLimit = Duration.seconds(120)

    /// Faults for the documents and the events; with the defaults, none at all.
    public init(
        description: [DocumentFault] = [],
        serviceDescriptions: [DocumentFault] = [],
        eventLoss: Double = 0,
        eventDelay: Duration = .zero
    ) {
        self.description = description
        self.serviceDescriptions = serviceDescriptions
        self.eventLoss = eventLoss
        self.eventDelay = eventDelay
    }

    /// Whether no fault is set, every field at its default.
    public var isEmpty: Bool { self == HTTPFaults() }

    /// Reads one fault as the flags and files write it: `503:N`, `delay:SECONDS`, `hang`, `truncated`,
    /// `empty`, `malformed`.
    public static func document(_ text: String, field: String) throws(SSDPConfigurationError) -> DocumentFault {
        let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
        switch (parts.first ?? "", parts.count) {
        case ("hang", 1): return .hanging
        case ("truncated", 1): return .truncated
        case ("empty", 1): return .empty
        case ("malformed", 1): return .malformed
        case ("503", 2):
            guard let count = Int(parts[1]), count >= 1 else {
                throw SSDPConfigurationError(field: field, value: text, reason: "503:N needs a count of 1 or more")
            }
            return .unavailable(first: count)
        case ("delay", 2):
            guard let seconds = Double(parts[1]), seconds >= 0, seconds <= 600 else {
                throw SSDPConfigurationError(field: field, value: text, reason: "delay:SECONDS needs 0...600 seconds")
            }
            return .delayed(.milliseconds(Int64(seconds * 1_000)))
        default:
            throw SSDPConfigurationError(
                field: field,
                value: text,
                reason: "expected 503:N, delay:SECONDS, hang, truncated, empty or malformed"
            )
        }
    }
}

/// A device's HTTP-side fault decisions: counts the fetches of each document and draws the event losses.
public struct HTTPFaultMachine: Sendable {
    /// A kind of document; fetches are counted per kind (for `unavailable(first:)`).
    public enum Document: Hashable, Sendable {
        /// The device description at LOCATION, or a service's SCPD (every SCPD counts as the same kind).
        case description, serviceDescription
    }

    /// What to do with one document request.
    public struct Decision: Hashable, Sendable {
        /// 503 instead of the document.
        public var unavailable = false
        /// Answer after this long (`nil` at once).
        public var delay: Duration?
        /// Never answer.
        public var hangs = false
        /// How to damage the document, if at all.
        public var damage: DocumentFault?

        /// Serve the document at once, undamaged.
        public static let serve = Decision()
    }

    /// A fault a document request can meet, as `HTTPFaults` lists them.
    public typealias DocumentFault = HTTPFaults.DocumentFault

    /// The faults this machine applies.
    public let faults: HTTPFaults
    private var fetches: [Document: Int] = [:]
    private var random: SSDPRandom

    /// A machine applying `faults`; `random` draws the event losses.
    public init(faults: HTTPFaults, random: SSDPRandom) {
        self.faults = faults
        self.random = random
    }

    /// The decision for the next fetch of `document`.
    public mutating func fetch(_ document: Document) -> Decision {
        let number = fetches[document, default: 0] + 1
        fetches[document] = number
        var decision = Decision()
        for fault in document == .description ? faults.description : faults.serviceDescriptions {
            switch fault {
            case .unavailable(let first): decision.unavailable = decision.unavailable || number <= first
            case .delayed(let delay): decision.delay = delay
            case .hanging: decision.hangs = true
            case .truncated, .empty, .malformed: decision.damage = fault
            }
        }
        return decision
    }

    /// Whether the next event message is sent, and after how long.
    public mutating func event() -> Duration? {
        random.chance(faults.eventLoss) ? nil : faults.eventDelay
    }

    /// `document` damaged as `fault` says: cut in the middle, emptied, or with its last closing tag misspelt.
    public static func damage(_ document: String, _ fault: DocumentFault) -> String {
        switch fault {
        case .truncated:
            return String(decoding: Array(document.utf8.prefix(document.utf8.count / 2)), as: UTF8.self)
        case .empty:
            return ""
        case .malformed:
            var bytes = Array(document.utf8)
            guard
                let close = bytes.indices.dropLast().last(where: {
                    bytes[$0] == UInt8(ascii: "<") && bytes[$0 + 1] == UInt8(ascii: "/")
                })
            else { return document + "<" }
            bytes.insert(UInt8(ascii: "x"), at: close + 2)
            return String(decoding: bytes, as: UTF8.self)
        default:
            return document
        }
    }
}
