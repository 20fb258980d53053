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

/// The UDA 1.1 header rules: which headers each message needs, and what the rules say about their values.
@Suite struct SSDPConformanceTests {
    // MARK: - Required headers

    @Test(
        arguments: [
            ("239.255.255.250:1900", ["HOST", "MAN", "MX", "ST"]),
            ("239.255.255.250", ["HOST", "MAN", "MX", "ST"]),
            ("[FF02::C]:1900", ["HOST", "MAN", "MX", "ST"]),
            ("[ff05::c]:1900", ["HOST", "MAN", "MX", "ST"]),
            ("[FF02::C%2]:1900", ["HOST", "MAN", "MX", "ST"]),
            ("192.168.1.64:1900", ["HOST", "MAN", "ST"]),
            ("[fe80::1]:1900", ["HOST", "MAN", "ST"]),
            (nil, ["HOST", "MAN", "MX", "ST"]),
        ] as [(String?, [String])]
    )
    func requiresMXOnlyInAMulticastSearch(host: String?, required: [String]) {
        var headers: SSDPHeaders = ["MAN": "\"ssdp:discover\"", "ST": "ssdp:all"]
        if let host { headers.append(name: "HOST", value: host) }
        #expect(SSDPConformance.requiredHeaders(for: SSDPMessage(kind: .search, headers: headers)) == required)
    }

    @Test(
        arguments: [
            (nil, false),
            ("Linux/2.6 UPnP/1.0 quick_ssdp/1.0", false),
            ("Microsoft-Windows-NT/5.1 UPnP/1.0 UPnP-Device-Host/1.0", false),
            ("SHP, UPnP/1.0, Samsung UPnP SDK/1.0", false),
            ("Linux UPnP/1.0 Sonos/96.1-79270 (ZPS14)", false),
            ("Linux/2.6 UPnP/1.1 quick_ssdp/1.1", true),
            ("Linux/4.9.113, UPnP/1.1, Portable SDK for UPnP devices/1.6.18", true),
            ("async-upnp-client/0.33.0 UPnP/2.0 Server/1.0", true),
            ("OpenWrt/19.07 upnp/1.1 MiniUPnPd/2.2.0", true),
            ("NT/5.0 UPnP/1", false),
            ("UPnP/1.0 UPnP/1.1", false),
            ("Network Printer Server UPnP/x.y", false),
            ("Network Printer Server UPnP/x.y, UPnP/1.1", true),
            ("Linux UPnP/2 test/1", true),
            ("Linux UPnP/..1..1 test/1", true),
            ("Linux UPnP/.1 test/1", false),
            ("Linux UPnP/1.x test/1", false),
            // Versions read as Int(_:) reads them: a sign is part of the number, overflow is no number.
            ("UPnP/+1.+1", true),
            ("UPnP/-1.1 UPnP/1.1", false),
            ("UPnP/99999999999999999999.0 UPnP/1.1", true),
            ("UPnP/1.99999999999999999999", false),
            ("UPnP/1.-", false),
        ] as [(String?, Bool)]
    )
    func requiresBootAndConfigIDsOfUPnP11Senders(server: String?, versioned: Bool) {
        var headers: SSDPHeaders = [:]
        if let server { headers.append(name: "SERVER", value: server) }
        let required = SSDPConformance.requiredHeaders(for: SSDPMessage(kind: .response, headers: headers))
        let base = ["CACHE-CONTROL", "EXT", "LOCATION", "SERVER", "ST", "USN"]
        #expect(required == base + (versioned ? ["BOOTID.UPNP.ORG", "CONFIGID.UPNP.ORG"] : []))
    }

    @Test(
        arguments: [
            ("ssdp:alive", ["HOST", "CACHE-CONTROL", "LOCATION", "NT", "NTS", "SERVER", "USN"]),
            ("ssdp:byebye", ["HOST", "NT", "NTS", "USN"]),
            (
                "ssdp:update",
                [
                    "HOST", "LOCATION", "NT", "NTS", "USN", "BOOTID.UPNP.ORG", "CONFIGID.UPNP.ORG",
                    "NEXTBOOTID.UPNP.ORG",
                ]
            ),
            ("ssdp:propchange", ["HOST", "NT", "NTS", "USN"]),
            (nil, ["HOST", "NT", "NTS", "USN"]),
        ] as [(String?, [String])]
    )
    func requiresNotifyHeadersBySubtype(nts: String?, required: [String]) {
        var headers: SSDPHeaders = ["SERVER": "Linux UPnP/1.0 Sonos/31.9-26010 (BR100)"]
        if let nts { headers.append(name: "NTS", value: nts) }
        #expect(SSDPConformance.requiredHeaders(for: SSDPMessage(kind: .notify, headers: headers)) == required)
    }

