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
import Testing

/// Search targets as written in ST and NT, and the UDA 1.1 §1.3.2 rules for which advertisement answers which search.
@Suite struct SSDPSearchTargetTests {
    @Test(
        arguments: [
            ("ssdp:all", SSDPSearchTarget.all),
            ("upnp:rootdevice", .rootDevice),
            ("uuid:2f402f80-da50-11e1-9b23-0017884a5b6c", .uuid("2f402f80-da50-11e1-9b23-0017884a5b6c")),
            ("uuid:RINCON_48A6B8332C2E01400", .uuid("RINCON_48A6B8332C2E01400")),
            ("uuid:roku:ecp:P0A070000007", .uuid("roku:ecp:P0A070000007")),
            (
                "urn:schemas-upnp-org:device:MediaRenderer:1",
                .deviceType(domain: "schemas-upnp-org", type: "MediaRenderer", version: "1")
            ),
            (
                "urn:schemas-upnp-org:service:WANIPConnection:2",
                .serviceType(domain: "schemas-upnp-org", type: "WANIPConnection", version: "2")
            ),
            (
                "urn:dial-multiscreen-org:service:dial:1",
                .serviceType(domain: "dial-multiscreen-org", type: "dial", version: "1")
            ),
            (
                "urn:dial-multiscreen-org:device:dial:1",
                .deviceType(domain: "dial-multiscreen-org", type: "dial", version: "1")
            ),
            ("urn:roku-com:device:player:1-0", .deviceType(domain: "roku-com", type: "player", version: "1-0")),
            (
                "urn:microsoft.com:service:X_MS_MediaReceiverRegistrar:1",
                .serviceType(domain: "microsoft.com", type: "X_MS_MediaReceiverRegistrar", version: "1")
            ),
            (
                "urn:schemas-mbs upnp device:service:URLService:1",
                .serviceType(domain: "schemas-mbs upnp device", type: "URLService", version: "1")
            ),
            ("roku:ecp", .other("roku:ecp")),
            ("urn:dial-multiscreen-org:dial", .other("urn:dial-multiscreen-org:dial")),
            ("urn:Belkin:device:**", .other("urn:Belkin:device:**")),
            (
                "urn:Microsoft Windows Peer Name Resolution Protocol: V4:IPV6:LinkLocal",
                .other("urn:Microsoft Windows Peer Name Resolution Protocol: V4:IPV6:LinkLocal")
            ),
            ("urn:schemas-upnp-org:device:MediaRenderer:", .other("urn:schemas-upnp-org:device:MediaRenderer:")),
            ("urn::device:MediaRenderer:1", .other("urn::device:MediaRenderer:1")),
            ("urn:schemas-upnp-org:device::1", .other("urn:schemas-upnp-org:device::1")),
            ("urn:schemas-upnp-org:device:Basic:1:2", .other("urn:schemas-upnp-org:device:Basic:1:2")),
            ("urn:", .other("urn:")),
            ("urn:schemas-upnp-org:gadget:MediaRenderer:1", .other("urn:schemas-upnp-org:gadget:MediaRenderer:1")),
            ("URN:schemas-upnp-org:device:Basic:1", .other("URN:schemas-upnp-org:device:Basic:1")),
            ("uuid:", .other("uuid:")),
            ("UUID:1B300054-7E9D-41D9-AF85-A88A1DF48F12", .other("UUID:1B300054-7E9D-41D9-AF85-A88A1DF48F12")),
            ("SSDP:ALL", .other("SSDP:ALL")),
            ("", .other("")),
        ] as [(String, SSDPSearchTarget)]
    )
    func readsEveryForm(rawValue: String, target: SSDPSearchTarget) {
        #expect(SSDPSearchTarget(rawValue) == target)
        #expect(target.rawValue == rawValue)
        #expect(target.description == rawValue)
    }

