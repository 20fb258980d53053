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

/// The parser's leniencies, its errors, and the serializer it must agree with.
@Suite struct SSDPParserTests {
    // MARK: - Line ends and the empty line

    @Test func acceptsCanonicalCRLFWithoutDiagnostics() throws {
        let parsed = try SSDPParser.parse(datagram(Self.search))
        #expect(parsed.message.kind == .search)
        #expect(parsed.diagnostics.isEmpty)
    }

    @Test func acceptsBareLineFeeds() throws {
        let parsed = try SSDPParser.parse(datagram(Self.search, lineEnd: "\n"))
        #expect(parsed.message == (try SSDPParser.parse(datagram(Self.search))).message)
        #expect(parsed.diagnostics == [SSDPDiagnostic(.bareLineFeed)])
    }

    @Test func acceptsMixedLineEndsAndReportsBareLineFeedOnce() throws {
        let parsed = try SSDPParser.parse(
            "M-SEARCH * HTTP/1.1\nHOST: 239.255.255.250:1900\r\nMAN: \"ssdp:discover\"\nMX: 2\r\nST: ssdp:all\n\r\n"
        )
        #expect(parsed.message.headers["ST"] == "ssdp:all")
        #expect(parsed.diagnostics == [SSDPDiagnostic(.bareLineFeed)])
    }

    @Test(arguments: ["\r\n", "\n"])
    func acceptsAMissingFinalBlankLine(lineEnd: String) throws {
        let parsed = try SSDPParser.parse(datagram(Self.search, lineEnd: lineEnd, blankLine: false))
        #expect(parsed.message.headers["ST"] == "ssdp:all")
        #expect(parsed.diagnostics.contains(SSDPDiagnostic(.missingFinalBlankLine)))
    }

    @Test func acceptsALastLineWithoutLineEnd() throws {
        let parsed = try SSDPParser.parse(
            "M-SEARCH * HTTP/1.1\r\nHOST: 239.255.255.250:1900\r\nMAN: \"ssdp:discover\"\r\nMX: 1\r\nST: ssdp:all"
        )
        #expect(parsed.message.headers["ST"] == "ssdp:all")
        #expect(parsed.diagnostics == [SSDPDiagnostic(.missingFinalBlankLine)])
    }

    @Test func notesABodyAfterTheEmptyLine() throws {
        let parsed = try SSDPParser.parse(datagram(Self.search) + Array("<root/>".utf8))
        #expect(parsed.diagnostics == [SSDPDiagnostic(.bodyPresent)])
        #expect(parsed.message == (try SSDPParser.parse(datagram(Self.search))).message)
    }

    @Test func ignoresWhitespaceAfterTheEmptyLine() throws {
        let parsed = try SSDPParser.parse(datagram(Self.search) + Array(" \r\n\t\r\n".utf8))
        #expect(parsed.diagnostics.isEmpty)
    }

    // MARK: - Header names, colons and values

