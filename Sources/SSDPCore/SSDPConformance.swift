/// The UDA 1.1 header rules a well-formed message follows, checked after parsing.
///
/// Separate from the byte-level reader so that the same rules can lint messages that were built rather
/// than parsed (the harness lints what devices send either way).
public enum SSDPConformance {
    /// The deviations of `message` from the header rules of UDA 1.1 §1.2–§1.3.
    public static func diagnostics(for message: SSDPMessage) -> [SSDPDiagnostic] {
        var diagnostics: [SSDPDiagnostic] = []
        let headers = message.headers
        for name in requiredHeaders(for: message) where !headers.contains(name) {
            diagnostics.append(SSDPDiagnostic(.missingHeader, field: name))
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
        let versioned = claimsUPnP11OrLater(message.headers["SERVER"]) ? ["BOOTID.UPNP.ORG", "CONFIGID.UPNP.ORG"] : []
        switch message.kind {
        case .search:
            return isMulticastHost(message.headers["HOST"]) ? ["HOST", "MAN", "MX", "ST"] : ["HOST", "MAN", "ST"]
        case .response:
            return ["CACHE-CONTROL", "EXT", "LOCATION", "SERVER", "ST", "USN"] + versioned
        case .notify:
            switch message.notificationSubtype {
            case .alive: return ["HOST", "CACHE-CONTROL", "LOCATION", "NT", "NTS", "SERVER", "USN"] + versioned
            case .byebye: return ["HOST", "NT", "NTS", "USN"] + versioned
            case .update:
                return [
                    "HOST", "LOCATION", "NT", "NTS", "USN", "BOOTID.UPNP.ORG", "CONFIGID.UPNP.ORG",
                    "NEXTBOOTID.UPNP.ORG",
                ]
            case .other, nil: return ["HOST", "NT", "NTS", "USN"]
            }
        }
    }

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
    static func claimsUPnP11OrLater(_ product: String?) -> Bool {
        guard let product else { return false }
        for token in product.split(whereSeparator: { $0 == " " || $0 == "," })
        where token.hasPrefixIgnoringASCIICase("UPnP/") {
            let version = token.dropFirst("UPnP/".count).split(separator: ".")
            guard let major = version.first.flatMap({ Int($0) }) else { continue }
            let minor = version.count > 1 ? Int(version[1]) ?? 0 : 0
            return major > 1 || (major == 1 && minor >= 1)
        }
        return false
    }

    /// Whether a HOST value or an address names an SSDP multicast group: 239.255.255.250 or `FF0x::C`,
    /// with or without a port, and with or without a zone id (`[FF02::C%2]:1900`, as async_upnp_client
    /// writes it). A missing HOST counts as multicast, the SSDP default.
    public static func isMulticastHost(_ host: String?) -> Bool {
        guard let host else { return true }
        let address: Substring
        if host.hasPrefix("["), let close = host.firstIndex(of: "]") {
            address = host[host.index(after: host.startIndex)..<close]
        } else if host.utf8.filter({ $0 == UInt8(ascii: ":") }).count > 1 {
            address = Substring(host)  // a bare IPv6 literal
        } else {
            address = host.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)[0]
        }
        let withoutZone = address.prefix { $0 != "%" }
        return withoutZone == "239.255.255.250"
            || (withoutZone.hasPrefixIgnoringASCIICase("ff0") && withoutZone.hasSuffixIgnoringASCIICase("::c"))
    }
}
