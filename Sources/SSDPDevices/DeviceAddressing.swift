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

/// Where a simulator's devices live on the network: each at an address of its own, as real devices are,
/// or all at the interface's one address.
///
/// A device at an address of its own is a host: its HTTP server binds that address, its LOCATION names it,
/// and its answers and NOTIFYs leave from it, so a client that talks to the source address of an answer
/// (SoCo, many Roku libraries) reaches the device that sent it. A search sent to a device's address is
/// answered by that device alone; one sent to the group or to the interface's address by every device.
///
/// Own addresses need one IPv4 interface and Linux (the answers leave through one socket with a chosen
/// source address, `IP_PKTINFO`). Elsewhere, and with several interfaces or IPv6, devices share each
/// interface's address and take consecutive HTTP ports.
public enum DeviceAddressing: Hashable, Sendable {
    /// On loopback (Linux, where every 127.0.0.0/8 address is local): 127.0.0.2, 127.0.0.3, … in device
    /// order. On another interface, a single device takes the interface's address, and several share it.
    case automatic
    /// These IPv4 addresses, in device order; the interface must hold each (`ip addr add`), or be loopback.
    case list([String])
    /// Every device at the interface's address.
    case shared

    /// The first address `automatic` gives on loopback.
    public static let firstLoopbackAddress = "127.0.0.2"

    /// Reads `FIRST-LAST` (`10.77.0.2-10.77.0.9`), a CIDR block (`10.77.0.0/29`, its usable hosts) or one
    /// address, as `--addresses` takes them, keeping at most `limit` addresses.
    public static func parse(_ text: String, limit: Int) throws(SSDPConfigurationError) -> [String] {
        let invalid = SSDPConfigurationError(
            field: "addresses",
            value: text,
            reason: "expected FIRST-LAST (10.77.0.2-10.77.0.9), a CIDR block (10.77.0.0/29) or one IPv4 address"
        )
        let first: UInt32
        let last: UInt32
        if let dash = text.firstIndex(of: "-") {
            guard let low = IPv4(text[..<dash]), let high = IPv4(text[text.index(after: dash)...]) else {
                throw invalid
            }
            guard low.value <= high.value else {
                throw SSDPConfigurationError(
                    field: "addresses",
                    value: text,
                    reason: "the first address is after the last"
                )
            }
            (first, last) = (low.value, high.value)
        } else if let slash = text.firstIndex(of: "/") {
            guard let base = IPv4(text[..<slash]), let bits = Int(text[text.index(after: slash)...]),
                (0...32).contains(bits)
            else { throw invalid }
            let mask: UInt32 = bits == 0 ? 0 : ~UInt32(0) << UInt32(32 - bits)
            let network = base.value & mask
            let broadcast = network | ~mask
            // A /31 and a /32 have no network and broadcast addresses to leave out (RFC 3021).
            (first, last) = bits >= 31 ? (network, broadcast) : (network + 1, broadcast - 1)
        } else if let single = IPv4(text[...]) {
            (first, last) = (single.value, single.value)
        } else {
            throw invalid
        }
        let count = min(UInt64(last - first) + 1, UInt64(max(limit, 0)))
        return (0..<count).map { IPv4(value: first + UInt32($0)).description }
    }

    /// The address of device `index` of `count` on the automatic loopback plan.
    package static func loopbackAddress(index: Int, block: UInt8 = 0) -> String {
        IPv4(value: IPv4(firstLoopbackAddress)!.value + UInt32(block) << 16 + UInt32(index)).description
    }

    /// `count` loopback addresses from 127.`block`.0.2 upwards: block 0 is the automatic plan's, and each
    /// other block (1...255) a plan of its own, for simulators side by side (`ssdp-sim run --live --jobs`).
    public static func loopbackAddresses(count: Int, block: UInt8) -> [String] {
        (0..<count).map { loopbackAddress(index: $0, block: block) }
    }

    /// Whether `address` is in 127.0.0.0/8, where Linux answers for every address.
    package static func isLoopback(_ address: String) -> Bool {
        IPv4(address).map { $0.value >> 24 == 127 } ?? false
    }
}

/// Which port each device's HTTP side listens on.
public enum HTTPPorts: Hashable, Sendable {
    /// The real device's port (a Roku's 8060, a Sonos's 1400); a device with no real counterpart
    /// (`generic`) takes `genericPort` at an address of its own and shares one server on a free port
    /// otherwise. Devices that share an address and a real port take it and the ports after it.
    case real
    /// Any free port, chosen by the system.
    case any
    /// This port at every device address; devices that share an address take it and the ports after it.
    case fixed(Int)

    /// The port of a generic device at an address of its own: the first port libupnp-based devices try.
    public static let genericPort = 49_152
}

/// An IPv4 address as a number, for ranges.
package struct IPv4: CustomStringConvertible {
    package var value: UInt32

    package init(value: UInt32) {
        self.value = value
    }

    /// Reads dotted-quad text (`10.77.0.2`): four decimal numbers 0...255 without leading zeros (which
    /// some tools read as octal), nothing else.
    package init?(_ text: some StringProtocol) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var value: UInt32 = 0
        for part in parts {
            guard (1...3).contains(part.count), part.allSatisfy(\.isASCIIDigit), part == "0" || part.first != "0",
                let byte = UInt8(part)
            else {
                return nil
            }
            value = value << 8 | UInt32(byte)
        }
        self.value = value
    }

    package var description: String {
        [24, 16, 8, 0].map { String(value >> UInt32($0) & 0xFF) }.joined(separator: ".")
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
