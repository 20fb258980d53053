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
import Testing

/// `ssdp-sim record` as a user runs it: a device recorded on loopback, then played back by `serve
/// --devices`, meets a control point as the device did; and what cannot be recorded whole leaves no file.
@Suite struct RecordTests {
    /// A profile's device, recorded, then played back on another port: every search answer and every
    /// HTTP response the same bytes but for the origin and the dates.
    @Test(arguments: ["igd", "dlna-server", "roku"])
    func aRecordedDevicePlaysBackItsAnswersAndDocumentsAsItSentThem(profile: String) async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("\(profile).json").path
        let (original, port, started) = try await RunningCommand.serveOnLoopback(["--profile", profile, "--seed", "4"])
        defer { original.kill() }
        let location = try #require((started["devices"] as? [[String: Any]])?.first?["location"] as? String)
        let recorded = try await CommandRunner.ssdpSim("record", location, "--port", "\(port)", "--output", file)
        #expect(recorded.status == 0, "\(recorded.standardOutput)\n\(recorded.standardError)")
        #expect(recorded.standardOutput.contains("Wrote \(file)"))

        let recording = try #require(try Self.recording(in: file))
        let targets = (recording["searches"] as? [[String: Any]] ?? []).compactMap { $0["st"] as? String }
        let requests =
            (recording["http"] as? [[String: Any]] ?? []).compactMap { exchange -> (String, String)? in
                guard let method = exchange["method"] as? String, let target = exchange["target"] as? String,
                    exchange["soap"] == nil, exchange["readsState"] == nil
                else { return nil }
                return (method, target)
            } + [("GET", "/no-such-file.xml"), ("DELETE", try #require(URL(string: location)?.path))]
        let calls = (recording["http"] as? [[String: Any]] ?? []).compactMap(Self.call)
        #expect(profile == "roku" || !calls.isEmpty, "a UPnP device's read-only actions are recorded")
        let reads = (recording["http"] as? [[String: Any]] ?? []).filter { $0["readsState"] as? Bool == true }
        let readTargets = reads.compactMap { $0["target"] as? String }
        #expect(
            (profile == "roku")
                == ["/query/device-info", "/query/apps", "/query/active-app"].allSatisfy(readTargets.contains),
            "a Roku's ECP reads are recorded: \(readTargets)"
        )
        #expect(targets.contains("ssdp:all") && targets.contains("upnp:rootdevice") && targets.count >= 4)
        // Each evented service's initial event, as the device sent it (the dlna-server profile is MiniDLNA
        // 1.3.0, which never writes one).
        let events = recording["events"] as? [[String: Any]] ?? []
        let eventTargets = events.compactMap { $0["target"] as? String }
        #expect((profile == "igd") == (eventTargets.count == 3), "\(eventTargets)")
        #expect(events.allSatisfy { ($0["notify"] as? String)?.contains("<e:propertyset") == true })
        let before = try await Self.exchanges(at: location, udpPort: port, searches: targets, requests: requests)
        original.kill()

        let (playing, playPort, playStarted) = try await RunningCommand.serveOnLoopback(["--devices", file])
        defer { playing.kill() }
        let playLocation = try #require(
            (playStarted["devices"] as? [[String: Any]])?.first?["location"] as? String
        )
        #expect(playLocation != location, "played on another port, so the origin changes")
        let after = try await Self.exchanges(
            at: playLocation,
            udpPort: playPort,
            searches: targets,
            requests: requests + readTargets.map { ("GET", $0) },
            calls: calls
        )
        let origins = (try Self.origin(of: location), try Self.origin(of: playLocation))
        let normalise = { (text: String) in Self.normalised(text, origins: origins) }
        for target in targets {
            #expect(
                (before.searches[target] ?? []).map(normalise) == (after.searches[target] ?? []).map(normalise),
                "answers to \(target)"
            )
        }
        #expect((before.searches["ssdp:all"] ?? []).count > 3)
        for (method, target) in requests {
            let key = "\(method) \(target)"
            let (was, is_) = (before.http[key] ?? "", after.http[key] ?? "")
            #expect(
                normalise(was) == normalise(is_),
                "\(key)\nrecorded device: \(was.prefix(300))\nplayed: \(is_.prefix(300))"
            )
            #expect(!is_.isEmpty)
        }
        // Each action call played as recorded (against the recording: a live device's uptime has moved on),
        // and journaled so: the profile answering the same would pass the comparison alone.
        for exchange in recording["http"] as? [[String: Any]] ?? [] {
            guard let call = Self.call(exchange), let was = exchange["response"] as? String else { continue }
            let played = after.http[Self.key(call)] ?? ""
            #expect(
                normalise(Self.latin1(was)) == normalise(played),
                "\(Self.key(call))\nrecorded: \(was)\nplayed: \(played)"
            )
        }
        // Each read of its state played as recorded too (a live Roku's uptime has moved on).
        for read in reads {
            guard let target = read["target"] as? String, let was = read["response"] as? String else { continue }
            let played = after.http["GET \(target)"] ?? ""
            #expect(
                normalise(Self.latin1(was)) == normalise(played),
                "GET \(target)\nrecorded: \(was)\nplayed: \(played)"
            )
        }
        let asRecorded = { (line: String) in
            let event = jsonObject(line)
            return event?["event"] as? String == "soap" && event?["recorded"] as? Bool == true
        }
        if !calls.isEmpty {
            _ = try await playing.waitForLine { _ in
                playing.standardOutput.split(separator: "\n").filter { asRecorded(String($0)) }.count >= calls.count
            }
        }
        #expect(playing.standardOutput.split(separator: "\n").filter { asRecorded(String($0)) }.count == calls.count)
        playing.kill()
    }

    /// A recorded action call is answered as recorded (a hand edit of the recorded GetVolume shows that the
    /// answer is the recording's, not the renderer profile's) until a call that changes the device succeeds;
    /// from then on the family's behaviour answers, from the state the change left. The journal says which.
    @Test func aRecordedCallIsAnsweredAsRecordedUntilTheDeviceChanges() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("renderer.json")
        let (original, port, started) = try await RunningCommand.serveOnLoopback(["--profile", "renderer"])
        defer { original.kill() }
        let location = try #require((started["devices"] as? [[String: Any]])?.first?["location"] as? String)
        let recorded = try await CommandRunner.ssdpSim("record", location, "--port", "\(port)", "--output", file.path)
        #expect(recorded.status == 0, "\(recorded.standardOutput)\n\(recorded.standardError)")
        original.kill()

        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        var devices = try #require(json["devices"] as? [[String: Any]])
        var recording = try #require(devices[0]["recording"] as? [String: Any])
        var http = try #require(recording["http"] as? [[String: Any]])
        let index = try #require(http.firstIndex { Self.call($0)?.action.hasSuffix("#GetVolume") == true })
        let getVolume = try #require(Self.call(http[index]))
        let response = try #require(http[index]["response"] as? String)
        http[index]["response"] = response.replacingOccurrences(
            of: #"<CurrentVolume>\d+</CurrentVolume>"#,
            with: "<CurrentVolume>77</CurrentVolume>",
            options: .regularExpression
        )
        recording["http"] = http
        devices[0]["recording"] = recording
        json["devices"] = devices
        try JSONSerialization.data(withJSONObject: json).write(to: file)

        let (playing, playPort, playStarted) = try await RunningCommand.serveOnLoopback(["--devices", file.path])
        defer { playing.kill() }
        let playLocation = try #require((playStarted["devices"] as? [[String: Any]])?.first?["location"] as? String)
        let setVolume = (
            getVolume.path, getVolume.action.replacingOccurrences(of: "#GetVolume", with: "#SetVolume"),
            getVolume.arguments + "&DesiredVolume=30"
        )
        let met = try await Self.exchanges(
            at: playLocation,
            udpPort: playPort,
            searches: [],
            requests: [],
            calls: [getVolume, setVolume, getVolume]
        )
        let key = Self.key(getVolume)
        #expect(met.http[key]?.contains("<CurrentVolume>77</CurrentVolume>") == true, "\(met.http[key] ?? "")")
        #expect(met.http[Self.key(setVolume)]?.hasPrefix("HTTP/1.1 200") == true)
        #expect(met.http[key + " #2"]?.contains("<CurrentVolume>30</CurrentVolume>") == true)
        let soap = { (line: String) in jsonObject(line)?["event"] as? String == "soap" }
        let first = try #require(jsonObject(try await playing.waitForLine(where: soap)))
        #expect(first["action"] as? String == "GetVolume" && first["recorded"] as? Bool == true, "\(first)")
        #expect((first["result"] as? [String: Any])?["CurrentVolume"] as? String == "77")
        _ = try await playing.waitForLine { soap($0) && $0.contains("SetVolume") }
        let last = try #require(
            jsonObject(try await playing.waitForLine { soap($0) && $0.contains("\"30\"") && $0.contains("GetVolume") })
        )
        #expect(last["recorded"] == nil, "\(last)")
    }

    /// `record --call`: a call the user names, one that changes the device, is made last and kept; played
    /// back, the reads recorded before it say the device as it was, the call gets its recorded answer, and
    /// the family goes on from the change. A call naming what the device does not have leaves no file.
    @Test func aCallTheUserNamesIsRecordedLastAndPlayedAsAChange() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("renderer.json").path
        let (original, port, started) = try await RunningCommand.serveOnLoopback(["--profile", "renderer"])
        defer { original.kill() }
        let location = try #require((started["devices"] as? [[String: Any]])?.first?["location"] as? String)
        let record = { (call: String, output: String) in
            try await CommandRunner.ssdpSim("record", location, "--port", "\(port)", "--call", call, "--output", output)
        }
        let refused = try await record("RenderingControl#NoSuchAction", file)
        #expect(refused.status == 1 && !FileManager.default.fileExists(atPath: file), "\(refused.standardError)")
        #expect(
            refused.standardError.contains(
                "--call RenderingControl#NoSuchAction: urn:schemas-upnp-org:service:RenderingControl:1 has no action NoSuchAction (it has "
            ),
            "\(refused.standardError)"
        )
        let unknown = try await record("Lights#SetTarget newTargetValue=1", file)
        #expect(unknown.status == 1, "\(unknown.standardError)")
        #expect(unknown.standardError.contains("has no service Lights with a control URL (it has AVTransport, "))
        let malformed = try await record("SetVolume DesiredVolume=4", file)
        #expect(malformed.status == 64, "\(malformed.standardError)")
        #expect(malformed.standardError.contains("a call is SERVICE#ACTION [NAME=VALUE ...]"))

        // A call the device refuses is kept, as its answer, and said.
        let faulted = try await record("RenderingControl#SetVolume InstanceID=0 Channel=Master", file)
        #expect(faulted.status == 0, "\(faulted.standardError)")
        #expect(
            faulted.standardOutput.contains(
                "--call RenderingControl#SetVolume InstanceID=0 Channel=Master: answered 500 Internal Server Error (UPnP error "
            ),
            "\(faulted.standardOutput)"
        )
        let recorded = try await record("RenderingControl#SetVolume InstanceID=0 Channel=Master DesiredVolume=42", file)
        #expect(recorded.status == 0, "\(recorded.standardOutput)\n\(recorded.standardError)")
        original.kill()
        let http = try #require(try Self.recording(in: file)?["http"] as? [[String: Any]])
        let calls = http.compactMap(Self.call)
        let setVolume = try #require(calls.last, "the named call is the last")
        #expect(setVolume.action.hasSuffix("#SetVolume") && setVolume.arguments.contains("DesiredVolume=42"))
        let getVolume = try #require(calls.first { $0.action.hasSuffix("#GetVolume") })

        let (playing, met) = try await Self.play(file, calls: [getVolume, setVolume, getVolume])
        defer { playing.kill() }
        let before = met.http[Self.key(getVolume)]?.firstMatch(of: /<CurrentVolume>(\d+)</)?.output.1
        #expect(before != nil && before != "42", "the volume recorded before the call: \(met.http)")
        #expect(met.http[Self.key(setVolume)]?.hasPrefix("HTTP/1.1 200") == true)
        #expect(met.http[Self.key(getVolume) + " #2"]?.contains("<CurrentVolume>42</CurrentVolume>") == true)
        let soap = { (line: String) in jsonObject(line)?["event"] as? String == "soap" }
        let set = try #require(jsonObject(try await playing.waitForLine { soap($0) && $0.contains("SetVolume") }))
        #expect(set["recorded"] as? Bool == true, "\(set)")
    }

    /// The recording proxy (`serve --record-from`): a client's calls through the stand-in reach the device
    /// and are kept, a change among them; with the device gone the stand-in answers 502 and loses nothing
    /// already kept; stopped, it writes the file, and played back, the calls are answered in the order they
    /// came, the change included, each as recorded.
    @Test func theRecordingProxyKeepsTheCallsAClientMadeAndPlaysThemInOrder() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("session.json").path
        let (original, port, started) = try await RunningCommand.serveOnLoopback(["--profile", "renderer"])
        defer { original.kill() }
        let location = try #require((started["devices"] as? [[String: Any]])?.first?["location"] as? String)
        let (proxy, proxyPort, proxyStarted) = try await RunningCommand.serveOnLoopback(
            [
                "--addresses", "127.0.0.9-127.0.0.9", "--record-from", location, "--record-port", "\(port)", "--output",
                file,
            ]
        )
        defer { proxy.kill() }
        let standIn = try #require((proxyStarted["devices"] as? [[String: Any]])?.first?["location"] as? String)
        #expect(standIn.hasPrefix("http://127.0.0.9:"), "\(standIn)")
        let path = try #require(URL(string: location)).path
        let control = try await Self.exchanges(at: standIn, udpPort: proxyPort, searches: [], requests: [("GET", path)])
        // The description the stand-in forwards names the stand-in, not the device.
        let description = try #require(control.http["GET \(path)"])
        #expect(description.contains(String(standIn.dropLast(path.count))) && !description.contains(location))
        let volume = "urn:schemas-upnp-org:service:RenderingControl:1"
        let service = try #require(description.range(of: "<serviceType>\(volume)</serviceType>"))
        let url = try #require(description[service.upperBound...].firstMatch(of: /<controlURL>([^<]*)</)?.output.1)
        let volumeControl = url.hasPrefix("/") ? String(url) : "/" + url
        let getVolume = (volumeControl, "\(volume)#GetVolume", "Channel=Master&InstanceID=0")
        let setVolume = (volumeControl, "\(volume)#SetVolume", "Channel=Master&DesiredVolume=31&InstanceID=0")
        let live = try await Self.exchanges(
            at: standIn,
            udpPort: proxyPort,
            searches: [],
            requests: [],
            calls: [getVolume, setVolume, getVolume]
        )
        #expect(live.http[Self.key(getVolume) + " #2"]?.contains("<CurrentVolume>31</CurrentVolume>") == true)
        original.kill()
        _ = await original.wait()
        // With the device gone, a document the recording holds is still served; a call is 502.
        let gone = try await Self.exchanges(
            at: standIn,
            udpPort: proxyPort,
            searches: [],
            requests: [("GET", path)],
            calls: [getVolume]
        )
        #expect(gone.http["GET \(path)"]?.hasPrefix("HTTP/1.1 200") == true, "\(gone.http)")
        #expect(gone.http["GET \(path)"]?.contains(String(standIn.dropLast(path.count))) == true)
        #expect(gone.http[Self.key(getVolume)]?.hasPrefix("HTTP/1.1 502") == true, "\(gone.http)")
        proxy.signal(SIGINT)
        let stopped = await proxy.wait()
        #expect(stopped.status == 0, "\(stopped.standardError)")
        #expect(
            stopped.standardError.contains(
                "(2 got no answer from the device); kept 3 action calls and 0 other requests"
            ),
            "\(stopped.standardError)"
        )

        let (playing, played) = try await Self.play(file, calls: [getVolume, setVolume, getVolume])
        defer { playing.kill() }
        let first = live.http[Self.key(getVolume)].flatMap { $0.firstMatch(of: /<CurrentVolume>\d+</)?.output }
        #expect(first != nil && played.http[Self.key(getVolume)]?.contains(first!) == true, "\(played.http)")
        #expect(played.http[Self.key(getVolume) + " #2"]?.contains("<CurrentVolume>31</CurrentVolume>") == true)
        let soap = { (line: String) in jsonObject(line)?["event"] as? String == "soap" }
        for action in ["GetVolume", "SetVolume", "GetVolume"] {
            let line = try #require(jsonObject(try await playing.waitForLine { soap($0) && $0.contains(action) }))
            #expect(line["recorded"] as? Bool == true, "\(line)")
        }
    }

    /// What `serve --record-from` refuses before it starts, and a device it cannot record.
    @Test(arguments: [
        (["--record-from", "http://127.0.0.1:9/rootDesc.xml"], 64, "--record-from needs --output FILE"),
        (
            ["--output", "x.json"], 64,
            "--output, --anonymize, --record-timeout and --record-port go with --record-from"
        ),
        (["--record-port", "1902"], 64, "go with --record-from"),
        (
            ["--record-from", "http://127.0.0.1:9/", "--output", "x.json", "--profile", "roku"], 64,
            "it takes no --devices, --profile or --count"
        ),
        (["--record-from", "ftp://127.0.0.1/", "--output", "x.json"], 64, "is not an http:// LOCATION with a host"),
        (
            ["--record-from", "http://127.0.0.1:9/rootDesc.xml", "--output", "x.json"], 1,
            "nothing recorded: GET http://127.0.0.1:9/rootDesc.xml (the description): cannot connect to 127.0.0.1:9"
        ),
    ])
    func theRecordingProxyRefusesWhatItCannotDo(arguments: [String], status: Int32, message: String) async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = try await CommandRunner.run(
            CommandRunner.ssdpSim,
            ["serve", "--interface", "lo", "--unicast-only", "--port", "0"]
                + arguments.map { $0 == "x.json" ? directory.appendingPathComponent($0).path : $0 }
        )
        #expect(output.status == status, "\(output.standardError)")
        #expect(output.standardError.contains(message), "\(output.standardError)")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("x.json").path))
    }

    /// `--anonymize`: nothing in the file names the device (its UUID, serial numbers, MACs, address,
    /// name), the same value is replaced the same way in its answers and its documents, and the file plays
    /// as the device did: every target answered, by the device its description describes. A Sonos's room
    /// name goes from its ZoneGroupState and its zone attributes too.
    @Test(arguments: ["igd", "roku", "sonos"])
    func anAnonymizedRecordingNamesNothingOfTheDeviceAndStillPlays(profile: String) async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (plain, anonymous) = (
            directory.appendingPathComponent("plain.json").path, directory.appendingPathComponent("anonymous.json").path
        )
        let (original, port, started) = try await RunningCommand.serveOnLoopback(["--profile", profile, "--seed", "7"])
        defer { original.kill() }
        let location = try #require((started["devices"] as? [[String: Any]])?.first?["location"] as? String)
        let said = try await CommandRunner.ssdpSim("record", location, "--port", "\(port)", "--output", plain)
        #expect(
            said.standardOutput.contains("identifies the device: ")
                && said.standardOutput.contains("(--anonymize replaces them)")
        )
        let recorded = try await CommandRunner.ssdpSim(
            "record",
            location,
            "--port",
            "\(port)",
            "--output",
            anonymous,
            "--anonymize"
        )
        #expect(recorded.status == 0, "\(recorded.standardOutput)\n\(recorded.standardError)")
        #expect(recorded.standardOutput.contains("anonymized: ") && recorded.standardOutput.contains("UUID"))
        // A Roku's Wi-Fi MAC in its WAKEUP header and its device-info is one MAC.
        #expect(profile != "roku" || recorded.standardOutput.contains(" 2 MAC addresses"), "\(recorded.standardOutput)")
        original.kill()

        // What identifies the device, read from the plain recording.
        let text = try String(contentsOfFile: plain, encoding: .utf8)
        let anonymized = try String(contentsOfFile: anonymous, encoding: .utf8)
        // Anywhere: the address, UUIDs, a Roku's serial, MAC and device id; in their elements: names and
        // serial numbers (an IGD's embedded devices are named for their types: "WANDevice").
        var identifying = [try #require(URL(string: location)?.host)]
        for pattern in [
            #"uuid:([0-9a-fA-F-]{36})"#, #"<serial-number>([^<]+)<"#, #"<wifi-mac>([^<]+)<"#, #"<device-id>([^<]+)<"#,
        ] {
            identifying += text.matches(of: try Regex(pattern)).compactMap { $0.output[1].substring.map(String.init) }
        }
        for element in ["friendlyName", "serialNumber"] {
            identifying += text.matches(of: try Regex("(<\(element)>[^<]+<)")).compactMap {
                $0.output[1].substring.map(String.init)
            }
        }
        // A room's name wherever the player says it: in its description, its zone attributes, its group.
        let rooms = text.matches(of: #/<roomName>([^<]+)</#).map { String($0.output.1) }
        #expect(profile != "sonos" || !rooms.isEmpty, "a Sonos has a room")
        for room in rooms {
            #expect(text.contains("ZoneName=\\\"\(room)") || text.contains("ZoneName=&quot;\(room)"), "in its group")
            identifying += [">\(room)<", "ZoneName=&quot;\(room)&quot;"]
        }
        #expect(identifying.count >= (profile == "roku" ? 7 : 5), "\(identifying)")
        for value in Set(identifying) { #expect(!anonymized.contains(value), "\(value) is still in the file") }

        let recording = try #require(try Self.recording(in: anonymous))
        let targets = (recording["searches"] as? [[String: Any]] ?? []).compactMap { $0["st"] as? String }
        let description = try #require(
            (recording["http"] as? [[String: Any]])?.first?["response"] as? String
        )
        let udn = try #require(description.firstMatch(of: #/<UDN>([^<]+)</UDN>/#)?.output.1)
        #expect(description.contains("<friendlyName>Device 1</friendlyName>"))
        let (playing, playPort, playStarted) = try await RunningCommand.serveOnLoopback(["--devices", anonymous])
        defer { playing.kill() }
        let playLocation = try #require(
            (playStarted["devices"] as? [[String: Any]])?.first?["location"] as? String
        )
        let played = try await Self.exchanges(at: playLocation, udpPort: playPort, searches: targets, requests: [])
        for target in targets { #expect(played.searches[target]?.isEmpty == false, "\(target) is answered") }
        // The USN of every answer names the UDN the description gives (a Roku's roku:ecp its serial).
        let usns = (played.searches["upnp:rootdevice"] ?? []).compactMap {
            $0.firstMatch(of: #/(?i)USN: *([^\r\n]+)/#)?.output.1
        }
        #expect(!usns.isEmpty && usns.allSatisfy { $0.hasPrefix(udn) }, "\(usns) of \(udn)")
        playing.kill()
    }

    /// A Roku answers `ssdp:all` at two LOCATIONs (its description at `/`, DIAL's at `/dial/dd.xml`) for one
    /// UDN: recorded by its address it is one device, at the first, and the other is named.
    @Test func aDeviceAtTwoLocationsIsRecordedOnce() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("roku.json").path
        let (original, port, started) = try await RunningCommand.serveOnLoopback(["--profile", "roku"])
        defer { original.kill() }
        let location = try #require((started["devices"] as? [[String: Any]])?.first?["location"] as? String)
        let host = try #require(URL(string: location)?.host)
        let recorded = try await CommandRunner.ssdpSim("record", host, "--port", "\(port)", "--output", file)
        #expect(recorded.status == 0, "\(recorded.standardOutput)\n\(recorded.standardError)")
        #expect(recorded.standardOutput.contains("dial/dd.xml: the same device (uuid:"), "\(recorded.standardOutput)")
        let json =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [String: Any]
        #expect((json?["devices"] as? [[String: Any]])?.count == 1)
        #expect(
            try Self.recording(in: file)?["source"].flatMap { ($0 as? [String: Any])?["location"] as? String }
                == location
        )
    }

    @Test func aDeviceThatDoesNotAnswerLeavesNoFileAndNamesTheURL() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("none.json").path
        let output = try await CommandRunner.ssdpSim("record", "http://127.0.0.1:9/rootDesc.xml", "--output", file)
        #expect(output.status == 1)
        #expect(
            output.standardError.contains(
                "nothing recorded: GET http://127.0.0.1:9/rootDesc.xml (the description): cannot connect to 127.0.0.1:9: Connection refused"
            ),
            "\(output.standardError)"
        )
        #expect(!FileManager.default.fileExists(atPath: file))
        // Waited for, it is looked for again until the wait is over, and the error says so.
        let clock = ContinuousClock()
        let started = clock.now
        let waited = try await CommandRunner.ssdpSim(
            "record",
            "http://127.0.0.1:9/rootDesc.xml",
            "--wait",
            "2",
            "--output",
            file
        )
        #expect(waited.status == 1 && started.duration(to: clock.now) >= .seconds(2))
        #expect(
            waited.standardError.contains("Connection refused (looked for until --wait 2 s was over)"),
            "\(waited.standardError)"
        )
        #expect(!FileManager.default.fileExists(atPath: file))
        let negative = try await CommandRunner.ssdpSim("record", "upnp:rootdevice", "--wait", "-1", "--output", file)
        #expect(negative.status == 64 && negative.standardError.contains("--wait must be 0.1...3600 seconds, got -1.0"))
    }

    /// A description that is not one, a document that hangs, and one far larger than a recording holds.
    @Test(arguments: [
        (["--description-fault", "malformed"], "is not a UPnP device description"),
        (["--scpd-fault", "hang"], "(a document): no whole answer within 1 s"),
    ])
    func aDeviceThatCannotBeReadWholeLeavesNoFile(faults: [String], message: String) async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("broken.json").path
        let (serve, port, started) = try await RunningCommand.serveOnLoopback(["--profile", "igd"] + faults)
        defer { serve.kill() }
        let location = try #require((started["devices"] as? [[String: Any]])?.first?["location"] as? String)
        let output = try await CommandRunner.ssdpSim(
            "record",
            location,
            "--port",
            "\(port)",
            "--timeout",
            "1",
            "--output",
            file
        )
        #expect(output.status == 1, "\(output.standardOutput)\n\(output.standardError)")
        #expect(output.standardError.contains(message), "\(output.standardError)")
        #expect(!FileManager.default.fileExists(atPath: file))
        serve.kill()
    }

    @Test func aDocumentOverTheLimitLeavesNoFile() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("huge.json").path
        let server = try #require(
            Bundle.module.url(forResource: "huge_device", withExtension: "py", subdirectory: "Scripts")
        )
        let device = try RunningCommand(URL(fileURLWithPath: "/usr/bin/python3"), [server.path])
        defer { device.kill() }
        let line = try await device.waitForLine { $0.hasPrefix("http://") }
        let output = try await CommandRunner.ssdpSim("record", line, "--output", file)
        #expect(output.status == 1)
        #expect(output.standardError.contains("bytes, more than the 1048576 read"), "\(output.standardError)")
        #expect(!FileManager.default.fileExists(atPath: file))
    }

    /// Interrupted while it records, `record` and a stand-in (`serve --record-from`) end at once and write
    /// nothing, even as a script's background job, which starts with SIGINT ignored.
    @Test(arguments: [
        "\"$SSDP_SIM\" record $LOCATION --port $PORT --timeout 30 --output $FILE",
        """
        "$SSDP_SIM" serve --interface lo --unicast-only --port 0 --http-port any --addresses 127.0.0.9-127.0.0.9 \
            --record-from $LOCATION --record-port $PORT --record-timeout 30 --output $FILE
        """,
    ])
    func anInterruptedRecordingLeavesNoFile(command: String) async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (serve, port, started) = try await RunningCommand.serveOnLoopback([
            "--profile", "igd", "--scpd-fault", "hang",
        ])
        defer { serve.kill() }
        let location = try #require((started["devices"] as? [[String: Any]])?.first?["location"] as? String)
        let output = try await CommandRunner.run(
            URL(fileURLWithPath: "/bin/bash"),
            ["-c", "\(command) &\nPID=$!\nsleep 2\nkill -INT $PID\nwait $PID\necho \"status=$?\""],
            environment: [
                "SSDP_SIM": CommandRunner.ssdpSim.path, "LOCATION": location, "PORT": "\(port)",
                "FILE": directory.appendingPathComponent("interrupted.json").path,
            ]
        )
        #expect(output.standardOutput.contains("status=130"), "\(output.standardOutput)\n\(output.standardError)")
        #expect(output.standardError.contains("interrupted: nothing written"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty, "no file, no temporary")
        serve.kill()
    }

    // MARK: - Helpers

    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("record-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// The `recording` of the first device in a device file.
    static func recording(in file: String) throws -> [String: Any]? {
        let json =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [String: Any]
        return ((json?["devices"] as? [[String: Any]])?.first)?["recording"] as? [String: Any]
    }

    /// `http://host:port` of a LOCATION.
    static func origin(of location: String) throws -> String {
        let url = try #require(URL(string: location))
        return "http://\(url.host ?? ""):\(url.port ?? 80)"
    }

    /// Dates as `{date}`, the played origin as the recorded one.
    static func normalised(_ text: String, origins: (recorded: String, played: String)) -> String {
        let dated = text.replacingOccurrences(
            of: #"[A-Z][a-z]{2}, \d\d [A-Z][a-z]{2} \d{4} \d\d:\d\d:\d\d GMT"#,
            with: "{date}",
            options: .regularExpression
        )
        return dated.replacingOccurrences(of: origins.played, with: origins.recorded)
    }

    /// A recorded action call (`http[]` with `soap`): its path, action and arguments as exchanges.py takes
    /// them (`NAME=VALUE&…`, in name order); `nil` for another exchange.
    static func call(_ exchange: [String: Any]) -> (path: String, action: String, arguments: String)? {
        guard let soap = exchange["soap"] as? [String: Any], let action = soap["action"] as? String,
            let target = exchange["target"] as? String
        else { return nil }
        let arguments = (soap["arguments"] as? [String: String] ?? [:]).sorted { $0.key < $1.key }
        return (target, action, arguments.map { "\($0.key)=\($0.value)" }.joined(separator: "&"))
    }

    /// `text` as exchanges.py reads bytes: each UTF-8 byte a character of its own (latin-1).
    static func latin1(_ text: String) -> String {
        String(String.UnicodeScalarView(text.utf8.map { Unicode.Scalar($0) }))
    }

    /// The key exchanges.py gives the answer to `call`.
    static func key(_ call: (path: String, action: String, arguments: String)) -> String {
        "POST \(call.path) \(call.action) \(call.arguments)"
    }

    struct Exchanges {
        var searches: [String: [String]]
        var http: [String: String]
    }

    /// What `Scripts/exchanges.py` meets at the device at `location`.
    /// Serves the device file at `file` on loopback and makes `calls` of its device, in order: the running
    /// serve (its journal) and what the device answered.
    static func play(
        _ file: String,
        calls: [(path: String, action: String, arguments: String)]
    ) async throws -> (RunningCommand, Exchanges) {
        let (playing, port, started) = try await RunningCommand.serveOnLoopback(["--devices", file])
        do {
            let location = try #require((started["devices"] as? [[String: Any]])?.first?["location"] as? String)
            return (playing, try await exchanges(at: location, udpPort: port, searches: [], requests: [], calls: calls))
        } catch {
            playing.kill()
            throw error
        }
    }

    static func exchanges(
        at location: String,
        udpPort: Int,
        searches: [String],
        requests: [(String, String)],
        calls: [(path: String, action: String, arguments: String)] = []
    ) async throws -> Exchanges {
        let script = try #require(
            Bundle.module.url(forResource: "exchanges", withExtension: "py", subdirectory: "Scripts")
        )
        let url = try #require(URL(string: location))
        let output = try await CommandRunner.run(
            URL(fileURLWithPath: "/usr/bin/python3"),
            [script.path, url.host ?? "", "\(url.port ?? 80)", "\(udpPort)"]
                + searches.flatMap { ["--search", $0] } + requests.flatMap { ["--http", $0.0, $0.1] }
                + calls.flatMap { ["--soap", $0.path, $0.action, $0.arguments] }
        )
        #expect(output.status == 0, "\(output.standardError)")
        let json = try #require(jsonObject(output.standardOutput))
        return Exchanges(
            searches: json["searches"] as? [String: [String]] ?? [:],
            http: json["http"] as? [String: String] ?? [:]
        )
    }
}

