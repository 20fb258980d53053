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
import SSDPCore
import SSDPDeviceCore
import SSDPDevices
import Testing

@testable import SSDPCheck

/// How a check words an answer that is not 200 OK, the same in every audit.
@Suite struct HTTPExchangeWordingTests {
    private func exchange(_ startLine: String?) -> HTTPExchange {
        HTTPExchange(
            request: "GET / HTTP/1.1",
            response: startLine.map { .success(HTTPMessage(startLine: $0, headers: [], body: [])) }
                ?? .failure(HTTPFetchError(reason: "connection refused"))
        )
    }

    @Test func namesTheStatusThatCameInsteadOf200() {
        #expect(exchange("HTTP/1.1 200 OK").notOK == nil)
        #expect(exchange("HTTP/1.1 200 OK").notOK("SUBSCRIBE") == nil)
        #expect(exchange("HTTP/1.1 404 Not Found").notOK == "answered 404 Not Found, not 200 OK")
        #expect(exchange(nil).notOK == "no answer: with nothing (connection refused)")
        #expect(
            exchange("HTTP/1.1 412 Precondition Failed").notOK("SUBSCRIBE")
                == "SUBSCRIBE was answered 412 Precondition Failed, not 200 OK"
        )
        #expect(
            exchange(nil).notOK("stopping", reference: "(DIAL 2.2 §6.3)")
                == "stopping was answered with nothing (connection refused), not 200 OK (DIAL 2.2 §6.3)"
        )
        #expect(exchange("HTTP/1.1 201 Created").statusText == "201 Created")
    }
}

@Suite struct HTTPMessageReaderTests {
    let reader = HTTPMessageReader(maximumBodySize: 100, endsAtClose: true)

    @Test func readsABodyByItsLengthAndWaitsForTheRest() {
        let head = Array("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nSID: uuid:1\r\n\r\n".utf8)
        #expect(reader.read(head + Array("abc".utf8), closed: false) == .incomplete)
        guard case .complete(let message) = reader.read(head + Array("abcdeXYZ".utf8), closed: false) else {
            Issue.record("not complete")
            return
        }
        #expect(message.status == 200)
        #expect(message.header("sid") == "uuid:1")
        #expect(message.text == "abcde")
        #expect(reader.read(head + Array("abc".utf8), closed: true) == .invalid("the body is cut off at 3 of 5 bytes"))
    }

    @Test func splitsHeaderLinesEndedByCRLFOrABareLineFeed() {
        for ending in ["\r\n", "\n"] {
            let bytes = Array(
                ["HTTP/1.1 412 Precondition Failed", "A: 1", "B:2", "Content-Length: 0", "", ""].joined(
                    separator: ending
                ).utf8
            )
            guard case .complete(let message) = reader.read(bytes, closed: false) else {
                Issue.record("not complete with \(ending.debugDescription)")
                continue
            }
            #expect(message.startLine == "HTTP/1.1 412 Precondition Failed")
            #expect(message.headers.map(\.name) == ["A", "B", "Content-Length"])
            #expect(message.header("b") == "2")
        }
    }

    @Test func decodesAChunkedBody() {
        let bytes = Array(
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2;x=y\r\nde\r\n0\r\n\r\n".utf8
        )
        guard case .complete(let message) = reader.read(bytes, closed: false) else {
            Issue.record("not complete")
            return
        }
        #expect(message.text == "abcde")
        #expect(reader.read(Array(bytes.dropLast(9)), closed: false) == .incomplete)
    }

    @Test func aChunkSizeNearIntMaxOrAnEndlessChunkLineIsRefusedNotACrash() {
        let huge = Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nx\r\n7fffffffffffffff\r\n".utf8)
        #expect(reader.read(huge, closed: false) == .invalid("the body is more than the 100 bytes read"))
        let endless =
            Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1;".utf8)
            + [UInt8](repeating: 0x61, count: 2_000)
        #expect(reader.read(endless, closed: false) == .invalid("a chunk line is longer than 1 KiB"))
    }

    @Test func aBodyWithoutALengthEndsWithTheConnection() {
        let bytes = Array("HTTP/1.0 200 OK\r\n\r\n<root/>".utf8)
        #expect(reader.read(bytes, closed: false) == .incomplete)
        guard case .complete(let message) = reader.read(bytes, closed: true) else {
            Issue.record("not complete")
            return
        }
        #expect(message.text == "<root/>")
    }

