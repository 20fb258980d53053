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

@Suite struct SSDPSearchRequestTests {
    private func search(_ fields: KeyValuePairs<String, String>) -> SSDPMessage {
        SSDPMessage(kind: .search, headers: SSDPHeaders(fields.map { SSDPHeaderField(name: $0.key, value: $0.value) }))
    }

    private let multicast: KeyValuePairs<String, String> = [
        "HOST": "239.255.255.250:1900", "MAN": "\"ssdp:discover\"", "MX": "3", "ST": "ssdp:all",
    ]

    @Test func acceptsAConformingMulticastSearchWithItsMX() throws {
        let request = try SSDPSearchRequest.accept(search(multicast), strictness: .strict).get()
        #expect(request == SSDPSearchRequest(target: .all, responseWindow: .seconds(3), isMulticast: true))
    }

    @Test(arguments: [("9", 5), ("5", 5), ("1", 1), ("120", 5)])
    func clampsMXToFive(mx: String, window: Int) throws {
        let message = search(["HOST": "239.255.255.250:1900", "MAN": "\"ssdp:discover\"", "MX": mx, "ST": "ssdp:all"])
        #expect(try SSDPSearchRequest.accept(message, strictness: .strict).get().responseWindow == .seconds(window))
    }

    /// What strict devices drop (UDA 1.1 §1.3.3) and lenient ones accept, with the window they then use.
    @Test(
        arguments: [
            (
                ["HOST": "239.255.255.250:1900", "MAN": "\"ssdp:discover\"", "ST": "ssdp:all"],
                SSDPSearchRequest.Rejection.missingMX
            ),
            (["HOST": "239.255.255.250:1900", "MAN": "\"ssdp:discover\"", "MX": "0", "ST": "ssdp:all"], .invalidMX),
            (["HOST": "239.255.255.250:1900", "MAN": "\"ssdp:discover\"", "MX": "soon", "ST": "ssdp:all"], .invalidMX),
            (["HOST": "239.255.255.250:1900", "MAN": "ssdp:discover", "MX": "2", "ST": "ssdp:all"], .wrongMAN),
            (["HOST": "239.255.255.250:1900", "MX": "2", "ST": "ssdp:all"], .wrongMAN),
        ] as [([String: String], SSDPSearchRequest.Rejection)]
    )
    func strictDropsWhatLenientAccepts(fields: [String: String], rejection: SSDPSearchRequest.Rejection) throws {
        let ordered = ["HOST", "MAN", "MX", "ST"].compactMap { name in
            fields[name].map { SSDPHeaderField(name: name, value: $0) }
        }
        let message = SSDPMessage(kind: .search, headers: SSDPHeaders(ordered))
        #expect(SSDPSearchRequest.accept(message, strictness: .strict) == .failure(rejection))
        let lenient = try SSDPSearchRequest.accept(message, strictness: .lenient).get()
        #expect(lenient.responseWindow == (fields["MX"] == "2" ? .seconds(2) : .seconds(1)))
    }

    @Test func unicastSearchNeedsNoMXAndIsAnsweredWithinOneSecond() throws {
        let unicast = search(["HOST": "192.168.1.20:1900", "MAN": "\"ssdp:discover\"", "ST": "roku:ecp"])
        let request = try SSDPSearchRequest.accept(unicast, strictness: .strict).get()
        #expect(
            request == SSDPSearchRequest(target: .other("roku:ecp"), responseWindow: .seconds(1), isMulticast: false)
        )
        let withMX = search(["HOST": "192.168.1.20:1900", "MAN": "\"ssdp:discover\"", "MX": "5", "ST": "roku:ecp"])
        #expect(try SSDPSearchRequest.accept(withMX, strictness: .strict).get().responseWindow == .seconds(1))
    }

    @Test func dropsWhatIsNotASearchOrHasNoTarget() {
        let noTarget = search(["HOST": "239.255.255.250:1900", "MAN": "\"ssdp:discover\"", "MX": "1"])
        #expect(SSDPSearchRequest.accept(noTarget, strictness: .lenient) == .failure(.missingSearchTarget))
        let notify = SSDPMessage(kind: .notify, headers: ["NT": "upnp:rootdevice"])
        #expect(SSDPSearchRequest.accept(notify, strictness: .lenient) == .failure(.notASearch))
    }
}
