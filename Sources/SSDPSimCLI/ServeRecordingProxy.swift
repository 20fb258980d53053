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

import ArgumentParser
import Foundation
import Logging
import SSDPCheck
import SSDPDeviceCore
import SSDPDevices
import SSDPSimulator

/// `serve --record-from`: the recording proxy. The device is recorded as `record` records it, its recording
/// is served as the one device, every HTTP request to it goes on to the real device, and when serve stops
/// the file holds the recording and every exchange a client made (`RecordingProxy`).
struct RecordingProxyOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            """
            Stand in for the device at this LOCATION: record it (as `record` does), serve the recording, send \
            every HTTP request on to the device and keep each exchange; the file (--output) is written when \
            serve stops.
            """,
            valueName: "location"
        )
    )
    var recordFrom: String?

    @Option(name: [.short, .long], help: "With --record-from: the device file to write.")
    var output: String?

    @Flag(help: "With --record-from: replace what identifies the device in the file, as `record --anonymize` does.")
    var anonymize = false

    @Option(help: "With --record-from: seconds each exchange with the device may take, 0.1...60.")
    var recordTimeout = 5.0

    @Option(help: "With --record-from: the UDP port the device hears searches on.")
    var recordPort = 1900

    /// The LOCATION, checked; `nil` without --record-from (when the other options are refused).
    func validate(devices: DeviceOptions) throws -> URL? {
        guard let recordFrom else {
            if output != nil || anonymize || recordTimeout != 5 || recordPort != 1900 {
                throw ValidationError("--output, --anonymize, --record-timeout and --record-port go with --record-from")
            }
            return nil
        }
        guard let output else { throw ValidationError("--record-from needs --output FILE, where the recording goes") }
        try validateReportPaths([("--output", output)])
        guard devices.devices == nil, devices.profile == "generic", devices.count == 1 else {
            throw ValidationError(
                "--record-from serves the device it records: it takes no --devices, --profile or --count"
            )
        }
        guard (1...65_535).contains(recordPort) else {
            throw ValidationError("--record-port must be 1...65535, got \(recordPort)")
        }
        guard recordTimeout >= 0.1, recordTimeout <= 60 else {
            throw ValidationError("--record-timeout must be 0.1...60 seconds, got \(recordTimeout)")
        }
        guard recordFrom.lowercased().hasPrefix("http://"), let url = URL(string: recordFrom),
            url.host?.isEmpty == false
        else {
            throw ValidationError("--record-from '\(recordFrom)' is not an http:// LOCATION with a host")
        }
        return url
    }

    /// Records the device at `location`; the error says what failed, naming the URL.
    func record(_ location: URL) async throws -> RecordingProxy {
        var options = DeviceRecordOptions()
        options.ssdpPort = recordPort
        options.timeout = .milliseconds(Int64(recordTimeout * 1_000))
        do {
            guard let device = try await DeviceRecorder.record(.location(location), options: options).first else {
                throw CommandFailure("nothing recorded: \(location.absoluteString) is no device")
            }
            return RecordingProxy(device: device, timeout: options.timeout)
        } catch let error as DeviceRecordError {
            throw CommandFailure("nothing recorded: \(error)")
        }
    }

    /// The stand-in: the recording as a device, and its requests forwarded by `proxy`, each failure logged.
    static func standIn(
        for proxy: RecordingProxy,
        seed: UInt64,
        logger: Logger
    ) throws -> (devices: [SimulatedDevice], forwarding: HTTPForwarding) {
        let data = try DeviceFile.encoded([DeviceSpecification(recorded: proxy.device)])
        let devices = try DeviceFile.decode(data, file: proxy.device.location.absoluteString, seed: seed).devices
        let forwarding = HTTPForwarding(devices: [0]) { request in
            switch await proxy.forward(
                method: request.method,
                target: request.target,
                headers: request.headers,
                body: request.body
            ) {
            case .success(let response): return response
            case .failure(let error):
                logger.warning("record-from: \(error) (not forwarded: a recorded document, else 502)")
                return nil
            }
        }
        return (devices, forwarding)
    }

    /// Writes what `proxy` recorded to --output, and says so on standard error (standard output may be
    /// JSON lines).
    func write(_ proxy: RecordingProxy) throws {
        guard let output else { return }
        let file = RecordingFile(devices: [proxy.recorded], anonymize: anonymize)
        try file.write(to: output)
        let summary = proxy.summary
        let lines =
            file.summary + [
                "through the proxy: \(summary.forwarded) requests forwarded"
                    + (summary.failed > 0 ? " (\(summary.failed) got no answer from the device)" : "")
                    + "; kept \(summary.calls) action calls and \(summary.requests) other requests",
                "Wrote \(output): serve it with `ssdp-sim serve --devices \(output)`",
            ]
        FileHandle.standardError.write(Data(lines.map { "record-from: \($0)\n" }.joined().utf8))
    }
}
