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

/// The result of one scenario in one mode with one seed.
package struct ScenarioResult: Sendable {
    /// The scenario that was run.
    package var scenario: Scenario
    /// The seed the run used: the scenario's, or the runner's.
    package var seed: UInt64
    /// The mode it ran in.
    package var mode: RunMode
    /// Every check's result, in the order `ScenarioChecks.evaluate()` gives; empty when not run.
    package var checks: [CheckResult]
    /// What the run recorded; empty when it was skipped or the harness could not run it.
    package var record: RunRecord
    /// Wall-clock time the run took.
    package var elapsed: Duration
    /// Why the scenario was not run in this mode, if it was not.
    package var skipped: String?
    /// Why the harness could not run it (a socket that would not open, a client that would not start).
    package var harnessError: String?

    /// Run, and no check failed (checks this mode cannot observe are skipped, and neither pass nor fail it).
    package var passed: Bool { skipped == nil && harnessError == nil && !checks.contains(where: \.failed) }
    /// The checks that failed.
    package var failedChecks: [CheckResult] { checks.filter(\.failed) }
    /// The checks this mode could not observe.
    package var skippedChecks: [CheckResult] { checks.filter(\.skipped) }
}

/// Runs scenarios in one mode and checks their expectations.
package struct ScenarioRunner: Sendable {
    /// How scenarios are run: in virtual time, over loopback, or with an external client.
    package enum Mode: Sendable, Hashable {
        case virtual
        /// Live over real sockets, on `network`.
        case live(LiveNetwork)
        /// Devices live on `network`; `command` is the client, held to `policy` (its searches' count,
        /// spacing, MX and ST, and its stop).
        case externalClient(command: String, policy: SearchPolicy = .design, network: LiveNetwork = .loopback)

        /// Where its devices live; `nil` in virtual time.
        var network: LiveNetwork? {
            switch self {
            case .virtual: nil
            case .live(let network), .externalClient(_, _, let network): network
            }
        }

        var runMode: RunMode {
            switch self {
            case .virtual: .virtual
            case .live: .live
            case .externalClient: .externalClient
            }
        }
    }

    /// How every scenario is run.
    package var mode: Mode
    /// Replaces every scenario's seed.
    package var seed: UInt64?
    /// What each run keeps of the datagrams on the wire.
    package var trace: Tracing
    /// Where a live run's devices live on loopback: 127.`addressBlock`.0.2 upwards, so that live runs side
    /// by side have addresses of their own (`DeviceAddressing.loopbackAddresses`).
    package var addressBlock: UInt8
    /// The groups of checks made (`run --checks`); `nil`: all.
    package var checks: Set<CheckGroup>?

    /// A runner in `mode`; `seed` replaces every scenario's seed, `trace` says what is kept of the
    /// datagrams, `addressBlock` where live devices live, and `checks` which groups of checks are made.
    package init(
        mode: Mode = .virtual,
        seed: UInt64? = nil,
        trace: Tracing = .off,
        addressBlock: UInt8 = 0,
        checks: Set<CheckGroup>? = nil
    ) {
        self.mode = mode
        self.seed = seed
        self.trace = trace
        self.addressBlock = addressBlock
        self.checks = checks
    }

    /// The policy the client is held to: the design's but for an external client that declares its own.
    var policy: SearchPolicy {
        if case .externalClient(_, let policy, _) = mode { policy } else { .design }
    }

    /// Runs one scenario. Scenarios not tagged `live` are skipped in the live modes.
    package func run(_ scenario: Scenario) async -> ScenarioResult {
        let seed = self.seed ?? scenario.seed
        let clock = ContinuousClock()
        let start = clock.now
        var result = ScenarioResult(
            scenario: scenario,
            seed: seed,
            mode: mode.runMode,
            checks: [],
            record: RunRecord(mode: mode.runMode, seed: seed),
            elapsed: .zero
        )
        if mode.runMode != .virtual, !scenario.isLive {
            result.skipped = "not tagged live"
            return result
        }
        if let reason = policy.reasonToSkip(scenario) {
            result.skipped = reason
            return result
        }
        do {
            let (record, searchHost, tolerance) = try await execute(scenario, seed: seed)
            result.record = record
            var checks = ScenarioChecks(
                scenario: scenario,
                record: record,
                tolerance: tolerance,
                searchHost: searchHost
            )
            checks.policy = policy
            checks.selection = self.checks
            result.checks = checks.evaluate()
        } catch {
            result.harnessError = "\(error)"
        }
        result.elapsed = clock.now - start
        return result
    }

    private func execute(_ scenario: Scenario, seed: UInt64) async throws -> (RunRecord, String, Duration) {
        switch mode {
        case .virtual:
            let record = try VirtualRun.run(scenario, seed: seed, trace: trace)
            return (record, "\(VirtualRun.searchDestination(scenario.search))", .zero)
        case .live(let network):
            let (record, host) = try await LiveRun.run(
                scenario,
                seed: seed,
                network: network,
                addressBlock: addressBlock,
                trace: trace
            )
            return (record, host, LiveRun.tolerance)
        case .externalClient(let command, let policy, let network):
            let (record, host) = try await LiveRun.runClient(
                scenario,
                seed: seed,
                command: command,
                policy: policy,
                network: network,
                addressBlock: addressBlock,
                trace: trace
            )
            return (record, host, LiveRun.clientTolerance)
        }
    }
}

