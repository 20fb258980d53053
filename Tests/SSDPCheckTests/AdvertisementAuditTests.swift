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

@testable import SSDPCheck

/// The advertisement checks over NOTIFY messages written out: what a device said, when.
@Suite struct AdvertisementAuditTests {
    static let renderer = "urn:schemas-upnp-org:device:MediaRenderer:1"
    static let rendering = "urn:schemas-upnp-org:service:RenderingControl:1"
    let device = DescribedDevice(
        deviceType: renderer,
        udn: "uuid:1",
        services: [.init(serviceType: rendering, serviceId: "urn:upnp-org:serviceId:RenderingControl")],
        embedded: []
    )
    let location = URL(string: "http://192.0.2.7:49152/description.xml")!
    /// The four targets, as NT and USN.
    let targets = [
        ("upnp:rootdevice", "uuid:1::upnp:rootdevice"), ("uuid:1", "uuid:1"),
        (renderer, "uuid:1::" + renderer), (rendering, "uuid:1::" + rendering),
    ]

    func notify(
        _ subtype: String,
        _ target: (String, String),
        at seconds: Double,
        host: String = "192.0.2.7"
    ) -> CheckAnswer {
        var lines = [
            "NOTIFY * HTTP/1.1", "HOST: 239.255.255.250:1900", "NT: \(target.0)", "NTS: ssdp:\(subtype)",
            "USN: \(target.1)",
        ]
        if subtype == "alive" {
            lines += [
                "CACHE-CONTROL: max-age=10", "LOCATION: http://\(host):49152/description.xml",
                "SERVER: Linux/6.1 UPnP/1.0 test/1",
            ]
        }
        return CheckAnswer(
            elapsed: .milliseconds(Int64(seconds * 1_000)),
            source: host,
            bytes: Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
        )
    }

    func outcomes(_ datagrams: [CheckAnswer], listened: Double, byebye: Bool = true) -> [String: DeviceCheckResult] {
        let results = AdvertisementAudit.evaluate(
            datagrams,
            device: device,
            location: location,
            listened: .milliseconds(Int64(listened * 1_000)),
            expectByebye: byebye
        )
        return Dictionary(results.map { ($0.check, $0) }, uniquingKeysWith: { first, _ in first })
    }

    @Test func aDeviceThatAdvertisesRenewsAndLeavesPassesEveryCheck() {
        let heard =
            targets.map { notify("alive", $0, at: 0.1) } + targets.map { notify("alive", $0, at: 8) }
            + targets.map { notify("byebye", $0, at: 14) }
        let results = outcomes(heard, listened: 15)
        #expect(
            results.values.allSatisfy { $0.outcome == .passed },
            "\(results.values.filter { $0.outcome != .passed })"
        )
        #expect(
            Set(results.keys) == [
                "advertisement.headers", "advertisement.targets", "advertisement.location", "advertisement.renewal",
                "advertisement.byebye",
            ]
        )
    }

    @Test func eachBrokenRuleIsNamed() {
        let all = targets.map { notify("alive", $0, at: 0.1) }
        let missing = outcomes(Array(all.dropLast()), listened: 5, byebye: false)
        #expect(missing["advertisement.targets"]?.outcome == .failed)
        #expect(
            missing["advertisement.targets"]?.detail.contains("never advertised: uuid:1::" + Self.rendering) == true
        )

        // A byebye ends what must be renewed: a device that leaves in time is not stale.
        let leftInTime = outcomes(all + targets.map { notify("byebye", $0, at: 9) }, listened: 15)
        #expect(leftInTime["advertisement.renewal"]?.outcome == .passed)
        let stale = outcomes(all + targets.map { notify("byebye", $0, at: 14) }, listened: 15)
        #expect(stale["advertisement.renewal"]?.outcome == .failed)
        #expect(stale["advertisement.renewal"]?.detail.contains("longer than its max-age of 10 s") == true)
        #expect(outcomes(all, listened: 5, byebye: false)["advertisement.renewal"]?.outcome == .skipped)

        let silentLeave = outcomes(all, listened: 5)
        #expect(silentLeave["advertisement.byebye"]?.outcome == .failed)
        #expect(silentLeave["advertisement.byebye"]?.detail.hasPrefix("no ssdp:byebye at all") == true)
        let partly = outcomes(all + targets.dropFirst().map { notify("byebye", $0, at: 4) }, listened: 5)
        #expect(partly["advertisement.byebye"]?.detail.hasPrefix("no ssdp:byebye for uuid:1::upnp:rootdevice") == true)

        let elsewhere = outcomes(
            targets.map { notify("alive", $0, at: 0.1, host: "192.0.2.99") },
            listened: 5,
            byebye: false
        )
        #expect(elsewhere["advertisement.location"]?.outcome == .failed)

        // Nothing heard in a short listen is not the device's fault: a device renews within max-age.
        #expect(outcomes([], listened: 5, byebye: false)["advertisement.targets"]?.outcome == .skipped)
        #expect(outcomes([], listened: 3_600, byebye: false)["advertisement.targets"]?.outcome == .skipped)
        let silent = AdvertisementAudit.evaluate(
            [],
            device: device,
            location: location,
            listened: .seconds(20),
            expectByebye: false,
            knownMaxAge: 10
        )
        #expect(silent.first { $0.check == "advertisement.targets" }?.outcome == .failed)
        // Another device's NOTIFY is not this one's.
        let stranger = notify("alive", ("upnp:rootdevice", "uuid:2::upnp:rootdevice"), at: 1)
        #expect(outcomes([stranger], listened: 5, byebye: false)["advertisement.targets"]?.outcome == .skipped)
    }
}
