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

import SSDPCore
import Testing

/// The captured-datagram corpus of `Fixtures/`: every datagram parses into what its manifest entry says, and
/// every message survives a trip through the serializer.
@Suite struct CorpusTests {
    @Test(arguments: try CorpusFixture.all())
    func parsesEachFixtureAsExpected(_ fixture: CorpusFixture) throws {
        let bytes = try fixture.bytes()
        switch fixture.expected {
        case .message(let kind, let diagnostics, let headers):
            let parsed = try SSDPParser.parse(bytes)
            #expect(parsed.message.kind == kind)
            #expect(parsed.diagnostics.map(\.description) == diagnostics)
            for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
                #expect(parsed.message.headers[name] == value, "header \(name)")
            }
        case .error(let code, let line):
            let error = #expect(throws: SSDPParseError.self) { try SSDPParser.parse(bytes) }
            #expect(error?.code.description == code)
            #expect(error?.line == line)
        }
    }

    @Test(arguments: try CorpusFixture.all().filter(\.isMessage))
    func roundTripsEachMessageThroughTheSerializer(_ fixture: CorpusFixture) throws {
        let parsed = try SSDPParser.parse(fixture.bytes())
        #expect(parsed.message.hasOnlyRoundTrippableFields)
        let reparsed = try SSDPParser.parse(parsed.message.serialized())
        #expect(reparsed.message == parsed.message)
        #expect(reparsed.diagnostics == parsed.diagnosticsSurvivingSerialization)
        #expect(!reparsed.diagnostics.contains { $0.isAboutWireFormat })
    }

    @Test func holdsAtLeastFortyGoodAndMalformedDatagramsOfEveryKind() throws {
        let fixtures = try CorpusFixture.all()
        #expect(fixtures.count >= 40)
        var clean = 0
        var quirky = 0
        var rejected = 0
        var kinds: Set<SSDPMessage.Kind> = []
        for fixture in fixtures {
            switch fixture.expected {
            case .message(let kind, let diagnostics, _):
                kinds.insert(kind)
                if diagnostics.isEmpty { clean += 1 } else { quirky += 1 }
            case .error:
                rejected += 1
            }
        }
        #expect(clean >= 10)
        #expect(quirky >= 20)
        #expect(rejected >= 5)
        #expect(kinds == [.search, .response, .notify])
    }

    @Test func listsEveryFixtureFileExactlyOnce() throws {
        let listed = try CorpusFixture.all().map(\.file)
        let files = try CorpusFixture.fileNames()
        #expect(Set(listed).count == listed.count)
        #expect(Set(listed) == files)
    }
}
