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
import SSDPDeviceCore
import SSDPDevices
import Testing

@Suite struct JSONValueTests {
    @Test func readsWhatAnAppSendsAndWritesItBackInOrder() throws {
        let text = #"{"on":true,"bri":100,"xy":[0.141,0.123],"name":"Desk \"1\"\n","alert":null,"e":-1.5e2}"#
        let value = try #require(JSONValue(parsing: Array(text.utf8)))
        #expect(value["bri"] == .int(100) && value["xy"] == .array([.double(0.141), .double(0.123)]))
        #expect(value["e"] == .double(-150) && value["alert"] == .null)
        #expect(value.text == text.replacing("-1.5e2", with: "-150.0"))
    }

    @Test func decodesEscapesAndSurrogatePairs() throws {
        let value = try #require(JSONValue(parsing: Array(#" [ "\u00e9\ud83d\udca1\/\t" ] "#.utf8)))
        #expect(value == .array([.string("é💡/\t")]))
    }

    @Test(arguments: [
        "", "{", "{\"a\":1,}", "[1,]", "01", "1.", "-", "\"\\x\"", "\"\\ud83d\"", "\"a\nb\"", "tru", "{} {}",
        "{\"a\" 1}", String(repeating: "[", count: 40) + String(repeating: "]", count: 40), "\"\u{FF}\"",
    ])
    func refusesWhatIsNotJSON(_ text: String) {
        let bytes = text == "\"\u{FF}\"" ? [0x22, 0xFF, 0x22] : Array(text.utf8)
        #expect(JSONValue(parsing: bytes) == nil, "\(text)")
    }
}

@Suite struct HueBridgeTests {
    let start = ContinuousClock.now
    var bridge = HueBridge(
        configuration: HueBridgeConfiguration(
            name: "Philips hue",
            bridgeID: "001788FFFEA1B2C3",
            mac: "00:17:88:a1:b2:c3",
            lights: [
                HueLight(
                    id: "1",
                    name: "Hue color lamp 1",
                    kind: .extendedColor,
                    uniqueID: "00:17:88:01:00:00:00:01-0b"
                ),
                HueLight(id: "2", name: "Hue white lamp 1", kind: .dimmable, uniqueID: "00:17:88:01:00:00:00:02-0b"),
            ]
        ),
        seed: 1
    )

    /// The JSON the bridge answers `method path` with, after `seconds` of the test.
    mutating func call(_ method: String, _ path: String, _ body: String = "", at seconds: Int = 0) -> HueBridge.Answer?
    {
        bridge.respond(
            to: HueBridge.Request(
                method: method,
                path: path,
                body: Array(body.utf8),
                now: start + .seconds(seconds),
                address: "192.168.1.2",
                utc: "2026-11-26T21:00:00"
            )
        )
    }

    /// Pairs an app while the link button is pressed; its key.
    mutating func pair() throws -> String {
        bridge.pressLinkButton(at: start)
        let answer = try #require(call("POST", "/api", #"{"devicetype":"app#test"}"#))
        guard case .string(let key) = answer.json.elements.first?["success"]?["username"] else {
            Issue.record("no key in \(answer.json.text)")
            return ""
        }
        return key
    }

    @Test mutating func tellsAnyoneWhatBridgeItIs() throws {
        let expected =
            #"{"name":"Philips hue","datastoreversion":"60","swversion":"01003542","apiversion":"1.17.0","#
            + #""mac":"00:17:88:a1:b2:c3","bridgeid":"001788FFFEA1B2C3","factorynew":false,"replacesbridgeid":null,"#
            + #""modelid":"BSB002","starterkitid":""}"#
        #expect(call("GET", "/api/config")?.json.text == expected)
        #expect(call("GET", "/api/nobody/config")?.json.text == expected)
        #expect(call("GET", "/api/nobody/lights")?.json.text == error(1, "/lights", "unauthorized user"))
        #expect(call("GET", "/api/nobody")?.json.text == error(1, "/", "unauthorized user"))
        #expect(call("GET", "/api")?.json.text == error(4, "/", "method, GET, not available for resource, /"))
        #expect(call("GET", "/description.xml") == nil)
        #expect(call("GET", "/apis") == nil)
    }

