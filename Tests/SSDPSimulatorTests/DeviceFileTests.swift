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
import SSDPSimulator
import Testing

@Suite struct DeviceFileTests {
    private func decode(_ json: String) throws(SimulatorInputError) -> DeviceFile {
        try DeviceFile.decode(Data(json.utf8), file: "devices.json", seed: 1)
    }

    private func error(_ json: String) -> String {
        do {
            _ = try decode(json)
            return "no error"
        } catch {
            return error.description
        }
    }

    @Test func readsProfilesCountsOverridesAndBehaviours() throws {
        let file = try decode(
            """
            { "devices": [
                { "profile": "generic", "count": 2, "friendlyName": "Den",
                  "behaviour": { "delay": "late:1.5", "duplicates": 2, "searchLoss": 0.25, "ignoreFirst": 1,
                                 "chatty": ["any-target"], "malformed": ["lf-only", "missing-ext"], "silent": ["2-5"] } },
                { "udn": "uuid:kitchen", "deviceType": "urn:schemas-upnp-org:device:MediaServer:1",
                  "services": ["urn:schemas-upnp-org:service:ContentDirectory:1"], "maxAge": 100, "bootId": 9,
                  "headers": ["X-USER-AGENT: redsonic", "01-NLS: 1"], "extraTargets": ["roku:ecp"],
                  "embeddedDevices": [{ "deviceType": "urn:schemas-upnp-org:device:Basic:1" }] } ] }
            """
        )
        #expect(file.devices.count == 3)
        #expect(file.devices.map(\.device.friendlyName).prefix(2) == ["Den 1", "Den 2"])
        let den = file.devices[0].behaviour
        #expect(den.delay == .late(.milliseconds(1_500)) && den.duplicates == 2 && den.searchLoss == 0.25)
        #expect(
            den.ignoredSearches == 1 && den.chatter == [.anyTarget]
                && den.malformations == [.lineFeedOnly, .missingEXT]
        )
        #expect(den.silentWindows == [.init(start: .seconds(2), end: .seconds(5))])
        let kitchen = file.devices[2]
        #expect(kitchen.device.udn == "uuid:kitchen" && kitchen.maxAge == 100 && kitchen.bootID == 9)
        #expect(
            kitchen.extraHeaders == [
                SSDPHeaderField(name: "X-USER-AGENT", value: "redsonic"), SSDPHeaderField(name: "01-NLS", value: "1"),
            ]
        )
        #expect(kitchen.device.embeddedDevices.count == 1 && kitchen.extraTargets == ["roku:ecp"])
        #expect(file.devices[2].behaviour == SSDPDeviceBehaviour())
    }

    @Test func aProfilesQuirksAreItsDefaultAndCanBeChangedOrSwitchedOff() throws {
        let file = try decode(
            """
            { "devices": [
                { "profile": "hue" },
                { "profile": "hue", "behaviour": { "duplicates": 1 } },
                { "profile": "hue", "quirks": false },
                { "profile": "hue", "quirks": false, "behaviour": { "delay": "immediate" } } ] }
            """
        )
        let behaviours = file.devices.map(\.behaviour)
        #expect(behaviours[0] == SSDPDeviceBehaviour(duplicates: 2, chatter: [.anyTarget]))
        #expect(behaviours[1] == SSDPDeviceBehaviour(duplicates: 1, chatter: [.anyTarget]))
        #expect(behaviours[2] == SSDPDeviceBehaviour())
        #expect(behaviours[3] == SSDPDeviceBehaviour(delay: .immediate))
    }

    @Test func aProfileFieldIsOverriddenUpToTheResponseLayout() throws {
        let file = try decode(
            """
            { "devices": [ { "profile": "roku", "friendlyName": "Den", "maxAge": 60,
                "responseHeaders": ["ST: {st}", "USN: {usn}", "Cache-Control: max-age={maxAge}", "X-Where: {host}"] } ] }
            """
        )
        let device = try #require(file.devices.first)
        #expect(device.device.friendlyName == "Den")
        #expect(device.web.roku != nil)  // the rest of the profile stays: ECP, port 8060, roku:ecp
        let root = device.rootDevice(baseURL: "http://10.0.0.9:8060", defaultBootID: 1)
        let answer = try #require(root.answers(to: SSDPSearchTarget("roku:ecp")).first)
        let sent = String(decoding: root.searchResponse(for: answer).serialized(), as: UTF8.self)
        #expect(
            sent
                == "HTTP/1.1 200 OK\r\nST: roku:ecp\r\nUSN: \(answer.usn)\r\nCache-Control: max-age=60\r\nX-Where: 10.0.0.9\r\n\r\n"
        )
        #expect(answer.usn.hasPrefix("uuid:roku:ecp:YN00"))
    }

    @Test func theCallbackPolicyIsTheSubscribersUnlessAFileRelaxesIt() throws {
        let json = #"{ "devices": [ { "profile": "sonos" }, { "profile": "igd", "callbackPolicy": "any" } ] }"#
        let devices = try DeviceFile.decode(Data(json.utf8), file: "f", seed: 5).devices
        #expect(devices.map(\.web.callbackPolicy) == [.subscriber, .any])
    }

    @Test func theSameSeedGivesTheSameUDNs() throws {
        let json = #"{ "devices": [ { "count": 3 } ] }"#
        let first = try DeviceFile.decode(Data(json.utf8), file: "f", seed: 5).devices.map(\.device.udn)
        let again = try DeviceFile.decode(Data(json.utf8), file: "f", seed: 5).devices.map(\.device.udn)
        let other = try DeviceFile.decode(Data(json.utf8), file: "f", seed: 6).devices.map(\.device.udn)
        #expect(first == again && first != other && Set(first).count == 3)
    }

    /// Every bad file names the file, the JSON path and the reason.
    @Test(arguments: [
        (#"{ "devices": [ { "colour": "red" } ] }"#, "devices.json: $.devices[0].colour: unknown field"),
        (#"{ "devices": [ { "count": "two" } ] }"#, "devices.json: $.devices[0].count: expected a whole number"),
        (#"{ "devices": [ { "count": 0 } ] }"#, "devices.json: $.devices[0].count: \"0\": must be 1...10000"),
        (
            #"{ "devices": [ { "profile": "toaster" } ] }"#,
            "devices.json: $.devices[0].profile: \"toaster\": no such profile"
        ),
        (
            #"{ "devices": [ { "behaviour": { "delay": "soon" } } ] }"#,
            "devices.json: $.devices[0].behaviour.delay: \"soon\": expected uniform"
        ),
        (
            #"{ "devices": [ { "behaviour": { "duplicates": 11 } } ] }"#,
            "devices.json: $.devices[0].behaviour.duplicates: \"11\": must be 1...10"
        ),
        (
            #"{ "devices": [ { "behaviour": { "searchLoss": 1.5 } } ] }"#,
            "devices.json: $.devices[0].behaviour.searchLoss: \"1.5\": a probability"
        ),
        (
            #"{ "devices": [ { "behaviour": { "malformed": ["sloppy"] } } ] }"#,
            "devices.json: $.devices[0].behaviour.malformed: \"sloppy\": expected one of lf-only"
        ),
        (
            #"{ "devices": [ { "behaviour": { "silent": ["5-2"] } } ] }"#,
            "devices.json: $.devices[0].behaviour.silent: \"5-2\": a window must end after it starts"
        ),
        (
            #"{ "devices": [ { "deviceType": "MediaRenderer" } ] }"#,
            "devices.json: $.devices[0].deviceType: \"MediaRenderer\": must look like"
        ),
        (
            #"{ "devices": [ { "udn": "kitchen" } ] }"#,
            "devices.json: $.devices[0].udn: \"kitchen\": must start with uuid:"
        ),
        (
            #"{ "devices": [ { "udn": "uuid:a", "count": 2 } ] }"#,
            "devices.json: $.devices[0].udn: \"uuid:a\": a fixed UDN needs count 1"
        ),
        (
            #"{ "devices": [ { "headers": ["no colon"] } ] }"#,
            "devices.json: $.devices[0].headers: \"no colon\": expected NAME: value"
        ),
        (
            #"{ "devices": [ { "embeddedDevices": [ {} ] } ] }"#,
            "devices.json: $.devices[0].embeddedDevices[0].deviceType: required field is missing"
        ),
        (
            #"{ "devices": [ { "profile": "roku", "responseHeaders": ["ST {st}"] } ] }"#,
            "devices.json: $.devices[0].responseHeaders: \"ST {st}\": expected NAME: value"
        ),
        (
            #"{ "devices": [ { "callbackPolicy": "anyone" } ] }"#,
            #"devices.json: $.devices[0].callbackPolicy: "anyone": must be subscriber or any"#
        ),
        (
            #"{ "devices": [ { "profile": "igd", "dialApps": [ { "name": "YouTube" } ] } ] }"#,
            #"devices.json: $.devices[0].dialApps: "igd": the device has no DIAL server"#
        ),
        (
            #"{ "devices": [ { "profile": "dial-tv", "dialApps": [ { "name": "You Tube" } ] } ] }"#,
            #"devices.json: $.devices[0].dialApps[0].name: "You Tube": must be letters, digits"#
        ),
        (
            #"{ "devices": [ { "profile": "roku", "dialApps": [ { "name": "A" }, { "name": "A" } ] } ] }"#,
            #"devices.json: $.devices[0].dialApps[1].name: "A": names an app already listed"#
        ),
        (
            #"{ "devices": [ { "profile": "dial-tv", "dialApps": [ { "name": "A", "origins": ["https://a b"] } ] } ] }"#,
            #"devices.json: $.devices[0].dialApps[0].origins[0]: "https://a b": must be an origin"#
        ),
        (
            #"{ "devices": [ { "profile": "dial-tv", "dialApps": [ { "name": "A", "hidden": true } ] } ] }"#,
            "devices.json: $.devices[0].dialApps[0].hidden: unknown field"
        ),
        (
            #"{ "devices": [ { "profile": "dlna-server", "eventDelivery": "1.3.1" } ] }"#,
            #"devices.json: $.devices[0].eventDelivery: "1.3.1": must be uda or minidlna-1.3.0"#
        ),
        (#"{ "devices": [ { "quirks": "no" } ] }"#, "devices.json: $.devices[0].quirks: expected true or false"),
        (#"{ "devices": "#, "devices.json: not valid JSON"),
        (#"{ }"#, "devices.json: $.devices: required field is missing"),
        (
            #"{ "devices": [ { "actions": [ { "action": "AddPortMapping" } ] } ] }"#,
            #"devices.json: $.devices[0].actions[0]: "AddPortMapping": give either response or fault"#
        ),
        (
            #"{ "devices": [ { "actions": [ { "action": "AddPortMapping", "fault": 42 } ] } ] }"#,
            #"devices.json: $.devices[0].actions[0].fault: "42": a UPnP error code is 400...999"#
        ),
        (
            #"{ "devices": [ { "actions": [ { "action": "X", "fault": 501, "delay": 2 } ] } ] }"#,
            "devices.json: $.devices[0].actions[0].delay: unknown field"
        ),
        (
            #"{ "devices": [ { "media": [ { "id": "9", "parentID": "8", "title": "A", "class": "object.container" } ] } ] }"#,
            #"devices.json: $.devices[0].media[0].parentID: "8": must be the id of a container in media (0 is the root)"#
        ),
        (
            #"{ "devices": [ { "media": [ { "id": "9", "parentID": "0", "title": "A", "class": "object.item.audioItem" } ] } ] }"#,
            #"devices.json: $.devices[0].media[0].resource: "9": an item needs a resource"#
        ),
        (
            #"{ "devices": [ { "media": [ { "id": "9", "parentID": "0", "title": "A", "class": "object.item", "resource": { "path": "/a", "protocolInfo": "x", "bitrate": 1 } } ] } ] }"#,
            "devices.json: $.devices[0].media[0].resource.bitrate: unknown field"
        ),
        (
            #"{ "devices": [ { "media": [ { "id": "0", "parentID": "-1", "title": "A", "class": "folder" } ] } ] }"#,
            #"devices.json: $.devices[0].media[0].class: "folder": must be a UPnP class"#
        ),
    ])
    func rejectsBadFilesNamingFilePathAndReason(json: String, expected: String) {
        let message = error(json)
        #expect(message.hasPrefix(expected), "\(message)")
    }

    static let description =
        "HTTP/1.1 200 OK\r\nContent-Length: 92\r\n\r\n<root><device><deviceType>urn:x:device:Thing:1</deviceType><UDN>uuid:r</UDN></device></root>"
    static func recording(udn: String? = nil, _ change: (inout [String: Any]) -> Void) -> String {
        var recording: [String: Any] = [
            "source": ["location": "http://192.168.1.1:5000/rootDesc.xml"],
            "searches": [
                ["st": "upnp:rootdevice", "answers": [["delay": 0.1, "datagram": "HTTP/1.1 200 OK\r\n\r\n"]]]
            ],
            "http": [["method": "GET", "target": "/rootDesc.xml", "response": description]],
        ]
        change(&recording)
        var entry: [String: Any] = ["recording": recording]
        entry["udn"] = udn
        let data = try! JSONSerialization.data(withJSONObject: ["devices": [entry]])
        return String(decoding: data, as: UTF8.self)
    }

    /// A recorded action call, as `record` writes one.
    static func call(
        method: String = "POST",
        action: String = "urn:x:service:Y:1#GetZ",
        proxied: Bool = false
    ) -> [String: Any] {
        var call: [String: Any] = [
            "method": method, "target": "/ctl", "soap": ["action": action, "arguments": ["InstanceID": "0"]],
            "response": "HTTP/1.1 200 OK\r\n\r\n<s:Envelope/>",
        ]
        if proxied { call["proxied"] = true }
        return call
    }

    /// A recording edited by hand into nonsense gets the errors any device file gets: file, path, reason.
    @Test(arguments: [
        (recording { _ in }, nil),
        (
            recording { $0["source"] = ["location": "ftp://x/"] },
            "$.devices[0].recording.source.location: \"ftp://x/\": must be an http:// URL"
        ),
        (
            recording { $0["http"] = [] },
            "$.devices[0].recording.http: \"/rootDesc.xml\": holds no GET of the description"
        ),
        (
            recording { $0["http"] = [["method": "GET", "target": "/rootDesc.xml", "response": "<root/>"]] },
            "$.devices[0].recording.http[0]: \"<root/>\": a response starts with its status line"
        ),
        (recording { $0["answerDelays"] = "within-mx" }, nil),
        (
            recording { $0["answerDelays"] = "spread" },
            #"$.devices[0].recording.answerDelays: "spread": must be as-recorded or within-mx"#
        ),
        (
            recording { $0["searches"] = [["st": "a", "answers": []], ["st": "a", "answers": []]] },
            "$.devices[0].recording.searches[1].st: \"a\": recorded twice"
        ),
        (
            recording { $0["searches"] = [["st": "a", "answers": [["delay": 500, "datagram": "x"]]]] },
            "$.devices[0].recording.searches[0].answers[0].delay: \"500.0\": must be 0...120 seconds"
        ),
        (
            recording { $0["searches"] = [["st": "a", "answers": [["delay": 1, "base64": "%%%"]]]] },
            #"$.devices[0].recording.searches[0].answers[0].base64: "%%%": not base64"#
        ),
        (
            recording { $0["notifications"] = [["delay": 1, "datagram": "HTTP/1.1 200 OK\r\n\r\n"]] },
            #"$.devices[0].recording.notifications[0]: "HTTP/1.1 200 OK": must be a NOTIFY datagram"#
        ),
        (
            recording { $0["notifications"] = [["delay": 1, "ttl": 0, "datagram": "NOTIFY * HTTP/1.1\r\n\r\n"]] },
            #"$.devices[0].recording.notifications[0].ttl: "0": must be 1...255"#
        ),
        (recording { $0["colour"] = "red" }, "$.devices[0].recording.colour: unknown field"),
        (
            recording(udn: "uuid:other") { _ in },
            #"$.devices[0].udn: "uuid:other": a recorded device is as its recorded description says"#
        ),
        (
            recording {
                $0["http"] = [
                    ["method": "GET", "target": "/rootDesc.xml", "response": "HTTP/1.1 200 OK\r\n\r\n<html/>"]
                ]
            },
            "$.devices[0].recording.http: \"/rootDesc.xml\": the GET of the description is not a UPnP description"
        ),
        (
            recording { $0["http"] = (($0["http"] as? [Any]) ?? []) + [Self.call(action: "urn:x:service:Y:1#GetZ")] },
            nil
        ),
        (
            recording { $0["http"] = (($0["http"] as? [Any]) ?? []) + [Self.call(action: "GetZ")] },
            #"$.devices[0].recording.http[1].soap.action: "GetZ": the service type, # and the action"#
        ),
        (
            recording { $0["http"] = (($0["http"] as? [Any]) ?? []) + [Self.call(method: "GET")] },
            #"$.devices[0].recording.http[1].method: "GET": an action call is a POST"#
        ),
        (
            recording { $0["http"] = (($0["http"] as? [Any]) ?? []) + [Self.call(), Self.call()] },
            #"$.devices[0].recording.http[2].soap: "urn:x:service:Y:1#GetZ": recorded twice"#
        ),
        // A client's session through the recording proxy: the same call again, and calls that change the device.
        (
            recording {
                $0["http"] =
                    (($0["http"] as? [Any]) ?? []) + [Self.call(), Self.call(proxied: true)]
                    + [Self.call(action: "urn:x:service:Y:1#SetZ", proxied: true)]
            },
            nil
        ),
        (
            recording { $0["events"] = [["target": "/evt", "notify": "NOTIFY <html/>"]] },
            #"$.devices[0].recording.events[0]: "NOTIFY <html/>": an event is a NOTIFY whose body is a property set"#
        ),
        (
            recording {
                $0["http"] =
                    (($0["http"] as? [Any]) ?? []) + [
                        ["method": "PUT", "target": "/x", "body": "{}", "response": "HTTP/1.1 200 OK\r\n\r\n"]
                    ]
            },
            #"$.devices[0].recording.http[1].body: "{}": only a request made through the recording proxy"#
        ),
        (
            recording { $0["http"] = (($0["http"] as? [Any]) ?? []) + [Self.call(action: "urn:x:service:Y:1#SetZ")] },
            #"$.devices[0].recording.http[1].soap.action: "urn:x:service:Y:1#SetZ": a recorded call is of an action that only reads the device"#
        ),
    ])
    func aRecordingEditedIntoNonsenseIsRefusedNamingTheField(json: String, expected: String?) {
        guard let expected else {
            #expect(throws: Never.self) { try DeviceFile.decode(Data(json.utf8), file: "devices.json", seed: 1) }
            return
        }
        let message = error(json)
        #expect(message.hasPrefix("devices.json: " + expected), "\(message)")
    }

    @Test func aMediaServersContentComesFromTheFileUnderMiniDLNAsRoot() throws {
        let file = try decode(
            #"""
            { "devices": [ { "profile": "dlna-server", "media": [
                { "id": "64", "parentID": "0", "title": "Podcasts", "class": "object.container.storageFolder" },
                { "id": "64$0", "parentID": "64", "title": "Episode 1", "class": "object.item.audioItem",
                  "resource": { "path": "/MediaItems/1.mp3", "protocolInfo": "http-get:*:audio/mpeg:*", "size": 1024 } } ] } ] }
            """#
        )
        let library = try #require(file.devices.first?.web.mediaLibrary)
        #expect(library.objects.map(\.id) == ["0", "64", "64$0"])
        #expect(library.children(of: "64").first?.resource?.size == 1024)
        #expect(library.protocolInfos == ["http-get:*:audio/mpeg:*"])
    }

    @Test func aDIALServersAppsComeFromTheFile() throws {
        let file = try decode(
            #"""
            { "devices": [ { "profile": "dial-tv", "dialApps": [
                { "name": "Hulu", "allowStop": false, "origins": ["https://hulu.com", "package:*"] },
                { "name": "Spotify" } ] } ] }
            """#
        )
        let apps = try #require(file.devices.first?.web.dial?.apps)
        #expect(
            apps == [
                DIALApp(name: "Hulu", allowStop: false, allowedOrigins: ["https://hulu.com", "package:*"]),
                DIALApp(name: "Spotify"),
            ]
        )
        #expect(apps[0].allows(origin: "https://hulu.com:8443") && !apps[0].allows(origin: "https://evil.com"))
    }

    @Test func aMissingFileIsNamed() {
        #expect(throws: SimulatorInputError(file: "/nonexistent/devices.json", path: "$", reason: "no such file")) {
            try DeviceFile.load(path: "/nonexistent/devices.json", seed: 1)
        }
    }
}