    @Test func acceptsAnyCaseInHeaderNamesAndLooksThemUpIgnoringCase() throws {
        let parsed = try SSDPParser.parse(
            datagram([
                "M-SEARCH * HTTP/1.1", "host: 239.255.255.250:1900",
                "Man: \"ssdp:discover\"", "mX: 3", "St: upnp:rootdevice",
            ])
        )
        let headers = parsed.message.headers
        #expect(headers["ST"] == "upnp:rootdevice")
        #expect(headers["st"] == "upnp:rootdevice")
        #expect(headers["Mx"] == "3")
        #expect(headers.contains("HOST"))
        #expect(headers.fields.map(\.name) == ["host", "Man", "mX", "St"])
        #expect(
            parsed.diagnostics == ["host", "Man", "mX", "St"].map { SSDPDiagnostic(.lowercaseHeaderName, field: $0) }
        )
    }

    @Test func acceptsNoSpaceAfterTheColon() throws {
        let parsed = try SSDPParser.parse(
            datagram([
                "NOTIFY * HTTP/1.1", "HOST:239.255.255.250:1900", "NT:upnp:rootdevice",
                "NTS:ssdp:byebye", "USN:uuid:4d696e69-444c-164e-9d41-b827eb1a2b3c::upnp:rootdevice",
            ])
        )
        #expect(parsed.message.headers["HOST"] == "239.255.255.250:1900")
        #expect(parsed.message.notificationSubtype == .byebye)
        #expect(
            parsed.diagnostics == ["HOST", "NT", "NTS", "USN"].map { SSDPDiagnostic(.noSpaceAfterColon, field: $0) }
        )
    }

    @Test(arguments: ["ST : ssdp:all", "ST:  ssdp:all", "ST:\tssdp:all", " ST: ssdp:all", "ST\t:ssdp:all"])
    func acceptsExtraWhitespaceAroundTheColon(line: String) throws {
        let parsed = try SSDPParser.parse(
            datagram([
                "M-SEARCH * HTTP/1.1", "HOST: 239.255.255.250:1900",
                "MAN: \"ssdp:discover\"", "MX: 1", line,
            ])
        )
        #expect(parsed.message.headers.fields.last == SSDPHeaderField(name: "ST", value: "ssdp:all"))
        #expect(parsed.diagnostics == [SSDPDiagnostic(.extraWhitespaceAroundColon, field: "ST")])
    }

    @Test func trimsTrailingSpacesAndTabsFromValues() throws {
        let parsed = try SSDPParser.parse(
            datagram([
                "M-SEARCH * HTTP/1.1", "HOST: 239.255.255.250:1900 \t",
                "MAN: \"ssdp:discover\"", "MX: 1", "ST: ssdp:all  ",
            ])
        )
        #expect(parsed.message.headers["HOST"] == "239.255.255.250:1900")
        #expect(parsed.message.headers["ST"] == "ssdp:all")
    }

    @Test(arguments: ["EXT:", "EXT: "])
    func readsAnEmptyValue(line: String) throws {
        let parsed = try SSDPParser.parse(datagram(Self.response(extraLines: [line])))
        #expect(parsed.message.headers.values(for: "EXT") == ["", ""])
        #expect(parsed.diagnostics == [SSDPDiagnostic(.duplicateHeader, field: "EXT")])
    }

    /// Most lines are written as UDA writes them, and the reader reads those on a short path that notes
    /// nothing but a repeat. Each line here is one (or is one byte away from one), at the lengths that path
    /// reads and past them, or a vendor's line, which it leaves to the checks of every other line; each is
    /// noted as any line is: alone, and twice (the second a duplicate).
    @Test(arguments: [
        ("MX: 1", "MX", [String]()),
        ("Mx: 1", "Mx", ["lowercaseHeaderName(Mx)"]),
        ("USER-AGENT: a/1", "USER-AGENT", []),
        ("USER-AGENt: a/1", "USER-AGENt", ["lowercaseHeaderName(USER-AGENt)"]),
        ("USER-AGENT:  a/1", "USER-AGENT", ["extraWhitespaceAroundColon(USER-AGENT)"]),
        ("USER-AGENT:\ta/1", "USER-AGENT", ["extraWhitespaceAroundColon(USER-AGENT)"]),
        ("USER-AGENT :a/1", "USER-AGENT", ["extraWhitespaceAroundColon(USER-AGENT)"]),
        (" USER-AGENT: a/1", "USER-AGENT", ["extraWhitespaceAroundColon(USER-AGENT)"]),
        ("USER-AGENT:a/1", "USER-AGENT", ["noSpaceAfterColon(USER-AGENT)"]),
        ("USER_AGENT: a/1", "USER_AGENT", []),
        ("BOOTID.UPNP.ORG: 1", "BOOTID.UPNP.ORG", []),  // the longest name SSDP defines the short path reads
        ("BOOTID.UPNP.ORg: 1", "BOOTID.UPNP.ORg", []),  // a dotted name: lower case is allowed
        ("CONFIGID.UPNP.ORG: 1", "CONFIGID.UPNP.ORG", []),  // seventeen: past the short path
        ("CONFIGID.UPNP.ORG:1", "CONFIGID.UPNP.ORG", ["noSpaceAfterColon(CONFIGID.UPNP.ORG)"]),
        ("NEXTBOOTID.UPNP.ORg: 1", "NEXTBOOTID.UPNP.ORg", []),
        ("OPT: \"http://schemas.upnp.org/upnp/1/0/\"; ns=01", "OPT", []),  // a vendor's name, and a value with a colon
        ("X-RINCON-HOUSEHOLD: Sonos_1", "X-RINCON-HOUSEHOLD", []),
        ("X-RINCON-HOUSEHOLd: Sonos_1", "X-RINCON-HOUSEHOLd", ["lowercaseHeaderName(X-RINCON-HOUSEHOLd)"]),
        ("X-RINCON-HOUSEHOLD:  Sonos_1", "X-RINCON-HOUSEHOLD", ["extraWhitespaceAroundColon(X-RINCON-HOUSEHOLD)"]),
        ("X-A-VENDOR-NAME-OF-24-BY: 1", "X-A-VENDOR-NAME-OF-24-BY", []),  // the longest classifyASCII reads as words
        ("X-A-VENDOR-NAME-OF-25-BYT: 1", "X-A-VENDOR-NAME-OF-25-BYT", []),
        (
            "X-A-VENDOR-NAME-OF-25-BYt: 1", "X-A-VENDOR-NAME-OF-25-BYt",
            ["lowercaseHeaderName(X-A-VENDOR-NAME-OF-25-BYt)"]
        ),
        ("X-CAF\u{C9}: 1", "X-CAF\u{C9}", []),  // not ASCII
    ])
    func notesLinesWrittenAsUDAWritesThemAsAnyOther(line: String, name: String, expected: [String]) throws {
        let once = try SSDPParser.parse(datagram(Self.response(extraLines: [line])))
        #expect(once.diagnostics.map(\.description) == expected)
        let twice = try SSDPParser.parse(datagram(Self.response(extraLines: [line, line])))
        #expect(twice.diagnostics.map(\.description) == expected + ["duplicateHeader(\(name))"])
        // The last line of a datagram without a line end (a short one's name too near the end to be read as a word).
        let last = Self.response(extraLines: [line]).joined(separator: "\r\n")
        #expect(try SSDPParser.parse(last).diagnostics.map(\.description) == expected + ["missingFinalBlankLine"])
    }

    @Test func readsSpacedMaxAge() throws {
        let parsed = try SSDPParser.parse(datagram(Self.response(cacheControl: "max-age = 1800")))
        #expect(parsed.message.headers["CACHE-CONTROL"] == "max-age = 1800")
        #expect(SSDPCacheControl(parsed.message.headers["CACHE-CONTROL"] ?? "").maxAge == 1800)
        #expect(parsed.diagnostics == [SSDPDiagnostic(.spacedMaxAge, field: "CACHE-CONTROL")])
    }

    @Test func readsMaxAgeAfterANoCacheDirective() throws {
        let value = "no-cache=\"Ext\", max-age=5000"
        let parsed = try SSDPParser.parse(datagram(Self.response(cacheControl: value)))
        #expect(SSDPCacheControl(parsed.message.headers["CACHE-CONTROL"] ?? "").maxAge == 5000)
        #expect(parsed.diagnostics == [SSDPDiagnostic(.extraCacheControlDirective, field: "CACHE-CONTROL")])
    }

    @Test func keepsDuplicateHeadersInOrder() throws {
        let parsed = try SSDPParser.parse(
            datagram(
                Self.response(extraLines: [
                    "SERVER: Linux/3.7.0a-wdt-eaton+ UPnP/1.0 ProSyst", "Server: second", "SERVER: third",
                ])
            )
        )
        let headers = parsed.message.headers
        #expect(headers["SERVER"] == "Linux/2.6 UPnP/1.0 quick_ssdp/1.0")
        #expect(
            headers.values(for: "server") == [
                "Linux/2.6 UPnP/1.0 quick_ssdp/1.0", "Linux/3.7.0a-wdt-eaton+ UPnP/1.0 ProSyst", "second", "third",
            ]
        )
        #expect(
            parsed.diagnostics == [
                SSDPDiagnostic(.duplicateHeader, field: "SERVER"),
                SSDPDiagnostic(.lowercaseHeaderName, field: "Server"),
                SSDPDiagnostic(.duplicateHeader, field: "Server"),
            ]
        )
    }

    /// The reader keeps the first 32 fields on the stack and moves them to an array when more come: a
    /// message with many more keeps every field in order and finds a duplicate of a field moved long before
    /// (`SSDPParserReadFieldsTests` reads it as the session does).
    @Test func readsMoreFieldsThanTheReaderKeepsOnTheStack() throws {
        let vendor = (1...100).map { "X-VENDOR-\($0): value \($0)" }
        let lines = Self.response(extraLines: vendor + ["SERVER: again", "x-vendor-7: again"])
        let parsed = try SSDPParser.parse(datagram(lines))
        let headers = parsed.message.headers
        #expect(headers.count == 6 + 100 + 2)
        #expect(headers.fields.map(\.name) == lines.dropFirst().map { String($0.prefix { $0 != ":" }) })
        #expect(headers.values(for: "X-Vendor-7") == ["value 7", "again"])
        #expect(headers["X-VENDOR-100"] == "value 100")
        #expect(
            parsed.diagnostics == [
                SSDPDiagnostic(.duplicateHeader, field: "SERVER"),
                SSDPDiagnostic(.lowercaseHeaderName, field: "x-vendor-7"),
                SSDPDiagnostic(.duplicateHeader, field: "x-vendor-7"),
            ]
        )
    }

    @Test func preservesHeaderOrderAndOriginalSpelling() throws {
        let parsed = try SSDPParser.parse(
            datagram(
                Self.response(extraLines: [
                    "hue-bridgeid: 001788FFFE4A5B6C",
                    "GWID.phoscon.de: 0x00212effff03ffc9", "01-NLS: 7",
                ])
            )
        )
        #expect(
            parsed.message.headers.fields.map(\.name) == [
                "CACHE-CONTROL", "EXT", "LOCATION", "SERVER", "ST", "USN", "hue-bridgeid", "GWID.phoscon.de", "01-NLS",
            ]
        )
        #expect(parsed.message.headers["HUE-BRIDGEID"] == "001788FFFE4A5B6C")
    }

    // MARK: - Bytes that are not UTF-8

    @Test(
        arguments: [
            [0xFF], [0xA0], [0x80], [0xC3], [0xE2, 0x82], [0xF0, 0x9F, 0x98], [0xED, 0xA0, 0x80], [0xC0, 0xAF],
        ] as [[UInt8]]
    )
    func replacesBytesThatAreNotUTF8(bytes: [UInt8]) throws {
        let datagram =
            Array("HTTP/1.1 200 OK\r\nSERVER: Samsung".utf8) + bytes
            + Array(" UPnP/1.0\r\nST: upnp:rootdevice\r\n\r\n".utf8)
        let parsed = try SSDPParser.parse(datagram)
        let server = try #require(parsed.message.headers["SERVER"])
        #expect(server.hasPrefix("Samsung\u{FFFD}"))
        #expect(server.hasSuffix("\u{FFFD} UPnP/1.0"))
        #expect(parsed.diagnostics.first == SSDPDiagnostic(.invalidUTF8))
        #expect(parsed.diagnostics.filter { $0.code == SSDPDiagnostic.Code.invalidUTF8 }.count == 1)
    }

    @Test func replacesBytesThatAreNotUTF8InNamesAndTheStartLine() throws {
        let bytes = Array("HTTP/1.1 200 OK".utf8) + [0xFF] + Array("\r\nX-".utf8) + [0xA0] + Array(": 1\r\n\r\n".utf8)
        let parsed = try SSDPParser.parse(bytes)
        #expect(parsed.message.kind == .response)
        #expect(parsed.message.headers.fields.first?.name == "X-\u{FFFD}")
        #expect(
            Array(parsed.diagnostics.prefix(2)) == [
                SSDPDiagnostic(.invalidUTF8), SSDPDiagnostic(.nonStandardStartLine),
            ]
        )
    }

    // MARK: - Start lines

    @Test(arguments: [
        ("M-SEARCH * HTTP/1.1", SSDPMessage.Kind.search, false),
        ("NOTIFY * HTTP/1.1", .notify, false),
        ("HTTP/1.1 200 OK", .response, false),
        ("m-search * http/1.1", .search, true),
        ("NOTIFY * HTTP/1.0", .notify, true),
        ("NOTIFY /upnp/event HTTP/1.1", .notify, true),
        ("M-SEARCH  *  HTTP/1.1", .search, true),
        ("HTTP/1.0 200 OK", .response, true),
        ("HTTP/1.1 200", .response, true),
        ("http/1.1 200 ok", .response, true),
    ])
    func readsStartLines(line: String, kind: SSDPMessage.Kind, nonStandard: Bool) throws {
        let parsed = try SSDPParser.parse(datagram([line]))
        #expect(parsed.message.kind == kind)
        #expect(parsed.diagnostics.contains(SSDPDiagnostic(.nonStandardStartLine)) == nonStandard)
        // The standard lines are the ones messages are written with.
        #expect((line == SSDPMessage(kind: kind, headers: [:]).startLine) == !nonStandard)
    }

    // MARK: - Errors

    @Test func rejectsAnEmptyDatagram() {
        #expect(throws: SSDPParseError(.emptyDatagram)) { try SSDPParser.parse([UInt8]()) }
    }

    @Test func rejectsADatagramLargerThanSixtyFourKibibytes() throws {
        let exactlyMaximum = padded(datagram(Self.search), to: SSDPParser.maximumDatagramSize)
        #expect(exactlyMaximum.count == 65_536)
        #expect(try SSDPParser.parse(exactlyMaximum).message.kind == .search)
        #expect(throws: SSDPParseError(.datagramTooLarge)) { try SSDPParser.parse(exactlyMaximum + [0x20]) }
    }

    @Test(arguments: [
        "HTTP/1.1 404 Not Found", "GET /description.xml HTTP/1.1", "M-SEARCH *", "M-SEARCH * RTSP/1.0",
        "SUBSCRIBE /event HTTP/1.1", "", "\u{FEFF}M-SEARCH * HTTP/1.1", "HTTP/2 200", " ",
    ])
    func rejectsAnUnknownStartLine(line: String) {
        let error = #expect(throws: SSDPParseError.self) { try SSDPParser.parse(datagram([line])) }
        #expect(error?.code == .unknownStartLine)
        #expect(error?.line == 1)
    }

    @Test func rejectsALeadingEmptyLine() {
        let error = #expect(throws: SSDPParseError.self) {
            try SSDPParser.parse("\r\n" + Self.search.joined(separator: "\r\n"))
        }
        #expect(error == SSDPParseError(.unknownStartLine, line: 1, text: ""))
    }

    @Test func rejectsAHeaderLineWithoutColonNamingItsLine() {
        let lines = Self.response(extraLines: ["DEFUNCT"])
        let error = #expect(throws: SSDPParseError.self) { try SSDPParser.parse(datagram(lines)) }
        #expect(error == SSDPParseError(.headerLineWithoutColon, line: lines.count, text: "DEFUNCT"))
    }

    @Test func rejectsAFoldedValueAsAHeaderLineWithoutColon() {
        let bytes = Array(
            "HTTP/1.1 200 OK\r\nSERVER: Network Printer Server UPnP/1.0 OS 1.03.03.08\n10-30-2006\r\n\r\n".utf8
        )
        #expect(throws: SSDPParseError(.headerLineWithoutColon, line: 3, text: "10-30-2006")) {
            try SSDPParser.parse(bytes)
        }
    }

    @Test(arguments: [": value", "  :value", "\t: value"])
    func rejectsAnEmptyHeaderName(line: String) {
        let error = #expect(throws: SSDPParseError.self) {
            try SSDPParser.parse(datagram(["NOTIFY * HTTP/1.1", "HOST: x", line]))
        }
        #expect(error?.code == .emptyHeaderName)
        #expect(error?.line == 3)
    }

    @Test func cutsTheOffendingLineInAnErrorToEightyCharacters() {
        let line = String(repeating: "x", count: 200)
        let error = #expect(throws: SSDPParseError.self) { try SSDPParser.parse(datagram(["HTTP/1.1 200 OK", line])) }
        #expect(error?.text == String(repeating: "x", count: 80) + "…")
        #expect(error?.description == "headerLineWithoutColon at line 2: " + String(repeating: "x", count: 80) + "…")
    }

    // MARK: - Inputs

    @Test func parsesCollectionsWithoutContiguousStorage() throws {
        let bytes = datagram(Self.search)
        let parsed = try SSDPParser.parse(bytes.lazy.map { $0 })
        #expect(parsed == (try SSDPParser.parse(bytes)))
        #expect(parsed == (try SSDPParser.parse(String(decoding: bytes, as: UTF8.self))))
    }

    // MARK: - Serializer

    @Test func serializesExactCRLFBytes() {
        let message = SSDPMessage(
            kind: .response,
            headers: ["CACHE-CONTROL": "max-age=1800", "EXT": "", "ST": "roku:ecp"]
        )
        let expected: [UInt8] =
            Array("HTTP/1.1 200 OK".utf8) + [13, 10] + Array("CACHE-CONTROL: max-age=1800".utf8)
            + [13, 10] + Array("EXT:".utf8) + [13, 10] + Array("ST: roku:ecp".utf8) + [13, 10, 13, 10]
        #expect(message.serialized() == expected)
        #expect(
            message.serializedText == "HTTP/1.1 200 OK\r\nCACHE-CONTROL: max-age=1800\r\nEXT:\r\nST: roku:ecp\r\n\r\n"
        )
    }

    @Test(arguments: Self.messagesOfEveryKind)
    func roundTripsMessagesOfEveryKind(message: SSDPMessage) throws {
        let parsed = try SSDPParser.parse(message.serialized())
        #expect(parsed.message == message)
        #expect(parsed.diagnostics.isEmpty)
    }

    @Test func roundTripsNamesAndValuesItDoesNotUnderstand() throws {
        let message = SSDPMessage(
            kind: .notify,
            headers: [
                "NT": "urn:schemas-mbs upnp device:service:URLService:1", "hue-bridgeid": "001788FFFE4A5B6C",
                "X-EMPTY": "", "AL": "<blender:ixl><http://foo/bar>", "SERVER": "Küche/1.0 UPnP/1.0 ☃/2",
            ]
        )
        #expect(try SSDPParser.parse(message.serialized()).message == message)
    }
}

