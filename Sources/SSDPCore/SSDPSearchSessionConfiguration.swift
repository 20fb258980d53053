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

/// What to search for, where, and how persistently: the original design's configuration.
///
/// The session sends `maximumSearchRequestsBeforeClosing` M-SEARCH messages spread over its life and
/// stops `searchTimeout` after starting. Values a search cannot run with (MX outside 1…5, a negative
/// number of requests, port 0) are rejected when the configuration is made, with an error that names
/// the field, instead of the original design's assertion.
public struct SSDPSearchSessionConfiguration: Hashable, Sendable {
    /// ST: what to search for (`ssdp:all`, `upnp:rootdevice`, `roku:ecp`, a device or service type, …).
    public let searchTarget: String
    /// Where the M-SEARCH goes: the multicast group or a device's own address (an IP literal).
    public let host: String
    /// The destination port, 1900 for multicast.
    public let port: Int
    /// MX, in whole seconds from 1 to 5: how long devices may wait before answering.
    public let maximumWaitResponseTime: Int
    /// How many M-SEARCH messages to send before the session closes. 0 stops at once with nothing found.
    public let maximumSearchRequestsBeforeClosing: Int

    /// The MX values UDA 1.1 §1.3.2 allows a control point to send.
    public static let maximumWaitResponseTimeRange = 1...5
    /// The number of requests accepted (bounded so the session's length stays representable).
    public static let searchRequestRange = 0...10_000

    /// A search for `searchTarget` at `host`:`port`, with MX `maximumWaitResponseTime` and
    /// `maximumSearchRequestsBeforeClosing` M-SEARCH messages.
    ///
    /// - Throws: `SSDPConfigurationError` naming the field when the target or host is empty or more than one
    ///   line, the port is outside 1...65535, MX is outside 1...5 or the number of requests is outside 0...10000.
    public init(
        searchTarget: String,
        host: String,
        port: Int,
        maximumWaitResponseTime: Int,
        maximumSearchRequestsBeforeClosing: Int
    ) throws(SSDPConfigurationError) {
        guard !searchTarget.isEmpty, !searchTarget.contains(where: \.isNewline) else {
            throw SSDPConfigurationError(
                field: "searchTarget",
                value: searchTarget,
                reason: "must be one non-empty line"
            )
        }
        guard !host.isEmpty, !host.contains(where: \.isNewline) else {
            throw SSDPConfigurationError(field: "host", value: host, reason: "must be one non-empty line")
        }
        guard (1...65_535).contains(port) else {
            throw SSDPConfigurationError(field: "port", value: "\(port)", reason: "must be 1...65535")
        }
        guard Self.maximumWaitResponseTimeRange.contains(maximumWaitResponseTime) else {
            throw SSDPConfigurationError(
                field: "maximumWaitResponseTime",
                value: "\(maximumWaitResponseTime)",
                reason: "MX must be 1...5 seconds (UDA 1.1 §1.3.2)"
            )
        }
        guard Self.searchRequestRange.contains(maximumSearchRequestsBeforeClosing) else {
            throw SSDPConfigurationError(
                field: "maximumSearchRequestsBeforeClosing",
                value: "\(maximumSearchRequestsBeforeClosing)",
                reason: "must be 0...10000"
            )
        }
        self.searchTarget = searchTarget
        self.host = host
        self.port = port
        self.maximumWaitResponseTime = maximumWaitResponseTime
        self.maximumSearchRequestsBeforeClosing = maximumSearchRequestsBeforeClosing
    }

    /// The SSDP multicast group and port for IPv4.
    public static let multicastHost = "239.255.255.250"
    /// The SSDP port, 1900: the multicast group's, and the default for unicast searches.
    public static let multicastPort = 1900

