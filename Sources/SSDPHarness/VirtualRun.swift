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
import SSDPDeviceCore
import SSDPDevices
import SSDPSimulator
import SSDPVirtualNetwork

/// Runs a scenario in virtual time: the production `SearchSessionStateMachine` searches, each device is
/// the production `SimulatorResponder` and `DeviceAdvertiser` on its own virtual host, and a seeded
/// virtual network carries the datagrams between them with the scenario's latency, loss, duplication and
/// reordering. No sockets and no clock: an event queue jumps from one instant to the next.
///
/// The client listens on an ephemeral port, as the real session does, so it never hears NOTIFY messages;
/// they appear in the trace only, and only a traced run makes them.
package struct VirtualRun {
    /// The largest UDP payload over IPv4.
    static let maximumUDPPayload = 65_507
    /// How long the run goes on after the search stops, to see answers that arrive late.
    static let tail = Duration.seconds(60)
    /// A bound on events, so a run always ends.
    static let maximumEvents = 5_000_000

    /// Where the client sends its searches: the group, or the one device a unicast search is for.
    package static func searchDestination(_ search: SearchSpecification) -> SSDPEndpoint {
        search.mode == .multicast ? search.addressPlan.group : search.addressPlan.device(search.device - 1)
    }

    private var client: SSDPEndpoint { scenario.search.addressPlan.client }
    private var group: SSDPEndpoint { scenario.search.addressPlan.group }

    private enum Event {
        case sessionTimer
        case advertiserTimer(host: Int, generation: Int)
        case deliver(bytes: [UInt8], from: SSDPEndpoint, to: Recipient)
        case answer(host: Int, generation: Int, bytes: [UInt8], to: SSDPEndpoint)
        /// `scenario.events[eventNumber]`: named by its place, so that an event is no larger than its largest case
        /// here (a `TimedEvent`, with a device change and network faults in it, made every event the queue
        /// moves several times as large).
        case scenario(eventNumber: Int)
        case back(host: Int)
    }

    private enum Recipient {
        case client
        case host(Int)
    }

    /// One device on its own virtual host.
    private struct Host {
        /// The device on its host: its address, responder, advertiser or notification replay.
        var virtual: VirtualHost
        /// Up, gone or rebooting, with the BOOTID; its generation grows when the device goes down, and answers
        /// and timers of an older generation are void.
        var lifecycle: DeviceLifecycle
        /// The generation the responder was made in: answers from it free their place in it.
        var responderGeneration: Int

        /// Device `index` on its host, in `lifecycle`'s generation, built in place, its advertiser started.
        init(
            _ device: SimulatedDevice,
            index: Int,
            plan: VirtualAddressPlan,
            lifecycle: DeviceLifecycle,
            seed: UInt64,
            notifyHost: String,
            at start: SSDPInstant
        ) {
            virtual = VirtualHost(
                device,
                index: index,
                plan: plan,
                bootID: lifecycle.bootID,
                generation: lifecycle.generation,
                seed: seed,
                notifyHost: notifyHost,
                at: start
            )
            self.lifecycle = lifecycle
            responderGeneration = lifecycle.generation
            // A replaying device multicasts what the capture shows and nothing else.
            if virtual.notificationReplay == nil { virtual.advertiser.start(at: start) }
        }

        var online: Bool { lifecycle.state == .alive }
        var generation: Int { lifecycle.generation }
        /// What earlier generations delivered and heard.
        var deliveredBefore = 0
        var heardBefore = 0

        /// M-SEARCH messages that reached the device while it was up, but for those its host's rate limit kept
        /// from it (the host has this one device: a search that left a device unasked left it).
        var delivered: Int {
            let counters = virtual.responder.counters
            return deliveredBefore + counters.searchesAccepted + counters.searchesRejected
                - counters.searchesRateLimited
        }
        /// M-SEARCH messages the device accepted and considered.
        var heard: Int {
            // Read from the devices' stored statistics: `deviceStatistics`, a call into another module, made
            // the run copy the whole host to call it.
            heardBefore + virtual.responder.devices.reduce(0) { $0 + $1.statistics.searchesReceived }
        }
    }

    private let scenario: Scenario
    private let seed: UInt64
    /// Keep every datagram in the record, for `--trace`.
    private let tracing: Bool
    private var session: SearchSessionStateMachine
    /// Faults put into the session on purpose (the harness's own tests); none in every other run.
    private var faults: SessionFaults = []
    /// The M-SEARCH messages the session has made, sent or (with a fault) not.
    private var searchesMade = 0
    private var hosts: [Host] = []
    private var queue = EventQueue<Event>()
    /// The network faults on what the devices send (answers), drawn as the live simulator draws them.
    private var network: NetworkFaultMachine
    /// The network faults on what the devices hear (searches), from the seed's other side.
    private var clientNetwork: NetworkFaultMachine
    /// The devices as they run: as the scenario configures them, with every `change` event since.
    private var devices: [SimulatedDevice]
    private var now = SSDPInstant.zero
    private var sessionTimer: SSDPInstant?
    private var record: RunRecord
    private var stoppedAt: SSDPInstant?
    /// Events waiting that are not advertiser timers: once the search has stopped and none is left, the
    /// run is over (advertisers would go on for ever).
    private var pendingWork = 0
    /// Reads what the hosts receive: a multicast search reaches every host with the same bytes, which are
    /// parsed and checked once for all of them.
    private var reader = SimulatorResponder.Reader()
    /// The group as a NOTIFY's HOST header gives it, for every device's advertiser.
    private let notifyHost: String

    /// Runs `scenario` with `seed` (its own unless given) and returns what happened.
    package static func run(_ scenario: Scenario, seed: UInt64? = nil, trace: Tracing = .off) throws -> RunRecord {
        try run(scenario, seed: seed, trace: trace, faults: [])
    }

    /// The same with a deliberately broken session, for the tests that show the scenarios catch each fault.
    package static func run(
        _ scenario: Scenario,
        seed: UInt64? = nil,
        trace: Tracing = .off,
        faults: SessionFaults
    ) throws -> RunRecord {
        var run = try VirtualRun(scenario: scenario, seed: seed ?? scenario.seed, tracing: trace == .everyDatagram)
        run.faults = faults
        return run.run()
    }

    private init(scenario: Scenario, seed: UInt64, tracing: Bool) throws {
        self.scenario = scenario
        self.seed = seed
        self.tracing = tracing
        let destination = Self.searchDestination(scenario.search)
        session = SearchSessionStateMachine(
            configuration: try scenario.search.configuration(host: destination.address, port: destination.port)
        )
        network = NetworkFaultMachine(faults: scenario.network, seed: seed)
        clientNetwork = NetworkFaultMachine(faults: scenario.network, seed: seed, side: .heard)
        devices = scenario.devices
        record = RunRecord(mode: .virtual, seed: seed)
        record.reserveAdvertisements(scenario.devices.count)
        notifyHost = scenario.search.addressPlan.group.description.uppercased()
        hosts = scenario.devices.indices.map { makeHost($0, lifecycle: DeviceLifecycle(bootID: 1), at: .zero) }
    }

    private func makeHost(_ index: Int, lifecycle: DeviceLifecycle, at start: SSDPInstant) -> Host {
        Host(
            devices[index],
            index: index,
            plan: scenario.search.addressPlan,
            lifecycle: lifecycle,
            seed: seed,
            notifyHost: notifyHost,
            at: start
        )
    }

    // MARK: - The loop

    private mutating func run() -> RunRecord {
        for index in hosts.indices {
            scheduleAdvertiser(index)
        }
        for (index, event) in scenario.events.enumerated() {
            schedule(.scenario(eventNumber: index), at: SSDPInstant(offset: event.at))
        }
        perform(session.start(at: now))
        var events = 0
        // When the last event that was not an advertiser's timer happened: the run's duration, which NOTIFY
        // rounds (made only for a trace) must not lengthen.
        var lastWork = now
        while stoppedAt == nil || pendingWork > 0, events < Self.maximumEvents, let (at, event) = queue.next() {
            if !isTimer(event) { pendingWork -= 1 }
            if let stoppedAt, at > stoppedAt + Self.tail { break }
            now = at
            if !isTimer(event) { lastWork = at }
            events += 1
            handle(event)
        }
        if events >= Self.maximumEvents {
            record.notes.append(
                "the run stopped after \(Self.maximumEvents) events at \(now.offset.secondsText) s (virtual)"
            )
        }
        for index in hosts.indices where hosts[index].online {
            let byebyes = hosts[index].virtual.advertiser.stop(at: now)
            send(byebyes.map(hosts[index].virtual.advertiser.datagram), from: index)
        }
        record.statistics = session.statistics
        record.hearings = hosts.indices.map { index in
            RunRecord.Hearing(device: index + 1, delivered: hosts[index].delivered, heard: hosts[index].heard)
        }
        record.duration = lastWork.offset
        return record
    }

    private mutating func schedule(_ event: Event, at instant: SSDPInstant) {
        if !isTimer(event) { pendingWork += 1 }
        queue.schedule(event, at: instant)
    }

    private func isTimer(_ event: Event) -> Bool {
        if case .advertiserTimer = event { return true }
        return false
    }

    private mutating func handle(_ event: Event) {
        switch event {
        case .sessionTimer:
            sessionTimer = nil
            perform(session.timerFired(at: now))
        case .advertiserTimer(let index, let generation):
            guard hosts[index].generation == generation, hosts[index].online else { return }
            let alive = hosts[index].virtual.advertiser.timerFired(at: now)
            send(alive.map(hosts[index].virtual.advertiser.datagram), from: index)
            send(hosts[index].virtual.notificationReplay?.due(at: now) ?? [], from: index)
            scheduleAdvertiser(index)
        case .deliver(let bytes, let source, .client) where faults.isEmpty:
            let received = session.received(bytes, at: now)
            if case .reportService(let service) = received {
                record.record(.found(ReportedService(service)), at: now.offset)
            }
            if tracing { noteDelivery(received, from: source) }
        case .deliver(let bytes, let source, .client):
            let target = session.configuration.searchTarget
            let received = faults.result(session.received(bytes, at: now), of: bytes, searching: target, at: now)
            if case .reportService(let service) = received {
                record.record(.found(ReportedService(service)), at: now.offset)
            }
            if tracing { noteDelivery(received, from: source) }
        case .deliver(let bytes, let source, .host(let index)):
            receive(bytes, from: source, at: index)
        case .answer(let index, let generation, let bytes, let destination):
            if hosts[index].responderGeneration == generation { hosts[index].virtual.responder.answerFinished() }
            guard hosts[index].generation == generation, hosts[index].online else { return }
            record.noteSent(bytes)
            transmit(bytes, from: hosts[index].virtual.endpoint, to: destination, recipients: [.client], answer: true)
        case .scenario(let eventNumber):
            let event = scenario.events[eventNumber]
            guard let operation = event.operation else {
                network.set(event.network)
                clientNetwork.set(event.network)
                return
            }
            let index = event.device - 1
            // What the state does not allow (a reboot of a device that is down) is not done.
            guard let actions = try? hosts[index].lifecycle.apply(operation, at: now) else { return }
            if case .change(let change) = operation { reconfigure(index, with: change) }
            perform(actions, host: index)
            if !actions.isEmpty, let back = hosts[index].lifecycle.nextDeadline {
                schedule(.back(host: index), at: back)
            }
        case .back(let index):
            perform(hosts[index].lifecycle.timerFired(at: now), host: index)
        }
    }

    /// Device `index` runs as `change` leaves it from now on: the same device as the live simulator's
    /// `SimulatedDevice.changed(by:)` makes, its name, max-age, CONFIGID and behaviour in its responder and
    /// advertiser at the BOOTID it has (its live state is its HTTP side's, which a virtual run has not).
    private mutating func reconfigure(_ index: Int, with change: DeviceChange) {
        guard let changed = try? devices[index].changed(by: change) else { return }
        devices[index] = changed
        var root = hosts[index].virtual.responder.devices[0].device
        root.device = changed.device
        root.maxAge = changed.maxAge
        root.configID = changed.configID
        hosts[index].virtual.responder.devices[0].device = root
        hosts[index].virtual.responder.devices[0].behaviour = changed.behaviour
        hosts[index].virtual.advertiser.reconfigure(root, at: now)
        scheduleAdvertiser(index)
    }

    /// Carries out what a device's lifecycle asks: the byebyes of its advertiser (the rest of going down is
    /// its lifecycle's state, which the network reads), or a return as a new host with the next BOOTID.
    private mutating func perform(_ actions: [DeviceLifecycle.Action], host index: Int) {
        for action in actions {
            switch action {
            case .sayByebye:
                let byebyes = hosts[index].virtual.advertiser.stop(at: now)
                send(byebyes.map(hosts[index].virtual.advertiser.datagram), from: index)
            case .boot:
                let old = hosts[index]
                var host = makeHost(index, lifecycle: old.lifecycle, at: now)
                host.heardBefore = old.heard
                host.deliveredBefore = old.delivered
                hosts[index] = host
                scheduleAdvertiser(index)
            case .sayUpdate(let nextBootID):
                let updates = hosts[index].virtual.advertiser.update(at: now, to: nextBootID)
                hosts[index].virtual.responder.devices[0].device.bootID = nextBootID
                send(updates.map(hosts[index].virtual.advertiser.datagram), from: index)
                scheduleAdvertiser(index)
            case .fallSilent, .closeHTTP, .openHTTP, .forgetSubscriptions:
                continue
            }
        }
    }

    /// A datagram reaches a device's host: the production responder decides what to answer and when.
    private mutating func receive(_ bytes: [UInt8], from source: SSDPEndpoint, at index: Int) {
        guard hosts[index].online else { return }
        let datagram = reader.read(bytes, strictness: hosts[index].virtual.responder.configuration.strictness)
        let reception = hosts[index].virtual.responder.receive(datagram, from: source.address, at: now)
        for (_, answer) in reception.answers {
            schedule(
                .answer(host: index, generation: hosts[index].generation, bytes: answer.bytes, to: source),
                at: now + answer.delay
            )
        }
    }

    // MARK: - The session's actions

    private mutating func perform(_ actions: [SearchSessionStateMachine.Action]) {
        for action in actions {
            switch action {
            case .sendSearch(let message):
                searchesMade += 1
                let configured = session.configuration.maximumSearchRequestsBeforeClosing
                guard faults.sends(search: searchesMade, of: configured) else { continue }
                record.searches.append(RunRecord.Search(at: now.offset, headers: message.headers))
                let bytes = message.serialized()
                if scenario.search.mode == .multicast {
                    transmit(bytes, from: client, to: group, recipients: hosts.indices.map { .host($0) })
                } else {
                    let index = scenario.search.device - 1
                    transmit(bytes, from: client, to: hosts[index].virtual.endpoint, recipients: [.host(index)])
                }
            case .stop(let found, let reason):
                stoppedAt = now
                record.record(.stopped(reason: RunRecord.StopReason(reason), found: found.count), at: now.offset)
            case .fail(let error):
                stoppedAt = now
                record.record(.failed(error.reason), at: now.offset)
            }
        }
        if let deadline = session.nextDeadline, deadline != sessionTimer {
            sessionTimer = deadline
            schedule(.sessionTimer, at: deadline)
        }
    }

    // MARK: - The network

    /// Arms the timer of a device's next NOTIFY round. Only the trace sees NOTIFYs (the client listens on
    /// an ephemeral port), so without `--trace` the rounds are not run at all: they were a quarter of a
    /// 1,000-device run, for nothing anyone could observe.
    private mutating func scheduleAdvertiser(_ index: Int) {
        guard tracing else { return }
        let deadlines = [
            hosts[index].virtual.advertiser.nextDeadline, hosts[index].virtual.notificationReplay?.nextDeadline,
        ]
        guard let deadline = deadlines.compactMap({ $0 }).min() else { return }
        schedule(.advertiserTimer(host: index, generation: hosts[index].generation), at: deadline)
    }

    /// Multicasts NOTIFY messages from a device: only the trace sees them (the client does not listen on
    /// 1900, so they are not in the advertised set either: nothing it reports can come from them).
    private mutating func send(_ notifications: [[UInt8]], from index: Int) {
        guard tracing else { return }
        for bytes in notifications {
            record.trace.append(
                TraceEntry(
                    at: now.offset,
                    source: hosts[index].virtual.endpoint,
                    destination: group,
                    bytes: bytes,
                    fate: "multicast NOTIFY"
                )
            )
        }
    }

    /// Notes, for the trace, what the session made of a datagram from `source` that reached it now.
    private mutating func noteDelivery(_ received: SearchSessionStateMachine.ReceiveResult, from source: SSDPEndpoint) {
        let verdict: String
        switch received {
        case .reportService: verdict = "reported"
        case .dropped(.duplicate): verdict = "dropped: duplicate"
        case .dropped(.wrongSearchTarget(let target)): verdict = "dropped: wrong target (\(target))"
        case .dropped(.unparseable(let error)): verdict = "dropped: unparseable (\(error))"
        case .dropped(.incomplete(let missing)): verdict = "dropped: incomplete (no \(missing.joined(separator: ", ")))"
        case .dropped(.notAResponse(let kind)): verdict = "dropped: not a response (\(kind))"
        case .dropped(.notSearching): verdict = "dropped: after the stop"
        }
        record.deliveries.append(ClientDelivery(at: now.offset, source: source, verdict: verdict))
    }

    /// Sends one datagram to each recipient through the faults: each copy is lost, delayed, held back or
    /// duplicated on its own draw, an answer from the devices' side of the faults, a search from the
    /// client's.
    private mutating func transmit(
        _ bytes: [UInt8],
        from source: SSDPEndpoint,
        to destination: SSDPEndpoint,
        recipients: [Recipient],
        answer: Bool = false
    ) {
        guard bytes.count <= Self.maximumUDPPayload else {
            note(bytes, from: source, to: destination, fate: "too large for UDP, not sent")
            return
        }
        var copies: [TraceEntry.Copy] = []
        for recipient in recipients {
            for delay in answer ? network.copies(answer: true) : clientNetwork.copies() {
                if let delay { schedule(.deliver(bytes: bytes, from: source, to: recipient), at: now + delay) }
                if tracing {
                    copies.append(
                        TraceEntry.Copy(to: endpoint(of: recipient), arrival: delay.map { (now + $0).offset })
                    )
                }
            }
        }
        if tracing {
            note(
                bytes,
                from: source,
                to: destination,
                fate: summarize(copies, recipients: recipients.count),
                copies: copies
            )
        }
    }

    private func endpoint(of recipient: Recipient) -> SSDPEndpoint {
        switch recipient {
        case .client: client
        case .host(let index): hosts[index].virtual.endpoint
        }
    }

    /// The fate of a datagram, in words, from its copies: "arrives 0.185", "lost", "to 4 devices: …".
    private func summarize(_ copies: [TraceEntry.Copy], recipients: Int) -> String {
        let fates = copies.map { $0.arrival.map { "arrives \($0.secondsText)" } ?? "lost" }
        guard recipients > 1 else { return fates.isEmpty ? "lost" : fates.joined(separator: ", ") }
        let lost = fates.filter { $0 == "lost" }.count
        return "to \(recipients) devices: \(fates.count - lost) copies delivered, \(lost) lost"
    }

    private mutating func note(
        _ bytes: [UInt8],
        from source: SSDPEndpoint,
        to destination: SSDPEndpoint,
        fate: String,
        copies: [TraceEntry.Copy] = []
    ) {
        guard tracing else { return }
        var entry = TraceEntry(at: now.offset, source: source, destination: destination, bytes: bytes, fate: fate)
        entry.copies = copies
        record.trace.append(entry)
    }
}
