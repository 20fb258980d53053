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
import SSDPHarness
import SSDPSimulator
import Testing

/// Bad scenario files are rejected before anything runs, naming the file, the JSON path and the reason.
@Suite struct ScenarioFileTests {
    /// A valid scenario with `field` replaced (or added) at the top level.
    static func scenario(search: String = #"{"target": "upnp:rootdevice"}"#, extra: String = "") -> String {
        let expect = extra.contains(#""expect""#) ? "" : #", "expect": {"found": {"count": 2}}"#
        return """
            { "name": "x", "description": "d", "seed": 1, "search": \(search),
              "devices": [{"count": 2}]\(expect)\(extra) }
            """
    }

    static let invalid: [(json: String, path: String, reason: String)] = [
        ("{", "$", "not valid JSON"),
        (#"{"name": "x"}"#, "$.description", "required field is missing"),
        (scenario(extra: #", "colour": "red""#), "$.colour", "unknown field"),
        (scenario(search: #"{"target": "upnp:rootdevice", "mx": 9}"#), "$.search.mx", "MX must be 1...5"),
        (scenario(search: #"{"target": "upnp:rootdevice", "mx": "3"}"#), "$.search.mx", "expected a whole number"),
        (scenario(search: #"{"target": "upnp:rootdevice", "requests": -1}"#), "$.search.requests", "must be 0...100"),
        (scenario(search: #"{"target": "upnp:rootdevice", "requests": 500}"#), "$.search.requests", "must be 0...100"),
        (scenario(search: #"{"target": ""}"#), "$.search.target", "must be one non-empty line"),
        (
            scenario(search: #"{"target": "ssdp:all", "mode": "broadcast"}"#), "$.search.mode",
            "must be one of multicast, unicast"
        ),
        (
            scenario(search: #"{"target": "ssdp:all", "mode": "unicast", "device": 3}"#), "$.search.device",
            "there are devices 1...2"
        ),
        (scenario(search: #"{"target": "ssdp:all", "device": 1}"#), "$.search.device", "only a unicast search"),
        (scenario(search: #"{"target": "ssdp:all", "wait": 1}"#), "$.search.wait", "unknown field"),
        (scenario(extra: #", "tags": ["fast"]"#), "$.tags[0]", "unknown tag"),
        (
            scenario(extra: #", "events": [{"at": 1, "action": "explode", "device": 1}]"#), "$.events[0].action",
            "must be one of byebye, reboot"
        ),
        (
            scenario(extra: #", "events": [{"at": 1, "action": "byebye", "device": 7}]"#), "$.events[0].device",
            "there are devices 1...2"
        ),
        (
            scenario(extra: #", "events": [{"at": -1, "action": "byebye", "device": 1}]"#), "$.events[0].at",
            "must be 0...3600 seconds"
        ),
        (
            scenario(extra: #", "events": [{"at": 1, "action": "byebye", "device": 1, "downFor": 2}]"#),
            "$.events[0].downFor", "only a reboot"
        ),
        (scenario(extra: #", "network": {"loss": 1.5}"#), "$.network.loss", "a probability must be 0...1"),
        (
            scenario(extra: #", "network": {"latency": {"min": 0.5, "max": 0.1}}"#), "$.network.latency",
            "min must not be above max"
        ),
        (
            scenario(extra: #", "network": {"latency": {"min": 0.1}}"#), "$.network.latency.max",
            "required field is missing"
        ),
        (scenario(extra: #", "expect": {"dropped": {"late": 1}}"#), "$.expect.dropped.late", "unknown drop reason"),
        (
            scenario(extra: #", "expect": {"found": {"count": {"min": 3, "max": 1}}}"#), "$.expect.found.count",
            "min must not be above max"
        ),
        (scenario(extra: #", "expect": {"found": {}}"#), "$.expect.found", "give services, including, count"),
        (
            scenario(extra: #", "expect": {"searches": {"sent": 3}}"#), "$.expect.found",
            "required: say what the search must find"
        ),
        (
            #"{"name": "x", "description": "d", "seed": 1, "search": {"target": "ssdp:all"}, "devices": [{}]}"#,
            "$.expect.found", "required"
        ),
        (scenario(extra: #", "expect": {"found": {"count": 2}, "error": " "}"#), "$.expect.error", "must not be empty"),
        (
            scenario(extra: #", "expect": {"stop": {"reason": "bored"}}"#), "$.expect.stop.reason",
            "must be one of timedOut"
        ),
        // A reason a run records, but not one a search a scenario describes can end with.
        (
            scenario(extra: #", "expect": {"stop": {"reason": "exited"}}"#), "$.expect.stop.reason",
            "\"exited\": must be one of timedOut, noSearchRequests"
        ),
        (
            scenario(extra: #", "network": {"answerLoss": {"probability": 0.5, "times": 0}}"#),
            "$.network.answerLoss.times", "must be 1 or more"
        ),
        (scenario(extra: #", "network": {"loss": {"probability": 2}}"#), "$.network.loss.probability", "0...1"),
        (scenario(extra: #", "network": {"lost": 0.1}"#), "$.network.lost", "unknown field"),
        (
            scenario(extra: #", "events": [{"at": 1, "action": "network", "device": 1, "network": {}}]"#),
            "$.events[0].device", "a network event is about no device"
        ),
        (
            scenario(extra: #", "events": [{"at": 1, "action": "network"}]"#), "$.events[0].network",
            "required field is missing"
        ),
        (
            scenario(extra: #", "events": [{"at": 1, "action": "change", "device": 1}]"#), "$.events[0].set",
            "required field is missing"
        ),
        (
            scenario(extra: #", "events": [{"at": 1, "action": "vanish", "device": 1, "set": {}}]"#),
            "$.events[0].set", "only a change sets fields"
        ),
        (
            scenario(
                extra:
                    #", "events": [{"at": 1, "action": "change", "device": 1, "set": {"behaviour": {"searchLoss": 2}}}]"#
            ),
            "$.events[0].set.behaviour.searchLoss", "a probability must be 0...1"
        ),
        (
            scenario(extra: #", "events": [{"at": 1, "action": "network", "network": {"loss": {"times": 0}}}]"#),
            "$.events[0].network.loss.times", "must be 1 or more"
        ),
        (
            #"{"name": "x", "description": "d", "seed": 1, "search": {"target": "ssdp:all"}, "devices": [{"behaviour": {"delay": "soon"}}]}"#,
            "$.devices[0].behaviour.delay", "expected uniform, immediate"
        ),
        (
            #"{"name": "x", "description": "d", "seed": 1, "search": {"target": "ssdp:all"}, "devices": [{"profile": "toaster"}]}"#,
            "$.devices[0].profile", "no such profile"
        ),
        (
            #"{"name": "a b", "description": "d", "seed": 1, "search": {"target": "ssdp:all"}, "devices": [{}]}"#,
            "$.name", "use letters"
        ),
        (
            #"{"name": "x", "description": "d", "seed": 1, "search": {"target": "ssdp:all"}, "devices": []}"#,
            "$.devices", "at least one device"
        ),
        (
            #"{"name": "x", "description": "d", "seed": 1, "search": {"target": "ssdp:all"}, "devices": [{"count": 6000}, {"count": 6000}], "expect": {"found": {"count": 12000}}}"#,
            "$.devices", "12000 devices: a scenario may have at most 10000"
        ),
        (
            replaying(#"{"searches": 1, "answers": [{"search": 1, "delay": 0, "datagram": "x", "base64": "eA=="}]}"#),
            "$.devices[0].replay.answers[0]", "give the datagram or its base64, one of them"
        ),
        (
            replaying(#"{"searches": 1, "answers": [{"search": 2, "delay": 0, "datagram": "x"}]}"#),
            "$.devices[0].replay.answers[0].search", "must be 1...1 (searches)"
        ),
        (
            replaying(#"{"searches": 1, "answers": [{"search": 1, "delay": 0, "base64": "not base64!"}]}"#),
            "$.devices[0].replay.answers[0].base64", "not base64"
        ),
        (
            replaying(#"{"searches": 1, "answers": [{"search": 1, "delay": -0.5, "datagram": "x"}]}"#),
            "$.devices[0].replay.answers[0].delay", "must be 0...3600 seconds"
        ),
        (
            replaying(#"{"searches": 1, "answers": []}, "count": 2"#), "$.devices[0].count",
            "a replay is one captured device: count 1"
        ),
        (
            scenario(extra: #", "provenance": {"capture": "x.pcap"}"#), "$.provenance.format",
            "required field is missing"
        ),
    ]

    /// A scenario whose one device replays `replay` (what follows the replay object goes into the device).
    static func replaying(_ replay: String) -> String {
        #"{"name": "x", "description": "d", "seed": 1, "search": {"target": "ssdp:all"}, "devices": [{"replay": "#
            + replay + #"}], "expect": {"found": {"count": 1}}}"#
    }

    @Test(arguments: invalid)
    func rejectsNamingFilePathAndReason(json: String, path: String, reason: String) {
        #expect {
            _ = try ScenarioFile.decode(Data(json.utf8), file: "bad.json")
        } throws: { error in
            guard let error = error as? SimulatorInputError else { return false }
            let matches = error.file == "bad.json" && error.path == path && error.reason.contains(reason)
            if !matches { Issue.record("got \(error)") }
            return matches
        }
    }

    /// Loader rules a JSON Schema cannot state (one value against another, against the device count, the
    /// profile catalogue, names across files): the loader alone rejects these files.
    static let beyondTheSchema: Set<String> = [
        "$.search.device: there are devices 1...2",
        "$.events[0].device: there are devices 1...2",
        "$.network.latency: min must not be above max",
        "$.expect.found.count: min must not be above max",
        "$.devices: 12000 devices: a scenario may have at most 10000",
        "$.devices[0].replay.answers[0].search: must be 1...1 (searches)",
        "$.devices[0].replay.answers[0].base64: not base64",
        "$.devices[0].count: a replay is one captured device: count 1",
    ]

    /// The loader and `Scenarios/scenario.schema.json` say the same thing: jsonschema (draft 2020-12) finds
    /// every shipped scenario valid, and every file the loader rejects invalid, but for the rules above.
    @Test func theSchemaAcceptsEveryShippedScenarioAndRejectsWhatTheLoaderRejects() throws {
        guard let python = SchemaCheck.python() else { return }
        let shipped = try FileManager.default.contentsOfDirectory(atPath: HarnessFixtures.scenariosDirectory)
            .filter { $0.hasSuffix(".json") && $0 != "scenario.schema.json" }.sorted()
        let documents = try shipped.map { name in
            let data = try Data(
                contentsOf: URL(fileURLWithPath: HarnessFixtures.scenariosDirectory).appendingPathComponent(name)
            )
            let object = try JSONSerialization.jsonObject(with: data)
            return String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
        }
        let invalid = Self.invalid.filter { $0.json != "{" }
        let verdicts = try SchemaCheck.run(
            python,
            documents + invalid.map { $0.json.replacingOccurrences(of: "\n", with: " ") }
        )
        #expect(verdicts.count == documents.count + invalid.count)
        for (name, verdict) in zip(shipped, verdicts) {
            #expect(verdict == "valid", "Scenarios/\(name): \(verdict)")
        }
        for (file, verdict) in zip(invalid, verdicts.dropFirst(documents.count)) {
            let rule = "\(file.path): \(file.reason)"
            if Self.beyondTheSchema.contains(rule) {
                #expect(verdict == "valid", "the schema states \(rule) after all: take it off the list")
            } else {
                #expect(verdict.hasPrefix("invalid"), "the loader rejects \(rule), the schema does not")
            }
        }
    }

    @Test func readsEveryFieldWithDefaults() throws {
        let scenario = try HarnessFixtures.scenario(
            """
            { "name": "full", "description": "everything", "seed": 42,
              "search": {"target": "ssdp:all", "mx": 2, "requests": 4, "mode": "unicast", "device": 2},
              "devices": [{"count": 2}, {"udn": "uuid:x"}],
              "events": [{"at": 3.5, "action": "reboot", "device": 3, "downFor": 1.25}, {"at": 1, "action": "byebye", "device": 1}],
              "network": {"latency": {"min": 0.01, "max": 0.05}, "loss": 0.1, "duplicate": 0.2, "reorder": 0.3, "reorderDelay": 0.2},
              "expect": {"found": {"count": {"min": 2}}, "stop": {"tolerance": 0.5}, "searches": {"sent": 4},
                         "dropped": {"duplicates": 3}, "error": "socket"} }
            """
        )
        #expect(scenario.devices.count == 3)
        #expect(
            scenario.search == SearchSpecification(target: "ssdp:all", mx: 2, requests: 4, mode: .unicast, device: 2)
        )
        #expect(scenario.events.map(\.at) == [.seconds(1), .milliseconds(3_500)])  // sorted by time
        #expect(scenario.events[1].downFor == .milliseconds(1_250))
        #expect(scenario.network.latency == .milliseconds(10) ... .milliseconds(50))
        #expect(scenario.network.reorderDelay == .milliseconds(200))
        #expect(scenario.expect.found?.count == CountExpectation(2...Int.max))
        #expect(scenario.expect.dropped[.duplicates] == CountExpectation(3...3))
        #expect(scenario.expect.searchesSent == 4)
        #expect(scenario.expect.stopTolerance == .milliseconds(500))
        #expect(scenario.expect.error == "socket")

        let minimal = try HarnessFixtures.scenario(
            #"{"name": "m", "description": "d", "seed": 1, "search": {"target": "upnp:rootdevice"}, "devices": [{}], "expect": {"found": {"services": []}}}"#
        )
        #expect(
            minimal.search
                == SearchSpecification(target: "upnp:rootdevice", mx: 3, requests: 3, mode: .multicast, device: 1)
        )
        #expect(minimal.network.isClean)
        #expect(minimal.expect.found == FoundExpectation(services: [], count: nil))
        #expect(minimal.expect.error == nil && minimal.expect.dropped.isEmpty && minimal.expect.http == nil)
    }

    @Test func aDirectoryGivesItsScenarioFilesInNameOrderAndNamesMustBeUnique() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("scenarios-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let body = { (name: String) in
            #"{"name": "\#(name)", "description": "d", "seed": 1, "search": {"target": "ssdp:all"}, "devices": [{}], "expect": {"found": {"count": 4}}}"#
        }
        try body("second").write(to: directory.appendingPathComponent("b.json"), atomically: true, encoding: .utf8)
        try body("first").write(to: directory.appendingPathComponent("a.json"), atomically: true, encoding: .utf8)
        try "{}".write(to: directory.appendingPathComponent("scenario.schema.json"), atomically: true, encoding: .utf8)
        try "notes".write(to: directory.appendingPathComponent("README.md"), atomically: true, encoding: .utf8)

        #expect(try ScenarioFile.loadAll([directory.path]).map(\.name) == ["first", "second"])

        try body("first").write(to: directory.appendingPathComponent("c.json"), atomically: true, encoding: .utf8)
        #expect {
            try ScenarioFile.loadAll([directory.path])
        } throws: { error in
            let error = error as? SimulatorInputError
            return error?.file.hasSuffix("c.json") == true && error?.path == "$.name"
                && error?.reason.contains("a.json") == true
        }
        #expect(throws: SimulatorInputError(file: "/no/such/dir", path: "$", reason: "no such file or directory")) {
            try ScenarioFile.loadAll(["/no/such/dir"])
        }
    }

    @Test func everyShippedScenarioLoads() throws {
        let scenarios = try HarnessFixtures.shippedScenarios()
        #expect(scenarios.count >= 15)
        for scenario in scenarios {
            #expect(!scenario.description.isEmpty, "\(scenario.file)")
        }
    }
    // MARK: - An expectations file on its own (`ssdp-sim search --expect`)

    private func expectations(_ json: String) throws -> Expectations {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("expect-\(UUID()).json")
        try Data(json.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        return try ScenarioFile.loadExpectations(path: file.path)
    }

    @Test func anExpectationsFileReadsTheFieldsASearchCanObserve() throws {
        let expectations = try expectations(
            #"""
            {"found": {"including": [{"usn": "uuid:a::upnp:rootdevice", "st": "upnp:rootdevice"}], "count": {"min": 1}},
             "dropped": {"unparseable": 0}, "stop": {"reason": "timedOut"}}
            """#
        )
        #expect(expectations.found?.including == [.init(usn: "uuid:a::upnp:rootdevice", st: "upnp:rootdevice")])
        #expect(expectations.found?.services == nil)
        #expect(expectations.found?.count == CountExpectation(1...Int.max))
        #expect(expectations.dropped == [.unparseable: CountExpectation(0...0)])
        #expect(expectations.stopReason == .timedOut)
    }

    @Test(arguments: [
        (#"{"searches": {"sent": 3}}"#, "$.searches", "counted on the devices' side"),
        (#"{"stop": {"tolerance": 1}}"#, "$.stop.tolerance", "cannot check this"),
        (#"{"http": {"locationFetches": 1}}"#, "$.http", "ssdp-sim run --client"),
        (#"{"found": {"inluding": []}}"#, "$.found.inluding", "unknown field"),
        (#"{"found": {}}"#, "$.found", "give services, including, count"),
        (#"{"dropped": {"lost": 0}}"#, "$.dropped.lost", "unknown drop reason"),
        (#"{"error": " "}"#, "$.error", "must not be empty"),
        (#"[1]"#, "$", "expected"),
    ])
    func anExpectationsFileIsRefusedNamingPathAndReason(json: String, path: String, reason: String) {
        #expect {
            _ = try expectations(json)
        } throws: { error in
            guard let error = error as? SimulatorInputError else { return false }
            let matches = error.file.hasSuffix(".json") && error.path == path && error.reason.contains(reason)
            if !matches { Issue.record("got \(error.path): \(error.reason)") }
            return matches
        }
    }
}

/// Runs `Clients/schema_check.py` with jsonschema from `$SSDP_SIM_INTEROP_PYTHONPATH` (`scripts/install-interop`
/// installs it). Without it the test skips with a note, except in CI (`SSDP_SIM_REQUIRE_INTEROP=1`), where
/// it fails.
enum SchemaCheck {
    static let pythonPath = ProcessInfo.processInfo.environment["SSDP_SIM_INTEROP_PYTHONPATH"] ?? ""

    /// The interpreter, when jsonschema imports.
    static func python() -> String? {
        let python = "/usr/bin/python3"
        if let output = try? execute(python, ["-c", "import jsonschema"], input: ""), output.status == 0 {
            return python
        }
        if ProcessInfo.processInfo.environment["SSDP_SIM_REQUIRE_INTEROP"] == "1" {
            Issue.record("jsonschema is not installed: run scripts/install-interop")
        } else {
            print("note: skipping the schema check, jsonschema is not installed (scripts/install-interop)")
        }
        return nil
    }

    /// One verdict per document: "valid", "invalid: PATH: MESSAGE" or "not json".
    static func run(_ python: String, _ documents: [String]) throws -> [String] {
        let script = try HarnessFixtures.client("schema_check.py")
        let schema = HarnessFixtures.scenariosDirectory + "/scenario.schema.json"
        let output = try execute(python, [script, schema], input: documents.joined(separator: "\n") + "\n")
        #expect(output.status == 0, "\(output.errors)")
        return output.text.split(separator: "\n").map(String.init)
    }

    private static func execute(
        _ executable: String,
        _ arguments: [String],
        input: String
    ) throws -> (status: Int32, text: String, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(["PYTHONPATH": pythonPath]) { $1 }
        let (standardInput, standardOutput, standardError) = (Pipe(), Pipe(), Pipe())
        process.standardInput = standardInput
        process.standardOutput = standardOutput
        process.standardError = standardError
        try process.runWithNoSignalBlocked()
        standardInput.fileHandleForWriting.write(Data(input.utf8))
        try standardInput.fileHandleForWriting.close()
        let text = standardOutput.fileHandleForReading.readDataToEndOfFile()
        let errors = standardError.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (
            process.terminationStatus, String(decoding: text, as: UTF8.self), String(decoding: errors, as: UTF8.self)
        )
    }
}
