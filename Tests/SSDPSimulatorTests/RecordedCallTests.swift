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

    static func site() throws -> DeviceSite {
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
                        ],
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

    @Test func anSCPDIsReadAsTheDeviceServesIt() throws {
        let scpd = try #require(SSDPServiceDescription(scpd: Array(Self.scpd.utf8)))
        #expect(scpd.actions.map(\.name) == ["GetVolume", "SetVolume", "SetLabel", "GetLabel"])
        #expect(scpd.action(named: "SetVolume")?.arguments.first?.direction == .in)
        let volume = try #require(scpd.stateVariables.first)
        #expect(volume.dataType == "ui2" && volume.defaultValue == "5" && !volume.sendEvents)
        #expect(volume.allowedRange == .init(minimum: 0, maximum: 100))
        #expect(SSDPServiceDescription(scpd: Array("<root/>".utf8)) == nil)
    }
}