    /// The forms read on bytes are the forms a split of the bytes at each colon reads: every string of up to
    /// five pieces that make the forms and their near misses (a combining mark after a colon among them)
    /// reads as the split would.
    @Test func readsTypedFormsAsTheSplitDoes() {
        let pieces = ["urn:", "URN:", "x:", "device:", "service:", "x", ":", "é", "\u{301}"]
        func reference(_ rawValue: String) -> SSDPSearchTarget {
            if rawValue == "ssdp:all" { return .all }
            if rawValue == "upnp:rootdevice" { return .rootDevice }
            if rawValue.hasPrefix("uuid:"), rawValue.utf8.count > 5 { return .uuid(String(rawValue.dropFirst(5))) }
            let parts = rawValue.utf8.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
                .map { String(decoding: $0, as: UTF8.self) }
            guard parts.count == 5, parts[0] == "urn", !parts[1].isEmpty, !parts[3].isEmpty, !parts[4].isEmpty else {
                return .other(rawValue)
            }
            switch parts[2] {
            case "device": return .deviceType(domain: parts[1], type: parts[3], version: parts[4])
            case "service": return .serviceType(domain: parts[1], type: parts[3], version: parts[4])
            default: return .other(rawValue)
            }
        }
        var strings = [""]
        var checked = 0
        for _ in 1...5 {
            strings = strings.flatMap { prefix in pieces.map { prefix + $0 } }
            for rawValue in strings where SSDPSearchTarget(rawValue) != reference(rawValue) {
                Issue.record("\(rawValue): \(SSDPSearchTarget(rawValue)), the split reads \(reference(rawValue))")
            }
            checked += strings.count
        }
        #expect(checked == 66_429)
    }

    @Test(arguments: [
        // ssdp:all finds everything.
        ("ssdp:all", "upnp:rootdevice", true),
        ("ssdp:all", "uuid:2f402f80-da50-11e1-9b23-0017884a5b6c", true),
        ("ssdp:all", "urn:schemas-upnp-org:service:ContentDirectory:1", true),
        ("ssdp:all", "roku:ecp", true),
        // Root device, uuid and unknown forms match exactly.
        ("upnp:rootdevice", "upnp:rootdevice", true),
        ("upnp:rootdevice", "uuid:2f402f80-da50-11e1-9b23-0017884a5b6c", false),
        ("uuid:2f402f80-da50-11e1-9b23-0017884a5b6c", "uuid:2f402f80-da50-11e1-9b23-0017884a5b6c", true),
        ("uuid:2f402f80-da50-11e1-9b23-0017884a5b6c", "uuid:2f402f80-da50-11e1-9b23-0017884a5b6d", false),
        ("uuid:2f402f80-da50-11e1-9b23-0017884a5b6c", "ssdp:all", false),
        ("roku:ecp", "roku:ecp", true),
        ("roku:ecp", "roku:ECP", false),
        // A device or service answers searches for its version and every earlier one.
        ("urn:schemas-upnp-org:device:MediaRenderer:1", "urn:schemas-upnp-org:device:MediaRenderer:1", true),
        ("urn:schemas-upnp-org:device:MediaRenderer:1", "urn:schemas-upnp-org:device:MediaRenderer:2", true),
        ("urn:schemas-upnp-org:device:MediaRenderer:2", "urn:schemas-upnp-org:device:MediaRenderer:1", false),
        ("urn:schemas-upnp-org:service:WANIPConnection:1", "urn:schemas-upnp-org:service:WANIPConnection:2", true),
        ("urn:schemas-upnp-org:service:WANIPConnection:2", "urn:schemas-upnp-org:service:WANIPConnection:1", false),
        ("urn:schemas-upnp-org:service:WANIPConnection:9", "urn:schemas-upnp-org:service:WANIPConnection:10", true),
        // Domain, type and device-or-service must agree.
        ("urn:schemas-upnp-org:device:basic:1", "urn:schemas-upnp-org:device:Basic:1", false),
        ("urn:schemas-upnp-org:service:dial:1", "urn:dial-multiscreen-org:service:dial:1", false),
        ("urn:dial-multiscreen-org:device:dial:1", "urn:dial-multiscreen-org:service:dial:1", false),
        ("urn:dial-multiscreen-org:service:dial:1", "urn:dial-multiscreen-org:device:dial:1", false),
        ("urn:schemas-upnp-org:device:MediaServer:1", "urn:schemas-upnp-org:device:MediaRenderer:1", false),
        ("urn:schemas-upnp-org:device:MediaServer:1", "upnp:rootdevice", false),
        // Versions that are not whole numbers must be equal.
        ("urn:roku-com:device:player:1-0", "urn:roku-com:device:player:1-0", true),
        ("urn:roku-com:device:player:1-0", "urn:roku-com:device:player:2", false),
        ("urn:roku-com:device:player:1", "urn:roku-com:device:player:1-0", false),
    ])
    func matchesAdvertisementsToSearches(searched: String, advertised: String, matches: Bool) {
        #expect(SSDPSearchTarget(searched).matches(advertised: SSDPSearchTarget(advertised)) == matches)
    }
}
