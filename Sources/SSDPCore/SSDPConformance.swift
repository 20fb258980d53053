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

/// The UDA 1.1 header rules a well-formed message follows, checked after parsing.
///
/// Separate from the byte-level reader so that the same rules can lint messages that were built rather
/// than parsed (the harness lints what devices send either way).
public enum SSDPConformance {
    /// The deviations of `message` from the header rules of UDA 1.1 §1.2–§1.3.
    public static func diagnostics(for message: SSDPMessage) -> [SSDPDiagnostic] {
        var diagnostics: [SSDPDiagnostic] = []
        diagnose(message, positions: message.headers.wellKnownPositions, into: &diagnostics)
        return diagnostics
    }

    /// Appends the deviations of `message` to `diagnostics`: the parser's, which has its own to add to.
    ///
    /// Each rule looks its headers up in `positions` (the message's `wellKnownPositions`, which the parser
    /// notes as it reads the names), rather than searching the fields once for each.
    static func diagnose(
        _ message: SSDPMessage,
        positions: SSDPHeaders.WellKnownPositions,
        into diagnostics: inout [SSDPDiagnostic]
    ) {
        let headers = message.headers
        func value<Result>(_ name: SSDPHeaders.WellKnownName, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result?
        {
            positions[name].map { headers.withBytes(at: $0) { body($1) } }
        }
        let subtype = message.kind == .notify ? value(.nts, SSDPNotificationSubtype.init(utf8:)) : nil
        let (required, versioned) = requiredHeaderSets(
            for: message.kind,
            subtype: subtype,
            multicast: { value(.host, isMulticastHost(utf8:)) ?? true }
        )
        // Nearly every message has all it needs: one comparison says so.
        for name in required.subtracting(positions.seen).names {
            diagnostics.append(SSDPDiagnostic(.missingHeader, field: name.text))
        }
        let versionedMissing = versioned.subtracting(positions.seen)
        if !versionedMissing.isEmpty, value(.server, claimsUPnP11OrLater(utf8:)) ?? false {
            for name in versionedMissing.names {
                diagnostics.append(SSDPDiagnostic(.missingHeader, field: name.text))
            }
        }
        // Nearly every CACHE-CONTROL is a plain `max-age=N`, which has nothing to diagnose.
        if let position = positions[.cacheControl],
            headers.withBytes(at: position, { SSDPCacheControl.plainMaxAge($1) }) == nil
        {
            let cacheControl = headers.withBytes(at: position) { SSDPCacheControl(utf8: $1) }
            if cacheControl.maxAge == nil {
                diagnostics.append(SSDPDiagnostic(.invalidCacheControl, field: headers.name(at: position)))
            }
            if cacheControl.hasSpacesAroundEquals {
                diagnostics.append(SSDPDiagnostic(.spacedMaxAge, field: headers.name(at: position)))
            }
            if !cacheControl.otherDirectives.isEmpty {
                diagnostics.append(SSDPDiagnostic(.extraCacheControlDirective, field: headers.name(at: position)))
            }
        }
        if message.kind == .search {
            diagnoseSearch(headers, positions, into: &diagnostics)
        }
        if case .other = subtype {
            diagnostics.append(SSDPDiagnostic(.unknownNotificationSubtype, field: "NTS"))
        }
    }

    /// The headers UDA 1.1 requires for `message`, spelled as the spec spells them.
    ///
    /// BOOTID.UPNP.ORG and CONFIGID.UPNP.ORG are required only of senders that claim UPnP/1.1 or later
    /// in SERVER; a UPnP/1.0 device (most Rokus, Hue bridges, Sonos players) never sent them. MX is
    /// required only in a multicast search (UDA 1.1 §1.3.2); the unicast form has none.
    public static func requiredHeaders(for message: SSDPMessage) -> [String] {
        let (required, versioned) = requiredHeaderSets(
            for: message.kind,
            subtype: message.notificationSubtype,
            multicast: { message.headers.withValueBytes(of: .host, isMulticastHost(utf8:)) ?? true }
        )
        let names = versioned.isEmpty || !claimsUPnP11OrLater(message.headers) ? required : required.union(versioned)
        return names.names.map(\.text)
    }

    /// The headers every message of `kind` needs, and those it needs only when SERVER claims UPnP/1.1:
    /// constant sets, so that checking a parsed message allocates nothing. A NOTIFY's depend on its
    /// `subtype`; a search's on whether it was sent to the group (`multicast`, asked only of a search).
    private static func requiredHeaderSets(
        for kind: SSDPMessage.Kind,
        subtype: SSDPNotificationSubtype?,
        multicast: () -> Bool
    ) -> (required: SSDPHeaders.WellKnownNames, versioned: SSDPHeaders.WellKnownNames) {
        switch kind {
        case .search:
            return (multicast() ? multicastSearchHeaders : unicastSearchHeaders, [])
        case .response:
            return (responseHeaders, versionHeaders)
        case .notify:
            switch subtype {
            case .alive: return (aliveHeaders, versionHeaders)
            case .byebye: return (byebyeHeaders, versionHeaders)
            case .update: return (updateHeaders, [])
            case .other, nil: return (byebyeHeaders, [])
            }
        }
    }

    private static let multicastSearchHeaders: SSDPHeaders.WellKnownNames = [.host, .man, .mx, .st]
    private static let unicastSearchHeaders: SSDPHeaders.WellKnownNames = [.host, .man, .st]
    private static let responseHeaders: SSDPHeaders.WellKnownNames = [
        .cacheControl, .ext, .location, .server, .st, .usn,
    ]
    private static let aliveHeaders: SSDPHeaders.WellKnownNames = [
        .host, .cacheControl, .location, .nt, .nts, .server, .usn,
    ]
    private static let byebyeHeaders: SSDPHeaders.WellKnownNames = [.host, .nt, .nts, .usn]
    private static let updateHeaders: SSDPHeaders.WellKnownNames = [
        .host, .location, .nt, .nts, .usn, .bootID, .configID, .nextBootID,
    ]
    private static let versionHeaders: SSDPHeaders.WellKnownNames = [.bootID, .configID]

    private static func diagnoseSearch(
        _ headers: SSDPHeaders,
        _ positions: SSDPHeaders.WellKnownPositions,
        into diagnostics: inout [SSDPDiagnostic]
    ) {
        if let position = positions[.man],
            !headers.withBytes(at: position, { _, man in man.reads(#""ssdp:discover""#) })
        {
            diagnostics.append(SSDPDiagnostic(.malformedMAN, field: "MAN"))
        }
        if let position = positions[.mx] {
            // As `Int(_:)` reads the value's text.
            if let seconds = headers.withBytes(at: position, { _, mx in integer(mx[...]) }), seconds >= 1 {
                if seconds > 5 { diagnostics.append(SSDPDiagnostic(.mxAboveFive, field: "MX")) }
            } else {
                diagnostics.append(SSDPDiagnostic(.invalidMX, field: "MX"))
            }
        }
    }

    /// Whether a SERVER or USER-AGENT value has a `UPnP/1.x` token with x ≥ 1, or `UPnP/2.x`.
    ///
    /// The first `UPnP/` token whose major version reads as a number decides: `UPnP/1.0` does not claim
    /// it, `UPnP/1.1` and `UPnP/2.0` do, and a missing minor version counts as 0. Tokens are separated by
    /// spaces and commas; versions by dots, empty parts skipped.
    static func claimsUPnP11OrLater(_ product: String?) -> Bool {
        guard var product else { return false }
        return product.withUTF8(claimsUPnP11OrLater(utf8:))
    }

    /// Whether the SERVER of `headers` claims UPnP/1.1 or later; `false` without SERVER.
    private static func claimsUPnP11OrLater(_ headers: SSDPHeaders) -> Bool {
        headers.withValueBytes(of: .server, claimsUPnP11OrLater(utf8:)) ?? false
    }

    private static func claimsUPnP11OrLater(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        func separates(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: ",") }
        // Each `UPnP/` token is found by its slash: the four letters before it, at the start of a token.
        var from = 4
        while let slash = firstIndex(of: UInt8(ascii: "/"), in: bytes, from: from) {
            from = slash + 1
            guard slash == 4 || separates(bytes[slash - 5]),
                asciiLowercased(bytes[slash - 4]) == UInt8(ascii: "u"),
                asciiLowercased(bytes[slash - 3]) == UInt8(ascii: "p"),
                asciiLowercased(bytes[slash - 2]) == UInt8(ascii: "n"),
                asciiLowercased(bytes[slash - 1]) == UInt8(ascii: "p")
            else { continue }
            var end = slash + 1
            while end < bytes.count, !separates(bytes[end]) { end += 1 }
            // Nearly every device writes `digit.digit` (1.0, 1.1, 2.0): read at a glance.
            if end == slash + 4, bytes[slash + 2] == UInt8(ascii: "."),
                case (let major, let minor) = (
                    bytes[slash + 1] &- UInt8(ascii: "0"), bytes[slash + 3] &- UInt8(ascii: "0")
                ),
                major < 10, minor < 10
            {
                return major > 1 || (major == 1 && minor >= 1)
            }
            var parts = bytes[(slash + 1)..<end]
            guard let major = nextVersionPart(&parts).flatMap(integer) else { continue }
            let minor = nextVersionPart(&parts).map { integer($0) ?? 0 } ?? 0
            return major > 1 || (major == 1 && minor >= 1)
        }
        return false
    }

    /// The next non-empty part of a dotted version, removed from `version`; `nil` when none is left.
    private static func nextVersionPart(
        _ version: inout Slice<UnsafeBufferPointer<UInt8>>
    ) -> Slice<UnsafeBufferPointer<UInt8>>? {
        version = version.drop { $0 == UInt8(ascii: ".") }
        guard !version.isEmpty else { return nil }
        let part = version.prefix { $0 != UInt8(ascii: ".") }
        version = version.dropFirst(part.count)
        return part
    }

    /// The bytes read as `Int(_:)` reads text: an optional sign, then digits, `nil` on anything else or overflow.
    private static func integer(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Int? {
        var digits = bytes[...]
        let negative = digits.first == UInt8(ascii: "-")
        if negative || digits.first == UInt8(ascii: "+") { digits = digits.dropFirst() }
        guard !digits.isEmpty else { return nil }
        var value = 0
        for byte in digits {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let digit = Int(byte - UInt8(ascii: "0"))
            let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
            let (next, overflowAgain) =
                negative ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
            guard !overflow, !overflowAgain else { return nil }
            value = next
        }
        return value
    }

    /// Whether a HOST value or an address names an SSDP multicast group: 239.255.255.250 or `FF0x::C`,
    /// with or without a port, and with or without a zone id (`[FF02::C%2]:1900`, as async_upnp_client
    /// writes it). A missing HOST counts as multicast, the SSDP default.
    public static func isMulticastHost(_ host: String?) -> Bool {
        guard var host else { return true }
        return host.withUTF8(isMulticastHost(utf8:))
    }

    private static func isMulticastHost(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if bytes.reads("239.255.255.250:1900") { return true }  // nearly every search's, at a glance
        let colon = UInt8(ascii: ":")
        var address = bytes[...]
        if bytes.first == UInt8(ascii: "["), let close = bytes.firstIndex(of: UInt8(ascii: "]")) {
            address = bytes[1..<close]
        } else if bytes.lazy.filter({ $0 == colon }).count <= 1 {  // else a bare IPv6 literal
            address = bytes[..<(bytes.firstIndex(of: colon) ?? bytes.endIndex)]
        }
        let withoutZone = address.prefix { $0 != UInt8(ascii: "%") }
        let ipv6Group =
            withoutZone.count >= 6
            && withoutZone.prefix(3).elementsEqual("ff0".utf8) { asciiLowercased($0) == $1 }
            && withoutZone.suffix(3).elementsEqual("::c".utf8) { asciiLowercased($0) == $1 }
        return ipv6Group || withoutZone.elementsEqual("239.255.255.250".utf8)
    }
}
