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

/// Where an imported scenario came from (`provenance` in a scenario file, written by `ssdp-sim import`):
/// the capture, its times and the packets the search and each device's answers were read from, so that a
/// maintainer can find them in the capture.
package struct ScenarioProvenance: Codable, Sendable, Hashable {
    /// One device of the scenario and where it was in the capture.
    package struct Device: Codable, Sendable, Hashable {
        /// The device's number in the scenario, from 1.
        package var device: Int
        /// The address it answered from.
        package var address: String
        /// The UDN its answers carried, if any answer could be read.
        package var udn: String?

        enum CodingKeys: String, CodingKey, CaseIterable {
            case device, address, udn
        }

        /// Device `device` (from 1), which answered from `address` with `udn`.
        package init(device: Int, address: String, udn: String?) {
            self.device = device
            self.address = address
            self.udn = udn
        }
    }

    /// The capture's file name (without its directory).
    package var capture: String
    /// `pcap` or `pcapng`.
    package var format: String
    /// Packets in the capture.
    package var packets: Int
    /// When the first and the last packet were captured (ISO 8601, UTC).
    package var from: String
    /// When the last packet was captured.
    package var to: String
    /// The searching client, `address:port`.
    package var client: String
    /// The packet numbers of the client's M-SEARCH messages, in order.
    package var searchPackets: [Int]
    /// The devices and the addresses they answered from.
    package var devices: [Device]
    /// What the import left out, and why, one remark each.
    package var notes: [String]
    /// Whether identifiers were replaced (`--anonymize`).
    package var anonymized: Bool

    enum CodingKeys: String, CodingKey, CaseIterable {
        case capture, format, packets, from, to, client, searchPackets, devices, notes, anonymized
    }

    /// Provenance with every field given.
    package init(
        capture: String,
        format: String,
        packets: Int,
        from: String,
        to: String,
        client: String,
        searchPackets: [Int],
        devices: [Device],
        notes: [String],
        anonymized: Bool
    ) {
        self.capture = capture
        self.format = format
        self.packets = packets
        self.from = from
        self.to = to
        self.client = client
        self.searchPackets = searchPackets
        self.devices = devices
        self.notes = notes
        self.anonymized = anonymized
    }
}
