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
import Testing

@testable import SSDPDevices
@testable import SSDPSimulator

/// A recorded device of no family (a `Thing` with a vendor volume service): its recorded calls answer as
/// recorded while it is as recorded, its own SCPD checks the rest, and the generic device answers them
/// from the state the recording showed.
@Suite struct RecordedCallTests {
    static let type = "urn:example-com:service:Volume:1"
    static let description = """
        <?xml version="1.0"?><root xmlns="urn:schemas-upnp-org:device-1-0"><device>\
        <deviceType>urn:example-com:device:Thing:1</deviceType><UDN>uuid:rec-0001</UDN>\
        <serviceList><service><serviceType>\(type)</serviceType><serviceId>urn:example-com:serviceId:Volume</serviceId>\
        <SCPDURL>vol.xml</SCPDURL><controlURL>ctl/vol</controlURL><eventSubURL>evt/vol</eventSubURL></service>\
        </serviceList></device></root>
        """
    static let scpd = """
        <?xml version="1.0"?><scpd xmlns="urn:schemas-upnp-org:service-1-0"><actionList>\
        <action><name>GetVolume</name><argumentList>\
        <argument><name>CurrentVolume</name><direction>out</direction><relatedStateVariable>Volume</relatedStateVariable></argument>\
        </argumentList></action>\
        <action><name>SetVolume</name><argumentList>\
        <argument><name>DesiredVolume</name><direction>in</direction><relatedStateVariable>Volume</relatedStateVariable></argument>\
        </argumentList></action>\
        <action><name>SetLabel</name><argumentList>\
        <argument><name>NewLabel</name><direction>in</direction><relatedStateVariable>Label</relatedStateVariable></argument>\
        </argumentList></action>\
        <action><name>GetLabel</name><argumentList>\
        <argument><name>CurrentLabel</name><direction>out</direction><relatedStateVariable>Label</relatedStateVariable></argument>\
        </argumentList></action></actionList>\
        <serviceStateTable><stateVariable sendEvents="no"><name>Volume</name><dataType>ui2</dataType>\
        <defaultValue>5</defaultValue><allowedValueRange><minimum>0</minimum><maximum>100</maximum></allowedValueRange>\
        </stateVariable><stateVariable sendEvents="no"><name>Label</name><dataType>string</dataType>\
        <defaultValue>none</defaultValue></stateVariable></serviceStateTable></scpd>
        """
    static let answer = """
        <s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body>\
        <u:GetVolumeResponse xmlns:u="\(type)"><CurrentVolume>77</CurrentVolume></u:GetVolumeResponse>\
        </s:Body></s:Envelope>
        """

