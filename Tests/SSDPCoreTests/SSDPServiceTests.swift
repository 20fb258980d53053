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

@Suite struct SSDPServiceTests {
    let dial = SearchResponseBuilder.dial

    @Test func readsTheRequiredFieldsOfAResponse() throws {
        let service = try SSDPService(response: dial.message, receivedAt: .zero)
        #expect(service.location == "http://192.168.1.40:8008/ssdp/device-desc.xml")
        #expect(service.server == "Linux/3.8.13, UPnP/1.0, Portable SDK for UPnP devices/1.6.18")
        #expect(service.searchTarget == "urn:dial-multiscreen-org:service:dial:1")
        #expect(
            service.uniqueServiceName
                == "uuid:3e1cc7d4-3a22-4a8c-9a35-0a4b1c2d3e4f::urn:dial-multiscreen-org:service:dial:1"
        )
        #expect(service.maxAge == .seconds(1_800))
    }

    @Test func cacheControlIsTheInstantReceivedPlusMaxAge() throws {
        let receivedAt = SSDPInstant.zero + .seconds(42) + .milliseconds(5)
        let service = try SSDPService(response: dial.message, receivedAt: receivedAt)
        #expect(service.cacheControl == .zero + .seconds(1_842) + .milliseconds(5))
    }

    @Test func otherHeadersKeepsTheNonRequiredHeadersInOrderAsSpelled() throws {
        let service = try SSDPService(response: dial.message, receivedAt: .zero)
        #expect(
            service.otherHeaders.fields == [
                SSDPHeaderField(name: "DATE", value: "Sat, 01 Jun 2024 12:00:00 GMT"),
                SSDPHeaderField(name: "EXT", value: ""),
                SSDPHeaderField(name: "OPT", value: "\"http://schemas.upnp.org/upnp/1/0/\"; ns=01"),
                SSDPHeaderField(name: "01-NLS", value: "b9200ebb-736d-4b93-bf03-835149d13983"),
                SSDPHeaderField(name: "X-User-Agent", value: "redsonic"),
                SSDPHeaderField(name: "BOOTID.UPNP.ORG", value: "7"),
            ]
        )
    }

    @Test func requiredHeadersAreFoundWhateverTheirCase() throws {
        let response = SearchResponseBuilder([
            "Cache-Control": "max-age=120",
            "location": "http://192.168.1.50:49152/desc.xml",
            "Server": "Linux UPnP/1.0 Sonos/70.3",
            "st": "urn:schemas-upnp-org:device:ZonePlayer:1",
            "Usn": "uuid:RINCON_000E58000000::urn:schemas-upnp-org:device:ZonePlayer:1",
        ])
        let service = try SSDPService(response: response.message, receivedAt: .zero)
        #expect(service.location == "http://192.168.1.50:49152/desc.xml")
        #expect(service.maxAge == .seconds(120))
        #expect(service.otherHeaders.isEmpty)
    }

    @Test func incompleteResponseListsEveryMissingFieldInOrder() {
        let response = SearchResponseBuilder(["EXT": "", "CACHE-CONTROL": "no-cache", "LOCATION": ""])
        let error = #expect(throws: SSDPIncompleteResponse.self) {
            try SSDPService(response: response.message, receivedAt: .zero)
        }
        #expect(error?.missingFields == ["CACHE-CONTROL", "LOCATION", "SERVER", "ST", "USN"])
    }

    @Test(arguments: ["CACHE-CONTROL", "LOCATION", "SERVER", "ST", "USN"])
    func responseWithoutARequiredFieldIsNotAService(field: String) {
        let error = #expect(throws: SSDPIncompleteResponse.self) {
            try SSDPService(response: dial.removing(field).message, receivedAt: .zero)
        }
        #expect(error?.missingFields == [field])
    }

    // MARK: - Equality

    @Test func equalityAndHashIgnoreCacheControlMaxAgeAndOtherHeaders() {
        let first = dial.service(receivedAt: .zero)
        var second = dial.service(receivedAt: .zero + .seconds(30))
        second.maxAge = .seconds(60)
        second.otherHeaders = ["BOOTID.UPNP.ORG": "8"]
        #expect(first.cacheControl != second.cacheControl)
        #expect(first == second)
        #expect(first.hashValue == second.hashValue)
        #expect(Set([first, second]).count == 1)
    }

    @Test(arguments: [\SSDPService.location, \.server, \.searchTarget, \.uniqueServiceName])
    func servicesDifferingInAnIdentifyingFieldAreDifferent(field: any WritableKeyPath<SSDPService, String> & Sendable) {
        let first = dial.service()
        var second = first
        second[keyPath: field] += "2"
        #expect(first != second)
        #expect(Set([first, second]).count == 2)
    }
}
