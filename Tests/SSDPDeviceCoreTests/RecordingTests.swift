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

    @Test func lineEndsSentAfterTheLengthStayAfterItAndAnEditedBodyGetsItsLength() {
        // libupnp's error page: 60 bytes said, then CR LF CR LF more before it closes.
        let page = "<html><body><h1>500 Internal Server Error</h1></body></html>"
        let libupnp = "HTTP/1.1 500 Internal Server Error\r\nCONTENT-LENGTH: 60\r\n\r\n\(page)\r\n\r\n"
        let played = { (response: String) in
            String(
                decoding: HTTPRecording.played(
                    Array(response.utf8),
                    from: "http://a:1",
                    to: "http://b:2",
                    secondsSince1970: 0
                ),
                as: UTF8.self
            )
        }
        #expect(played(libupnp) == libupnp)
        // A body edited by hand to another length is all body, and its length is said anew.
        #expect(
            played("HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nedited\r\n")
                == "HTTP/1.1 200 OK\r\nContent-Length: 8\r\n\r\nedited\r\n"
        )
        // The origin replaced in a body followed by line ends: the length follows the body, the line ends stay.
        #expect(
            played("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nhttp://a:1\r\n")
                == "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nhttp://b:2\r\n"
        )
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

    static let volumeType = "urn:schemas-upnp-org:service:RenderingControl:1"
    static let volume = HTTPRecording.Call(
        target: "/ctl/rc",
        serviceType: volumeType,
        actionName: "GetVolume",
        arguments: ["InstanceID": "0", "Channel": "Master"],
        response: Array(
            ("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\">"
                + "<s:Body><u:GetVolumeResponse xmlns:u=\"\(volumeType)\"><CurrentVolume>77</CurrentVolume>"
                + "</u:GetVolumeResponse></s:Body></s:Envelope>").utf8
        )
    )

    static func volumeCall(_ arguments: [(String, String)], action: String = "GetVolume") -> SOAPActionCall {
        SOAPActionCall(
            serviceType: volumeType,
            actionName: action,
            arguments: arguments.map { SOAPArgument($0.0, $0.1) }
        )
    }

    @Test func aRecordedCallAnswersTheSameCallInAnyArgumentOrderAndNoOther() throws {
        var recording = Self.recording
        recording.calls = [Self.volume]
        let answer = { (call: SOAPActionCall, target: String) in
            var playhead = HTTPRecording.Playhead()
            return recording.answer(
                to: call,
                target: target,
                origin: "http://127.0.0.2:5000",
                secondsSince1970: 0,
                playhead: &playhead
            )
        }
        let played = try #require(answer(Self.volumeCall([("Channel", "Master"), ("InstanceID", "0")]), "/ctl/rc"))
        #expect(played.played.status == 200)
        #expect(String(decoding: played.played.bytes, as: UTF8.self).contains("Content-Length: 228\r\n"))
        #expect(try played.outcome.get() == [SOAPArgument("CurrentVolume", "77")])
        #expect(answer(Self.volumeCall([("InstanceID", "0"), ("Channel", "LF")]), "/ctl/rc") == nil)
        #expect(answer(Self.volumeCall([("InstanceID", "0")]), "/ctl/rc") == nil)
        #expect(answer(Self.volumeCall([("InstanceID", "0"), ("Channel", "Master")]), "/ctl/other") == nil)
        #expect(
            answer(Self.volumeCall([("InstanceID", "0"), ("Channel", "Master")], action: "GetMute"), "/ctl/rc") == nil
        )
    }

    /// Issue 65: a client's session through the recording proxy asked the same thing before and after a
    /// change; played back, each time it is asked the next answer, and after the last the last again.
    @Test func aRequestRecordedSeveralTimesGetsItsAnswersInTheOrderTheyCame() throws {
        var recording = Self.recording
        let volume = { (level: Int) in
            var call = Self.volume
            call.response = Array(
                String(decoding: call.response, as: UTF8.self).replacing("77", with: "\(level)").utf8
            )
            return call
        }
        recording.calls = [volume(30), volume(40), volume(55)]
        let app = { (name: String) in
            HTTPRecording.Exchange(
                method: "GET",
                target: "/query/active-app",
                response: Array("HTTP/1.1 200 OK\r\n\r\n<app>\(name)</app>".utf8),
                readsState: true
            )
        }
        recording.exchanges += [app("Home"), app("YouTube")]
        var playhead = HTTPRecording.Playhead()
        let call = Self.volumeCall([("InstanceID", "0"), ("Channel", "Master")])
        let volumes = (0..<4).map { _ in
            (try? recording.answer(
                to: call,
                target: "/ctl/rc",
                origin: "http://127.0.0.2:5000",
                secondsSince1970: 0,
                playhead: &playhead
            )?.outcome.get())?.first?.value
        }
        #expect(volumes == ["30", "40", "55", "55"])
        let apps = (0..<3).map { _ in
            recording.response(
                method: "GET",
                target: "/query/active-app",
                origin: "http://127.0.0.2:5000",
                secondsSince1970: 0,
                playhead: &playhead
            ).map { String(decoding: $0.bytes, as: UTF8.self).components(separatedBy: "\r\n\r\n").last ?? "" }
        }
        #expect(apps == ["<app>Home</app>", "<app>YouTube</app>", "<app>YouTube</app>"])
        // A HEAD says the first GET's head and moves nothing on; a document recorded once stays the same.
        let head = recording.response(
            method: "HEAD",
            target: "/rootDesc.xml",
            origin: "http://127.0.0.2:5000",
            secondsSince1970: 0,
            playhead: &playhead
        )
        #expect(head?.status == 200)
        #expect(Self.play("GET", "/rootDesc.xml") == Self.play("GET", "/rootDesc.xml"))
    }

    /// A change asked again gets its answer again, and the reads after it stay; a request with a body is
    /// answered only for that body; a read recorded before a change played is no longer played.
    @Test func aChangeRepeatsAndABodyMustMatchAndOlderReadsAreStale() throws {
        var recording = Self.recording
        let exchange = { (method: String, target: String, body: String?, answer: String) in
            HTTPRecording.Exchange(
                method: method,
                target: target,
                response: Array("HTTP/1.1 200 OK\r\n\r\n\(answer)".utf8),
                readsState: true,
                requestBody: body.map { Array($0.utf8) }
            )
        }
        recording.exchanges += [
            exchange("GET", "/lights/1", nil, "off"), exchange("PUT", "/lights/1/state", #"{"on":true}"#, "ok on"),
            exchange("GET", "/lights/1", nil, "on"),
        ]
        var playhead = HTTPRecording.Playhead()
        let play = { (method: String, target: String, body: String) in
            recording.response(
                method: method,
                target: target,
                origin: "http://127.0.0.2:5000",
                secondsSince1970: 0,
                body: Array(body.utf8),
                playhead: &playhead
            ).map { String(decoding: $0.bytes, as: UTF8.self).components(separatedBy: "\r\n\r\n").last ?? "" }
        }
        #expect(play("GET", "/lights/1", "") == "off")
        #expect(play("PUT", "/lights/1/state", #"{"on":false}"#) == nil, "another body")
        #expect(!playhead.hasPlayedAChange)
        #expect(play("PUT", "/lights/1/state", #"{"on":true}"#) == "ok on")
        #expect(playhead.hasPlayedAChange)
        #expect(play("GET", "/lights/1", "") == "on")
        #expect(play("PUT", "/lights/1/state", #"{"on":true}"#) == "ok on", "a change asked again")
        #expect(play("GET", "/lights/1", "") == "on")
        // A read recorded only before the change is stale once it is played.
        var stale = HTTPRecording.Playhead()
        recording.exchanges.removeLast()
        _ = recording.response(
            method: "PUT",
            target: "/lights/1/state",
            origin: "http://127.0.0.2:5000",
            secondsSince1970: 0,
            body: Array(#"{"on":true}"#.utf8),
            playhead: &stale
        )
        #expect(
            recording.response(
                method: "GET",
                target: "/lights/1",
                origin: "http://127.0.0.2:5000",
                secondsSince1970: 0,
                playhead: &stale
            ) == nil
        )
    }

    @Test func aRecordedFaultIsItsUPnPErrorForTheJournal() {
        var call = Self.volume
        call.response = Array(
            ("HTTP/1.1 500 Internal Server Error\r\n\r\n<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\">"
                + "<s:Body><s:Fault><faultcode>s:Client</faultcode><faultstring>UPnPError</faultstring><detail>"
                + "<UPnPError xmlns=\"urn:schemas-upnp-org:control-1-0\"><errorCode> 718 </errorCode>"
                + "<errorDescription>ConflictInMappingEntry</errorDescription></UPnPError></detail></s:Fault>"
                + "</s:Body></s:Envelope>").utf8
        )
        #expect(call.outcome == .failure(UPnPError(code: 718, description: "ConflictInMappingEntry")))
        call.response = Array("HTTP/1.1 200 OK\r\n\r\nnot XML".utf8)
        #expect((try? call.outcome.get()) == nil)
    }

    /// A description's URLs are served where a control point resolves them (RFC 3986 §5.2).
    @Test(arguments: [
        ("ctl", "/upnp/desc.xml", "/upnp/ctl"), ("../ctl", "/upnp/desc.xml", "/ctl"), ("./ctl", "/desc.xml", "/ctl"),
        ("/ctl/IPConn", "/rootDesc.xml", "/ctl/IPConn"), ("http://10.0.0.1:80/a/../ctl", "/x", "/ctl"),
        ("HTTP://10.0.0.1:80/ctl", "/x", "/ctl"), ("http://10.0.0.1:8080/ctl", "/x", "http://10.0.0.1:8080/ctl"),
        ("ecp_SCPD.xml", "/", "/ecp_SCPD.xml"), ("ctl?x=1", "/a/b.xml", "/a/ctl?x=1"), ("", "/a/desc.xml", ""),
    ])
    func aDescriptionsURLIsServedWhereAControlPointResolvesIt(url: String, base: String, path: String) {
        #expect(SSDPDevice.path(url, base: base, origin: "http://10.0.0.1:80") == path)
    }

    @Test func aURLBaseWithAPathIsWhereRelativeURLsStart() throws {
        let description = """
            <root><URLBase>http://10.0.0.1:80/dev/</URLBase><device><deviceType>urn:x:device:T:1</deviceType>            <UDN>uuid:t</UDN><serviceList><service><serviceType>urn:x:service:S:1</serviceType>            <SCPDURL>s.xml</SCPDURL><controlURL>c</controlURL><eventSubURL>/e</eventSubURL></service>            </serviceList></device></root>
            """
        let device = try #require(
            SSDPDevice(description: Array(description.utf8), origin: "http://10.0.0.1:80", path: "/desc.xml")
        )
        #expect(device.services.first?.urls == .init(scpd: "/dev/s.xml", control: "/dev/c", event: "/e"))
    }

    @Test func onlyReadingActionsCountAsReadOnly() {
        for name in ["GetVolume", "X_GetFeatureList", "Browse", "Search", "ListPresets"] {
            #expect(HTTPRecording.Call.isReadOnly(name), "\(name)")
        }
        for name in ["SetVolume", "AddPortMapping", "Play", "X_SetSomething", "Forget"] {
            #expect(!HTTPRecording.Call.isReadOnly(name), "\(name)")
        }
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

    @Test func aRecordedBootIDFollowsTheDeviceButOneThatIsNoBootIDStays() throws {
        let answer = { (bootID: String) in
            Array(
                "HTTP/1.1 200 OK\r\nST: upnp:rootdevice\r\nUSN: uuid:x::upnp:rootdevice\r\nBOOTID.UPNP.ORG: \(bootID)\r\n\r\n"
                    .utf8
            )
        }
        let sent = { (recorded: String, bootID: Int) throws -> String in
            let answers = SSDPRecordedAnswers(targets: [
                .init("upnp:rootdevice", [.init(delay: .zero, bytes: answer(recorded))])
            ])
            let scheduled = try #require(
                answers.scheduled(to: "upnp:rootdevice", own: "http://h:1", bootID: bootID, locations: .asCaptured)
            )
            return String(decoding: scheduled[0].bytes, as: UTF8.self)
        }
        #expect(try sent("7", 8).contains("BOOTID.UPNP.ORG: 8\r\n"), "the device rebooted since the recording")
        #expect(try sent("7", 7).contains("BOOTID.UPNP.ORG: 7\r\n"))
        // GSSDP 1.6 says -1: not a BOOTID (UDA 1.1: 31 bits), so the device's own way of saying it.
        #expect(try sent("-1", 8).contains("BOOTID.UPNP.ORG: -1\r\n"))
    }

    @Test func aDeviceSeenToDrawItsDelaysWithinMXIsPlayedSoAndAnotherAtItsRecordedDelays() throws {
        let answer = { (st: String) in
            SSDPRecordedAnswers.Answer(
                delay: .milliseconds(40),
                bytes: Array("HTTP/1.1 200 OK\r\nST: \(st)\r\nUSN: uuid:x::\(st)\r\n\r\n".utf8)
            )
        }
        let targets: [SSDPRecordedAnswers.Target] = [
            .init("ssdp:all", ["upnp:rootdevice", "urn:a:device:Light:1", "urn:a:service:Switch:1"].map(answer))
        ]
        let delays = { (drawn: Bool, mx: Int, seed: UInt64) -> [Duration] in
            var behaviour = SSDPDeviceBehaviour()
            behaviour.recorded = SSDPRecordedAnswers(targets: targets, drawsDelaysWithinMX: drawn)
            var responder = DeviceResponder(
                device: DeviceFixtures.gateway,
                behaviour: behaviour,
                startedAt: .zero,
                seed: seed
            )
            guard case .answered(let sent) = responder.receive(DeviceFixtures.search("ssdp:all", mx: mx), at: .zero)
            else { return [] }
            return sent.map(\.delay)
        }
        let played = (1...20).flatMap { delays(true, 3, $0) }
        #expect(played.count == 60)
        #expect(played.allSatisfy { $0 >= .zero && $0 <= .seconds(3) }, "within MX 3")
        #expect(played.contains { $0 > .seconds(2) } && played.contains { $0 < .seconds(1) }, "over the whole MX")
        #expect(Set(played).count > 50, "each drawn anew, not the recorded 40 ms")
        #expect((1...20).flatMap { delays(true, 1, $0) }.allSatisfy { $0 <= .seconds(1) }, "within MX 1")
        #expect(delays(false, 3, 1) == Array(repeating: .milliseconds(40), count: 3), "as recorded")
    }

    @Test func answersSpreadOverTheMXOnlyWhenOneSearchsSpanIsWide() {
        let ms = { (values: [Int64]) in values.map { Duration.milliseconds($0) } }
        // GSSDP at MX 3: four answers over 2.1 s.
        #expect(SSDPRecordedAnswers.spreadOverMX([ms([30, 400, 2_100, 1_200]), ms([10, 20, 30, 40])]))
        // miniupnpd at once, libupnp all together after a second, a single answer, no answer.
        #expect(!SSDPRecordedAnswers.spreadOverMX([ms([3, 4, 9, 12]), ms([1_001, 1_002, 1_004])]))
        #expect(!SSDPRecordedAnswers.spreadOverMX([ms([2_500]), [], ms([0, 900])]))
    }

    @Test func aDeviceThatAnsweredFromAPortOfItsOwnDoesSoWhereverItPlays() {
        let answers = { (ports: Set<Int>) in SSDPRecordedAnswers(targets: [], sourcePorts: ports) }
        // libupnp: a socket per answer, on a port the system picks.
        #expect(answers([41_234, 52_001]).answersFromItsOwnPort(listeningOn: 1900))
        #expect(answers([41_234]).answersFromItsOwnPort(listeningOn: 1901))
        // miniupnpd answers from 1900, and from the port it was searched on in a lab that used another.
        #expect(!answers([1900]).answersFromItsOwnPort(listeningOn: 1901))
        #expect(!answers([1901]).answersFromItsOwnPort(listeningOn: 1901))
        #expect(!answers([]).answersFromItsOwnPort(listeningOn: 1900), "a recording that does not say")
    }
}