    @Test mutating func pairsOnlyWhileTheLinkButtonIsPressed() throws {
        let body = #"{"devicetype":"app#test"}"#
        #expect(call("POST", "/api", body)?.json.text == error(101, "", "link button not pressed"))
        bridge.pressLinkButton(at: start)
        let paired = try #require(call("POST", "/api", #"{"devicetype":"app#test","generateclientkey":true}"#, at: 29))
        let success = paired.json.elements.first?["success"]
        guard case .string(let key) = success?["username"], case .string(let clientKey) = success?["clientkey"] else {
            Issue.record("\(paired.json.text)")
            return
        }
        #expect(key.count == 40 && clientKey.count == 32)
        #expect(paired.action == HueBridge.Action(name: "pair", value: "app#test"))
        #expect(bridge.whitelist.map(\.key) == [key])
        // Thirty seconds after the press, the window is closed again.
        #expect(call("POST", "/api", body, at: 30)?.json.text == error(101, "", "link button not pressed"))
        #expect(call("POST", "/api", "{devicetype", at: 1)?.json.text == error(2, "", "body contains invalid json"))
        #expect(
            call("POST", "/api", #"{"name":"x"}"#, at: 1)?.json.text
                == error(5, "/", "invalid/missing parameters in body")
        )
        #expect(
            call("POST", "/api", #"{"devicetype":7}"#, at: 1)?.json.text
                == error(7, "/devicetype", "invalid value, 7, for parameter, devicetype")
        )
        #expect(bridge.whitelist.count == 1)
    }

    @Test mutating func theWhitelistIsBoundedTheFirstAppMakingRoom() throws {
        let first = try pair()
        for _ in 0..<HueBridge.maximumApps { _ = try pair() }
        #expect(bridge.whitelist.count == HueBridge.maximumApps)
        #expect(!bridge.whitelist.contains { $0.key == first })
        #expect(call("GET", "/api/\(first)/lights")?.json.text == error(1, "/lights", "unauthorized user"))
    }

    @Test mutating func aPairedAppReadsTheWholeBridge() throws {
        let key = try pair()
        let state = try #require(call("GET", "/api/\(key)")?.json)
        guard case .object(let members) = state else { throw Failure("not an object: \(state.text)") }
        #expect(
            members.map(\.name) == [
                "lights", "groups", "config", "schedules", "scenes", "rules", "sensors", "resourcelinks",
            ]
        )
        #expect(state["config"]?["whitelist"]?[key]?["name"] == .string("app#test"))
        #expect(
            state["config"]?["ipaddress"] == .string("192.168.1.2") && state["config"]?["linkbutton"] == .bool(true)
        )
        #expect(call("GET", "/api/\(key)/config", at: 31)?.json["linkbutton"] == .bool(false))
        #expect(call("GET", "/api/\(key)/lights")?.json == state["lights"])
        let light = try #require(call("GET", "/api/\(key)/lights/2")?.json)
        #expect(light["type"] == .string("Dimmable light") && light["state"]?["hue"] == nil)
        #expect(light["capabilities"]?["control"]?["maxlumen"] == .int(750))
        #expect(call("GET", "/api/\(key)/sensors")?.json == .object([]))
        #expect(
            call("GET", "/api/\(key)/lights/9")?.json.text
                == error(3, "/lights/9", "resource, /lights/9, not available")
        )
        #expect(
            call("DELETE", "/api/\(key)/lights/1")?.json.text
                == error(4, "/lights/1", "method, DELETE, not available for resource, /lights/1")
        )
    }

    @Test mutating func changesALightAsTheBridgeDoesParameterByParameter() throws {
        let key = try pair()
        let path = "/api/\(key)/lights/1/state"
        let off = try #require(call("PUT", path, #"{"bri":100}"#))
        #expect(
            off.json.text
                == error(201, "/lights/1/state/bri", "parameter, bri, is not modifiable. Device is set to off.")
        )
        #expect(off.action == nil)
        let mixed = try #require(call("PUT", path, #"{"on":true,"bri":100,"xy":[0.2,0.3],"hue":70000,"foo":1}"#))
        #expect(
            mixed.json.text
                == #"[{"success":{"/lights/1/state/on":true}},{"success":{"/lights/1/state/bri":100}},"#
                + #"{"success":{"/lights/1/state/xy":[0.2,0.3]}},"#
                + #"{"error":{"type":7,"address":"/lights/1/state/hue","description":"invalid value, 70000, for parameter, hue"}},"#
                + #"{"error":{"type":6,"address":"/lights/1/state/foo","description":"parameter, foo, not available"}}]"#
        )
        #expect(mixed.action == HueBridge.Action(name: "lightState", value: #"1 {"on":true,"bri":100,"xy":[0.2,0.3]}"#))
        let light = bridge.lights[0].state
        #expect(
            light.on && light.brightness == 100 && light.xy == [0.2, 0.3] && light.colourMode == "xy"
                && light.hue == 8418
        )
        _ = call("PUT", path, #"{"ct":250}"#)
        #expect(bridge.lights[0].state.colourMode == "ct" && bridge.lights[0].state.colourTemperature == 250)
        #expect(call("PUT", path, #"{"ct":100,"bri":0,"alert":"blink"}"#)?.json.elements.count == 3)
        #expect(bridge.lights[0].state.colourTemperature == 250 && bridge.lights[0].state.brightness == 100)
        // The white lamp has no colour.
        let white = try #require(call("PUT", "/api/\(key)/lights/2/state", #"{"on":true,"hue":1}"#))
        #expect(
            white.json.elements.last?.text
                == #"{"error":{"type":6,"address":"/lights/2/state/hue","description":"parameter, hue, not available"}}"#
        )
        #expect(bridge.lights[1].state.on)
        #expect(call("PUT", path, "[1]")?.json.text == error(2, "/lights/1/state", "body contains invalid json"))
    }

    @Test mutating func renamesALight() throws {
        let key = try pair()
        let renamed = try #require(call("PUT", "/api/\(key)/lights/2", #"{"name":"Hall"}"#))
        #expect(renamed.json.text == #"[{"success":{"/lights/2/name":"Hall"}}]"#)
        #expect(renamed.action == HueBridge.Action(name: "lightName", value: "2 Hall"))
        #expect(bridge.lights[1].name == "Hall")
        let tooLong = String(repeating: "x", count: 33)
        #expect(
            call("PUT", "/api/\(key)/lights/2", #"{"name":"\#(tooLong)"}"#)?.json.text
                == error(7, "/lights/2/name", "invalid value, \"\(tooLong)\", for parameter, name")
        )
        #expect(bridge.lights[1].name == "Hall")
    }

    /// The bridge's error list of one, written as JSON (the description's quotes escaped).
    private func error(_ type: Int, _ address: String, _ description: String) -> String {
        let error = JSONValue.object([
            .init("type", .int(type)), .init("address", .string(address)), .init("description", .string(description)),
        ])
        return JSONValue.array([.object([.init("error", error)])]).text
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}

