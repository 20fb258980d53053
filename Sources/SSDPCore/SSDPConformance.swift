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
        let headers = message.headers
        let (required, versioned) = requiredHeaderLists(for: message)
        for name in required where !headers.contains(name) {
            diagnostics.append(SSDPDiagnostic(.missingHeader, field: name))
        }
        if !versioned.isEmpty, claimsUPnP11OrLater(headers["SERVER"]) {
            for name in versioned where !headers.contains(name) {
                diagnostics.append(SSDPDiagnostic(.missingHeader, field: name))
            }
        }
        if let field = headers.fields.first(where: { $0.name.equalsIgnoringASCIICase("CACHE-CONTROL") }) {
            let cacheControl = SSDPCacheControl(field.value)
            if cacheControl.maxAge == nil {
                diagnostics.append(SSDPDiagnostic(.invalidCacheControl, field: field.name))
            }
            if cacheControl.hasSpacesAroundEquals {
                diagnostics.append(SSDPDiagnostic(.spacedMaxAge, field: field.name))
            }
            if !cacheControl.otherDirectives.isEmpty {
                diagnostics.append(SSDPDiagnostic(.extraCacheControlDirective, field: field.name))
            }
        }
        if message.kind == .search {
            diagnostics += searchDiagnostics(headers)
        }
        if case .other = message.notificationSubtype {
            diagnostics.append(SSDPDiagnostic(.unknownNotificationSubtype, field: "NTS"))
        }
        return diagnostics
    }

    /// The headers UDA 1.1 requires for `message`, spelled as the spec spells them.
    ///
    /// BOOTID.UPNP.ORG and CONFIGID.UPNP.ORG are required only of senders that claim UPnP/1.1 or later
    /// in SERVER; a UPnP/1.0 device (most Rokus, Hue bridges, Sonos players) never sent them. MX is
    /// required only in a multicast search (UDA 1.1 §1.3.2); the unicast form has none.
    public static func requiredHeaders(for message: SSDPMessage) -> [String] {
        let (required, versioned) = requiredHeaderLists(for: message)
        return versioned.isEmpty || !claimsUPnP11OrLater(message.headers["SERVER"]) ? required : required + versioned
    }

    /// The headers every such message needs, and those it needs only when SERVER claims UPnP/1.1: constant
    /// lists, so that checking a parsed message allocates nothing.
    private static func requiredHeaderLists(for message: SSDPMessage) -> (required: [String], versioned: [String]) {
        switch message.kind {
        case .search:
            return (isMulticastHost(message.headers["HOST"]) ? multicastSearchHeaders : unicastSearchHeaders, [])
        case .response:
            return (responseHeaders, versionHeaders)
        case .notify:
            switch message.notificationSubtype {
            case .alive: return (aliveHeaders, versionHeaders)
            case .byebye: return (byebyeHeaders, versionHeaders)
            case .update: return (updateHeaders, [])
            case .other, nil: return (byebyeHeaders, [])
            }
        }
    }

    private static let multicastSearchHeaders = ["HOST", "MAN", "MX", "ST"]
    private static let unicastSearchHeaders = ["HOST", "MAN", "ST"]
    private static let responseHeaders = ["CACHE-CONTROL", "EXT", "LOCATION", "SERVER", "ST", "USN"]
    private static let aliveHeaders = ["HOST", "CACHE-CONTROL", "LOCATION", "NT", "NTS", "SERVER", "USN"]
    private static let byebyeHeaders = ["HOST", "NT", "NTS", "USN"]
    private static let updateHeaders = [
        "HOST", "LOCATION", "NT", "NTS", "USN", "BOOTID.UPNP.ORG", "CONFIGID.UPNP.ORG", "NEXTBOOTID.UPNP.ORG",
    ]
    private static let versionHeaders = ["BOOTID.UPNP.ORG", "CONFIGID.UPNP.ORG"]

    private static func searchDiagnostics(_ headers: SSDPHeaders) -> [SSDPDiagnostic] {
        var diagnostics: [SSDPDiagnostic] = []
        if let man = headers["MAN"], man != "\"ssdp:discover\"" {
            diagnostics.append(SSDPDiagnostic(.malformedMAN, field: "MAN"))
        }
        if let mx = headers["MX"] {
            if let seconds = Int(mx), seconds >= 1 {
                if seconds > 5 { diagnostics.append(SSDPDiagnostic(.mxAboveFive, field: "MX")) }
            } else {
                diagnostics.append(SSDPDiagnostic(.invalidMX, field: "MX"))
            }
        }
        return diagnostics
    }

    /// Whether a SERVER or USER-AGENT value has a `UPnP/1.x` token with x ≥ 1, or `UPnP/2.x`.
    ///
    /// The first `UPnP/` token whose major version reads as a number decides: `UPnP/1.0` does not claim
    /// it, `UPnP/1.1` and `UPnP/2.0` do, and a missing minor version counts as 0. Tokens are separated by
    /// spaces and commas; versions by dots, empty parts skipped.
    static func claimsUPnP11OrLater(_ product: String?) -> Bool {
        guard let product else { return false }
        var utf8 = product.utf8[...]
        while !utf8.isEmpty {
            let token = utf8.prefix { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: ",") }
            utf8 = utf8.dropFirst(token.count + 1)
            guard token.starts(with: "upnp/".utf8, by: { asciiLowercased($0) == $1 }) else { continue }
            var parts = token.dropFirst(5)[...]
            guard let major = nextVersionPart(&parts).flatMap({ Int(Substring($0)) }) else { continue }
            let minor = nextVersionPart(&parts).map { Int(Substring($0)) ?? 0 } ?? 0
            return major > 1 || (major == 1 && minor >= 1)
        }
        return false
    }

    /// The next non-empty part of a dotted version, removed from `version`; `nil` when none is left.
    private static func nextVersionPart(_ version: inout Substring.UTF8View) -> Substring.UTF8View? {
        version = version.drop { $0 == UInt8(ascii: ".") }
        guard !version.isEmpty else { return nil }
        let part = version.prefix { $0 != UInt8(ascii: ".") }
        version = version.dropFirst(part.count)
        return part
    }

    /// Whether a HOST value or an address names an SSDP multicast group: 239.255.255.250 or `FF0x::C`,
    /// with or without a port, and with or without a zone id (`[FF02::C%2]:1900`, as async_upnp_client
    /// writes it). A missing HOST counts as multicast, the SSDP default.
    public static func isMulticastHost(_ host: String?) -> Bool {
        guard let host else { return true }
        let address: Substring
        if host.hasPrefix("["), let close = host.firstIndex(of: "]") {
            address = host[host.index(after: host.startIndex)..<close]
        } else if host.utf8.lazy.filter({ $0 == UInt8(ascii: ":") }).count > 1 {
            address = Substring(host)  // a bare IPv6 literal
        } else {
            address = host[..<(host.firstIndex(of: ":") ?? host.endIndex)]
        }
        let withoutZone = address.prefix { $0 != "%" }
        return withoutZone == "239.255.255.250"
            || (withoutZone.hasPrefixIgnoringASCIICase("ff0") && withoutZone.hasSuffixIgnoringASCIICase("::c"))
    }
}
