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
import Testing

@testable import SSDPDeviceCore

/// The fates the network faults draw: windows ("lose the first two answers, then none"), answer loss,
/// and the same draws as before windows existed when none is set.
struct NetworkFaultMachineTests {
    private func fates(_ machine: inout NetworkFaultMachine, answers: Int) -> [[Duration?]] {
        (0..<answers).map { _ in Array(machine.copies(answer: true)) }
    }

    @Test func answerLossWithTimesLosesTheFirstAnswersThenNone() {
        var faults = NetworkFaults()
        faults.answerLoss = 1
        faults.windows[.answerLoss] = NetworkFaults.Window(times: 2)
        var machine = NetworkFaultMachine(faults: faults, seed: 7)
        #expect(fates(&machine, answers: 5) == [[nil], [nil], [.zero], [.zero], [.zero]])
        // A NOTIFY or a search is not an answer: answer loss lets it pass.
        var again = NetworkFaultMachine(faults: faults, seed: 7)
        #expect(Array(again.copies()) == [.zero])
    }

    @Test func afterLetsTheFirstDatagramsPassAndSettingFaultsStartsTheWindowsOver() {
        var faults = NetworkFaults()
        faults.loss = 1
        faults.windows[.loss] = NetworkFaults.Window(after: 2, times: 1)
        var machine = NetworkFaultMachine(faults: faults, seed: 1)
        #expect(fates(&machine, answers: 4) == [[.zero], [.zero], [nil], [.zero]])
        machine.set(faults)
        #expect(fates(&machine, answers: 4) == [[.zero], [.zero], [nil], [.zero]])
        machine.set(faults)
        #expect([machine.hears(), machine.hears(), machine.hears(), machine.hears()] == [true, true, false, true])
    }

    @Test func aDuplicateWindowDoublesOnlyTheDatagramsInIt() {
        var faults = NetworkFaults()
        faults.duplicate = 1
        faults.windows[.duplicate] = NetworkFaults.Window(after: 1, times: 1)
        var machine = NetworkFaultMachine(faults: faults, seed: 3)
        #expect((0..<3).map { _ in machine.copies().count } == [1, 2, 1])
    }

    /// Without windows the machine draws exactly what the virtual network drew before it had them: loss,
    /// then latency, then reordering per copy, duplication first, each drawn only when its probability is
    /// above 0, from the seed's `0xFA17` stream (the `.sent` side).
    @Test(arguments: [UInt64(1), 42, 9_001])
    func withoutWindowsTheDrawsAreTheVirtualNetworksOfBefore(seed: UInt64) {
        var faults = NetworkFaults()
        faults.latency = .milliseconds(10) ... .milliseconds(300)
        faults.loss = 0.2
        faults.duplicate = 0.3
        faults.reorder = 0.5
        faults.reorderDelay = .milliseconds(200)
        var machine = NetworkFaultMachine(faults: faults, seed: seed)
        var random = SSDPRandom.derived(seed: seed, stream: 0xFA17)
        func fate() -> Duration? {
            if random.chance(0.2) { return nil }
            var delay = Duration.milliseconds(10) + random.duration(upTo: .milliseconds(290))
            if random.chance(0.5) { delay += random.duration(upTo: .milliseconds(200)) }
            return delay
        }
        for _ in 0..<2_000 {
            let duplicated = random.chance(0.3)
            let first = fate()
            let expected = duplicated ? [first, fate()] : [first]
            #expect(Array(machine.copies()) == expected)
        }
    }

    @Test func theSidesOfASeedDrawApart() {
        var faults = NetworkFaults()
        faults.loss = 0.5
        var sent = NetworkFaultMachine(faults: faults, seed: 9)
        var heard = NetworkFaultMachine(faults: faults, seed: 9, side: .heard)
        let fates = { (machine: inout NetworkFaultMachine) in (0..<64).map { _ in machine.copies()[0] == nil } }
        #expect(fates(&sent) != fates(&heard))
        var again = NetworkFaultMachine(faults: faults, seed: 9)
        var first = NetworkFaultMachine(faults: faults, seed: 9)
        #expect(fates(&again) == fates(&first))
    }

    @Test func aCleanNetworkDrawsNothing() {
        var machine = NetworkFaultMachine(faults: NetworkFaults(), seed: 5)
        #expect(machine.isClean)
        #expect((0..<100).allSatisfy { _ in Array(machine.copies(answer: true)) == [.zero] && machine.hears() })
    }
}
