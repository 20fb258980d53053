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
import Logging
import NIOConcurrencyHelpers
import NIOCore
import SSDPCore
import SSDPDeviceCore
import SSDPDevices
import SSDPSearch
import SSDPSimulator

/// Runs a scenario over real UDP sockets on loopback: the simulator serves the scenario's devices on
/// 127.0.0.1 (unicast, no multicast), and either the real `SSDPSearchSession` or an external client
/// command searches it. The simulator reports every M-SEARCH it receives, which is how the client's
/// searches are seen on the wire.
///
/// A search on loopback is a unicast search, so devices answer within 1 s whatever the MX (UDA 1.1
/// §1.3.3); scenarios tagged `live` are written to hold either way.
package enum LiveRun {
    /// How far real times may stray from the design.
    package static let tolerance = Duration.milliseconds(500)
    /// How far an external client's times may stray (it starts a process and an interpreter).
    package static let clientTolerance = Duration.milliseconds(1_500)
    /// Clients starting at once, across the runs side by side: one per core. A client holds its place from
    /// its launch until it shows it runs its own code (its first M-SEARCH, its first line, or its exit), or
    /// for `clientStartAllowance`. A Python or a JVM takes a tenth of a second or more of a core to start:
    /// twenty-five started at once on two cores would each take two seconds, which a client that exits
    /// without searching (its stop at 0 s, ± `clientTolerance`) cannot hide. Its timing starts at its launch,
    /// after its wait for a place, so that runs side by side keep the tolerances of a run alone.
    static let startingClients = Gate(width: ProcessInfo.processInfo.activeProcessorCount)
    /// How many clients start at once: one per core.
    package static var clientsStartingAtOnce: Int { startingClients.width }
    /// The longest a client holds its place among those starting.
    static let clientStartAllowance = Duration.seconds(1)
    /// How long after the designed stop a client is given before it is killed.
    package static let clientGrace = Duration.seconds(10)
    /// How long the run keeps listening after the stop, to see late answers.
    static let linger = Duration.milliseconds(300)

    /// Runs the real search session against the simulated devices on `network`. In a namespace, the devices
    /// join 239.255.255.250 on port 1900 of the loopback interface and a multicast search reaches them
    /// there; this is for a private network namespace (`ssdp-sim run --live --namespace`), never the host's.
    /// On loopback the devices live at 127.`addressBlock`.0.2 upwards.
    package static func run(
        _ scenario: Scenario,
        seed: UInt64,
        network: LiveNetwork = .loopback,
        addressBlock: UInt8 = 0,
        trace: Tracing = .off
    ) async throws -> (record: RunRecord, searchHost: String) {
        let multicast = network == .namespaceMulticast
        let recorder = LiveRecorder(mode: .live, seed: seed, tracing: trace == .everyDatagram)
        let simulator = try await startSimulator(
            scenario,
            seed: seed,
            recorder: recorder,
            network: network,
            addressBlock: addressBlock
        )
        let port = simulator.udpAddress.port ?? 0
        let host =
            multicast && scenario.search.mode == .multicast
            ? SSDPSearchSessionConfiguration.multicastHost : "127.0.0.1"
        let session = SSDPSearchSession(
            configuration: try scenario.search.configuration(host: host, port: port),
            interface: multicast ? "lo" : nil
        )
        let delegate = RecordingDelegate(recorder: recorder)
        session.delegate = delegate
        // The devices' silent windows count from the search's start, as in virtual time.
        await simulator.startClocks()
        recorder.startClock()
        session.startSearch()
        await playing(scenario.events, on: simulator, recorder: recorder) {
            let ended = await delegate.ended.wait(timeout: scenario.search.designedStop + clientGrace)
            if !ended {
                session.stopSearch()
                _ = await delegate.ended.wait(timeout: .seconds(5))
            }
        }
        try? await Task.sleep(for: linger)
        _ = await simulator.shutdown()
        var record = recorder.record
        record.statistics = session.statistics
        withExtendedLifetime(delegate) {}
        return (record, "\(host):\(port)")
    }

    /// Runs `command` (with `/bin/sh -c`) as the client. It learns where to search from `SSDP_HOST`,
    /// `SSDP_PORT`, `SSDP_ST`, `SSDP_MX` and `SSDP_REQUESTS`, and prints what it finds on standard output:
    /// one USN per line, or one JSON object per line with `usn` and optionally `st` and `location`. Its exit
    /// is its stop; a non-zero exit status is its error. The devices live at 127.`addressBlock`.0.2 upwards.
    /// On `namespaceMulticast` (a private namespace's loopback only) they join 239.255.255.250:1900, which is
    /// where the client is sent: a library that searches the group and nothing else finds them there.
    package static func runClient(
        _ scenario: Scenario,
        seed: UInt64,
        command: String,
        policy: SearchPolicy = .design,
        network: LiveNetwork = .loopback,
        addressBlock: UInt8 = 0,
        trace: Tracing = .off
    ) async throws -> (record: RunRecord, searchHost: String) {
        let recorder = LiveRecorder(mode: .externalClient, seed: seed, tracing: trace == .everyDatagram)
        let simulator = try await startSimulator(
            scenario,
            seed: seed,
            recorder: recorder,
            network: network,
            addressBlock: addressBlock
        )
        recorder.watchHTTP(locations: simulator.devices.map(\.location))
        let multicast = network == .namespaceMulticast
        let host = multicast ? SSDPSearchSessionConfiguration.multicastHost : "127.0.0.1"
        let port = simulator.udpAddress.port ?? 0
        let client = ExternalClient(recorder: recorder)
        do {
            try await startingClients.enter()
        } catch {
            _ = await simulator.shutdown()  // cancelled while waiting for its place
            throw error
        }
        await simulator.startClocks()
        recorder.startClock()
        do {
            try client.start(
                command: command,
                environment: [
                    "SSDP_HOST": host, "SSDP_PORT": "\(port)", "SSDP_ST": scenario.search.target,
                    "SSDP_MX": "\(scenario.search.mx)", "SSDP_REQUESTS": "\(scenario.search.requests)",
                ]
            )
        } catch {
            startingClients.leave()
            _ = await simulator.shutdown()
            throw HarnessError(reason: "cannot start the client command: \(error)")
        }
        // Its place among the clients starting, until it shows it runs (bounded: the allowance from its launch,
        // looked at every 10 ms).
        let deadline = ContinuousClock.now + clientStartAllowance
        Task {
            _ = await waitUntil(deadline) { recorder.hasSearch || client.hasPrintedOrExited }
            startingClients.leave()
        }
        // A client whose stop is its own is given the longest of the design's and its policy's.
        let ownStop: Duration =
            switch policy.stop {
            case .after(let duration), .idle(let duration): duration + scenario.search.designedStop
            case .designed, .unjudged: .zero
            }
        let limit = max(scenario.search.designedStop, ownStop) + clientGrace
        // The events count from the start of the search as the client's timing does, from its first M-SEARCH:
        // an interpreter that takes a second to start must not find a reboot "at 1 s" behind it. Those at 0 s
        // happen before it can search. The later ones are scheduled as the first M-SEARCH is heard, on the
        // simulator's thread: a task that looked for it every 5 ms woke more than a second late on a busy
        // machine, and a byebye "at 1 s" came after the answer it was to void, sent 2 s after the search.
        var scheduled = schedule(scenario.events.filter { $0.at <= .zero }, from: .now(), on: simulator, recorder)
        let later = scenario.events.filter { $0.at > .zero }
        let laterScheduled = NIOLockedValueBox<(tasks: [Scheduled<Void>], runEnded: Bool)>(([], false))
        if !later.isEmpty {
            recorder.onFirstClientSearch { [weak recorder] start in  // weak: the recorder keeps the hook
                laterScheduled.withLockedValue { state in
                    guard !state.runEnded, let recorder else { return }
                    let deadline = NIODeadline.now() - TimeAmount(ContinuousClock.now - start)
                    state.tasks = schedule(later, from: deadline, on: simulator, recorder)
                }
            }
        }
        if !(await client.exited.wait(timeout: limit)) {
            client.kill()
            recorder.note("the client was still running \(limit.secondsText) s after the search began; it was killed")
            _ = await client.exited.wait(timeout: .seconds(5))
        }
        scheduled += laterScheduled.withLockedValue { state in
            state.runEnded = true
            return state.tasks
        }
        for task in scheduled { task.cancel() }
        if !later.isEmpty, !recorder.hasSearch {
            recorder.note("the client sent no M-SEARCH, so the scenario's events after 0 s did not happen")
        }
        // Something the client started may still hold its output open: give it a second, then kill the group.
        if !(await client.outputClosed.wait(timeout: .seconds(1))) {
            client.kill()
            recorder.note("the client's output stayed open after it exited; what it started was killed")
            _ = await client.outputClosed.wait(timeout: .seconds(2))
        }
        client.finish()
        try? await Task.sleep(for: linger)
        _ = await simulator.shutdown()
        return (recorder.record, "\(host):\(port)")
    }

    /// Runs `body` while the scenario's timed events happen to the live devices, each at its time from now
    /// (the start of the search), through the same operations as the control API's. They are timed by the
    /// simulator's event loop, not by tasks that a busy machine's cooperative pool may wake a second late;
    /// what is still to come when `body` returns does not happen. An event the device's state does not
    /// allow is noted.
    private static func playing(
        _ events: [TimedEvent],
        on simulator: DeviceSimulator,
        recorder: LiveRecorder,
        _ body: () async -> Void
    ) async {
        let scheduled = schedule(events, from: .now(), on: simulator, recorder)
        await body()
        for task in scheduled { task.cancel() }
    }

    /// Schedules each of `events` at its time from `start` on the simulator's event loop; an event the
    /// device's state does not allow is noted.
    private static func schedule(
        _ events: [TimedEvent],
        from start: NIODeadline,
        on simulator: DeviceSimulator,
        _ recorder: LiveRecorder
    ) -> [Scheduled<Void>] {
        events.map { event in
            let deadline = start + TimeAmount(event.at)
            guard let operation = event.operation else { return simulator.scheduleNetwork(event.network, at: deadline) }
            return simulator.schedule(operation, on: event.device, at: deadline) { result in
                if case .failure(let error) = result {
                    recorder.note("the \(event.action.rawValue) at \(event.at.secondsText) s was not done: \(error)")
                }
            }
        }
    }

    private static func startSimulator(
        _ scenario: Scenario,
        seed: UInt64,
        recorder: LiveRecorder,
        network: LiveNetwork = .loopback,
        addressBlock: UInt8
    ) async throws -> DeviceSimulator {
        let multicast = network == .namespaceMulticast
        var configuration = SimulatorConfiguration(
            devices: scenario.devices,
            interfaces: ["lo"],
            port: multicast ? SSDPSearchSessionConfiguration.multicastPort : 0,
            httpPort: .any,
            listening: multicast ? .multicast : .unicastOnly,
            seed: seed,
            bootID: 1
        )
        if addressBlock > 0 {
            configuration.addressing = .list(
                DeviceAddressing.loopbackAddresses(count: scenario.devices.count, block: addressBlock)
            )
        }
        // Always: what the devices sent is what every reported service is held against.
        configuration.reportsDatagrams = true
        // The scenario's network faults, on what the simulator sends and hears (the client's side is the
        // real loopback).
        configuration.network = scenario.network
        let logger = Logger(label: "ssdp-sim.harness") { _ in SwiftLogNoOpLogHandler() }
        return try await DeviceSimulator.start(configuration, logger: logger) { event in
            switch event {
            case .datagram(let received, let peer, let local, let bytes):
                // Each search as it reached the simulator's socket: once, whatever the network faults then
                // make of it (lost, heard late, heard twice).
                if received, let message = try? SSDPParser.parseMessage(bytes), message.kind == .search {
                    recorder.search(message.headers)
                }
                recorder.datagram(received: received, peer: peer, local: local, bytes: bytes)
            case .httpRequest(let method, let path, let status, let origin):
                recorder.http { $0.requests.append(.init(at: $1, method: method, url: origin + path, status: status)) }
            case .actionCalled(let record):
                let errorCode: Int? = if case .failure(let error) = record.outcome { error.code } else { nil }
                let arguments = Dictionary(record.call.arguments.map { ($0.name, $0.value) }) { $1 }
                recorder.http {
                    $0.actions.append(
                        .init(
                            at: $1,
                            udn: record.udn,
                            action: record.call.actionName,
                            arguments: arguments,
                            errorCode: errorCode
                        )
                    )
                }
            case .eventSent(let delivery) where !delivery.silent:
                recorder.http {
                    $0.events.append(
                        .init(
                            at: $1,
                            udn: delivery.udn,
                            serviceType: delivery.serviceType,
                            sid: delivery.event.sid,
                            callback: delivery.event.callback,
                            sequence: delivery.event.sequence,
                            body: delivery.event.body,
                            status: delivery.status,
                            lost: delivery.lost
                        )
                    )
                }
            default:
                break
            }
        }
    }
}
