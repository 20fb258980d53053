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
import Testing

@testable import SSDPDeviceCore

/// A recorded device plays back what it recorded, changing only the origin, a Content-Length the origin
/// changes, and dates; what it never recorded goes where the recording says.
@Suite struct RecordingTests {
    static let description = """
        HTTP/1.1 200 OK\r
        Content-Type: text/xml\r
        Content-Length: 91\r
        Date: Sat, 28 Nov 2026 22:28:10 GMT\r
        \r
        <root><URLBase>http://192.168.77.1:5000/</URLBase><device><UDN>uuid:x</UDN></device></root>
        """
    static let notFound = "HTTP/1.1 404 Not Found\r\nContent-Length: 9\r\n\r\nNot Found"
    static let notImplemented = "HTTP/1.1 501 Not Implemented\r\nContent-Length: 0\r\n\r\n"

    static var recording: HTTPRecording {
        HTTPRecording(
            origin: "http://192.168.77.1:5000",
            exchanges: [.init(method: "GET", target: "/rootDesc.xml", response: Array(description.utf8))],
            notFound: Array(notFound.utf8),
            unsupportedMethod: Array(notImplemented.utf8)
        )
    }

    static func play(_ method: String, _ target: String, at origin: String = "http://127.0.0.2:5000") -> String? {
        recording.response(method: method, target: target, origin: origin, secondsSince1970: 0)
            .map { String(decoding: $0.bytes, as: UTF8.self) }
    }

    @Test func aDocumentIsPlayedAsRecordedWithItsOriginAndLengthAndDateMadeAnew() throws {
        let played = try #require(Self.play("GET", "/rootDesc.xml", at: "http://127.0.0.20:5000"))
        // Two bytes shorter, as the new origin is.
        #expect(played.contains("Content-Length: 89\r\n"))
        #expect(played.contains("<URLBase>http://127.0.0.20:5000/</URLBase>"))
        #expect(played.contains("Date: Thu, 01 Jan 1970 00:00:00 GMT\r\n"))
        #expect(played.hasPrefix("HTTP/1.1 200 OK\r\nContent-Type: text/xml\r\n"))
        let body = try #require(played.components(separatedBy: "\r\n\r\n").last)
        #expect(body.utf8.count == 89)
    }

    @Test func theSameOriginChangesNothingButTheDate() throws {
        let played = try #require(Self.play("GET", "/rootDesc.xml", at: "http://192.168.77.1:5000"))
        #expect(
            played
                == Self.description.replacingOccurrences(
                    of: "Sat, 28 Nov 2026 22:28:10",
                    with: "Thu, 01 Jan 1970 00:00:00"
                )
        )
    }

    @Test func aRequestNeverRecordedIsTheFamilysUnlessTheFamilyHasNoAnswer() throws {
        let head = try #require(Self.play("HEAD", "/rootDesc.xml"))
        #expect(head.hasPrefix("HTTP/1.1 200 OK") && head.hasSuffix("\r\n\r\n"), "the GET's head, no body")
        // Everything else is the family's first: control, eventing, a Roku's ECP queries.
        for (method, target) in [("POST", "/ctl/IPConn"), ("SUBSCRIBE", "/evt/IPConn"), ("GET", "/query/apps")] {
            #expect(Self.play(method, target) == nil)
        }
        let fallback = { (method: String, status: Int) in
            Self.recording.fallback(method: method, status: status, origin: "http://h:1", secondsSince1970: 0)
                .map { String(decoding: $0.bytes, as: UTF8.self) }
        }
        #expect(fallback("GET", 404) == Self.notFound)
        #expect(fallback("HEAD", 404) == "HTTP/1.1 404 Not Found\r\nContent-Length: 9\r\n\r\n")
        #expect(fallback("PUT", 501) == Self.notImplemented)
        #expect(fallback("DELETE", 405) == Self.notImplemented)
        #expect(fallback("POST", 404) == nil, "a control URL the family lacks keeps the family's answer")
        #expect(fallback("GET", 200) == nil)
    }

    @Test func anOriginIsReplacedWhereItEndsNotInsideALongerOne() {
        let text = "http://10.0.0.1:80/a http://10.0.0.1:8080/b http://10.0.0.1:80 HTTP://10.0.0.1:80/c"
        let replaced = HTTPRecording.replacing(
            "http://10.0.0.1:80",
            with: "http://127.0.0.2:5000",
            in: Array(text.utf8)
        )
        #expect(
            String(decoding: replaced, as: UTF8.self)
                == "http://127.0.0.2:5000/a http://10.0.0.1:8080/b http://127.0.0.2:5000 http://127.0.0.2:5000/c"
        )
    }

    @Test func aRecordedHeadSaysTheLengthTheGetHasNow() throws {
        var recording = Self.recording
        let head = Self.description.components(separatedBy: "\r\n\r\n")[0] + "\r\n\r\n"
        recording.exchanges.append(.init(method: "HEAD", target: "/rootDesc.xml", response: Array(head.utf8)))
        let played = try #require(
            recording.response(
                method: "HEAD",
                target: "/rootDesc.xml",
                origin: "http://127.0.0.20:5000",
                secondsSince1970: 0
            )
        )
        #expect(String(decoding: played.bytes, as: UTF8.self).contains("Content-Length: 89\r\n"))
    }

    @Test func searchAnswersAreFoundByTargetAndPointAtTheDevicePlayingThem() throws {
        let answer = Array(
            "HTTP/1.1 200 OK\r\nCACHE-CONTROL: max-age=120\r\nDATE: Sat, 28 Nov 2026 22:28:10 GMT\r\nEXT:\r\nLOCATION: http://192.168.77.1:5000/rootDesc.xml\r\nST: upnp:rootdevice\r\nUSN: uuid:x::upnp:rootdevice\r\n\r\n"
                .utf8
        )
        let recorded = SSDPRecordedAnswers(targets: [
            .init("upnp:rootdevice", [.init(delay: .milliseconds(40), bytes: answer)]), .init("uuid:x", []),
        ])
        let scheduled = try #require(
            recorded.scheduled(to: "UPNP:rootdevice", own: "http://127.0.0.5:5000", locations: .relocated([:]))
        )
        #expect(scheduled.count == 1)
        #expect(scheduled.first?.delay == .milliseconds(40))
        #expect(
            scheduled.first?.advertisement
                == SSDPAdvertisement(target: "upnp:rootdevice", usn: "uuid:x::upnp:rootdevice")
        )
        let sent = String(decoding: scheduled[0].dated(secondsSince1970: 86_400), as: UTF8.self)
        #expect(sent.contains("LOCATION: http://127.0.0.5:5000/rootDesc.xml\r\n"))
        #expect(sent.contains("DATE: Fri, 02 Jan 1970 00:00:00 GMT\r\n"))
        #expect(recorded.scheduled(to: "uuid:x", own: "http://h:1", locations: .asCaptured)?.isEmpty == true)
        #expect(recorded.scheduled(to: "ssdp:all", own: "http://h:1", locations: .asCaptured) == nil)
    }
}