extension ScenarioResult {
    /// A result made of its parts, for tests that judge a record they made.
    package init(scenario: Scenario, seed: UInt64, checks: [CheckResult], record: RunRecord) {
        self.init(scenario: scenario, seed: seed, mode: record.mode, checks: checks, record: record, elapsed: .zero)
    }
}

extension ScenarioRunner {
    /// How many runs of `mode` go at once unless told: virtual runs are computation, one per core; live
    /// runs and external clients mostly wait on the clock, so sixteen per core, which runs the shipped live
    /// scenarios all at once on two cores (together they keep one core busy for about 3 % of their time with
    /// the built-in session, 30 % with the reference Python client).
    package static func defaultJobs(for mode: Mode, cores: Int = ProcessInfo.processInfo.activeProcessorCount) -> Int {
        mode == .virtual ? max(1, cores) : min(maximumJobs, 16 * max(1, cores))
    }

    /// The most runs at once (`--jobs`): each live one has an address block of its own, 0...255.
    package static let maximumJobs = 256

    /// How many runs of `mode` can go at once when `jobs` are asked for: a live run in a namespace searches
    /// 239.255.255.250:1900 there, which a second run would hear, so those go one at a time.
    package static func width(for mode: Mode, jobs: Int) -> Int {
        mode.network == .namespaceMulticast ? 1 : min(max(1, jobs), maximumJobs)
    }

    /// Runs every run of a sweep (a scenario and the seed to run it with) in `mode`, and hands each result to
    /// `completed` in the order of `runs` as soon as it and every run before it are done. `completed` runs
    /// in the caller's isolation (on the main actor for a caller on it).
    ///
    /// Up to `jobs` runs go at once (`width(for:jobs:)`): virtual runs are pure computation, one thread each,
    /// so one per core makes a seed sweep as many times faster; live runs and external clients mostly wait,
    /// each on its own ports and with its devices at addresses of their own (`addressBlock`: the lowest
    /// block no other run holds), so they go side by side too, each with the same checks and tolerances as
    /// alone. Runs start in order, and never more than `2 × jobs` ahead of the next result handed out:
    /// finished results wait in that window, not for the whole sweep.
    package static func sweep(
        _ runs: [(scenario: Scenario, seed: UInt64)],
        mode: Mode,
        trace: Tracing = .off,
        checks: Set<CheckGroup>? = nil,
        jobs: Int,
        isolation: isolated (any Actor)? = #isolation,
        completed: (_ index: Int, _ result: ScenarioResult) async -> Void
    ) async {
        let width = width(for: mode, jobs: jobs)
        await withTaskGroup(of: (Int, UInt8, ScenarioResult).self, isolation: isolation) { group in
            var started = 0
            var handedOut = 0
            var waiting: [Int: ScenarioResult] = [:]
            // The address blocks no running run holds, lowest last: a sweep one at a time stays in block 0. A
            // free block is also what bounds the runs at once to `width`.
            var freeBlocks = (0..<width).reversed().map { UInt8($0) }
            while handedOut < runs.count {
                while started < runs.count, started - handedOut < 2 * width, let block = freeBlocks.popLast() {
                    let (index, (scenario, seed)) = (started, runs[started])
                    group.addTask {
                        let runner = ScenarioRunner(
                            mode: mode,
                            seed: seed,
                            trace: trace,
                            addressBlock: block,
                            checks: checks
                        )
                        return (index, block, await runner.run(scenario))
                    }
                    started += 1
                }
                guard let (index, block, result) = await group.next() else { return }
                freeBlocks.append(block)
                freeBlocks.sort(by: >)
                waiting[index] = result
                while let result = waiting.removeValue(forKey: handedOut) {
                    await completed(handedOut, result)
                    handedOut += 1
                }
            }
        }
    }
}
