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

import Foundation
import SSDPCapture
import Testing

/// What `record --anonymize` replaces in a recorded device's answers and documents: what identifies it,
/// one value by one replacement everywhere, and nothing a document needs to mean what it meant.
@Suite struct ResponseAnonymizerTests {
    static let answer = """
        HTTP/1.1 200 OK\r
        LOCATION: http://192.168.1.7:49152/desc.xml\r
        USN: uuid:11111111-2222-3333-4444-555555555555::upnp:rootdevice\r
        \r

        """
    static let description = """
        <?xml version="1.0"?><root xmlns="urn:schemas-upnp-org:device-1-0"><URLBase>http://192.168.1.7:49152/</URLBase>\
        <device><friendlyName>Anna's Living Room</friendlyName><serialNumber>SN12345678</serialNumber>\
        <UDN>uuid:11111111-2222-3333-4444-555555555555</UDN><wifi-mac>b8:3e:59:12:34:56</wifi-mac>\
        <protocolInfo>http-get:*:video/mpeg:DLNA.ORG_PN=MPEG_PS_PAL;DLNA.ORG_FLAGS=01700000000000000000000000000000</protocolInfo>\
        <s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"/>\
        <modelDescription>Model SN12345678, not XSN12345678</modelDescription></device></root>
        """

    static func anonymized(_ anonymizer: inout CaptureAnonymizer, _ head: String, _ body: String) -> String {
        let bytes = Array((head + body).utf8)
        return String(decoding: anonymizer.anonymize(response: bytes, headEnd: head.utf8.count), as: UTF8.self)
    }