    @Test func refusesWhatIsOutOfBounds() {
        let big = Array("HTTP/1.1 200 OK\r\nContent-Length: 10000000\r\n\r\n".utf8)
        #expect(reader.read(big, closed: false) == .invalid("the body is 10000000 bytes, more than the 100 read"))
        let endless = Array("HTTP/1.1 200 OK\r\n\r\n".utf8) + [UInt8](repeating: 0x61, count: 101)
        #expect(reader.read(endless, closed: false) == .invalid("the body is more than the 100 bytes read"))
        let chunks = Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nFFFFFF\r\n".utf8)
        #expect(reader.read(chunks, closed: false) == .invalid("the body is more than the 100 bytes read"))
        let head =
            Array("HTTP/1.1 200 OK\r\nX: ".utf8) + [UInt8](repeating: 0x61, count: HTTPMessageReader.maximumHeadSize)
        #expect(
            reader.read(head, closed: false)
                == .invalid("the head is longer than \(HTTPMessageReader.maximumHeadSize) bytes")
        )
        #expect(reader.read([], closed: true) == .invalid("the connection closed without an answer"))
        #expect(reader.read(Array("HTTP/1.1 200 OK\r\nbroken\r\n\r\n".utf8), closed: false) != .incomplete)
    }
}

@Suite struct DescriptionAuditTests {
    let location = URL(string: "http://192.0.2.7:49152/description.xml")!

    static let description = """
        <?xml version="1.0"?>
        <root xmlns="urn:schemas-upnp-org:device-1-0"><specVersion><major>1</major><minor>1</minor></specVersion>
        <device><deviceType>urn:schemas-upnp-org:device:MediaRenderer:1</deviceType><friendlyName>TV</friendlyName>
        <manufacturer>Example</manufacturer><modelName>M</modelName><UDN>uuid:1</UDN>
        <serviceList><service><serviceType>urn:schemas-upnp-org:service:RenderingControl:1</serviceType>
        <serviceId>urn:upnp-org:serviceId:RenderingControl</serviceId><SCPDURL>rc.xml</SCPDURL>
        <controlURL>/control/rc</controlURL><eventSubURL></eventSubURL></service></serviceList>
        <deviceList><device><deviceType>urn:schemas-upnp-org:device:Inner:1</deviceType><friendlyName>I</friendlyName>
        <manufacturer>E</manufacturer><modelName>M</modelName><UDN>uuid:2</UDN></device></deviceList>
        </device></root>
        """

    func outcomes(_ text: String) -> [String: DeviceCheckResult.Outcome] {
        Dictionary(
            DescriptionAudit.audit(Array(text.utf8), location: location).results.map {
                ($0.check + " " + $0.subject, $0.outcome)
            },
            uniquingKeysWith: { first, _ in first }
        )
    }

    @Test func readsTheDeviceTreeAndResolvesItsURLs() throws {
        let (results, device) = DescriptionAudit.audit(Array(Self.description.utf8), location: location)
        #expect(results.allSatisfy { $0.outcome == .passed }, "\(results.filter { $0.outcome != .passed })")
        let described = try #require(device)
        #expect(described.allDevices.map(\.udn) == ["uuid:1", "uuid:2"])
        let service = try #require(described.services.first)
        #expect(service.scpdURL?.absoluteString == "http://192.0.2.7:49152/rc.xml")
        #expect(service.controlURL?.absoluteString == "http://192.0.2.7:49152/control/rc")
        #expect(service.eventSubURL == nil)
    }

    @Test func namesEachBrokenRule() {
        let wrongNamespace = outcomes(Self.description.replacing("device-1-0", with: "device-2-0"))
        #expect(wrongNamespace["description.namespace "] == .failed)
        let noMinor = outcomes(Self.description.replacing("<minor>1</minor>", with: ""))
        #expect(noMinor["description.spec-version "] == .failed)
        let noName = outcomes(Self.description.replacing("<friendlyName>TV</friendlyName>", with: ""))
        #expect(noName["description.device-elements uuid:1"] == .failed)
        #expect(noName["description.device-elements uuid:2"] == .passed)
        let noServiceId = outcomes(
            Self.description.replacing("<serviceId>urn:upnp-org:serviceId:RenderingControl</serviceId>", with: "")
        )
        #expect(noServiceId["description.service-elements urn:schemas-upnp-org:service:RenderingControl:1"] == .failed)
        let noEventURL = outcomes(Self.description.replacing("<eventSubURL></eventSubURL>", with: ""))
        #expect(noEventURL["description.service-elements urn:schemas-upnp-org:service:RenderingControl:1"] == .failed)
        let broken = outcomes(Self.description.replacing("</root>", with: "</rot>"))
        #expect(broken["description.well-formed "] == .failed)
    }

    @Test func textAroundAValueOnItsOwnLinesIsNotPartOfIt() throws {
        let pretty = Self.description.replacing(
            "<SCPDURL>rc.xml</SCPDURL>",
            with: "<SCPDURL>\n    rc.xml\n  </SCPDURL>"
        )
        .replacing("<UDN>uuid:1</UDN>", with: "<UDN>\n uuid:1\n</UDN>")
        let (results, device) = DescriptionAudit.audit(Array(pretty.utf8), location: location)
        #expect(results.allSatisfy { $0.outcome == .passed })
        #expect(device?.services.first?.scpdURL?.absoluteString == "http://192.0.2.7:49152/rc.xml")
    }