extension JSONValue {
    /// The elements of an array answer.
    fileprivate var elements: [JSONValue] {
        guard case .array(let values) = self else { return [] }
        return values
    }
}

/// The one JSON value as the events, the journal and the control API use it: objects made from dictionaries
/// or decoded compare as dictionaries would, while a Hue answer keeps the order it was built in.
@Suite struct JSONValueObjectTests {
    @Test func anObjectFromADictionaryOrALiteralHasItsMembersInTheOrderOfTheirNames() {
        let made = JSONValue(["seq": 2, "kind": "device", "fields": ["udn": "uuid:1", "bootId": 3]])
        let literal: JSONValue = ["fields": ["bootId": 3, "udn": "uuid:1"], "kind": "device", "seq": 2]
        #expect(made == literal)
        #expect(made.text == #"{"fields":{"bootId":3,"udn":"uuid:1"},"kind":"device","seq":2}"#)
        #expect(made["fields"]?["udn"]?.scalarText == "uuid:1" && made["seq"]?.scalarText == "2")
        #expect(made["fields"]?.scalarText == nil && made["nothing"] == nil)
    }

    @Test func decodingSortsTheMembersAndEncodingWritesThemAll() throws {
        let text = #"{"b":[1,2.5,null,true],"a":{"z":"x","y":{}}}"#
        let decoded = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        #expect(decoded == ["a": ["y": JSONValue.object([]), "z": "x"], "b": .array([1, .double(2.5), .null, true])])
        #expect(decoded.text == #"{"a":{"y":{},"z":"x"},"b":[1,2.5,null,true]}"#)
        let hue = JSONValue.object([.init("on", true), .init("bri", 254)])  // in the order the bridge writes
        #expect(hue.text == #"{"on":true,"bri":254}"#)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let encoded = String(decoding: try encoder.encode(hue), as: UTF8.self)
        #expect(encoded == #"{"bri":254,"on":true}"#)
        #expect(try JSONDecoder().decode(JSONValue.self, from: Data(encoded.utf8)) == ["bri": 254, "on": true])
    }
}
