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

/// A service found by a search: what one search response said about one device or service.
///
/// The fields are the original design's. Equality and hashing use only LOCATION, SERVER, ST and USN, as
/// in the original design: two answers that differ only in CACHE-CONTROL (or any other header) are the same
/// service, which is what de-duplication needs.
public struct SSDPService: Hashable, Sendable, CustomStringConvertible {
    /// When the response stops being valid: the time it was received plus its max-age, on the clock
    /// of the session that received it.
    public var cacheControl: SSDPInstant
    /// The CACHE-CONTROL max-age the device gave.
    public var maxAge: Duration
    /// LOCATION: the URL of the root device description, as written.
    public var location: String
    /// SERVER: `OS/version UPnP/1.x product/version`, as written.
    public var server: String
    /// ST: the search target this response answers.
    public var searchTarget: String
    /// USN: the unique service name, `uuid:<udn>[::<type>]`.
    public var uniqueServiceName: String
    /// Every other header of the response, in order and with its spelling (EXT, BOOTID.UPNP.ORG, WAKEUP, …).
    public var otherHeaders: SSDPHeaders
    /// The network interface the response arrived on (`eth1`), when the session searched on named
    /// interfaces. A link-local LOCATION (`http://[fe80::…]/`) is reachable through this interface only:
    /// it is the zone to add. Not part of equality.
    public var interface: String?

    /// A service with these fields and no `interface`; `init(response:receivedAt:)` reads one from a response.
    public init(
        cacheControl: SSDPInstant,
        maxAge: Duration,
        location: String,
        server: String,
        searchTarget: String,
        uniqueServiceName: String,
        otherHeaders: SSDPHeaders = [:]
    ) {
        self.cacheControl = cacheControl
        self.maxAge = maxAge
        self.location = location
        self.server = server
        self.searchTarget = searchTarget
        self.uniqueServiceName = uniqueServiceName
        self.otherHeaders = otherHeaders
    }

    /// The headers a response must carry to be a service, as the original design's parser requires them.
    public static let requiredHeaders = requiredNames.names.map(\.text)
    private static let requiredNames: SSDPHeaders.WellKnownNames = [.cacheControl, .location, .server, .st, .usn]

    /// Reads a service from a search response, as the original design's `SSDPServiceParser` does.
    ///
    /// Throws when CACHE-CONTROL has no readable max-age, LOCATION is missing or empty, or SERVER, ST or
    /// USN is missing; the error lists every such field.
    public init(response: SSDPMessage, receivedAt: SSDPInstant) throws(SSDPIncompleteResponse) {
        let headers = response.headers
        let maxAge = headers.withValueBytes(of: .cacheControl) { SSDPCacheControl(utf8: $0).maxAge } ?? nil
        let location = headers[.location].flatMap { $0.isEmpty ? nil : $0 }
        let (server, searchTarget, usn) = (headers[.server], headers[.st], headers[.usn])
        guard let maxAge, let location, let server, let searchTarget, let usn else {
            let fields: [(String, Bool)] = [
                ("CACHE-CONTROL", maxAge == nil), ("LOCATION", location == nil),
                ("SERVER", server == nil), ("ST", searchTarget == nil), ("USN", usn == nil),
            ]
            throw SSDPIncompleteResponse(missingFields: fields.filter(\.1).map(\.0))
        }
        let otherHeaders = headers.removingAll(Self.requiredNames)
        self.init(
            cacheControl: receivedAt + .seconds(maxAge),
            maxAge: .seconds(maxAge),
            location: location,
            server: server,
            searchTarget: searchTarget,
            uniqueServiceName: usn,
            otherHeaders: otherHeaders
        )
    }

    /// Reads a service from a response whose fields are `spans` of `text`, and whose `fingerprint` found the
    /// fields a service needs: what `init(response:receivedAt:)` reads from it, in one pass over the fields.
    /// The other headers keep `text`.
    init(text: [UInt8], spans: [SSDPHeaders.Span], fingerprint: ResponseFingerprint, receivedAt: SSDPInstant) {
        var others: [SSDPHeaders.Span] = []
        let (location, server, searchTarget, usn) = text.withUnsafeBufferPointer { text in
            spans.withUnsafeBufferPointer { spans in
                func value(_ position: Int) -> String {
                    String(decoding: UnsafeBufferPointer(rebasing: text[spans[position].value]), as: UTF8.self)
                }
                others.reserveCapacity(spans.count)
                for position in spans.indices where !fingerprint.isServiceField(at: position, text: text, spans: spans)
                {
                    others.append(spans[position])
                }
                return (
                    value(fingerprint.location), value(fingerprint.server), value(fingerprint.searchTarget),
                    value(fingerprint.uniqueServiceName)
                )
            }
        }
        self.init(
            cacheControl: receivedAt + .seconds(fingerprint.maxAge),
            maxAge: .seconds(fingerprint.maxAge),
            location: location,
            server: server,
            searchTarget: searchTarget,
            uniqueServiceName: usn,
            otherHeaders: SSDPHeaders(text: text, spans: others)
        )
    }

    /// Whether two services have the same LOCATION, SERVER, ST and USN; other fields are ignored.
    public static func == (lhs: SSDPService, rhs: SSDPService) -> Bool {
        lhs.location == rhs.location && lhs.server == rhs.server && lhs.searchTarget == rhs.searchTarget
            && lhs.uniqueServiceName == rhs.uniqueServiceName
    }

    /// Hashes USN and ST: two of the four fields equality compares, which tell services apart nearly always
    /// (a device's USN is its own) at a third of the cost of hashing the long LOCATION and SERVER too.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(uniqueServiceName)
        hasher.combine(searchTarget)
    }

    /// The text form: `<USN> (ST <ST>) at <LOCATION>`.
    public var description: String {
        "\(uniqueServiceName) (ST \(searchTarget)) at \(location)"
    }
}

/// A search response that lacks what makes it a service.
public struct SSDPIncompleteResponse: Error, Hashable, Sendable {
    /// The required fields that are missing or unreadable, spelled as in `SSDPService.requiredHeaders`.
    public var missingFields: [String]
}
