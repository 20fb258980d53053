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

    @Test func aRequestNeverRecordedGoesWhereTheRecordingSays() throws {
        let head = try #require(Self.play("HEAD", "/rootDesc.xml"))
        #expect(head.hasPrefix("HTTP/1.1 200 OK") && head.hasSuffix("\r\n\r\n"), "the GET's head, no body")
        #expect(Self.play("GET", "/nothing.xml") == Self.notFound)
        #expect(Self.play("HEAD", "/nothing.xml") == "HTTP/1.1 404 Not Found\r\nContent-Length: 9\r\n\r\n")
        #expect(Self.play("PUT", "/rootDesc.xml") == Self.notImplemented)
        // Control and eventing are the device's family's to answer.
        for method in ["POST", "SUBSCRIBE", "UNSUBSCRIBE"] {
            #expect(Self.play(method, "/ctl/IPConn") == nil)
        }
        let status = Self.recording.response(method: "GET", target: "/x", origin: "http://h:1", secondsSince1970: 0)
        #expect(status?.status == 404)
    }

    @Test func searchAnswersAreFoundByTargetAndPointAtTheDevicePlayingThem() throws {
        let answer = Array(
            "HTTP/1.1 200 OK\r\nCACHE-CONTROL: max-age=120\r\nDATE: Sat, 28 Nov 2026 22:28:10 GMT\r\nEXT:\r\nLOCATION: http://192.168.77.1:5000/rootDesc.xml\r\nST: upnp:rootdevice\r\nUSN: uuid:x::upnp:rootdevice\r\n\r\n"
                .utf8
        )
        let recorded = SSDPRecordedAnswers(targets: [
            ("upnp:rootdevice", [.init(delay: .milliseconds(40), bytes: answer)]), ("uuid:x", []),
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
