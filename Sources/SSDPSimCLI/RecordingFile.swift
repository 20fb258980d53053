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

import FoundationEssentials
import SSDPCapture
import SSDPCheck
import SSDPCore
import SSDPDevices
import SSDPHarness
import SSDPSimulator

/// Recorded devices as the device file `record` and `serve --record-from` write: anonymized or not, read
/// back as `serve --devices` reads it before it is written, written whole or not at all, and said in a few
/// lines.
struct RecordingFile {
    /// The devices as the file holds them.
    let devices: [RecordedDevice]
    /// Their device file entries.
    let entries: [DeviceSpecification]
    /// What identifies the devices (`2 UUIDs`), found as `--anonymize` replaces it.
    let identifying: [String]
    let anonymize: Bool
    /// Whether the group was listened to for NOTIFY messages (`record --listen`).
    let listened: Bool

    /// The file of `devices`, what identifies them replaced where `anonymize`.
    init(devices: [RecordedDevice], anonymize: Bool, listened: Bool = false) {
        self.listened = listened
        // Found as --anonymize would replace it: replaced with it, said without.
        var anonymizer = CaptureAnonymizer()
        let anonymized = devices.map { $0.anonymized(by: &anonymizer) }
        self.devices = anonymize ? anonymized : devices
        self.anonymize = anonymize
        entries = self.devices.map(DeviceSpecification.init(recorded:))
        identifying = anonymizer.replacedKinds.map { kind, count in
            "\(count) \(kind)\(count == 1 ? "" : kind.hasSuffix("s") ? "es" : "s")"
        }
    }

    /// Writes the file at `path`, once it reads back as a device file; the error says why nothing was.
    func write(to path: String) throws {
        let data = try DeviceFile.encoded(entries)
        do {
            _ = try DeviceFile.decode(data, file: path, seed: 1)
        } catch {
            throw CommandFailure("nothing recorded: the recording does not play back: \(error)")
        }
        try Reports.writeAtomically(data, to: path)
    }

    /// What the file holds, a line each: what was not recorded, what identifies the devices (or what was
    /// replaced), and each device.
    var summary: [String] {
        var lines = devices.flatMap { $0.leftOut.map { "not recorded: \($0)" } + $0.refusedCalls }
        if !identifying.isEmpty {
            lines.append(
                anonymize
                    ? "anonymized: \(identifying.joined(separator: ", ")), each replaced the same way everywhere"
                    : "identifies the device: \(identifying.joined(separator: ", ")) (--anonymize replaces them)"
            )
        }
        for (recorded, entry) in zip(devices, entries) {
            let searches = entry.recording?.searches ?? []
            lines.append(
                "\(recorded.udn) \(recorded.deviceType) at \(recorded.location.absoluteString): "
                    + "\(searches.count) search targets, \(searches.map(\.answers.count).reduce(0, +)) answers, "
                    + "\(recorded.exchanges.count) HTTP exchanges"
                    + (recorded.vendorReads > 0 ? " (\(recorded.vendorReads) of its REST side)" : "")
                    + ", \(recorded.calls.count) action calls, \(recorded.events.count) initial events"
                    + (listened ? ", \(recorded.notifications.count) NOTIFYs " : " ")
                    + "(profile \(entry.profile ?? "generic")); "
                    + (recorded.drawsDelaysWithinMX
                        ? "answers each at a delay drawn within the MX" : "answers at their recorded delays")
                    + " (ssdp:all at MX 3: spread over \(recorded.widestSpread.secondsText) s)"
            )
        }
        return lines
    }
}
