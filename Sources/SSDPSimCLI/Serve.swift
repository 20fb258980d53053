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
import SSDPControl
import SSDPCore
import SSDPDevices
import SSDPSimulator
import ServiceLifecycle
import UnixSignals

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run simulated root devices that answer M-SEARCH, advertise and serve their descriptions.",
        discussion: """
            Binds UDP 1900 (or --port), joins 239.255.255.250 on --interface, answers each search by \
            unicast after a random delay within MX, multicasts NOTIFY alive, and serves each device's \
            description over HTTP at its LOCATION. SIGINT and SIGTERM send one byebye per advertisement \
            and stop; SIGUSR1 sends ssdp:update and moves every device to a new BOOTID.

            To serve several interfaces, repeat --interface (eth0, eth1), or serve them all with \
            --all-interfaces. Each \
            search is answered on the interface it arrived on, with that interface's address in LOCATION. \
            --ipv6 also joins FF02::C and answers with http://[fe80::…]:port/ (the client adds its own \
            zone); --site-local joins FF05::C.

            Every option can also come from the environment as SSDP_SIM_<OPTION> (for containers): \
            SSDP_SIM_PORT=1901, SSDP_SIM_UNICAST_ONLY=1, SSDP_SIM_INTERFACE=eth0,eth1. Flags on the command line win.

            --control 127.0.0.1:0 also serves the control API (HTTP+JSON, docs/control.md): list the \
            devices, make one say byebye, vanish, come back or reboot, and query or wait on the journal of \
            what they did. Its URL is in the start banner and in the `started` JSON line.

            --record-from LOCATION --output FILE stands in for a real device (the recording proxy, \
            docs/record.md): records it as `record` does, serves the recording, forwards every HTTP request \
            to the device and keeps each exchange; the file is written when serve stops.

            Try it on loopback without multicast, then probe it:
              ssdp-sim serve --interface lo --unicast-only --port 1901 --count 2
              ssdp-sim send --host 127.0.0.1 --port 1901 --st ssdp:all
            """
    )

    @OptionGroup(title: "Devices") var devices: DeviceOptions
    @OptionGroup(title: "Behaviour (every device)") var behaviour: BehaviourOptions
    @OptionGroup(title: "HTTP faults (every device)") var httpFaults: HTTPFaultOptions
    @OptionGroup(title: "Network") var network: NetworkOptions
    @OptionGroup(title: "Control API") var control: ControlOptions
    @OptionGroup(title: "Recording proxy") var proxy: RecordingProxyOptions

    @Option(help: "Stop (with byebye) after this many seconds; default: run until SIGINT or SIGTERM.")
    var serveFor: Double?

    @Flag(
        name: .customLong("stop-on-stdin-eof"),
        help: """
            Stop (with byebye) when standard input reaches its end: a program that starts serve with a pipe \
            as its standard input takes it along when it dies, killed or crashed.
            """
    )
    var stopOnStandardInputEnd = false

    @Flag(help: "Print one JSON object per event on standard output instead of text.")
    var json = false

    @Option(help: "Log level on standard error: trace, debug (every answer), info (every search), warning, error.")
    var logLevel: Logger.Level = .info

    @Option(
        help: """
            Write this file (the process ID and the ready line) once every device serves, and remove it on \
            stop: what `ssdp-sim ready` checks, as a container's health check.
            """
    )
    var readyFile: String?

    func validate() throws {
        _ = try proxy.validate(devices: devices)
        _ = try makeConfiguration()
        _ = try control.makeConfiguration()
        if let serveFor, !(serveFor > 0 && serveFor <= 86_400) {
            throw ValidationError("--serve-for must be more than 0 and at most 86400 seconds, got \(serveFor)")
        }
    }

    func run() async throws {
        let logger = makeLogger(level: logLevel)
        // The device recorded before anything starts: what the stand-in serves.
        var recording: RecordingProxy?
        if let location = try proxy.validate(devices: devices) {
            // Interrupted while it records (SIGINT or SIGTERM, a background job's too), serve ends at once.
            let interrupts = await UnixSignalsSequence(trapping: .sigterm, .sigint)
            let watch = Task {
                for await _ in interrupts {
                    printError("interrupted: nothing written")
                    Foundation.exit(130)
                }
            }
            defer { watch.cancel() }
            recording = try await proxy.record(location)
        }
        let configuration = try makeConfiguration(validating: false, standingInFor: recording, logger: logger)
        // Listening before the simulator starts, so that the `started` line can name its URL.
        let controlled = try await control.start(logger: logger)
        let output = ServeOutput(json: json, control: controlled?.server.url)
        // Trapped before the simulator starts: a SIGTERM that follows the `started` line at once (a test, an
        // orchestrator) must still make every device say byebye, not kill the process.
        let stopSignals = await UnixSignalsSequence(trapping: .sigterm, .sigint)
        let updateSignals = await UnixSignalsSequence(trapping: .sigusr1)
        // A file left by a serve that was killed says nothing about this one.
        if let readyFile { try? FileManager.default.removeItem(atPath: readyFile) }
        let simulator: DeviceSimulator
        do {
            simulator = try await DeviceSimulator.start(configuration, logger: logger) { event in
                output.emit(event)
                controlled?.journal.append(event)
            }
        } catch let error as SimulatorError {
            throw CommandFailure("\(error)")
        } catch let error as SSDPConfigurationError {
            throw CommandFailure(describe(error))
        }
        output.printStart(simulator, seed: configuration.seed)
        controlled?.server.attach(simulator)
        // Ready once every device serves and the control API (if any) answers for them.
        let ready = ReadyLine(devices: simulator.devices.count)
        output.printReady(ready)
        if let readyFile {
            guard FileManager.default.createFile(atPath: readyFile, contents: Data(Ready.contents(ready.summary).utf8))
            else {
                await simulator.shutdown()
                throw CommandFailure("--ready-file \(readyFile): cannot write it")
            }
        }
        defer { if let readyFile { try? FileManager.default.removeItem(atPath: readyFile) } }
        // A group shuts its services down last first: the control API closes before the devices say byebye.
        let services: [any Service] = [simulator] + (controlled.map { [$0.server] } ?? [])
        let group = ServiceGroup(
            configuration: .init(
                services: services.map { .init(service: $0) },
                logger: logger
            )
        )
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask {
                for await _ in updateSignals {
                    await simulator.announceUpdate()
                }
            }
            tasks.addTask {
                for await _ in stopSignals {
                    await group.triggerGracefulShutdown()
                }
            }
            if let serveFor {
                tasks.addTask {
                    try await Task.sleep(for: .milliseconds(Int64(serveFor * 1_000)))
                    await group.triggerGracefulShutdown()
                }
            }
            if stopOnStandardInputEnd {
                tasks.addTask {
                    for await _ in StandardInput.closed() {}
                    guard !Task.isCancelled else { return }
                    await group.triggerGracefulShutdown()
                }
            }
            try await group.run()
            tasks.cancelAll()
        }
        // Every device has said byebye; a request still with the device is waited for: the recording is whole.
        if let recording {
            await recording.settle(timeout: .milliseconds(Int64(proxy.recordTimeout * 1_000)))
            try proxy.write(recording)
        }
    }

    /// The simulator's configuration from the flags. `validate()` checks it whole, so that a bad one is a
    /// usage error; `run()` makes it again (a command cannot keep what `validate()` made) and leaves the
    /// check to `DeviceSimulator.start`, which does it anyway (a pass over every device, which 10,000
    /// devices feel at start).
    private func makeConfiguration(
        validating: Bool = true,
        standingInFor recording: RecordingProxy? = nil,
        logger: Logger = Logger(label: "ssdp-sim")
    ) throws -> SimulatorConfiguration {
        let seed = network.seed?.value ?? UInt64.random(in: 1...999_999)
        let standIn = try recording.map { try RecordingProxyOptions.standIn(for: $0, seed: seed, logger: logger) }
        var devices = try standIn?.devices ?? self.devices.makeDevices(seed: seed)
        try behaviour.apply(to: &devices)
        try httpFaults.apply(to: &devices)
        var configuration = try network.makeConfiguration(devices: devices, seed: seed)
        configuration.forwarding = standIn?.forwarding
        guard validating else { return configuration }
        do {
            try configuration.validate()
        } catch {
            throw ValidationError(describe(error))
        }
        return configuration
    }
}

/// An error the command reports in one line on standard error, with exit status 1.
struct CommandFailure: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
