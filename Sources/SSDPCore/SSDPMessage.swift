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

/// An SSDP message: an M-SEARCH request, a search response or a NOTIFY.
///
/// SSDP messages are HTTP-shaped datagrams with a start line and header fields and no body
/// (UDA 1.1 §1.1). The start line is implied by `kind`; everything else is in `headers`.
public struct SSDPMessage: Hashable, Sendable {
    /// What the start line says the message is.
    public enum Kind: Hashable, Sendable {
        /// `M-SEARCH * HTTP/1.1`: a control point searching.
        case search
        /// `HTTP/1.1 200 OK`: a device answering a search.
        case response
        /// `NOTIFY * HTTP/1.1`: a device advertising (alive, update or byebye, see `notificationSubtype`).
        case notify
    }

    /// Whether it is a search, a response or a NOTIFY; this decides the start line.
    public var kind: Kind
    /// The header fields, in order and with the sender's spelling.
    public var headers: SSDPHeaders

    /// A message of `kind` with `headers`; the start line follows from `kind`.
    public init(kind: Kind, headers: SSDPHeaders) {
        self.kind = kind
        self.headers = headers
    }

    /// The start line the serializer writes for this message.
    public var startLine: String {
        switch kind {
        case .search: "M-SEARCH * HTTP/1.1"
        case .response: "HTTP/1.1 200 OK"
        case .notify: "NOTIFY * HTTP/1.1"
        }
    }

    /// The `NTS` of a NOTIFY (`ssdp:alive`, `ssdp:update`, `ssdp:byebye`), or `nil` for other messages.
    public var notificationSubtype: SSDPNotificationSubtype? {
        guard kind == .notify else { return nil }
        return headers.withValueBytes(of: .nts, SSDPNotificationSubtype.init(utf8:))
    }

    /// The search target: `ST` of a search or response, `NT` of a NOTIFY.
    public var searchTarget: String? {
        headers[kind == .notify ? .nt : .st]
    }
}

/// The kind of a NOTIFY message, from its `NTS` header (UDA 1.1 §1.2.2–§1.2.4).
public enum SSDPNotificationSubtype: Hashable, Sendable {
    /// `ssdp:alive`: the device or service is available.
    case alive
    /// `ssdp:update`: the device announces that its BOOTID is about to change.
    case update
    /// `ssdp:byebye`: the device or service is leaving the network.
    case byebye
    /// An `NTS` value SSDP does not define, kept as written.
    case other(String)

    /// Reads an `NTS` value; anything but the three SSDP values becomes `.other`.
    public init(rawValue: String) {
        switch rawValue {
        case "ssdp:alive": self = .alive
        case "ssdp:update": self = .update
        case "ssdp:byebye": self = .byebye
        default: self = .other(rawValue)
        }
    }

    /// Reads an `NTS` value's bytes as `init(rawValue:)` reads its text: the three SSDP values compared as
    /// bytes, a `String` made only for another value.
    package init(utf8 value: UnsafeBufferPointer<UInt8>) {
        if value.reads("ssdp:alive") {
            self = .alive
        } else if value.reads("ssdp:byebye") {
            self = .byebye
        } else if value.reads("ssdp:update") {
            self = .update
        } else {
            self = .other(String(decoding: value, as: UTF8.self))
        }
    }

    /// The `NTS` value: `ssdp:alive`, `ssdp:update`, `ssdp:byebye`, or an `.other` value as written.
    public var rawValue: String {
        switch self {
        case .alive: "ssdp:alive"
        case .update: "ssdp:update"
        case .byebye: "ssdp:byebye"
        case .other(let value): value
        }
    }
}

/// A parsed datagram: the message, and the ways the sender deviated from UDA 1.1 to produce it.
public struct SSDPParsedMessage: Hashable, Sendable {
    /// The message read from the datagram.
    public var message: SSDPMessage
    /// Deviations from UDA 1.1, in the order they were first seen. Empty for a conforming message.
    public var diagnostics: [SSDPDiagnostic]

    /// A parsed message with the deviations found while reading it.
    public init(message: SSDPMessage, diagnostics: [SSDPDiagnostic]) {
        self.message = message
        self.diagnostics = diagnostics
    }
}