// MARK: - Fixtures

extension SSDPParserTests {
    /// A multicast search exactly as UDA 1.1 §1.3.2 writes it.
    static let search = [
        "M-SEARCH * HTTP/1.1", "HOST: 239.255.255.250:1900", "MAN: \"ssdp:discover\"", "MX: 2", "ST: ssdp:all",
    ]

    /// A UPnP/1.0 search response as UDA 1.1 §1.3.3 writes it, with `extraLines` added at the end.
    static func response(cacheControl: String = "max-age=1800", extraLines: [String] = []) -> [String] {
        [
            "HTTP/1.1 200 OK", "CACHE-CONTROL: \(cacheControl)", "EXT:", "LOCATION: http://192.168.1.64:56790/dd.xml",
            "SERVER: Linux/2.6 UPnP/1.0 quick_ssdp/1.0", "ST: urn:dial-multiscreen-org:service:dial:1",
            "USN: uuid:6f3e8a52-1c4d-4b7e-9a10-9614ee8aff70::urn:dial-multiscreen-org:service:dial:1",
        ] + extraLines
    }

    /// One conforming message of each kind and notification subtype.
    static let messagesOfEveryKind: [SSDPMessage] = [
        SSDPMessage(
            kind: .search,
            headers: [
                "HOST": "239.255.255.250:1900", "MAN": "\"ssdp:discover\"", "MX": "1", "ST": "ssdp:all",
                "USER-AGENT": "Linux/6.1 UPnP/1.1 ssdp-sim/0.1", "CPFN.UPNP.ORG": "ssdp-sim",
            ]
        ),
        SSDPMessage(
            kind: .search,
            headers: ["HOST": "192.168.1.64:1900", "MAN": "\"ssdp:discover\"", "ST": "roku:ecp"]
        ),
        SSDPMessage(
            kind: .response,
            headers: [
                "CACHE-CONTROL": "max-age=1800", "DATE": "Sun, 09 Jan 2022 15:46:38 GMT", "EXT": "",
                "LOCATION": "http://192.168.1.1:5000/rootDesc.xml", "SERVER": "OpenWrt/19.07 UPnP/1.1 MiniUPnPd/2.2.0",
                "ST": "upnp:rootdevice", "USN": "uuid:2e12b7cb-4f2e-4bcb-9a1d-3f5e6d7c8b9a::upnp:rootdevice",
                "BOOTID.UPNP.ORG": "1627389405", "CONFIGID.UPNP.ORG": "1337",
            ]
        ),
        SSDPMessage(
            kind: .notify,
            headers: [
                "HOST": "239.255.255.250:1900", "CACHE-CONTROL": "max-age=1800",
                "LOCATION": "http://192.168.27.212:1400/xml/device_description.xml",
                "NT": "urn:schemas-upnp-org:device:ZonePlayer:1", "NTS": "ssdp:alive",
                "SERVER": "Linux UPnP/1.0 Sonos/31.9-26010 (BR100)",
                "USN": "uuid:RINCON_000E581C64B201400::urn:schemas-upnp-org:device:ZonePlayer:1",
            ]
        ),
        SSDPMessage(
            kind: .notify,
            headers: [
                "HOST": "[FF02::C]:1900", "NT": "upnp:rootdevice", "NTS": "ssdp:byebye",
                "USN": "uuid:2e12b7cb-4f2e-4bcb-9a1d-3f5e6d7c8b9a::upnp:rootdevice",
            ]
        ),
        SSDPMessage(
            kind: .notify,
            headers: [
                "HOST": "239.255.255.250:1900", "LOCATION": "http://192.168.1.1:5000/rootDesc.xml",
                "NT": "upnp:rootdevice",
                "NTS": "ssdp:update", "USN": "uuid:2e12b7cb-4f2e-4bcb-9a1d-3f5e6d7c8b9a::upnp:rootdevice",
                "BOOTID.UPNP.ORG": "7", "CONFIGID.UPNP.ORG": "1337", "NEXTBOOTID.UPNP.ORG": "8",
                "SEARCHPORT.UPNP.ORG": "49152",
            ]
        ),
    ]
}