    @Test func aLocationWrittenAnotherWayIsTheSameDocument() throws {
        let url = try #require(URL(string: "http://192.0.2.7:8060"))
        #expect(url.isSameDocument(as: "http://192.0.2.7:8060/"))
        #expect(url.isSameDocument(as: "HTTP://192.0.2.7:8060/"))
        #expect(try #require(URL(string: "http://h/d.xml")).isSameDocument(as: "http://h:80/d.xml"))
        #expect(!url.isSameDocument(as: "http://192.0.2.7:8060/dial/dd.xml"))
        #expect(!url.isSameDocument(as: "http://192.0.2.8:8060/"))
        #expect(DiscoveryAudit.higherVersion(of: "urn:x:device:Foo:9223372036854775807") == nil)
        #expect(DiscoveryAudit.higherVersion(of: "urn:x:device:Foo:1") == "urn:x:device:Foo:2")
    }

    @Test func aRequestKeepsThePathAsWritten() async throws {
        // Nothing listens on port 9 of loopback: the request is still written as it would be sent.
        let url = try #require(URL(string: "http://127.0.0.1:9/upnp/control/Content%20Directory/"))
        let exchange = await HTTPFetch(timeout: .seconds(1)).exchange("POST", url)
        #expect(exchange.request.hasPrefix("POST /upnp/control/Content%20Directory/ HTTP/1.1\r\n"))
    }

    @Test func anXMLBombIsRefusedUnexpanded() {
        let bomb = """
            <?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
            <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>
            <root xmlns="urn:schemas-upnp-org:device-1-0"><device><friendlyName>&lol3;</friendlyName></device></root>
            """
        let (results, device) = DescriptionAudit.audit(Array(bomb.utf8), location: location)
        #expect(device == nil)
        #expect(results.map(\.check) == ["description.well-formed"])
        #expect(results.first?.outcome == .failed)
        #expect(results.first?.detail.contains("declares entities") == true)
    }
}

@Suite struct ServiceDescriptionAuditTests {
    func audit(actions: [String], variables: [String]) throws -> [String: DeviceCheckResult] {
        let xml = try SSDPServiceDescription(notation: actions, variables: variables, field: "test").xml
        let results = ServiceDescriptionAudit.audit(Array(xml.utf8), subject: "s", hasControlURL: true).results
        return Dictionary(results.map { ($0.check, $0) }, uniquingKeysWith: { first, _ in first })
    }

    @Test func aStandardSCPDPassesEveryCheck() throws {
        for type in SSDPServiceDescription.standardServiceTypes {
            let xml = try #require(SSDPServiceDescription.standard(for: type)).xml
            let (results, service) = ServiceDescriptionAudit.audit(Array(xml.utf8), subject: type, hasControlURL: true)
            #expect(
                results.allSatisfy { $0.outcome == .passed },
                "\(type): \(results.filter { $0.outcome != .passed })"
            )
            #expect(service != nil)
        }
    }

    @Test func namesEachBrokenRule() throws {
        let good = try audit(
            actions: ["GetMode: -> Mode=Mode"],
            variables: ["Mode string default=On values=On|Off events"]
        )
        #expect(good.values.allSatisfy { $0.outcome == .passed })
        #expect(try audit(actions: [], variables: ["Volume uint2"])["scpd.data-types"]?.outcome == .failed)
        #expect(
            try audit(actions: [], variables: ["Mode string default=Bogus values=On|Off"])["scpd.defaults"]?.outcome
                == .failed
        )
        #expect(
            try audit(actions: [], variables: ["Volume ui2 default=120 range=0...100"])["scpd.defaults"]?.outcome
                == .failed
        )
        #expect(
            try audit(actions: [], variables: ["Volume ui2 default=-1 range=0...100"])["scpd.defaults"]?.outcome
                == .failed
        )
        let undeclared = try audit(actions: ["GetMode: -> Mode=Missing"], variables: ["Mode string"])
        #expect(undeclared["scpd.related-state-variables"]?.outcome == .failed)
        #expect(undeclared["scpd.related-state-variables"]?.detail.contains("Missing") == true)
        #expect(try audit(actions: [], variables: [])["scpd.not-empty"]?.outcome == .failed)
    }

    @Test func theNotationOfAFileSaysWhatIsWrong() {
        #expect(throws: SSDPConfigurationError.self) {
            try SSDPServiceDescription(notation: ["Get: In"], variables: [], field: "f")
        }
        do {
            _ = try SSDPServiceDescription(
                notation: [],
                variables: ["Mode string loud"],
                field: "serviceDescriptions[x]"
            )
            Issue.record("accepted")
        } catch {
            #expect(error.field == "serviceDescriptions[x].variables[0]")
            #expect(error.reason.contains("'loud'"))
        }
    }
}