/// `record --listen`: a device's NOTIFY set heard on the group while it is recorded, and played back as the
/// device sent it, heard by a plain-socket listener: lines, spelling, copies, TTL, a port of its own.
@Suite(.enabled(if: PrivateNamespace.isAvailable, "needs root and unshare -n to create a private network namespace"))
struct RecordedNotifyTests {
    /// Runs `script` in a private network namespace whose loopback carries multicast, with `set -e`, its
    /// jobs stopped at the end, `without_profile FILE` defined, and SSDP_SIM, LISTENER (notify_listener.py)
    /// and DIR (`directory`) set.
    static func inNamespace(_ script: String, directory: URL) async throws -> CommandRunner.Output {
        let listener = try #require(
            Bundle.module.url(forResource: "notify_listener", withExtension: "py", subdirectory: "Scripts")
        )
        let preamble = """
            set -e
            trap 'kill $(jobs -p) 2>/dev/null || true' EXIT
            ip link set lo up; ip link set lo multicast on; ip route add 239.0.0.0/8 dev lo src 127.0.0.1
            without_profile() {  # a recording whose family is dropped: only what it recorded says how it sends
                /usr/bin/python3 -c 'import json, sys; path = sys.argv[1]; file = json.load(open(path)); file["devices"][0].pop("profile", None); json.dump(file, open(path, "w"))' "$1"
            }

            """
        return try await CommandRunner.run(
            URL(fileURLWithPath: "/usr/bin/unshare"),
            ["-n", "bash", "-c", preamble + script],
            environment: ["LISTENER": listener.path, "SSDP_SIM": CommandRunner.ssdpSim.path, "DIR": directory.path],
            timeout: .seconds(60)
        )
    }

    @Test func aRecordedDeviceSendsItsNOTIFYsAsTheDeviceDid() async throws {
        let directory = try RecordTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // The device: the renderer profile (libupnp's NOTIFY lines) at an address of its own, so that its
        // NOTIFYs leave from a port of their own, with TTL 5, a set every 1.3-2 s. Its recording loses the
        // profile, so that only the recorded NOTIFYs can say how the played device writes its own.
        let script = """
            serve() {
                out=$(mktemp)
                "$SSDP_SIM" serve --interface lo "$@" --json > "$out" 2>&1 &
                SERVE=$!
                for _ in $(seq 200); do grep -q '"started"' "$out" && break; sleep 0.1; done
            }
            listen() {
                /usr/bin/python3 "$LISTENER" 4 | sed "s/^/$1: /" &
                LISTENING=$!
            }
            serve --profile renderer --addresses 127.0.0.5-127.0.0.5 --max-age 4 --ttl 5
            listen original
            "$SSDP_SIM" record upnp:rootdevice --pick 1 --listen 3 --output "$DIR/recording.json" | sed 's/^/record: /'
            wait $LISTENING
            kill -INT $SERVE; wait $SERVE || true
            without_profile "$DIR/recording.json"
            serve --devices "$DIR/recording.json"
            listen played
            wait $LISTENING
            kill -INT $SERVE; wait $SERVE || true
            """
        let output = try await Self.inNamespace(script, directory: directory)
        #expect(output.status == 0, "\(output.standardOutput)\(output.standardError)")
        #expect(output.standardOutput.contains(" NOTIFYs (profile renderer)"), "\(output.standardOutput)")
        let recording = try #require(
            try RecordTests.recording(in: directory.appendingPathComponent("recording.json").path)
        )
        let notifications = try #require(recording["notifications"] as? [[String: Any]])
        #expect(!notifications.isEmpty)
        #expect(notifications.allSatisfy { $0["ttl"] as? Int == 5 && ($0["sourcePort"] as? Int ?? 1900) != 1900 })

        // Each side's alive for upnp:rootdevice, its LOCATION's host put aside.
        let heard = { (side: String) -> [[String: Any]] in
            output.standardOutput.split(separator: "\n").filter { $0.hasPrefix("\(side): {") }.compactMap {
                jsonObject(String($0.dropFirst("\(side): ".count)))
            }
        }
        let rootAlive = { (heard: [[String: Any]]) -> [[String: Any]] in
            heard.filter {
                let text = $0["text"] as? String ?? ""
                return text.contains("\r\nNT: upnp:rootdevice\r\n") && text.contains("ssdp:alive")
            }
        }
        let original = rootAlive(heard("original"))
        let played = rootAlive(heard("played"))
        let first = try #require(original.first, "the original's alive: \(output.standardOutput)")
        let playedFirst = try #require(played.first, "the played device's alive: \(output.standardOutput)")
        let lines = { (heard: [String: Any]) in
            (heard["text"] as? String ?? "").replacing(/127\.0\.0\.[0-9]+/, with: "HOST")
        }
        #expect(lines(playedFirst) == lines(first))
        #expect(playedFirst["ttl"] as? Int == 5, "the device's TTL, not the simulator's 2")
        #expect((playedFirst["sourcePort"] as? Int).map { $0 != 1900 } == true, "a port of its own")
        // The set as many times a round as the device sent it (2): the most alives of upnp:rootdevice heard
        // within a second.
        let copies = { (heard: [[String: Any]]) -> Int in
            let times = heard.compactMap { $0["at"] as? Double }
            return times.map { first in times.filter { $0 >= first && $0 - first < 1 }.count }.max() ?? 0
        }
        #expect(copies(original) == 2 && copies(played) == 2, "\(original.count) and \(played.count) alives")
    }

    /// `record --pick 2 --wait` waits for a second device when only one has started.
    @Test func aWaitForTheNthDeviceLastsUntilItIsFound() async throws {
        let directory = try RecordTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = """
            "$SSDP_SIM" record upnp:rootdevice --pick 2 --wait 20 --output "$DIR/second.json" > "$DIR/record.out" 2>&1 &
            RECORD=$!
            "$SSDP_SIM" serve --interface lo --profile igd --addresses 127.0.0.5-127.0.0.5 > /dev/null 2>&1 &
            sleep 4
            "$SSDP_SIM" serve --interface lo --profile roku --addresses 127.0.0.6-127.0.0.6 > /dev/null 2>&1 &
            wait $RECORD || { cat "$DIR/record.out"; exit 1; }
            cat "$DIR/record.out"
            """
        let output = try await Self.inNamespace(script, directory: directory)
        #expect(output.status == 0, "\(output.standardOutput)\(output.standardError)")
        #expect(
            output.standardOutput.contains("roku-com:device:player:1-0 at http://127.0.0.6:"),
            "\(output.standardOutput)"
        )
    }

    /// `record --wait` started before the device: what it says as it starts (MiniDLNA's byebye sets before
    /// its first alive) and as it stops is heard, and answers drawn within the MX are seen to be; played
    /// back without its profile, the device says byebye at start as heard.
    @Test func aDeviceRecordedFromItsStartToItsStopIsPlayedSayingByebyeAsItDid() async throws {
        let directory = try RecordTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = """
            "$SSDP_SIM" record upnp:rootdevice --pick 1 --wait 20 --listen 20 --output "$DIR/recording.json" \\
                > "$DIR/record.out" 2>&1 &
            RECORD=$!
            sleep 1
            "$SSDP_SIM" serve --interface lo --profile dlna-server --addresses 127.0.0.5-127.0.0.5 --delay uniform \\
                > "$DIR/serve.out" 2>&1 &
            SERVE=$!
            for _ in $(seq 300); do grep -q '^Recorded; listening' "$DIR/record.out" && break; sleep 0.1; done
            kill -INT $SERVE; wait $SERVE || true
            wait $RECORD || { cat "$DIR/record.out"; exit 1; }
            sed 's/^/record: /' "$DIR/record.out"
            without_profile "$DIR/recording.json"
            /usr/bin/python3 "$LISTENER" 3 | sed "s/^/played: /" &
            LISTENING=$!
            sleep 0.5
            "$SSDP_SIM" serve --interface lo --devices "$DIR/recording.json" > "$DIR/serve.out" 2>&1 &
            SERVE=$!
            wait $LISTENING
            kill -INT $SERVE; wait $SERVE || true
            """
        let output = try await Self.inNamespace(script, directory: directory)
        #expect(output.status == 0, "\(output.standardOutput)\(output.standardError)")
        #expect(
            output.standardOutput.contains("answers each at a delay drawn within the MX"),
            "\(output.standardOutput)"
        )
        let recording = try #require(
            try RecordTests.recording(in: directory.appendingPathComponent("recording.json").path)
        )
        #expect(recording["answerDelays"] as? String == "within-mx")
        let kinds = (recording["notifications"] as? [[String: Any]] ?? []).map {
            ($0["datagram"] as? String ?? "").contains("NTS:ssdp:byebye") ? "byebye" : "alive"
        }
        let firstAlive = try #require(kinds.firstIndex(of: "alive"), "\(kinds)")
        #expect(firstAlive > 0 && kinds[firstAlive...].contains("byebye"), "heard at its start and stop: \(kinds)")
        // Played: the byebye sets as MiniDLNA sent them at start (twice), then the first alive. (It records for
        // 12 s: MiniDLNA sends no initial event, and each subscription waits for one.)
        let played = output.standardOutput.split(separator: "\n").filter { $0.hasPrefix("played: {") }.compactMap {
            jsonObject(String($0.dropFirst("played: ".count)))?["nts"] as? String
        }
        let playedFirstAlive = try #require(played.firstIndex(of: "ssdp:alive"), "\(played)")
        #expect(playedFirstAlive == firstAlive && played.count > firstAlive, "\(played)")
    }
}
