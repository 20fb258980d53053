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

/// A search target (`ST`) or notification type (`NT`), and the UDA 1.1 §1.3.2 matching rules.
///
/// Unknown forms (`roku:ecp`, vendor strings) are kept as `.other` and match only themselves exactly.
public enum SSDPSearchTarget: Hashable, Sendable, CustomStringConvertible {
    /// `ssdp:all`: every device and service answers.
    case all
    /// `upnp:rootdevice`: root devices answer.
    case rootDevice
    /// `uuid:<id>`: the device with that UDN answers. The id is kept as written.
    case uuid(String)
    /// `urn:<domain>:device:<type>:<version>`.
    case deviceType(domain: String, type: String, version: String)
    /// `urn:<domain>:service:<type>:<version>`.
    case serviceType(domain: String, type: String, version: String)
    /// Anything else (`roku:ecp`, `urn:dial-multiscreen-org:dial`, …), kept as written.
    case other(String)

    /// Reads a target as written in ST or NT. Never fails: what is not a known form becomes `.other`.
    public init(_ rawValue: String) {
        if rawValue == "ssdp:all" {
            self = .all
        } else if rawValue == "upnp:rootdevice" {
            self = .rootDevice
        } else if rawValue.hasPrefix("uuid:"), rawValue.utf8.count > 5 {
            self = .uuid(String(rawValue.dropFirst(5)))
        } else if let typed = Self.typed(rawValue) {
            self = typed
        } else {
            self = .other(rawValue)
        }
    }

    /// `urn:<domain>:device|service:<type>:<version>`: exactly four colons, no part empty. The colons are
    /// found on the UTF-8 bytes, without splitting (a simulator reads one per search it is sent): a colon
    /// is a colon even where a combining mark follows it, as in the protocol's byte-oriented header values
    /// (a split on `Character` would not see that colon, and read `.other`).
    private static func typed(_ rawValue: String) -> SSDPSearchTarget? {
        let utf8 = rawValue.utf8
        let colon = UInt8(ascii: ":")
        guard utf8.starts(with: "urn:".utf8) else { return nil }
        let first = utf8.index(utf8.startIndex, offsetBy: 3)
        guard let second = utf8[utf8.index(after: first)...].firstIndex(of: colon),
            let third = utf8[utf8.index(after: second)...].firstIndex(of: colon),
            let fourth = utf8[utf8.index(after: third)...].firstIndex(of: colon),
            !utf8[utf8.index(after: fourth)...].contains(colon)
        else { return nil }
        let domain = rawValue[utf8.index(after: first)..<second]
        let kind = rawValue[utf8.index(after: second)..<third]
        let type = rawValue[utf8.index(after: third)..<fourth]
        let version = rawValue[utf8.index(after: fourth)...]
        guard !domain.isEmpty, !type.isEmpty, !version.isEmpty else { return nil }
        switch kind {
        case "device": return .deviceType(domain: String(domain), type: String(type), version: String(version))
        case "service": return .serviceType(domain: String(domain), type: String(type), version: String(version))
        default: return nil
        }
    }

    /// The target as written in ST or NT.
    public var rawValue: String {
        switch self {
        case .all: "ssdp:all"
        case .rootDevice: "upnp:rootdevice"
        case .uuid(let id): "uuid:\(id)"
        case .deviceType(let domain, let type, let version): "urn:\(domain):device:\(type):\(version)"
        case .serviceType(let domain, let type, let version): "urn:\(domain):service:\(type):\(version)"
        case .other(let value): value
        }
    }

    /// The text form: `rawValue`, as written in ST or NT.
    public var description: String { rawValue }

    /// Whether a device or service that advertises `advertised` must answer a search for this target.
    ///
    /// `ssdp:all` matches everything; root device and uuid targets match exactly; device and service types
    /// match on domain and type when the advertised version is at least the searched one, so a `:2`
    /// implementation answers a `:1` search (UDA 1.1 §1.3.2). Versions that are not whole numbers
    /// (Roku's `1-0`) must be equal.
    public func matches(advertised: SSDPSearchTarget) -> Bool {
        switch (self, advertised) {
        case (.all, _):
            return true
        case (
            .deviceType(let domain, let type, let version),
            .deviceType(let theirDomain, let theirType, let theirVersion)
        ),
            (
                .serviceType(let domain, let type, let version),
                .serviceType(let theirDomain, let theirType, let theirVersion)
            ):
            return domain == theirDomain && type == theirType && Self.version(theirVersion, covers: version)
        default:
            return self == advertised
        }
    }

    private static func version(_ implemented: String, covers searched: String) -> Bool {
        guard let implemented = Int(implemented), let searched = Int(searched) else { return implemented == searched }
        return implemented >= searched
    }
}
