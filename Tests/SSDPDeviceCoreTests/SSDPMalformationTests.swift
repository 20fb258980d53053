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
import SSDPDeviceCore
import Testing

@Suite struct SSDPMalformationTests {
    private let response = DeviceFixtures.gateway.searchResponse(for: DeviceFixtures.gateway.advertisements[0])

    private func parse(_ malformations: Set<SSDPMalformation>) throws -> SSDPParsedMessage {
        try SSDPParser.parse(SSDPMalformation.bytes(for: response, with: malformations))
    }

    @Test(arguments: [
        (SSDPMalformation.lineFeedOnly, SSDPDiagnostic.Code.bareLineFeed, ""),
        (.lowercaseNames, .lowercaseHeaderName, "cache-control"),
        (.noSpaceAfterColon, .noSpaceAfterColon, "CACHE-CONTROL"),
        (.spacedMaxAge, .spacedMaxAge, "CACHE-CONTROL"),
        (.missingEXT, .missingHeader, "EXT"),
        (.missingCacheControl, .missingHeader, "CACHE-CONTROL"),
        (.missingLocation, .missingHeader, "LOCATION"),
        (.missingServer, .missingHeader, "SERVER"),
        (.missingUSN, .missingHeader, "USN"),
        (.noFinalBlankLine, .missingFinalBlankLine, ""),
        (.invalidUTF8, .invalidUTF8, ""),
    ])
    func eachMalformationShowsAsItsDiagnostic(
        malformation: SSDPMalformation,
        code: SSDPDiagnostic.Code,
        field: String
    ) throws {
        let parsed = try parse([malformation])
        let matching = parsed.diagnostics.filter { $0.code == code }
        #expect(!matching.isEmpty, "\(parsed.diagnostics)")
        if !field.isEmpty {
            #expect(matching.contains { $0.field == field })
        }
    }

    @Test func aWellFormedAnswerHasNoDiagnostics() throws {
        #expect(try parse([]).diagnostics == [])
    }

    @Test func missingHeadersAreGoneAndTheRestStay() throws {
        let parsed = try parse([.missingLocation, .missingUSN])
        #expect(parsed.message.headers["LOCATION"] == nil && parsed.message.headers["USN"] == nil)
        #expect(parsed.message.headers["ST"] == "upnp:rootdevice")
    }

    @Test func oversizedAnswersHaveTheOversizedLength() {
        #expect(SSDPMalformation.bytes(for: response, with: [.oversized]).count == SSDPMalformation.oversizedLength)
    }

    @Test func allMalformationsTogetherStillParse() throws {
        let parsed = try parse(Set(SSDPMalformation.allCases))
        #expect(parsed.message.kind == .response)
    }
}