    /// A search of the whole LAN through 239.255.255.250:1900, as in the original design.
    public static func createMulticastConfiguration(
        forSearchTarget searchTarget: String,
        maximumWaitResponseTime: Int = 3,
        maximumSearchRequestsBeforeClosing: Int = 3
    ) throws(SSDPConfigurationError) -> SSDPSearchSessionConfiguration {
        try SSDPSearchSessionConfiguration(
            searchTarget: searchTarget,
            host: multicastHost,
            port: multicastPort,
            maximumWaitResponseTime: maximumWaitResponseTime,
            maximumSearchRequestsBeforeClosing: maximumSearchRequestsBeforeClosing
        )
    }

    /// A search of one device at its own address (UDA 1.1 unicast M-SEARCH).
    public static func createUnicastConfiguration(
        forSearchTarget searchTarget: String,
        host: String,
        port: Int = multicastPort,
        maximumWaitResponseTime: Int = 3,
        maximumSearchRequestsBeforeClosing: Int = 3
    ) throws(SSDPConfigurationError) -> SSDPSearchSessionConfiguration {
        try SSDPSearchSessionConfiguration(
            searchTarget: searchTarget,
            host: host,
            port: port,
            maximumWaitResponseTime: maximumWaitResponseTime,
            maximumSearchRequestsBeforeClosing: maximumSearchRequestsBeforeClosing
        )
    }

    // MARK: - Derived timing (the original design's rules)

    /// How long the session lives: N × MX + 0.1 s. The extra 0.1 s lets an answer sent at the very end
    /// of the last MX window arrive.
    public var searchTimeout: Duration {
        Self.searchTimeout(
            requests: maximumSearchRequestsBeforeClosing,
            maximumWaitResponseTime: maximumWaitResponseTime
        )
    }

    /// When the k-th M-SEARCH (counting from 0) is sent, after the start: the first at once, then every
    /// (timeout − MX) / (N − 1).
    public func searchRequestOffset(_ index: Int) -> Duration {
        Self.searchRequestOffset(
            index,
            requests: maximumSearchRequestsBeforeClosing,
            maximumWaitResponseTime: maximumWaitResponseTime
        )
    }

    /// N × MX + 0.1 s for `requests` searches with MX `maximumWaitResponseTime`, for callers (such as a
    /// harness checking another client) that have the numbers but no configuration.
    public static func searchTimeout(requests: Int, maximumWaitResponseTime: Int) -> Duration {
        .seconds(requests * maximumWaitResponseTime) + .milliseconds(100)
    }

    /// The offset of search `index` (from 0) of `requests`, as `searchRequestOffset(_:)` gives it.
    public static func searchRequestOffset(_ index: Int, requests: Int, maximumWaitResponseTime: Int) -> Duration {
        guard index > 0, requests > 1 else { return .zero }
        let window =
            searchTimeout(requests: requests, maximumWaitResponseTime: maximumWaitResponseTime)
            - .seconds(maximumWaitResponseTime)
        return window * index / (requests - 1)
    }

    /// Whether `host` is an SSDP multicast group.
    public var isMulticast: Bool {
        SSDPConformance.isMulticastHost(host)
    }

    /// The M-SEARCH the session sends, byte for byte the original design's: HOST, MAN, ST, MX.
    public var searchMessage: SSDPMessage {
        let hostField = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        return SSDPMessage(
            kind: .search,
            headers: [
                "HOST": hostField,
                "MAN": "\"ssdp:discover\"",
                "ST": searchTarget,
                "MX": "\(maximumWaitResponseTime)",
            ]
        )
    }
}

/// A configuration value that cannot work, with the field, the value and the reason.
public struct SSDPConfigurationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The name of the offending field (`port`, `maximumWaitResponseTime`, …).
    public var field: String
    /// The rejected value, as text.
    public var value: String
    /// What the value must be, for people: `must be 1...65535`.
    public var reason: String

    /// An error saying that `value` does not work for `field`, and why.
    public init(field: String, value: String, reason: String) {
        self.field = field
        self.value = value
        self.reason = reason
    }

    /// The text form: `invalid <field> "<value>": <reason>`.
    public var description: String {
        "invalid \(field) \"\(value)\": \(reason)"
    }
}
