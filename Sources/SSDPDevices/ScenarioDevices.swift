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

/// The devices of a scenario file: its `devices` entries made with its `seed`, numbered from 1 across the
/// entries. The harness reads a whole scenario and makes its devices here; `SSDPTesting` reads only these
/// two fields of a scenario (`DeviceGroup.scenario`), so both get the same devices from the same file.
public enum ScenarioDevices {
    /// The most devices one scenario may have (the virtual network numbers hosts 10.0.1.1 to 10.0.40.250).
    public static let maximum = 10_000

    /// Why a scenario's devices cannot be made: the JSON path of the field and the reason.
    package struct Problem: Error {
        /// `$.devices[2].behaviour.delay`.
        package var path: String
        /// In words a user can act on.
        package var reason: String
    }

    /// The devices of `entries` with `seed`, or the first problem: none, more than `maximum`, or an entry
    /// that is wrong (an unknown profile, a bad behaviour).
    package static func make(_ entries: [DeviceSpecification], seed: UInt64) throws(Problem) -> [SimulatedDevice] {
        guard !entries.isEmpty else { throw Problem(path: "$.devices", reason: "at least one device is needed") }
        let total = entries.reduce(0) { $0 + min(max(1, $1.count ?? 1), maximum + 1) }
        guard total <= maximum else {
            throw Problem(path: "$.devices", reason: "\(total) devices: a scenario may have at most \(maximum)")
        }
        var devices: [SimulatedDevice] = []
        for (index, entry) in entries.enumerated() {
            do throws(SSDPConfigurationError) {
                devices += try entry.makeDevices(firstNumber: devices.count + 1, seed: seed)
            } catch {
                throw Problem(path: "$.devices[\(index)].\(error.field)", reason: error.reason(quoting: true))
            }
        }
        return devices
    }

    /// The devices of the scenario file at `path`. Only `seed` and `devices` are read (strictly, as the
    /// harness reads them); the rest of the file is the harness's to check (`ssdp-sim run`), so a scenario
    /// whose expectations are wrong still gives its devices here.
    public static func load(path: String) throws(SimulatorInputError) -> [SimulatedDevice] {
        let fields = try InputFile.decode(Fields.self, from: try InputFile.contents(of: path), file: path)
        do throws(Problem) {
            return try make(fields.devices, seed: fields.seed)
        } catch {
            throw SimulatorInputError(file: path, path: error.path, reason: error.reason)
        }
    }

    /// The two fields of a scenario the devices are made from.
    private struct Fields: Decodable {
        var seed: UInt64
        var devices: [DeviceSpecification]
    }
}
