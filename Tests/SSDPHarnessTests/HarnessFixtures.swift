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
import SSDPHarness
import Testing

extension Tag {
    /// Tests that use real sockets (loopback only).
    @Tag static var live: Self
}

enum HarnessFixtures {
    /// The repository's root, found from this file's path.
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let scenariosDirectory = repositoryRoot.appendingPathComponent("Scenarios").path

    /// Every scenario in `Scenarios/`.
    static func shippedScenarios() throws -> [Scenario] {
        try ScenarioFile.loadAll([scenariosDirectory])
    }

    /// A scenario from JSON text; the file is called `test.json` in errors.
    static func scenario(_ json: String) throws -> Scenario {
        try ScenarioFile.decode(Data(json.utf8), file: "test.json")
    }

    /// Two devices that each answer twice, and one that answers every search with its own targets.
    static let chattyPair = """
        { "name": "pair", "description": "two honest devices and a chatty one", "seed": 5, "tags": ["live"],
          "search": {"target": "upnp:rootdevice", "mx": 1, "requests": 3},
          "devices": [
            {"udn": "uuid:11111111-0000-4000-8000-000000000001", "behaviour": {"duplicates": 2}},
            {"udn": "uuid:11111111-0000-4000-8000-000000000002", "behaviour": {"duplicates": 2}},
            {"udn": "uuid:11111111-0000-4000-8000-000000000003", "behaviour": {"chatty": ["wrong-target"]}}
          ],
          "expect": {"found": {"services": [
            {"usn": "uuid:11111111-0000-4000-8000-000000000001::upnp:rootdevice", "st": "upnp:rootdevice"},
            {"usn": "uuid:11111111-0000-4000-8000-000000000002::upnp:rootdevice", "st": "upnp:rootdevice"}
          ]}}
        }
        """

    /// The path of a test client script.
    static func client(_ name: String) throws -> String {
        try #require(Bundle.module.url(forResource: "Clients/\(name)", withExtension: nil)).path
    }
}
