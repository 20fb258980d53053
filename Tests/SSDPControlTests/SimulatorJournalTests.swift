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
import NIOConcurrencyHelpers
import NIOCore
import NIOEmbedded
import SSDPCore
import SSDPDeviceCore
import Testing

@testable import SSDPDevices
@testable import SSDPSimulator

/// The journal on its own, fed events directly: no sockets.
@Suite struct SimulatorJournalTests {
    /// docs/control.md's table of the journal's entries lists the kinds `JournalEntry.Kind` has, in its
    /// order (the OpenAPI document's list is written from the type).
    @Test func theDocumentationListsEveryKindInOrder() throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let page = try String(contentsOf: repository.appendingPathComponent("docs/control.md"), encoding: .utf8)
        let parts = page.components(separatedBy: "| kind | `fields.event` | fields |\n| --- | --- | --- |\n")
        try #require(parts.count == 2, "docs/control.md has no table of the journal's kinds")
        let kinds = parts[1].split(separator: "\n").prefix { $0.hasPrefix("| `") }.map {
            String($0.dropFirst(3).prefix { $0 != "`" })
        }
        #expect(kinds == JournalEntry.Kind.allCases.map(\.rawValue))
    }

    @Test func keepsTheNewestEntriesAndCountsTheDropped() {
        let journal = SimulatorJournal(capacity: 3)
        for index in 1...5 { journal.append(JournalEvents.keypress("Key\(index)")) }
        let page = journal.entries(matching: JournalFilter())
        #expect(page.entries.map(\.seq) == [3, 4, 5])
        #expect(page.entries.map { $0.fields["value"] } == ["Key3", "Key4", "Key5"])
        #expect(page.dropped == 2)
        #expect(page.next == 5)
    }

    @Test func skipsStartedStoppedAndDatagrams() {
        let journal = SimulatorJournal()
        journal.append(.stopped(SimulatorCounters()))
        journal.append(.datagram(received: true, peer: JournalEvents.peer, local: JournalEvents.peer, bytes: [1, 2]))
        journal.append(.notificationsSent(subtype: .alive, count: 4))
        let entries = journal.entries(matching: JournalFilter()).entries
        #expect(entries.map(\.kind) == [.notify])
        #expect(entries.first?.seq == 1)
    }

    @Test func aRoundOfSeveralDevicesNOTIFYsIsEachOfTheirs() throws {
        let journal = SimulatorJournal()
        // The first round before `started`, as a device's first NOTIFYs may be: its UDNs come with `started`.
        journal.append(.notificationsSent(subtype: .alive, count: 6, devices: [1, 3]))
        let roots = (1...3).map {
            SimulatorProfile.roku.device(number: $0, seed: 5)
                .rootDevice(baseURL: "http://127.0.0.\($0 + 1):8060/", defaultBootID: 1)
        }
        journal.append(.started(udp: JournalEvents.peer, http: JournalEvents.peer, devices: roots, links: []))
        let third = roots[2].device.udn
        journal.append(.notificationsSent(subtype: .byebye, count: 3, devices: [3]))
        journal.append(.notificationsSent(subtype: .alive, count: 3))
        func seqs(device: String) -> [Int] {
            journal.entries(matching: JournalFilter(kind: .notify, device: device)).entries.map(\.seq)
        }
        #expect(seqs(device: "1") == [1])
        #expect(seqs(device: "3") == [1, 2])
        #expect(seqs(device: third) == [1, 2], "by UDN too, the round before `started` included")
        #expect(seqs(device: "2").isEmpty)
        #expect(seqs(device: roots[1].device.udn).isEmpty)
        let entries = journal.entries(matching: JournalFilter()).entries
        #expect(entries.map(\.device) == [nil, 3, nil], "a device only for one device's")
        #expect(entries.map { $0.fields["devices"] } == [.array([.int(1), .int(3)]), .array([.int(3)]), nil])
        let miss = JournalFilter(kind: .notify, device: "2").mismatches(of: entries[0])
        #expect(miss == [JournalMismatch(field: "device", expected: "2", actual: "1,3")])
    }

    @Test func filtersByKindSinceAndFields() {
        let journal = SimulatorJournal()
        journal.append(JournalEvents.http("/query/apps"))
        journal.append(JournalEvents.keypress("Home"))
        journal.append(JournalEvents.http("/keypress/Home", method: "POST"))
        journal.append(JournalEvents.http("/keypress/Back", method: "POST"))
        let posts = journal.entries(
            matching: JournalFilter(kind: .http, fields: [.init(name: "method", value: "POST")])
        )
        #expect(posts.entries.map(\.seq) == [3, 4])
        let home = journal.entries(matching: JournalFilter(fields: [.init(name: "path", value: "/keypress/Home")]))
        #expect(home.entries.map(\.seq) == [3])
        let since = journal.entries(matching: JournalFilter(kind: .http, since: 3))
        #expect(since.entries.map(\.seq) == [4])
        let status = journal.entries(matching: JournalFilter(fields: [.init(name: "status", value: "200")]))
        #expect(status.entries.count == 3, "numbers compare as text")
    }

    @Test func aDottedNameReachesIntoTheArguments() {
        let journal = SimulatorJournal()
        journal.append(JournalEvents.soap(port: "8080"))
        journal.append(JournalEvents.soap(port: "9090"))
        let filter = JournalFilter(
            kind: .soap,
            fields: [
                .init(name: "action", value: "AddPortMapping"), .init(name: "arguments.NewExternalPort", value: "9090"),
            ]
        )
        #expect(journal.entries(matching: filter).entries.map(\.seq) == [2])
    }

    @Test func aLimitPagesAndNextGoesOn() {
        let journal = SimulatorJournal()
        for index in 1...5 { journal.append(JournalEvents.keypress("Key\(index)")) }
        let first = journal.entries(matching: JournalFilter(), limit: 2)
        #expect(first.entries.map(\.seq) == [1, 2])
        #expect(first.next == 2)
        let second = journal.entries(matching: JournalFilter(since: first.next), limit: 10)
        #expect(second.entries.map(\.seq) == [3, 4, 5])
        #expect(second.next == 5)
    }

    @Test func clearForgetsButSequenceNumbersGoOn() {
        let journal = SimulatorJournal()
        journal.append(JournalEvents.keypress("Home"))
        journal.clear()
        #expect(journal.entries(matching: JournalFilter()).entries.isEmpty)
        journal.append(JournalEvents.keypress("Back"))
        #expect(journal.entries(matching: JournalFilter()).entries.map(\.seq) == [2])
    }

    @Test func aWaitIsSatisfiedByEntriesAlreadyThere() async {
        let journal = SimulatorJournal()
        journal.append(JournalEvents.keypress("Home"))
        let result = await journal.wait(for: JournalFilter(kind: .action), timeout: .seconds(5))
        #expect(result.outcome == .satisfied)
        #expect(result.entries.map(\.seq) == [1])
    }

    @Test func aWaitWakesOnTheAppendThatCompletesIt() async throws {
        // Timers on a virtual clock that never moves: no timeout and no polling could wake the wait.
        let journal = SimulatorJournal(eventLoopGroup: NIOAsyncTestingEventLoop())
        let filter = JournalFilter(kind: .action, fields: [.init(name: "value", value: "Home")])
        async let waited = journal.wait(for: filter, count: 2, timeout: .seconds(30))
        try await journal.untilWaiting()
        journal.append(JournalEvents.keypress("Home"))
        journal.append(JournalEvents.keypress("Back"))
        #expect(journal.pendingWaits == 1)
        journal.append(JournalEvents.keypress("Home"))
        // The append itself completed the wait, before this task gave any other a turn.
        try #require(journal.pendingWaits == 0)
        let result = await waited
        #expect(result.outcome == .satisfied)
        #expect(result.entries.map(\.seq) == [1, 3])
    }

    @Test func aWaitThatTimesOutReportsTheNearMisses() async {
        let journal = SimulatorJournal()
        journal.append(JournalEvents.keypress("Home"))
        journal.append(JournalEvents.http("/keypress/Back", method: "POST"))
        journal.append(JournalEvents.http("/query/apps"))
        let filter = JournalFilter(kind: .http, fields: [.init(name: "path", value: "/keypress/Home")])
        let started = ContinuousClock.now
        let result = await journal.wait(for: filter, timeout: .milliseconds(200))
        #expect(ContinuousClock.now - started >= .milliseconds(200))
        #expect(result.outcome == .timedOut)
        #expect(result.entries.isEmpty)
        #expect(result.nearMisses.map(\.entry.seq) == [2, 3], "the entries of the kind asked for")
        #expect(
            result.nearMisses.first?.mismatches
                == [JournalMismatch(field: "path", expected: "/keypress/Home", actual: "/keypress/Back")]
        )
    }

    @Test func withoutAKindTheNearMissesAreThoseThatMetSomeCondition() async {
        let journal = SimulatorJournal()
        journal.append(JournalEvents.keypress("Home"))
        journal.append(JournalEvents.http("/keypress/Home", method: "GET"))
        let filter = JournalFilter(fields: [
            .init(name: "path", value: "/keypress/Home"), .init(name: "method", value: "POST"),
        ])
        let result = await journal.wait(for: filter, timeout: .zero)
        #expect(result.outcome == .timedOut)
        #expect(result.nearMisses.map(\.entry.seq) == [2])
        #expect(result.nearMisses.first?.mismatches.map(\.field) == ["method"])
    }

    @Test func aCancelledWaitEndsAtOnce() async {
        let journal = SimulatorJournal()
        let task = Task { await journal.wait(for: JournalFilter(kind: .device), timeout: .seconds(60)) }
        try? await journal.untilWaiting()
        task.cancel()
        let result = await task.value
        #expect(result.outcome == .cancelled)
        #expect(journal.state.withLockedValue { $0.waiters.isEmpty && $0.unregistered.isEmpty })
    }

    /// 100,000 events into a journal of 10,000: it keeps 10,000, counts 90,000 dropped, and its storage stops
    /// growing once it is full (the second 50,000 events leave it as the first left it). The process's
    /// resident memory is printed as a figure, not asserted: other tests run beside this one and move it (a
    /// CI rehearsal saw 19 MiB between the halves, none of it the journal's).
    @Test func staysBoundedUnderAFlood() {
        let journal = SimulatorJournal()
        let before = ProcessMemory.residentKiB()
        let started = ContinuousClock.now
        var halfway = 0
        var storageHalfway = 0
        let storage = { journal.state.withLockedValue { $0.entries.capacity } }
        for index in 0..<100_000 {
            journal.append(index % 2 == 0 ? JournalEvents.http("/keypress/Lit_\(index)") : JournalEvents.answer(index))
            if index == 49_999 { (halfway, storageHalfway) = (ProcessMemory.residentKiB(), storage()) }
        }
        let elapsed = ContinuousClock.now - started
        let after = ProcessMemory.residentKiB()
        let page = journal.entries(matching: JournalFilter(), limit: .max)
        print(
            "journal flood: 100000 events in \(elapsed) (\(elapsed / 100_000) each), RSS \(before) KiB, "
                + "\(halfway) KiB after 50000, \(after) KiB after 100000; kept \(page.entries.count), dropped \(page.dropped)"
        )
        #expect(page.entries.count == 10_000)
        #expect(page.dropped == 90_000)
        #expect(page.entries.first?.seq == 90_001)
        #expect(storage() == storageHalfway, "the second 50,000 events do not grow its storage")
        #expect(storage() < 2 * journal.capacity, "room for its 10,000 entries, not for every event")
    }
}