    static func site(proxied: [[String: Any]] = [], events: [[String: Any]] = []) throws -> DeviceSite {
        let response = { (body: String) in "HTTP/1.1 200 OK\r\nCONTENT-TYPE: text/xml\r\n\r\n" + body }
        let json: [String: Any] = [
            "devices": [
                [
                    "recording": [
                        "source": ["location": "http://192.168.1.9:49152/upnp/desc.xml"],
                        "searches": [[String: Any]](),
                        "http": [
                            ["method": "GET", "target": "/upnp/desc.xml", "response": response(description)],
                            ["method": "GET", "target": "/upnp/vol.xml", "response": response(scpd)],
                            [
                                "method": "POST", "target": "/upnp/ctl/vol", "response": response(answer),
                                "soap": ["action": "\(type)#GetVolume", "arguments": [String: String]()],
                            ],
                        ] + proxied,
                        "events": events,
                    ]
                ]
            ]
        ]
        let file = try DeviceFile.decode(
            try JSONSerialization.data(withJSONObject: json),
            file: "thing.json",
            seed: 1
        )
        return DeviceSite(device: try #require(file.devices.first))
    }

    static func call(_ site: DeviceSite, _ action: String, _ arguments: String = "") -> DeviceHTTPResponse {
        let body = """
            <?xml version="1.0"?><s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body>\
            <u:\(action) xmlns:u="\(type)">\(arguments)</u:\(action)></s:Body></s:Envelope>
            """
        return site.respond(
            to: DeviceHTTPRequest(
                method: "POST",
                target: "/upnp/ctl/vol",
                headers: ["soapaction": "\"\(type)#\(action)\""],
                body: Array(body.utf8),
                origin: "http://127.0.0.2:49152"
            )
        )
    }

    /// The answer's text: the recorded bytes, or the body the device wrote.
    static func text(_ response: DeviceHTTPResponse) -> String {
        response.raw.map { String(decoding: $0, as: UTF8.self) } ?? response.body
    }

    static func isRecorded(_ response: DeviceHTTPResponse) -> Bool {
        response.records.contains {
            if case .actionCalled(let record) = $0 { return record.recorded }
            return false
        }
    }

    @Test func aRecordedCallIsAnsweredAsRecordedUntilACallChangesTheDevice() throws {
        let site = try Self.site()
        // Found at the path the relative controlURL names beside the description (/upnp/ctl/vol).
        let first = Self.call(site, "GetVolume")
        #expect(first.raw != nil && Self.text(first).contains("<CurrentVolume>77</CurrentVolume>"))
        #expect(Self.isRecorded(first))
        // A call never recorded is checked against the recorded SCPD and answered by the generic device.
        let label = Self.call(site, "GetLabel")
        #expect(label.raw == nil && Self.text(label).contains("<CurrentLabel>none</CurrentLabel>"))
        #expect(Self.call(site, "NoSuchAction").status == 500)
        // A change that fails (out of the recorded range) leaves the device as recorded.
        #expect(Self.call(site, "SetVolume", "<DesiredVolume>500</DesiredVolume>").status == 500)
        #expect(Self.isRecorded(Self.call(site, "GetVolume")))
        // One that succeeds ends the recording's answers; the generic device goes on from the recorded 77.
        #expect(Self.call(site, "SetLabel", "<NewLabel>kitchen</NewLabel>").status == 200)
        let after = Self.call(site, "GetVolume")
        #expect(!Self.isRecorded(after) && after.raw == nil)
        #expect(Self.text(after).contains("<CurrentVolume>77</CurrentVolume>"), "\(Self.text(after))")
        #expect(Self.call(site, "SetVolume", "<DesiredVolume>30</DesiredVolume>").status == 200)
        #expect(Self.text(Self.call(site, "GetVolume")).contains("<CurrentVolume>30</CurrentVolume>"))
    }

    /// Issue 65: a client's session through the recording proxy read the volume, then set it, and read no
    /// more. Played back, the set is answered as recorded and reaches the device's model too; the read recorded
    /// before it no longer says the volume, so the next read is the model's: the volume set.
    @Test func aRecordedChangeIsPlayedToTheModelAndReadsRecordedBeforeItAreStale() throws {
        let set =
            [
                "method": "POST", "target": "/upnp/ctl/vol", "proxied": true,
                "response": "HTTP/1.1 200 OK\r\n\r\n<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\">"
                    + "<s:Body><u:SetVolumeResponse xmlns:u=\"\(Self.type)\"/></s:Body></s:Envelope>",
                "soap": ["action": "\(Self.type)#SetVolume", "arguments": ["DesiredVolume": "40"]],
            ] as [String: Any]
        let site = try Self.site(proxied: [set])
        #expect(Self.text(Self.call(site, "GetVolume")).contains("<CurrentVolume>77</CurrentVolume>"))
        let change = Self.call(site, "SetVolume", "<DesiredVolume>40</DesiredVolume>")
        #expect(Self.isRecorded(change) && Self.text(change).contains("SetVolumeResponse"))
        let after = Self.call(site, "GetVolume")
        #expect(!Self.isRecorded(after), "\(Self.text(after))")
        #expect(Self.text(after).contains("<CurrentVolume>40</CurrentVolume>"), "\(Self.text(after))")
    }

    /// Issue 65: a new subscription's initial event is the one the device sent when it was recorded, while
    /// it is as recorded; once a change is played, the model's.
    @Test func aRecordedInitialEventIsPlayedUntilTheDeviceChanges() throws {
        let notify =
            "NOTIFY /cb HTTP/1.1\r\nNT: upnp:event\r\nNTS: upnp:propchange\r\nSEQ: 0\r\n\r\n"
            + "<e:propertyset xmlns:e=\"urn:schemas-upnp-org:event-1-0\"><e:property><Volume>63</Volume></e:property>"
            + "</e:propertyset>"
        let site = try Self.site(events: [["target": "/upnp/evt/vol", "notify": notify]])
        let subscribe = {
            site.respond(
                to: DeviceHTTPRequest(
                    method: "SUBSCRIBE",
                    target: "/upnp/evt/vol",
                    headers: ["callback": "<http://127.0.0.1:9/cb>", "nt": "upnp:event", "timeout": "Second-300"],
                    body: [],
                    origin: "http://127.0.0.2:49152"
                )
            )
        }
        let first = subscribe()
        #expect(first.status == 200)
        #expect(first.events.first?.event.body.contains("<Volume>63</Volume>") == true, "\(first.events)")
        // The model's own initial event: its evented variables (the recorded SCPD's Volume is not one).
        #expect(Self.call(site, "SetVolume", "<DesiredVolume>20</DesiredVolume>").status == 200)
        let later = subscribe()
        #expect(later.status == 200 && later.events.first?.event.body.contains("<Volume>63</Volume>") != true)
    }

    @Test func anSCPDIsReadAsTheDeviceServesIt() throws {
        let scpd = try #require(SSDPServiceDescription(scpd: Array(Self.scpd.utf8)))
        #expect(scpd.actions.map(\.name) == ["GetVolume", "SetVolume", "SetLabel", "GetLabel"])
        #expect(scpd.action(named: "SetVolume")?.arguments.first?.direction == .in)
        let volume = try #require(scpd.stateVariables.first)
        #expect(volume.dataType == "ui2" && volume.defaultValue == "5" && !volume.sendEvents)
        #expect(volume.allowedRange == .init(minimum: 0, maximum: 100))
        #expect(SSDPServiceDescription(scpd: Array("<root/>".utf8)) == nil)
    }

    /// The renderer profile's libupnp pages answer a path it lacks with 500; a recorded libupnp device
    /// answers with the page it recorded, byte for byte, line ends after its length and all.
    @Test func aPathTheDeviceLacksGetsTheRecordedPageNotTheProfiles() throws {
        let page = "HTTP/1.1 500 Internal Server Error\r\nCONTENT-LENGTH: 9\r\n\r\nno, said\n\r\n\r\n"
        let json: [String: Any] = [
            "devices": [
                [
                    "profile": "renderer",
                    "recording": [
                        "source": ["location": "http://192.168.1.9:49152/upnp/desc.xml"],
                        "searches": [[String: Any]](),
                        "http": [
                            [
                                "method": "GET", "target": "/upnp/desc.xml",
                                "response": "HTTP/1.1 200 OK\r\nCONTENT-TYPE: text/xml\r\n\r\n" + Self.description,
                            ]
                        ],
                        "notFound": ["method": "GET", "target": "/ssdp-sim-no-such-path", "response": page],
                    ],
                ]
            ]
        ]
        let file = try DeviceFile.decode(try JSONSerialization.data(withJSONObject: json), file: "r.json", seed: 1)
        let site = DeviceSite(device: try #require(file.devices.first))
        let answer = site.respond(
            to: DeviceHTTPRequest(method: "GET", target: "/nothing.xml", origin: "http://127.0.0.2:49152")
        )
        #expect(Self.text(answer) == page)
    }
}

/// A recorded Roku: its recorded ECP reads are played while it is as recorded; once a request changes it,
/// the family's ECP answers, as the recorded Roku (its serial, its channels), from the state it is in now.
@Suite struct RecordedRokuTests {
    static let description = """
        <?xml version="1.0" encoding="UTF-8" ?><root xmlns="urn:schemas-upnp-org:device-1-0"><device>\
        <deviceType>urn:roku-com:device:player:1-0</deviceType><friendlyName>Den</friendlyName>\
        <UDN>uuid:29600009-5406-1005-8080-1234567890ab</UDN></device></root>
        """
    static let deviceInfo = """
        <?xml version="1.0" encoding="UTF-8" ?>
        <device-info>
        \t<udn>29600009-5406-1005-8080-1234567890ab</udn>
        \t<serial-number>REC0000123</serial-number>
        \t<model-name>Roku Express</model-name>
        \t<is-tv>false</is-tv>
        \t<power-mode>PowerOn</power-mode>
        </device-info>
        """
    static let apps = """
        <?xml version="1.0" encoding="UTF-8" ?>
        <apps><app id="12" type="appl" version="5.1">Netflix</app><app id="837" type="appl" version="2.3">YouTube</app></apps>
        """
    static let activeApp = """
        <?xml version="1.0" encoding="UTF-8" ?>
        <active-app><app id="12" type="appl" version="5.1">Netflix</app></active-app>
        """

    static func site(searches: [[String: Any]] = []) throws -> DeviceSite {
        DeviceSite(device: try device(searches: searches))
    }

    static func device(searches: [[String: Any]] = []) throws -> SimulatedDevice {
        let response = { (body: String) in "HTTP/1.1 200 OK\r\nContent-Type: text/xml; charset=utf-8\r\n\r\n" + body }
        let json: [String: Any] = [
            "devices": [
                [
                    "profile": "roku",
                    "recording": [
                        "source": ["location": "http://192.168.1.20:8060/"],
                        "searches": searches,
                        "http": [
                            ["method": "GET", "target": "/", "response": response(description)],
                            [
                                "method": "GET", "target": "/query/device-info", "readsState": true,
                                "response": response(deviceInfo),
                            ],
                            ["method": "GET", "target": "/query/apps", "readsState": true, "response": response(apps)],
                            [
                                "method": "GET", "target": "/query/active-app", "readsState": true,
                                "response": response(activeApp),
                            ],
                        ],
                    ],
                ]
            ]
        ]
        let file = try DeviceFile.decode(try JSONSerialization.data(withJSONObject: json), file: "den.json", seed: 1)
        return try #require(file.devices.first)
    }

    /// The family's NOTIFY messages carry the recorded answers' WAKEUP, not the profile's own MAC.
    @Test func theFamilysHeadersSayWhatTheRecordedAnswersSaid() throws {
        let answer =
            "HTTP/1.1 200 OK\r\nST: roku:ecp\r\nUSN: uuid:roku:ecp:REC0000123\r\n"
            + "WAKEUP: MAC=aa:bb:cc:dd:ee:ff;Timeout=10\r\n\r\n"
        let device = try Self.device(searches: [["st": "roku:ecp", "answers": [["delay": 0, "datagram": answer]]]])
        let wakeup = { (device: SimulatedDevice) in device.extraHeaders.first { $0.name == "WAKEUP" }?.value }
        #expect(wakeup(device) == "MAC=aa:bb:cc:dd:ee:ff;Timeout=10")
        let unrecorded = try Self.device()
        #expect(wakeup(unrecorded) != nil && wakeup(unrecorded) != wakeup(device), "none recorded: the profile's")
        // A header the answers did not carry is the family's still.
        #expect(device.extraHeaders.count == unrecorded.extraHeaders.count)
    }

    static func request(_ site: DeviceSite, _ method: String, _ target: String) -> DeviceHTTPResponse {
        site.respond(
            to: DeviceHTTPRequest(
                method: method,
                target: target,
                headers: [:],
                body: [],
                origin: "http://127.0.0.2:8060"
            )
        )
    }

    @Test func recordedReadsArePlayedUntilARequestChangesTheRoku() throws {
        let site = try Self.site()
        let active = Self.request(site, "GET", "/query/active-app")
        #expect(active.raw != nil && RecordedCallTests.text(active).contains(">Netflix</app>"))
        #expect(Self.request(site, "GET", "/query/device-info").raw != nil)
        // A channel the recorded Roku did not list is not there to launch; one it listed is.
        #expect(Self.request(site, "POST", "/launch/2285").status == 404)
        #expect(Self.request(site, "GET", "/query/active-app").raw != nil, "a refused launch changes nothing")
        // A key changes the device: the family answers from the state recorded, Netflix in front.
        #expect(Self.request(site, "POST", "/keypress/VolumeUp").status == 200)
        let changed = Self.request(site, "GET", "/query/active-app")
        #expect(changed.raw == nil && RecordedCallTests.text(changed).contains(">Netflix</app>"))
        #expect(Self.request(site, "POST", "/launch/837").status == 200)

        let now = Self.request(site, "GET", "/query/active-app")
        #expect(
            now.raw == nil && RecordedCallTests.text(now).contains(">YouTube</app>"),
            "\(RecordedCallTests.text(now))"
        )
        let info = Self.request(site, "GET", "/query/device-info")
        let text = RecordedCallTests.text(info)
        #expect(info.raw == nil && text.contains("\t<serial-number>REC0000123</serial-number>\n"), "\(text)")
        #expect(text.contains("<model-name>Roku Express</model-name>") && text.contains("<power-mode>PowerOn<"))
        let apps = RecordedCallTests.text(Self.request(site, "GET", "/query/apps"))
        #expect(apps.contains(">Netflix</app>") && apps.contains(">YouTube</app>") && !apps.contains("Hulu"))
        // The description is a document: still the recorded bytes.
        #expect(Self.request(site, "GET", "/").raw != nil)
    }

    @Test func theRecordedDeviceInfoIsTakenInItsOrderAndIndentation() throws {
        let ok = { (body: String) in Array(("HTTP/1.1 200 OK\r\n\r\n" + body).utf8) }
        var configuration = RokuConfiguration(deviceInfo: [SSDPDeviceProperty("udn", "x")], apps: [])
        let tv = Self.deviceInfo.replacingOccurrences(of: "<is-tv>false", with: "<is-tv>true")
        configuration.takeState(
            from: HTTPRecording(
                origin: "http://192.168.1.20:8060",
                exchanges: [
                    .init(method: "GET", target: "/query/device-info", response: ok(tv), readsState: true),
                    .init(method: "GET", target: "/query/apps", response: ok(Self.apps), readsState: true),
                ]
            )
        )
        #expect(configuration.deviceInfo.map(\.name) == ["udn", "serial-number", "model-name", "is-tv", "power-mode"])
        #expect(configuration.deviceInfoIndent == "\t" && configuration.standbyPowerMode == "DisplayOff")
        #expect(
            configuration.apps == [
                RokuApp(id: "12", name: "Netflix", version: "5.1"), RokuApp(id: "837", name: "YouTube", version: "2.3"),
            ]
        )
        #expect(configuration.startingPowerMode == "PowerOn" && configuration.startingAppID == nil)
        // An answer that is not a 200 leaves the family's as it was.
        var unchanged = RokuConfiguration(deviceInfo: [SSDPDeviceProperty("udn", "x")], apps: [])
        unchanged.takeState(
            from: HTTPRecording(
                origin: "http://192.168.1.20:8060",
                exchanges: [
                    .init(method: "GET", target: "/query/device-info", response: Array("HTTP/1.1 401 No\r\n\r\n".utf8))
                ]
            )
        )
        #expect(unchanged.deviceInfo == [SSDPDeviceProperty("udn", "x")] && unchanged.deviceInfoIndent == "    ")
    }

