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
import SSDPDeviceCore
import Testing

@Suite struct SSDPRootDeviceTests {
    typealias F = DeviceFixtures

    @Test func advertisesThreePlusTwoDPlusKInSpecOrder() {
        let advertisements = F.gateway.advertisements.map { "\($0.target) | \($0.usn)" }
        #expect(
            advertisements == [
                "upnp:rootdevice | \(F.root)::upnp:rootdevice",
                "\(F.root) | \(F.root)",
                "urn:schemas-upnp-org:device:InternetGatewayDevice:2 | \(F.root)::urn:schemas-upnp-org:device:InternetGatewayDevice:2",
                "\(F.wan) | \(F.wan)",
                "urn:schemas-upnp-org:device:WANDevice:2 | \(F.wan)::urn:schemas-upnp-org:device:WANDevice:2",
                "\(F.connection) | \(F.connection)",
                "urn:schemas-upnp-org:device:WANConnectionDevice:2 | \(F.connection)::urn:schemas-upnp-org:device:WANConnectionDevice:2",
                "urn:schemas-upnp-org:service:Layer3Forwarding:1 | \(F.root)::urn:schemas-upnp-org:service:Layer3Forwarding:1",
                "urn:schemas-upnp-org:service:WANCommonInterfaceConfig:1 | \(F.wan)::urn:schemas-upnp-org:service:WANCommonInterfaceConfig:1",
                "urn:schemas-upnp-org:service:WANIPConnection:2 | \(F.connection)::urn:schemas-upnp-org:service:WANIPConnection:2",
                "urn:dial-multiscreen-org:service:dial:1 | \(F.root)::urn:dial-multiscreen-org:service:dial:1",
            ]
        )
    }

    /// UDA 1.1 §1.3.3: ST → the exact set of answers, each carrying the ST as the search spelled it.
    @Test(arguments: [
        ("ssdp:all", 11),
        ("upnp:rootdevice", 1),
        ("uuid:00000000-0000-4000-8000-000000000002", 1),
        ("uuid:00000000-0000-4000-8000-00000000000f", 0),
        ("urn:schemas-upnp-org:device:WANDevice:2", 1),
        ("urn:schemas-upnp-org:device:WANDevice:1", 1),
        ("urn:schemas-upnp-org:device:WANDevice:3", 0),
        ("urn:schemas-upnp-org:service:WANIPConnection:1", 1),
        ("urn:schemas-upnp-org:service:WANIPConnection:2", 1),
        ("urn:schemas-upnp-org:service:WANPPPConnection:1", 0),
        ("urn:schemas-upnp-org:device:MediaRenderer:1", 0),
        ("urn:dial-multiscreen-org:service:dial:1", 1),
        ("roku:ecp", 0),
    ])
    func answersEachSearchTargetWithTheRightSet(target: String, count: Int) {
        let answers = F.gateway.answers(to: SSDPSearchTarget(target))
        #expect(answers.count == count)
        if target != "ssdp:all" {
            #expect(answers.allSatisfy { $0.target == target }, "ST echoes the request's spelling and version")
        }
    }

    @Test func versionedSearchEchoesTheRequestedVersionInSTAndUSN() throws {
        let answer = try #require(
            F.gateway.answers(to: SSDPSearchTarget("urn:schemas-upnp-org:service:WANIPConnection:1")).first
        )
        #expect(answer.target == "urn:schemas-upnp-org:service:WANIPConnection:1")
        #expect(answer.usn == "\(F.connection)::urn:schemas-upnp-org:service:WANIPConnection:1")
    }

    @Test func uuidSearchFindsAnEmbeddedDevice() {
        let answers = F.gateway.answers(to: SSDPSearchTarget(F.connection))
        #expect(answers == [SSDPAdvertisement(target: F.connection, usn: F.connection)])
    }

    @Test func everyMessageTheDeviceSendsConformsToUDA11() {
        for advertisement in F.gateway.advertisements {
            for message in [
                F.gateway.searchResponse(for: advertisement), F.gateway.alive(advertisement),
                F.gateway.byebye(advertisement), F.gateway.update(advertisement, nextBootID: 8),
            ] {
                let parsed = try? SSDPParser.parse(message.serialized())
                #expect(parsed?.message == message)
                #expect(parsed?.diagnostics == [], "\(message.serializedText)")
            }
        }
    }

    @Test func byebyeCarriesNoLocationCacheControlOrServer() {
        let byebye = F.gateway.byebye(F.gateway.advertisements[0])
        #expect(
            byebye.headers.fields.map(\.name) == ["HOST", "NT", "NTS", "USN", "BOOTID.UPNP.ORG", "CONFIGID.UPNP.ORG"]
        )
    }

    @Test func searchResponseHasTheTemplateHeadersInOrder() {
        let response = F.gateway.searchResponse(
            for: SSDPAdvertisement(target: "upnp:rootdevice", usn: "\(F.root)::upnp:rootdevice")
        )
        #expect(
            response.serializedText == """
                HTTP/1.1 200 OK\r
                CACHE-CONTROL: max-age=120\r
                EXT:\r
                LOCATION: http://192.168.1.1:5000/rootDesc.xml\r
                SERVER: Linux/5.10 UPnP/1.1 MiniUPnPd/2.3.3\r
                ST: upnp:rootdevice\r
                USN: uuid:00000000-0000-4000-8000-000000000001::upnp:rootdevice\r
                BOOTID.UPNP.ORG: 7\r
                CONFIGID.UPNP.ORG: 1337\r
                \r

                """
        )
    }

    @Test(arguments: [
        ("urn:schemas-upnp-org:service:ContentDirectory:1", "urn:upnp-org:serviceId:ContentDirectory"),
        ("urn:dial-multiscreen-org:service:dial:1", "urn:upnp-org:serviceId:dial"),
        ("urn:a:service::1", "urn:upnp-org:serviceId:"),  // an empty type stays empty
        ("urn:a:service:Z\u{301}on:1", "urn:upnp-org:serviceId:Z\u{301}on"),
        ("Basic", "urn:upnp-org:serviceId:Basic"),  // fewer than four parts: the whole type
    ])
    func aServiceWithoutAnIDTakesItsTypesFourthPart(type: String, id: String) {
        #expect(SSDPDeviceService(serviceType: type).serviceID == id)
        let own = "urn:x:serviceId:Own"
        #expect(SSDPDeviceService(serviceType: type, serviceID: own).serviceID == own)
    }

    /// `uuid()` against the formatting it replaced (`String(radix: 16)`, zero-padded, cut at 8-4-4-4-12).
    @Test func uuidsAreVersionFourInLowerCaseHex() {
        func reference(_ high: UInt64, _ low: UInt64) -> String {
            func hex(_ value: UInt64) -> String {
                let digits = String(value, radix: 16)
                return String(repeating: "0", count: 16 - digits.count) + digits
            }
            let all = Array(hex(high) + hex(low))
            return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(all[$0]) }.joined(separator: "-")
        }
        for seed in UInt64(0)..<2_000 {
            var random = SSDPRandom(seed: seed)
            var twin = random
            let high = (twin.next() & 0xFFFF_FFFF_FFFF_0FFF) | 0x4000
            let low = (twin.next() & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
            let uuid = random.uuid()
            #expect(uuid == reference(high, low))
            #expect(Array(uuid)[14] == "4" && "89ab".contains(Array(uuid)[19]))
        }
    }

    /// The bytes a device sends are its answer serialized, extra headers, placeholders and empty values
    /// (`SERVER:`) included.
    @Test func theAnswersBytesAreTheAnswerSerialized() {
        var device = F.gateway
        device.server = ""
        device.maxAge = 120
        device.extraHeaders = [
            SSDPHeaderField(name: "SECURELOCATION.UPNP.ORG", value: "https://{host}:1443/x?st={st}"),
            SSDPHeaderField(name: "X-EMPTY", value: ""),
        ]
        let ownLocation = SSDPAdvertisement(target: "urn:x", usn: "uuid:y", location: "http://10.0.0.9:8060/d.xml")
        for advertisement in F.gateway.advertisements + [ownLocation] {
            for root in [device, F.gateway] {
                let sent = root.searchResponseBytes(for: advertisement)
                #expect(sent == root.searchResponse(for: advertisement).serialized())
            }
        }
    }
    /// Placeholders are filled in one pass (a description is filled on every GET): a value is written as it
    /// is, never searched for placeholders itself; an unknown or unclosed brace stays.
    @Test func placeholdersAreFilledOnceEach() {
        let values = ["{host}": "192.168.1.20", "{origin}": "http://{host}:80"]
        #expect(
            SSDPRootDevice.filling("<a>{origin}/</a><b>{host}</b>{nope}{host", with: values)
                == "<a>http://{host}:80/</a><b>192.168.1.20</b>{nope}{host"
        )
        #expect(SSDPRootDevice.filling("no braces", with: values) == "no braces")
        #expect(SSDPRootDevice.filling("é{host}é", with: values) == "é192.168.1.20é")
    }

    /// Plain ASCII comes back as it is; anything else goes through the escaping.
    @Test(arguments: [
        ("Living Room TV", "Living Room TV"),
        ("R&D <lab> \"1\" 'a'", "R&amp;D &lt;lab&gt; &quot;1&quot; &apos;a&apos;"),
        ("tab\tand line\n", "tab\tand line\n"), ("bell\u{7}", "bell\u{FFFD}"), ("Küche", "Küche"),
        ("\u{FFFE}", "\u{FFFD}"),
    ])
    func valuesAreEscapedForXML(text: String, expected: String) {
        #expect(SSDPRootDevice.escaped(text) == expected)
    }
}