/// Events of each kind, made without a simulator.
enum JournalEvents {
    static let peer = try! SocketAddress(ipAddress: "127.0.0.1", port: 50_000)
    static let udn = "uuid:roku-1"

    static func keypress(_ key: String) -> SimulatorEvent {
        .deviceAction(DeviceAction(udn: udn, name: "keypress", value: key))
    }

    static func http(_ path: String, method: String = "GET") -> SimulatorEvent {
        .httpRequest(method: method, path: path, status: 200, origin: "http://127.0.0.2:8060")
    }

    static func answer(_ index: Int) -> SimulatorEvent {
        .answerSent(to: peer, usn: "\(udn)::upnp:rootdevice", target: "upnp:rootdevice")
    }

    static func soap(port: String) -> SimulatorEvent {
        let call = SOAPActionCall(
            serviceType: "urn:schemas-upnp-org:service:WANIPConnection:1",
            actionName: "AddPortMapping",
            arguments: [SOAPArgument("NewExternalPort", port), SOAPArgument("NewProtocol", "TCP")]
        )
        return .actionCalled(ActionRecord(udn: udn, serviceType: call.serviceType, call: call, outcome: .success([])))
    }
}

/// The process's resident memory, from /proc/self/status.
enum ProcessMemory {
    static func residentKiB() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }
}