// MARK: - Helpers

/// `lines` each ended by `lineEnd`, followed by the empty line unless `blankLine` is false.
private func datagram(_ lines: [String], lineEnd: String = "\r\n", blankLine: Bool = true) -> [UInt8] {
    Array((lines.map { $0 + lineEnd }.joined() + (blankLine ? lineEnd : "")).utf8)
}

/// `bytes` grown to exactly `size` bytes by a trailing vendor header.
private func padded(_ bytes: [UInt8], to size: Int) -> [UInt8] {
    let header = Array("X-PADDING: ".utf8)
    let filler = size - bytes.count - header.count - 2
    let withoutEmptyLine = Array(bytes.prefix(bytes.count - 2))
    return withoutEmptyLine + header + [UInt8](repeating: UInt8(ascii: "x"), count: filler) + [13, 10, 13, 10]
}

extension SSDPParserTests {
    @Test func vendorHeaderNamesMayBeLowerCase() throws {
        let parsed = try SSDPParser.parse("NOTIFY * HTTP/1.1\r\nmyheader.philips.com: 1\r\nhue-bridgeid: 2\r\n\r\n")
        let lowercase = parsed.diagnostics.filter { $0.code == .lowercaseHeaderName }
        #expect(lowercase == [SSDPDiagnostic(.lowercaseHeaderName, field: "hue-bridgeid")])
    }
}