    @Test func aRecordedTVStartsAsItWasOnItsTunedChannel() throws {
        let ok = { (body: String) in Array(("HTTP/1.1 200 OK\r\n\r\n" + body).utf8) }
        let info = "<device-info><udn>u</udn><is-tv>true</is-tv><power-mode>DisplayOff</power-mode></device-info>"
        let channels = """
            <tv-channels>
              <channel><number>2.1</number><name>KTVU</name></channel>
              <channel><number>7.1</number><name>WLS</name></channel>
            </tv-channels>
            """
        let tuned =
            "<tv-channel><channel><number>7.1</number><program-title>News</program-title></channel></tv-channel>"
        var configuration = RokuConfiguration(deviceInfo: [], apps: [RokuApp(id: "12", name: "Netflix", version: "1")])
        configuration.takeState(
            from: HTTPRecording(
                origin: "http://192.168.1.21:8060",
                exchanges: [
                    .init(method: "GET", target: "/query/device-info", response: ok(info)),
                    .init(method: "GET", target: "/query/tv-channels", response: ok(channels)),
                    .init(method: "GET", target: "/query/tv-active-channel", response: ok(tuned)),
                    .init(
                        method: "GET",
                        target: "/query/active-app",
                        response: ok(#"<active-app><app id="12" type="appl">Netflix</app></active-app>"#)
                    ),
                ]
            )
        )
        #expect(configuration.deviceInfoIndent == "", "on one line: no indentation")
        #expect(configuration.startingPowerMode == "DisplayOff" && configuration.standbyPowerMode == "DisplayOff")
        #expect(configuration.startingAppID == "12" && configuration.startingTVChannel == "7.1")
        #expect(
            configuration.tvChannels == [
                RokuTVChannel(number: "2.1", name: "KTVU", programTitle: ""),
                RokuTVChannel(number: "7.1", name: "WLS", programTitle: "News"),
            ]
        )
        let ecp = RokuECP(
            device: SSDPDevice(udn: "uuid:u", deviceType: "urn:roku-com:device:player:1-0", friendlyName: "TV"),
            configuration: configuration,
            startedAt: .now
        )
        #expect(ecp.powerMode == "DisplayOff" && ecp.activeApp?.name == "Netflix" && ecp.tvChannel == "7.1")
        #expect(RokuConfiguration.indent(beforeFirstChildOf: "apps", in: Array("<apps>\n    <app/>".utf8)) == "    ")
        #expect(RokuConfiguration.indent(beforeFirstChildOf: "apps", in: Array("<apps>\n  x<app/>".utf8)) == "")
    }
}

