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
import NIOConcurrencyHelpers
import NIOCore
import SSDPCore
import SSDPDeviceCore
import SSDPDevices
import SSDPNIO
import SSDPSearch
import SSDPSimulator
import Testing

/// Every profile as a real client meets it: found by the real `SSDPSearchSession` on loopback, then its
/// LOCATION fetched and parsed, then (Roku, DIAL) its API called.
@Suite(.tags(.live)) struct ProfileLiveTests {
    @Test(arguments: SimulatorProfile.all.map(\.name))
    func theDescriptionAtLocationMatchesWhatSSDPAnnounced(profile: String) async throws {
        let device = try SimulatorProfile.named(profile).device(number: 1, seed: 5)  // quirks and all
        let simulator = try await LoopbackSimulator.start([device])
        defer { Task { await simulator.shutdown() } }
        // Two searches, so that an answer a busy machine delivers after the first window still counts.
        let (found, _) = try await LoopbackSimulator.search(simulator, target: "ssdp:all", requests: 2)
        #expect(Set(found.map(\.uniqueServiceName)) == Set(simulator.devices[0].advertisements.map(\.usn)))

        let root = try #require(found.first { $0.searchTarget == "upnp:rootdevice" })
        let response = try await PlainHTTP.request(url: root.location)
        #expect(response.status == 200)
        #expect(response.header("Content-Type")?.hasPrefix("text/xml") == true)
        let elements = try XMLElements.parse(response.body)
        let values = { (name: String) in elements.filter { $0.0 == name }.map(\.1) }

        // The USN's uuid is the description's (first) UDN; the types it lists are those announced with it.
        let udns = values("UDN")
        #expect(udns.first.map { root.uniqueServiceName.hasPrefix($0 + "::") } == true)
        let here = found.filter { $0.location == root.location }
        #expect(Set(udns) == Set(here.filter { $0.searchTarget.hasPrefix("uuid:") }.map(\.searchTarget)))
        // (As SSDP says them: a router built for IGD v2 describes itself as v1 but advertises :2, and
        // advertises services it does not describe, as its extra targets.)
        let advertised = { (type: String) in device.advertisedTypes[type] ?? type }
        let extras = Set(device.extraTargets.map(\.target))
        let announced = Set(here.map(\.searchTarget)).subtracting(extras)
        #expect(Set(values("deviceType").map(advertised)) == announced.filter { $0.contains(":device:") })
        #expect(Set(values("serviceType").map(advertised)) == announced.filter { $0.contains(":service:") })

        // Every service description the description names is there.
        for scpd in values("SCPDURL") {
            let url = try #require(URL(string: scpd, relativeTo: URL(string: root.location))).absoluteString
            #expect(try await PlainHTTP.request(url: url).status == 200, "\(url)")
        }

        // A DIAL device's description carries Application-URL on the same server.
        if let dial = device.web.dial {
            let dialLocation = found.first { $0.searchTarget == "urn:dial-multiscreen-org:service:dial:1" }?.location
            let description = try await PlainHTTP.request(url: dialLocation ?? root.location)
            let origin = root.location.prefix { $0 != "/" } + "//" + (root.location.split(separator: "/")[1])
            #expect(description.header("Application-URL") == origin + dial.applicationPath)
        }
    }

    @Test func aRokuRecordsKeyPressesAndLaunchesAndAnswersECPQueries() async throws {
        let events = NIOLockedValueBox<[SimulatorEvent]>([])
        let simulator = try await LoopbackSimulator.start(
            [SimulatorProfile.roku.device(number: 1, seed: 2)],
            events: events
        )
        defer { Task { await simulator.shutdown() } }
        let (found, _) = try await LoopbackSimulator.search(simulator, target: "roku:ecp", requests: 1)
        let ecp = try #require(found.first?.location)  // http://127.0.0.1:PORT/
        #expect(found.first?.uniqueServiceName.hasPrefix("uuid:roku:ecp:") == true)

        let info = try XMLElements.parse(try await PlainHTTP.request(url: ecp + "query/device-info").body)
        let serial = try #require(info.first { $0.0 == "serial-number" }?.1)
        #expect(found.first?.uniqueServiceName == "uuid:roku:ecp:\(serial)")
        #expect(info.first { $0.0 == "power-mode" }?.1 == "PowerOn")
        // Every field all five real device-info captures carry (after-discovery.md §6.1), each once.
        let everyRoku = """
            udn serial-number device-id advertising-id vendor-name model-name model-number model-region is-tv is-stick \
            supports-ethernet wifi-mac wifi-driver has-wifi-5G-support network-type network-name friendly-device-name \
            friendly-model-name default-device-name user-device-name user-device-location build-number \
            software-version software-build secure-device language country locale time-zone-auto time-zone \
            time-zone-name time-zone-tz time-zone-offset clock-format uptime power-mode supports-suspend \
            supports-find-remote supports-audio-guide supports-rva developer-enabled keyed-developer-id search-enabled \
            search-channels-enabled voice-search-enabled supports-private-listening headphones-connected \
            supports-ecs-textedit supports-ecs-microphone supports-wake-on-wlan supports-airplay has-play-on-roku \
            has-mobile-screensaver support-url
            """.split(separator: " ").map(String.init)
        let names = info.map(\.0)
        #expect(Set(everyRoku).subtracting(names).isEmpty, "missing: \(Set(everyRoku).subtracting(names).sorted())")
        #expect(names.count == Set(names).count, "a field twice")
        #expect(info.first { $0.0 == "user-device-name" }?.1 == simulator.devices[0].device.friendlyName)
        #expect(info.first { $0.0 == "udn" }.map { "uuid:\($0.1)" } == simulator.devices[0].device.udn)

        #expect(try await PlainHTTP.request("POST", url: ecp + "launch/837", body: "").status == 200)
        var active = try await PlainHTTP.request(url: ecp + "query/active-app")
        #expect(active.body.contains(">YouTube</app>"))
        let player = try await PlainHTTP.request(url: ecp + "query/media-player").body
        #expect(player.contains("<player error=\"false\" state=\"play\">"))
        #expect(player.contains("<plugin bandwidth=\"10000000 bps\" id=\"837\" name=\"YouTube\"/>"))
        #expect(player.contains(" ms</position>") && player.contains("<is_live>false</is_live>"))
        #expect(try await PlainHTTP.request("POST", url: ecp + "keypress/Home", body: "").status == 200)
        #expect(try await PlainHTTP.request("POST", url: ecp + "keypress/Lit_%C3%A9", body: "").status == 200)
        #expect(try await PlainHTTP.request("POST", url: ecp + "keydown/Right", body: "").status == 200)
        #expect(try await PlainHTTP.request("POST", url: ecp + "keyup/Right", body: "").status == 200)
        active = try await PlainHTTP.request(url: ecp + "query/active-app")
        #expect(active.body.contains("<app>Roku</app>"))

        // What the device refuses.
        #expect(try await PlainHTTP.request("POST", url: ecp + "launch/999999", body: "").status == 404)
        #expect(try await PlainHTTP.request("GET", url: ecp + "keypress/Home").status == 405)
        #expect(try await PlainHTTP.request("POST", url: ecp + "query/apps", body: "").status == 405)
        #expect(try await PlainHTTP.request(url: ecp + "query/nothing").status == 404)

        let udn = simulator.devices[0].device.udn
        let actions = events.withLockedValue { events in
            events.compactMap { event -> DeviceAction? in
                if case .deviceAction(let action) = event { action } else { nil }
            }
        }
        #expect(
            actions == [
                DeviceAction(udn: udn, name: "launch", value: "837"),
                DeviceAction(udn: udn, name: "keypress", value: "Home"),
                DeviceAction(udn: udn, name: "keypress", value: "Lit_é"),
                DeviceAction(udn: udn, name: "keydown", value: "Right"),
                DeviceAction(udn: udn, name: "keyup", value: "Right"),
            ]
        )
    }

    /// A Roku TV's documents as rokuecp's captures of Roku TVs lay them out: device-info unindented (Roku
    /// OS 10 and later), the tuner as `tvin` app in front after a tune, `tv-channels` and
    /// `tv-active-channel` element for element (its three-space `</channel>` included); a player has
    /// neither TV query.
    @Test func aRokuTVAnswersForItsInputsAndChannelsAsRokuTVsDo() async throws {
        let simulator = try await LoopbackSimulator.start([
            SimulatorProfile.rokuTV.device(number: 1, seed: 2), SimulatorProfile.roku.device(number: 2, seed: 2),
        ])
        defer { Task { await simulator.shutdown() } }
        let (found, _) = try await LoopbackSimulator.search(simulator, target: "roku:ecp", requests: 1)
        #expect(found.count == 2)
        let tv = try #require(found.first { $0.server.contains("Roku/11.5.0") }?.location)
        let player = try #require(found.first { $0.server.contains("Roku/9.2.0") }?.location)
        let header = "<?xml version=\"1.0\" encoding=\"UTF-8\" ?>\n"

        let info = try await PlainHTTP.request(url: tv + "query/device-info").body
        #expect(info.hasPrefix(header + "<device-info>\n<udn>"), "\(info)")
        #expect(info.contains("\n<is-tv>true</is-tv>\n") && info.contains("\n<power-mode>PowerOn</power-mode>\n"))
        #expect(
            try await PlainHTTP.request(url: player + "query/device-info").body.contains("\n    <is-tv>false</is-tv>\n")
        )

        #expect(try await PlainHTTP.request("POST", url: tv + "launch/tvinput.dtv?ch=4.1", body: "").status == 200)
        #expect(
            try await PlainHTTP.request(url: tv + "query/active-app").body
                == header
                + "<active-app>\n    <app id=\"tvinput.dtv\" type=\"tvin\" version=\"1.0.0\">Antenna TV</app>\n"
                + "</active-app>\n"
        )
        let channels = try await PlainHTTP.request(url: tv + "query/tv-channels").body
        #expect(
            channels.hasPrefix(
                header + "<tv-channels>\n    <channel>\n        <number>2.1</number>\n        <name>WCBS-HD</name>\n"
                    + "        <type>air-digital</type>\n        <user-hidden>false</user-hidden>\n    </channel>\n"
            ),
            "\(channels)"
        )
        let active = try await PlainHTTP.request(url: tv + "query/tv-active-channel").body
        let names = try XMLElements.parse(active).map(\.0).dropLast(2)
        #expect(
            Array(names)
                == """
                number name type user-hidden active-input signal-state signal-mode signal-quality signal-strength \
                program-title program-description program-ratings program-analog-audio program-digital-audio \
                program-audio-languages program-audio-formats program-audio-language program-audio-format program-has-cc
                """.split(separator: " ").map(String.init),
            "\(active)"
        )
        #expect(active.contains("<number>4.1</number>") && active.contains("<active-input>true</active-input>"))
        #expect(active.hasSuffix("        <program-has-cc>true</program-has-cc>\n   </channel>\n</tv-channel>\n"))

        #expect(try await PlainHTTP.request("POST", url: tv + "keypress/PowerOff", body: "").status == 200)
        #expect(
            try await PlainHTTP.request(url: tv + "query/device-info").body.contains(
                "<power-mode>DisplayOff</power-mode>"
            )
        )
        #expect(try await PlainHTTP.request(url: player + "query/tv-channels").status == 404)
        #expect(try await PlainHTTP.request(url: player + "query/tv-active-channel").status == 404)
    }

    @Test func aDIALServersAppsOriginsAndStopsComeFromItsDeviceFile() async throws {
        let file = #"""
            { "devices": [ { "profile": "dial-tv", "dialApps": [
                { "name": "Hulu", "allowStop": false, "origins": ["https://hulu.com"] } ] } ] }
            """#
        let device = try DeviceFile.decode(Data(file.utf8), file: "dial.json", seed: 1).devices[0]
        let simulator = try await LoopbackSimulator.start([device])
        defer { Task { await simulator.shutdown() } }
        let description = try await PlainHTTP.request(url: simulator.devices[0].location)
        let apps = try #require(description.header("Application-URL"))
        #expect(try await PlainHTTP.request("POST", url: apps + "Hulu", body: "").status == 201)
        #expect(try await PlainHTTP.request(url: apps + "Hulu").body.contains(#"<options allowStop="false"/>"#))
        #expect(try await PlainHTTP.request("DELETE", url: apps + "Hulu/run").status == 403)  // not stoppable
        let web = { (origin: String) in
            try await PlainHTTP.request("POST", url: apps + "Hulu", headers: ["Origin": origin], body: "").status
        }
        #expect(try await web("https://hulu.com:8443") == 201)
        #expect(try await web("https://evil.example") == 403)
        // The profile's apps are replaced, not added to.
        #expect(try await PlainHTTP.request("POST", url: apps + "YouTube", body: "").status == 404)
    }

    @Test func aDIALTVLaunchesHidesAndStopsAppsWithTheReferenceServersStatusCodes() async throws {
        let events = NIOLockedValueBox<[SimulatorEvent]>([])
        let simulator = try await LoopbackSimulator.start(
            [SimulatorProfile.dialTV.device(number: 1, seed: 4)],
            events: events
        )
        defer { Task { await simulator.shutdown() } }
        let (found, _) = try await LoopbackSimulator.search(
            simulator,
            target: "urn:dial-multiscreen-org:service:dial:1",
            requests: 1
        )
        let description = try await PlainHTTP.request(url: try #require(found.first?.location))
        let apps = try #require(description.header("Application-URL"))  // http://127.0.0.1:PORT/apps/
        let youTube = apps + "YouTube"
        let state = { (query: String) async throws -> String? in
            let status = try await PlainHTTP.request(url: youTube + query)
            return try XMLElements.parse(status.body).first { $0.0 == "state" }?.1
        }

        #expect(try await state("") == "stopped")
        let launch = try await PlainHTTP.request(
            "POST",
            url: youTube + "?friendlyName=Lab%20Phone&clientDialVer=2.2",
            body: "v=dQw4w9WgXcQ"
        )
        #expect(launch.status == 201)
        #expect(launch.header("Location") == youTube + "/run")
        #expect(try await state("") == "running")
        #expect(try await PlainHTTP.request("POST", url: youTube, body: "").status == 201)  // again: still 201

        #expect(try await PlainHTTP.request("POST", url: youTube + "/run/hide", body: "").status == 200)
        #expect(try await state("?clientDialVer=2.1") == "hidden")
        #expect(try await state("") == "stopped")  // a client older than DIAL 2.1 sees hidden as stopped

        #expect(try await PlainHTTP.request("POST", url: youTube + "/dial_data", body: "resume=1&pos=42").status == 200)
        #expect(
            try await PlainHTTP.request(url: youTube + "?clientDialVer=2.2").body.contains(
                "<resume>1</resume><pos>42</pos>"
            )
        )

        #expect(try await PlainHTTP.request("DELETE", url: youTube + "/run").status == 200)
        #expect(try await state("") == "stopped")
        #expect(try await PlainHTTP.request("DELETE", url: youTube + "/run").status == 404)
        #expect(try await PlainHTTP.request("POST", url: youTube + "/run/hide", body: "").status == 404)

        // Limits, unknown apps, wrong methods, CORS.
        #expect(
            try await PlainHTTP.request("POST", url: youTube, body: String(repeating: "x", count: 4_097)).status == 413
        )
        #expect(
            try await PlainHTTP.request("POST", url: youTube, body: String(repeating: "x", count: 4_096)).status == 201
        )
        #expect(try await PlainHTTP.request(url: apps + "Hulu").status == 404)
        // As the reference server (dial_server.c): another method is 501, and a payload that is not printable
        // ASCII is 400; dial_data comes from the device itself only (here, loopback), by POST or GET's query.
        #expect(try await PlainHTTP.request("PUT", url: youTube, body: "").status == 501)
        #expect(try await PlainHTTP.request("GET", url: youTube + "/run").status == 501)
        #expect(try await PlainHTTP.request("DELETE", url: youTube).status == 501)
        #expect(try await PlainHTTP.request("POST", url: youTube, body: "v=1\u{01}").status == 400)
        #expect(try await PlainHTTP.request("POST", url: youTube, body: "v=é").status == 400)
        #expect(try await PlainHTTP.request(url: youTube + "/dial_data?resume=0").status == 200)
        #expect(try await PlainHTTP.request(url: youTube + "?clientDialVer=2.2").body.contains("<resume>0</resume>"))
        let preflight = try await PlainHTTP.request(
            "OPTIONS",
            url: youTube,
            headers: ["Origin": "https://www.youtube.com", "Access-Control-Request-Method": "POST"]
        )
        #expect(preflight.status == 204)
        #expect(preflight.header("Access-Control-Allow-Origin") == "https://www.youtube.com")
        #expect(preflight.header("Access-Control-Allow-Methods")?.contains("POST") == true)
        #expect(
            try await PlainHTTP.request("POST", url: youTube, headers: ["Origin": "https://evil.example"], body: "")
                .status == 403
        )
        // The reference server's origins for YouTube: youtube.com, one label under it at any port, the phone
        // apps' package: origins; not two labels, not http. An unknown app asked for by a web page is 403.
        for (origin, status) in [
            ("https://youtube.com", 201), ("https://m.youtube.com:8443", 201),
            ("package:com.google.android.youtube", 201), ("https://a.b.youtube.com", 403),
            ("http://www.youtube.com", 403), ("package:", 403),
        ] {
            let launched = try await PlainHTTP.request("POST", url: youTube, headers: ["Origin": origin], body: "")
            #expect(launched.status == status, "\(origin)")
        }
        #expect(
            try await PlainHTTP.request(url: apps + "Hulu", headers: ["Origin": "https://youtube.com"]).status == 403
        )

        // DIAL 2.2's system app: hidden (stopped to older clients), never stopped, sleep not done.
        let system = apps + "system"
        #expect(
            try await XMLElements.parse(PlainHTTP.request(url: system).body).first { $0.0 == "state" }?.1 == "stopped"
        )
        #expect(
            try await XMLElements.parse(PlainHTTP.request(url: system + "?clientDialVer=2.2").body)
                .first { $0.0 == "state" }?.1 == "hidden"
        )
        #expect(try await PlainHTTP.request("POST", url: system, body: "").status == 403)
        #expect(try await PlainHTTP.request("POST", url: system + "?action=reboot", body: "").status == 501)
        #expect(try await PlainHTTP.request("POST", url: system + "?action=sleep", body: "").status == 501)
        #expect(try await PlainHTTP.request("DELETE", url: system + "/run").status == 403)

        let udn = simulator.devices[0].device.udn
        // The launch's query and where the app would post its dial_data are in what the device recorded.
        let first = events.withLockedValue { events in
            events.lazy.compactMap { event -> DeviceAction? in
                if case .deviceAction(let action) = event, action.name == "dial-launch" { action } else { nil }
            }.first
        }
        #expect(first?.query == ["friendlyName": "Lab Phone", "clientDialVer": "2.2"])
        let port = try #require(URL(string: apps)?.port)
        #expect(first?.additionalDataURL == "http://localhost:\(port)/apps/YouTube/dial_data")
        let actions = events.withLockedValue { events in
            events.compactMap { event -> String? in
                if case .deviceAction(let action) = event, action.udn == udn {
                    "\(action.name) \(action.value.prefix(40))"
                } else {
                    nil
                }
            }
        }
        #expect(
            actions == [
                "dial-launch YouTube v=dQw4w9WgXcQ", "dial-launch YouTube", "dial-hide YouTube",
                "dial-data YouTube resume=1&pos=42", "dial-stop YouTube",
                "dial-launch YouTube " + String(repeating: "x", count: 32), "dial-data YouTube resume=0",
            ] + Array(repeating: "dial-launch YouTube", count: 3)  // from the three origins allowed
        )
    }

    @Test func theHTTPServerRefusesWhatNoDeviceServes() async throws {
        let simulator = try await LoopbackSimulator.start([SimulatorProfile.igd.device(number: 1, seed: 3)])
        defer { Task { await simulator.shutdown() } }
        let base = "http://\(simulator.httpAddress.endpointDescription)"
        #expect(simulator.httpAddress.ipAddress == "127.0.0.2", "the device's own address, not the host's")
        #expect(try await PlainHTTP.request(url: base + "/rootDesc.xml").status == 200)
        #expect(try await PlainHTTP.request("HEAD", url: base + "/rootDesc.xml").body.isEmpty)
        #expect(try await PlainHTTP.request("HEAD", url: base + "/rootDesc.xml").status == 501)
        #expect(try await PlainHTTP.request(url: base + "/etc/passwd").status == 404)
        #expect(try await PlainHTTP.request(url: base + "/xml/../rootDesc.xml").status == 404)
        // miniupnpd implements GET, POST, SUBSCRIBE and UNSUBSCRIBE, and answers any other method 501.
        #expect(try await PlainHTTP.request("DELETE", url: base + "/rootDesc.xml").status == 501)
        let hugeHeader = String(repeating: "a", count: 9_000)
        #expect(try await PlainHTTP.request(url: base + "/rootDesc.xml", headers: ["X-Big": hugeHeader]).status == 431)
        let hugeBody = String(repeating: "b", count: 20_000)
        #expect(try await PlainHTTP.request("POST", url: base + "/rootDesc.xml", body: hugeBody).status == 413)
    }
}
