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

/// The SSDP in a capture: M-SEARCH and NOTIFY messages to port 1900, and the unicast answers to each
/// searcher's address and port.
package struct SSDPTraffic: Sendable {
    /// M-SEARCH messages to port 1900, in capture order.
    package var searches: [PacketCapture.Datagram]
    /// NOTIFY messages to port 1900.
    package var notifications: [PacketCapture.Datagram]
    /// What came back to a searcher's address and port.
    package var answers: [PacketCapture.Datagram]
    /// UDP datagrams that are none of these, by destination port.
    package var otherPorts: [Int: Int] = [:]

    /// The SSDP among `datagrams`.
    package init(_ datagrams: [PacketCapture.Datagram]) {
        func starts(_ payload: [UInt8], with prefix: String) -> Bool {
            payload.count >= prefix.utf8.count && zip(payload, prefix.utf8).allSatisfy { asciiUpper($0) == $1 }
        }
        searches = datagrams.filter { $0.destination.port == 1900 && starts($0.payload, with: "M-SEARCH") }
        notifications = datagrams.filter { $0.destination.port == 1900 && starts($0.payload, with: "NOTIFY") }
        let searchers = Set(searches.map(\.source))
        answers = datagrams.filter { searchers.contains($0.destination) && !starts($0.payload, with: "M-SEARCH") }
        for datagram in datagrams where datagram.destination.port != 1900 && !searchers.contains(datagram.destination) {
            otherPorts[datagram.destination.port, default: 0] += 1
        }
    }

    /// The searcher that got the most answers (the first to search, on a tie).
    package var busiestSearcher: Int? {
        let sources = searches.map(\.source)
        let unique = sources.indices.filter { sources.firstIndex(of: sources[$0]) == $0 }
        return unique.max { first, second in
            let (a, b) = (answerCount(to: sources[first]), answerCount(to: sources[second]))
            return a != b ? a < b : first > second
        }
    }

    /// Who sent search `index`.
    package func searcher(_ index: Int) -> SSDPEndpoint { searches[index].source }

    private func answerCount(to endpoint: SSDPEndpoint) -> Int {
        answers.filter { $0.destination == endpoint }.count
    }

    /// What a capture without a search holds instead, for the error.
    package func whatItHolds(_ capture: PacketCapture) -> String {
        var parts: [String] = []
        if !notifications.isEmpty { parts.append("\(notifications.count) NOTIFY") }
        let udp = otherPorts.sorted { $0.value > $1.value }.prefix(5)
        if !udp.isEmpty {
            parts.append(
                "\(otherPorts.values.reduce(0, +)) other UDP (to port \(udp.map { "\($0.key) ×\($0.value)" }.joined(separator: ", ")))"
            )
        }
        for (kind, count) in capture.others.sorted(by: { $0.value > $1.value }).prefix(5) {
            parts.append("\(count) \(kind)")
        }
        let held = parts.isEmpty ? "nothing" : parts.joined(separator: ", ")
        return
            "\(capture.packets) packets, of which \(held); capture while the client searches (udp port 1900 and the answers)"
    }
}

private func asciiUpper(_ byte: UInt8) -> UInt8 {
    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) ? byte - 32 : byte
}