extension SSDPParserTests {
    /// The line scan reads eight bytes at a time: every position of the line end and of a byte that is not
    /// UTF-8 within and across those words must read as one byte at a time would.
    @Test func readsEveryLineLengthAndFindsUndecodableBytesAnywhere() throws {
        for nameLength in 1...9 {
            let name = String(repeating: "X", count: nameLength)
            for valueLength in 0..<20 {
                let value = (0..<valueLength).map { UInt8(ascii: "a") + UInt8($0 % 26) }
                for bad in [nil] + Array(0..<valueLength) {
                    var bytes = value
                    if let bad { bytes[bad] = 0xFF }
                    let datagram =
                        Array("HTTP/1.1 200 OK\r\n\(name): ".utf8) + bytes
                        + Array("\r\nST: upnp:rootdevice\r\n\r\n".utf8)
                    let parsed = try SSDPParser.parse(datagram)
                    #expect(parsed.message.headers[name] == String(decoding: bytes, as: UTF8.self))
                    #expect(parsed.message.headers["ST"] == "upnp:rootdevice")
                    #expect(parsed.diagnostics.contains(SSDPDiagnostic(.invalidUTF8)) == (bad != nil))
                    #expect(!parsed.diagnostics.contains(SSDPDiagnostic(.bareLineFeed)))
                }
            }
        }
    }

    @Test func keepsDecodableNonASCIIBytesAsTheyAre() throws {
        let parsed = try SSDPParser.parse("HTTP/1.1 200 OK\r\nSERVER: Café/1.0 UPnP/1.0 Zürich/2\r\n\r\n")
        #expect(parsed.message.headers["SERVER"] == "Café/1.0 UPnP/1.0 Zürich/2")
        #expect(!parsed.diagnostics.contains(SSDPDiagnostic(.invalidUTF8)))
    }
}