    @Test func aDocumentKeepsItsMeaningAndLosesItsOwner() throws {
        var anonymizer = CaptureAnonymizer()
        let answer = String(decoding: anonymizer.anonymize(recorded: Array(Self.answer.utf8)), as: UTF8.self)
        let head = "HTTP/1.1 200 OK\r\nContent-Type: text/xml\r\n\r\n"
        let document = Self.anonymized(&anonymizer, head, Self.description)
        for identifying in [
            "192.168.1.7", "11111111-2222", "Anna", "b8:3e:59:12:34:56", ">SN12345678<", " SN12345678,",
        ] {
            #expect(!document.contains(identifying), "\(identifying) in \(document)")
            #expect(!answer.contains(identifying))
        }
        // One value, one replacement: the UDN of the description is the USN's, the origin the LOCATION's.
        let udn = try #require(document.firstMatch(of: #/<UDN>uuid:([^<]+)</UDN>/#)?.output.1)
        #expect(answer.contains("USN: uuid:\(udn)::upnp:rootdevice"))
        let base = try #require(document.firstMatch(of: #/<URLBase>(http://[^/]+)/</URLBase>/#)?.output.1)
        #expect(answer.contains("LOCATION: \(base)/desc.xml"))
        #expect(document.contains("<friendlyName>Device 1</friendlyName>"))
        let serial = try #require(document.firstMatch(of: #/<serialNumber>([^<]+)</serialNumber>/#)?.output.1)
        #expect(serial.count == 10 && document.contains("Model \(serial), not XSN12345678"))
        // What a document needs to mean what it meant stays.
        for kept in [
            "xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\"", "DLNA.ORG_FLAGS=01700000000000000000000000000000",
            "DLNA.ORG_PN=MPEG_PS_PAL", "xmlns=\"urn:schemas-upnp-org:device-1-0\"",
        ] {
            #expect(document.contains(kept), "\(kept)")
        }
        #expect(
            anonymizer.replacedKinds.map(\.kind) == ["UUID", "MAC address", "IPv4 address", "serial number", "name"]
        )
        // Gone through again, the same replacements: the second pass of a recording changes nothing more.
        #expect(Self.anonymized(&anonymizer, head, Self.description) == document)
    }

    /// The names an owner gave, where a vendor's answer says them outside an element of their own: a Sonos
    /// zone in an action's answer and in its ZoneGroupState, a Hue bridge and light in JSON; each replaced
    /// as the description's name was.
    @Test func namesInAnswersAreReplacedAsTheDescriptionsAre() throws {
        var anonymizer = CaptureAnonymizer()
        let head = "HTTP/1.1 200 OK\r\nContent-Type: text/xml\r\n\r\n"
        let description = Self.anonymized(
            &anonymizer,
            head,
            "<root><device><roomName>Emma's Room</roomName></device></root>"
        )
        let attributes = Self.anonymized(
            &anonymizer,
            head,
            "<s:Envelope><s:Body><u:GetZoneAttributesResponse><CurrentZoneName>Emma's Room</CurrentZoneName>"
                + "</u:GetZoneAttributesResponse></s:Body></s:Envelope>"
        )
        let state = Self.anonymized(
            &anonymizer,
            head,
            "<ZoneGroupState>&lt;ZoneGroupMember UUID=&quot;RINCON_1&quot; ZoneName=&quot;Emma's Room&quot;/&gt;"
                + "&lt;ZoneGroupMember ZoneName=&quot;Tom &amp;amp; Jo&quot;/&gt;</ZoneGroupState>"
        )
        let hue = Self.anonymized(
            &anonymizer,
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n",
            #"{"name": "Emma's Bridge", "lights": {"1": {"name":"Bedside lamp", "modelid": "LCT015"}}}"#
        )
        for text in [description, attributes, state, hue] {
            #expect(!text.contains("Emma") && !text.contains("Bedside") && !text.contains("Jo&"), "\(text)")
        }
        #expect(description.contains("<roomName>Device 1</roomName>"))
        #expect(attributes.contains("<CurrentZoneName>Device 1</CurrentZoneName>"))
        #expect(state.contains("ZoneName=&quot;Device 1&quot;"))
        #expect(state.contains("ZoneName=&quot;Device 2&quot;"), "an escaped name whole")
        #expect(hue.contains(#""name": "Device 3""#) && hue.contains(#""name":"Device 4""#))
        #expect(hue.contains(#""modelid": "LCT015""#), "a model is no name")
    }

    /// What a new user's anonymized router and Sonos recordings lost or leaked before: types, versions and
    /// namespaces mangled, one MAC or household given two replacements, a Sonos UDN's MAC left in place.
    @Test func typesVersionsAndNamespacesStayAndEachIdentityHasOneReplacement() throws {
        var anonymizer = CaptureAnonymizer()
        let answers = """
            HTTP/1.1 200 OK\r
            ST: urn:schemas-upnp-org:service:Layer3Forwarding:1\r
            OPT: "http://schemas.upnp.org/upnp/1/0/"; ns=01\r
            X-USER-AGENT: redsonic\r
            USN: uuid:RINCON_48A6B8126D0B01400::urn:schemas-upnp-org:device:ZonePlayer:1\r
            X-RINCON-HOUSEHOLD: Sonos_2cBr5B0a8M1UQqY3ng2iZ1hj\r
            HOUSEHOLD.SMARTSPEAKER.AUDIO: Sonos_2cBr5B0a8M1UQqY3ng2iZ1hj.xFc1Ds2\r
            WAKEUP: MAC=dc-72-23-96-93-c2;Timeout=10\r
            hue-bridgeid: 001788FFFE23BFC2\r
            \r

            """
        let document = """
            <root><device><UDN>uuid:RINCON_48A6B8126D0B01400</UDN><hardwareVersion>1.26.1.7-1.2</hardwareVersion>\
            <serialNum>48-A6-B8-12-6D-0B:1</serialNum><wifi-mac>dc:72:23:96:93:c2</wifi-mac>\
            <NewExternalIPAddress>93.184.216.34</NewExternalIPAddress>\
            <ZoneGroupState>&lt;Member UUID=&quot;RINCON_48A6B8126D0B01400&quot;/&gt;\
            &lt;Member UUID=&quot;RINCON_48A6B8FE85BC01400&quot;/&gt;</ZoneGroupState>\
            <deviceList><device><UDN>uuid:RINCON_48A6B8126D0B01400_MS</UDN></device></deviceList>\
            <serialNumber>00178823bfc2</serialNumber><config>{"mac":"00:17:88:23:bf:c2","bridgeid":"001788FFFE23BFC2"}</config>\
            <MACAddress>48:A6:B8:12:6D:0B</MACAddress></device></root>
            """
        let head = "HTTP/1.1 200 OK\r\n\r\n"
        _ = Self.anonymized(&anonymizer, head, document)
        let played = String(decoding: anonymizer.anonymize(recorded: Array(answers.utf8)), as: UTF8.self)
        let body = Self.anonymized(&anonymizer, head, document)
        for kept in [
            "Layer3Forwarding:1", "\"http://schemas.upnp.org/upnp/1/0/\"", "X-USER-AGENT: redsonic", "ZonePlayer:1",
        ] {
            #expect(played.contains(kept), "\(kept) in \(played)")
        }
        #expect(body.contains("<hardwareVersion>1.26.1.7-1.2<") && body.contains(">93.184.216.34<"))
        for leaked in [
            "48A6B8126D0B01400", "48A6B8FE85BC01400", "48-A6-B8-12-6D-0B", "48:A6:B8", "2cBr5B0a8M1UQqY3ng2iZ1hj",
            "dc-72-23", "dc:72:23", "001788", "00:17:88",
        ] {
            #expect(!played.contains(leaked) && !body.contains(leaked), "\(leaked)")
        }
        // A Sonos id keeps its RINCON_ prefix and its embedded devices' suffixes, and is one id everywhere.
        let udn = try #require(body.firstMatch(of: #/<UDN>uuid:([^<]+)</UDN>/#)?.output.1)
        #expect(udn.hasPrefix("RINCON_") && played.contains("USN: uuid:\(udn)::"))
        #expect(body.contains("UUID=&quot;\(udn)&quot;") && body.contains("<UDN>uuid:\(udn)_MS</UDN>"))
        // One MAC, one replacement: in Sonos's serialNum and MACAddress; a Hue bridge's serial, MAC and id.
        let sonos = try #require(body.firstMatch(of: #/<MACAddress>([^<]+)</#)?.output.1)
        #expect(body.contains("<serialNum>\(sonos.replacingOccurrences(of: ":", with: "-")):1</serialNum>"), "\(body)")
        let hue = try #require(body.firstMatch(of: #/<serialNumber>([^<]+)</#)?.output.1)
        let bridge = (hue.prefix(6) + "FFFE" + hue.dropFirst(6)).uppercased()
        #expect(played.contains("hue-bridgeid: \(bridge)\r") && body.contains(#""bridgeid":"\#(bridge)""#), "\(played)")
        let colons = stride(from: 0, to: 12, by: 2).map { String(Array(hue)[$0..<$0 + 2]) }.joined(separator: ":")
        #expect(body.contains(#""mac":"\#(colons)""#), "\(body)")
        let household = try #require(played.firstMatch(of: #/X-RINCON-HOUSEHOLD: (\S+)/#)?.output.1)
        #expect(played.contains("HOUSEHOLD.SMARTSPEAKER.AUDIO: \(household)."), "one household, one replacement")
        let mac = try #require(body.firstMatch(of: #/<wifi-mac>([^<]+)</#)?.output.1)
        #expect(played.contains("MAC=\(mac.replacingOccurrences(of: ":", with: "-"));"), "one MAC: \(mac), \(played)")
    }

    @Test func aBinaryBodyIsLeftAsItIs() {
        var anonymizer = CaptureAnonymizer()
        let head = Array("HTTP/1.1 200 OK\r\nContent-Type: image/png\r\n\r\n".utf8)
        let body: [UInt8] = [0x89, 0x50, 0x4E, 0x47] + Array("192.168.1.7".utf8)
        #expect(anonymizer.anonymize(response: head + body, headEnd: head.count, binaryBody: true) == head + body)
    }
}
