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

/// An M-SEARCH a device has decided to answer: what it searches for and how long the answer may wait.
///
/// `init(_:strictness:)` applies the device-side acceptance rules of UDA 1.1 §1.3.2–§1.3.3 once per
/// datagram, before any device looks at it.
public struct SSDPSearchRequest: Hashable, Sendable {
    /// How closely a device holds searches to UDA 1.1 before answering them.
    public enum Strictness: String, Hashable, Sendable, CaseIterable {
        /// UDA 1.1: a search starts `M-SEARCH * HTTP/1.1`, and a multicast one needs
        /// `MAN: "ssdp:discover"` and an MX of at least 1.
        case strict
        /// What many real devices do: a missing or wrong MAN is accepted, a missing or unreadable MX is
        /// taken as 1 (miniupnpd's choice), MX 0 as 1, and any start line the parser understands as a
        /// search (`M-SEARCH / HTTP/1.0`) is one.
        case lenient
    }

    /// Why a device drops a search without answering. There is no SSDP error answer (UDA 1.1 §1.8).
    public enum Rejection: String, Error, Hashable, Sendable, CaseIterable {
        /// Not an M-SEARCH.
        case notASearch
        /// No ST, or an empty one.
        case missingSearchTarget
        /// A multicast search without MX (UDA 1.1 §1.3.3: silently discard).
        case missingMX
        /// MX is not a whole number of at least 1.
        case invalidMX
        /// MAN is missing or is not `"ssdp:discover"`.
        case wrongMAN
        /// The start line is not `M-SEARCH * HTTP/1.1` (UDA 1.1 §1.3.2), though the parser understood it.
        case nonStandardStartLine
    }

    /// Whether `bytes` start with UDA's start line of a search, `M-SEARCH * HTTP/1.1`, and its line end.
    public static func hasStandardStartLine(_ bytes: [UInt8]) -> Bool {
        let line: StaticString = "M-SEARCH * HTTP/1.1"
        let count = line.utf8CodeUnitCount
        guard bytes.count > count, line.withUTF8Buffer({ $0.elementsEqual(bytes.prefix(count)) }) else { return false }
        return bytes[count] == UInt8(ascii: "\r") || bytes[count] == UInt8(ascii: "\n")
    }

    /// The search target, exactly as the search spelled it.
    public var target: SSDPSearchTarget
    /// The window the answer is spread over: MX, clamped to 5 s (UDA 1.1 §1.3.3), or 1 s for a unicast
    /// search, which should be answered within a second.
    public var responseWindow: Duration
    /// Whether HOST names the multicast group; otherwise the search was sent to the device directly.
    public var isMulticast: Bool

    /// A search to answer, made directly; `accept(_:strictness:)` reads one from a received message.
    public init(target: SSDPSearchTarget, responseWindow: Duration, isMulticast: Bool) {
        self.target = target
        self.responseWindow = responseWindow
        self.isMulticast = isMulticast
    }

    /// The largest MX a device honours (UDA 1.1 §1.3.3).
    public static let maximumMX = 5

    /// Reads `message` as a search to answer, or says why a device drops it.
    public static func accept(_ message: SSDPMessage, strictness: Strictness) -> Result<Self, Rejection> {
        guard message.kind == .search else { return .failure(.notASearch) }
        let headers = message.headers
        guard let target = headers[.st], !target.isEmpty else { return .failure(.missingSearchTarget) }
        let isMulticast = SSDPConformance.isMulticastHost(headers[.host])
        if strictness == .strict, headers[.man] != "\"ssdp:discover\"" {
            return .failure(.wrongMAN)
        }
        let window: Int
        switch (headers[.mx].map { Int($0) }, strictness) {
        case (.some(.some(let mx)), _) where mx >= 1:
            window = isMulticast ? min(mx, maximumMX) : 1
        case (nil, _) where !isMulticast, (_, .lenient):
            window = 1
        case (nil, .strict):
            return .failure(.missingMX)
        case (.some, .strict):
            return .failure(.invalidMX)
        }
        return .success(
            Self(target: SSDPSearchTarget(target), responseWindow: .seconds(window), isMulticast: isMulticast)
        )
    }
}