    @Test func requiresBootAndConfigIDsOfAUPnP11Alive() {
        let message = SSDPMessage(kind: .notify, headers: ["NTS": "ssdp:alive", "SERVER": "Linux UPnP/1.1 x/1"])
        #expect(SSDPConformance.requiredHeaders(for: message).suffix(2) == ["BOOTID.UPNP.ORG", "CONFIGID.UPNP.ORG"])
    }

    // MARK: - Values

    @Test(
        arguments: [
            ("\"ssdp:discover\"", "3", []),
            ("ssdp:discover", "3", [SSDPDiagnostic(.malformedMAN, field: "MAN")]),
            ("\"ssdp:Discover\"", "3", [SSDPDiagnostic(.malformedMAN, field: "MAN")]),
            ("\"ssdp:discover\"", "0", [SSDPDiagnostic(.invalidMX, field: "MX")]),
            ("\"ssdp:discover\"", "-1", [SSDPDiagnostic(.invalidMX, field: "MX")]),
            ("\"ssdp:discover\"", "1.5", [SSDPDiagnostic(.invalidMX, field: "MX")]),
            ("\"ssdp:discover\"", "", [SSDPDiagnostic(.invalidMX, field: "MX")]),
            ("\"ssdp:discover\"", "5", []),
            ("\"ssdp:discover\"", "6", [SSDPDiagnostic(.mxAboveFive, field: "MX")]),
            ("\"ssdp:discover\"", "120", [SSDPDiagnostic(.mxAboveFive, field: "MX")]),
        ] as [(String, String, [SSDPDiagnostic])]
    )
    func checksMANAndMX(man: String, mx: String, expected: [SSDPDiagnostic]) {
        let message = SSDPMessage(
            kind: .search,
            headers: [
                "HOST": "239.255.255.250:1900", "MAN": man, "MX": mx, "ST": "ssdp:all",
            ]
        )
        #expect(SSDPConformance.diagnostics(for: message) == expected)
    }

    @Test func reportsAMissingCacheControlOnlyAsMissing() {
        let message = SSDPMessage(
            kind: .response,
            headers: [
                "EXT": "", "LOCATION": "http://192.168.1.1/", "SERVER": "a UPnP/1.0 b", "ST": "upnp:rootdevice",
                "USN": "uuid:x::upnp:rootdevice",
            ]
        )
        #expect(SSDPConformance.diagnostics(for: message) == [SSDPDiagnostic(.missingHeader, field: "CACHE-CONTROL")])
    }

    @Test func namesTheCacheControlFieldAsTheSenderSpelledIt() {
        let message = SSDPMessage(
            kind: .notify,
            headers: [
                "HOST": "239.255.255.250:1900", "Cache-Control": "no-cache, max-age = x", "NT": "upnp:rootdevice",
                "NTS": "ssdp:byebye", "USN": "uuid:x::upnp:rootdevice",
            ]
        )
        #expect(
            SSDPConformance.diagnostics(for: message) == [
                SSDPDiagnostic(.invalidCacheControl, field: "Cache-Control"),
                SSDPDiagnostic(.extraCacheControlDirective, field: "Cache-Control"),
            ]
        )
    }

    @Test func reportsAnUnknownNotificationSubtype() {
        let message = SSDPMessage(
            kind: .notify,
            headers: [
                "HOST": "239.255.255.250:1900", "NT": "upnp:rootdevice", "NTS": "ssdp:Alive", "USN": "uuid:x",
            ]
        )
        #expect(message.notificationSubtype == .other("ssdp:Alive"))
        #expect(
            SSDPConformance.diagnostics(for: message) == [SSDPDiagnostic(.unknownNotificationSubtype, field: "NTS")]
        )
    }

    @Test func describesDiagnosticsAsTheCorpusWritesThem() {
        #expect(SSDPDiagnostic(.missingHeader, field: "EXT").description == "missingHeader(EXT)")
        #expect(SSDPDiagnostic(.bareLineFeed).description == "bareLineFeed")
    }
}
