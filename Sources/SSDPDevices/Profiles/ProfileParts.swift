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

// The built-in profiles of real devices. Each one's SSDP identity (search targets, USN form, SERVER,
// CACHE-CONTROL, extra headers, and the header spelling and order of its search response) follows the
// captures in ssdp-protocol-facts.md §2, cited per profile; its HTTP side serves its description at the
// real path and, for a Roku and a DIAL device, its API. Serial numbers, MAC addresses and UDNs are drawn
// from the seed, so the same seed gives the same devices.
//
// Each profile is a file: in this folder, or in its family's folder under Families/ (roku, roku-tv,
// dial-tv, hue). Here are the parts several share.

extension SimulatorProfile {
    /// DIAL's one service, with the placeholder URLs the reference server writes.
    static let dialService = SSDPDeviceService(
        serviceType: "urn:dial-multiscreen-org:service:dial:1",
        serviceID: "urn:dial-multiscreen-org:serviceId:dial",
        urls: .init(scpd: "/ssdp/notfound", control: "/ssdp/notfound", event: "/ssdp/notfound")
    )

    /// The NOTIFY lines miniupnpd and MiniDLNA share (their minissdp.c): a UPnP 1.0 device's, to which
    /// miniupnpd adds its UDA 1.1 lines.
    static let minissdpNotify = SSDPNotifyHeaders(
        alive: [
            .init(name: "HOST", value: "{group}"), .init(name: "CACHE-CONTROL", value: "max-age={maxAge}"),
            .init(name: "LOCATION", value: "{location}"), .init(name: "SERVER", value: "{server}"),
            .init(name: "NT", value: "{nt}"), .init(name: "USN", value: "{usn}"),
            .init(name: "NTS", value: "ssdp:alive"),
        ],
        byebye: [
            .init(name: "HOST", value: "{group}"), .init(name: "NT", value: "{nt}"), .init(name: "USN", value: "{usn}"),
            .init(name: "NTS", value: "ssdp:byebye"),
        ]
    )

    /// BOOTID.UPNP.ORG and CONFIGID.UPNP.ORG, last, as miniupnpd writes them.
    static let upnp11IDs: [SSDPHeaderField] = [
        .init(name: "BOOTID.UPNP.ORG", value: "{bootId}"), .init(name: "CONFIGID.UPNP.ORG", value: "{configId}"),
    ]

    /// The `X-User-Agent` every libupnp message carries.
    static let libupnpUserAgent = SSDPHeaderField(name: "X-User-Agent", value: "redsonic")

    /// libupnp's and miniupnpd's `OPT` and `01-NLS` pair.
    static func nls(bootID: String) -> [SSDPHeaderField] {
        [
            .init(name: "OPT", value: "\"http://schemas.upnp.org/upnp/1/0/\"; ns=01"),
            .init(name: "01-NLS", value: bootID),
        ]
    }

    static let alphanumerics = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
}

/// A MAC address drawn for a profile, written the ways devices write it.
struct MACAddress: Sendable {
    var bytes: [UInt8]

    func text(separator: String, upperCase: Bool = false) -> String {
        bytes.map { byte in
            let digits = String(byte, radix: 16, uppercase: upperCase)
            return byte < 16 ? "0" + digits : digits
        }.joined(separator: separator)
    }
}

extension SSDPRandom {
    /// A MAC address with the maker's `prefix` (OUI) and random last three bytes.
    mutating func mac(prefix: [UInt8]) -> MACAddress {
        MACAddress(bytes: prefix + (0..<3).map { _ in UInt8.random(in: 0...255, using: &self) })
    }

    /// `count` characters drawn from `alphabet`.
    mutating func text(count: Int, from alphabet: String) -> String {
        let characters = Array(alphabet)
        return String((0..<count).map { _ in characters[Int.random(in: 0..<characters.count, using: &self)] })
    }
}