/// A Hue bridge recorded through the recording proxy: an app that paired with it then asks what the session
/// did not hold, and the family answers as the recorded bridge, to the key the bridge gave.
@Suite struct RecordedHueTests {
    static let description = """
        <?xml version="1.0" encoding="UTF-8" ?><root xmlns="urn:schemas-upnp-org:device-1-0"><device>\
        <deviceType>urn:schemas-upnp-org:device:Basic:1</deviceType><friendlyName>Hue (192.168.1.30)</friendlyName>\
        <modelName>Philips hue bridge 2015</modelName>\
        <UDN>uuid:2f402f80-da50-11e1-9b23-001788a1b2c3</UDN></device></root>
        """

    static func site() throws -> DeviceSite {
        let response = { (type: String, body: String) in "HTTP/1.1 200 OK\r\nContent-Type: \(type)\r\n\r\n" + body }
        let config =
            #"{"name":"Den bridge","bridgeid":"001788FFFEA1B2C3","mac":"00:17:88:a1:b2:c3","apiversion":"1.50.0"}"#
        let json: [String: Any] = [
            "devices": [
                [
                    "profile": "hue",
                    "recording": [
                        "source": ["location": "http://192.168.1.30:80/description.xml"],
                        "searches": [[String: Any]](),
                        "http": [
                            [
                                "method": "GET", "target": "/description.xml",
                                "response": response("text/xml", description),
                            ],
                            [
                                "method": "GET", "target": "/api/config",
                                "response": response("application/json", config),
                            ],
                            [
                                "method": "POST", "target": "/api", "proxied": true,
                                "body": #"{"devicetype":"app#ci"}"#,
                                "response": response("application/json", #"[{"success":{"username":"RecordedKey1"}}]"#),
                            ],
                        ],
                    ],
                ]
            ]
        ]
        let file = try DeviceFile.decode(try JSONSerialization.data(withJSONObject: json), file: "hue.json", seed: 1)
        return DeviceSite(device: try #require(file.devices.first))
    }

    static func get(_ site: DeviceSite, _ target: String) -> String {
        let response = site.respond(
            to: DeviceHTTPRequest(method: "GET", target: target, headers: [:], body: [], origin: "http://127.0.0.2:80")
        )
        return response.raw.map { String(decoding: $0, as: UTF8.self) } ?? response.body
    }

    @Test func theFamilyKnowsTheRecordedKeyAndIsTheRecordedBridge() throws {
        let site = try Self.site()
        let lights = Self.get(site, "/api/RecordedKey1/lights")
        #expect(!lights.contains("unauthorized user") && lights.contains("\"state\""), "\(lights)")
        let config = Self.get(site, "/api/RecordedKey1/config")
        #expect(config.contains("\"bridgeid\":\"001788FFFEA1B2C3\"") && config.contains("\"name\":\"Den bridge\""))
        #expect(config.contains("\"apiversion\":\"1.50.0\""), "\(config)")
        #expect(Self.get(site, "/api/OtherKey/lights").contains("unauthorized user"))
    }
}
