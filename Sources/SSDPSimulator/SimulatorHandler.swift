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

import Logging
import NIOCore
import SSDPCore
import SSDPDeviceCore
import SSDPDevices
import SSDPNIO

/// Drives a `SimulatorResponder` and one `DeviceAdvertiser` per device on the simulator's UDP channel:
/// answers searches after the delays the devices chose, multicasts NOTIFY sets when the advertisers ask,
/// and on shutdown sends the byebyes before closing the channel.
///
/// Devices at addresses of their own (`sources`) send through the source-address socket, each datagram
/// from its device's address, and a search sent to one device's address is that device's alone.
///
/// All of its state lives on the channel's event loop. Time comes from `context.eventLoop.now`.
final class SimulatorHandler: ChannelInboundHandler {
    typealias InboundIn = SSDPDatagram
    typealias OutboundOut = SSDPDatagram

    private var responder: SimulatorResponder
    private var advertisers: [DeviceAdvertiser]
    /// Replaying devices' captured NOTIFY messages, which take the place of their advertisers.
    private var notificationReplays: [NotificationReplay?]
    private let sources: DeviceSources?
    /// The link's seed, from which each device's responder and advertiser draw (`seed` and its index).
    private let seed: UInt64
    private let notifyDestination: SocketAddress?
    private let sourcePolicy: SourceAddressPolicy
    private let codec: SSDPDatagramCodec
    private let logger: Logger
    private let onEvent: @Sendable (SimulatorEvent) -> Void
    private let reportsDatagrams: Bool
    private var context: ChannelHandlerContext?
    private var timer: Scheduled<Void>?
    /// Answers waiting for their delays, under one timer armed for the earliest.
    private var pendingAnswers = EventQueue<PendingAnswer>()
    private var answerTimer: (deadline: SSDPInstant, task: Scheduled<Void>)?
    private var sourcesRejected = 0
    /// Which dropped datagrams get a log line (each is journaled and counted).
    private var droppedLog = DroppedDatagramLog()
    private var answersSent = 0
    private var notificationsSent = 0
    private var isShuttingDown = false
    /// Per device, how many times it has gone down: an answer scheduled in an earlier life is not sent.
    private var generations: [Int]
    /// The network faults on what the link sends (`PUT /network`, a live scenario's `network`), drawn as a
    /// virtual run of the same seed draws its answers' fates.
    private var network: NetworkFaultMachine
    /// The same faults on the NOTIFYs the link sends, and on the searches it hears, each from a side of
    /// the seed of its own.
    private var notifyNetwork: NetworkFaultMachine
    private var heardNetwork: NetworkFaultMachine
    /// Byebyes the faults hold back, sent at once at shutdown: a device's byebye is never lost to a stop.
    private var heldBackByebyes: [Int: (datagram: Outbound, task: Scheduled<Void>)] = [:]
    private var nextHeldBack = 0
    private var networkCounts = (lostIncoming: 0, lostOutgoing: 0, duplicated: 0)

    init(
        seed: UInt64 = 0,
        responder: SimulatorResponder,
        advertisers: [DeviceAdvertiser],
        sources: DeviceSources? = nil,
        notifyDestination: SocketAddress?,
        sourcePolicy: SourceAddressPolicy,
        codec: SSDPDatagramCodec,
        logger: Logger,
        reportsDatagrams: Bool = false,
        network: (faults: NetworkFaults, seed: UInt64),
        onEvent: @escaping @Sendable (SimulatorEvent) -> Void
    ) {
        self.seed = seed
        self.network = NetworkFaultMachine(faults: network.faults, seed: network.seed)
        self.notifyNetwork = NetworkFaultMachine(faults: network.faults, seed: network.seed, side: .notified)
        self.heardNetwork = NetworkFaultMachine(faults: network.faults, seed: network.seed, side: .heard)
        self.reportsDatagrams = reportsDatagrams
        self.responder = responder
        self.advertisers = advertisers
        self.notificationReplays = Array(repeating: nil, count: advertisers.count)
        self.generations = Array(repeating: 0, count: advertisers.count)
        self.sources = sources
        self.notifyDestination = notifyDestination
        self.sourcePolicy = sourcePolicy
        self.codec = codec
        self.logger = logger
        self.onEvent = onEvent
    }

    var counters: SimulatorCounters {
        SimulatorCounters(
            responder: responder,
            oversized: codec.oversizedDropped,
            sourcesRejected: sourcesRejected,
            answersSent: answersSent,
            notificationsSent: notificationsSent,
            network: networkCounts
        )
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        codec.onOversized = { [weak self] peer in
            guard let self, let context = self.context else { return }
            self.dropped(from: peer, .oversized, context: context)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        answerTimer?.task.cancel()
        sources?.socket.close()
        self.context = nil
    }

    // MARK: - Searches

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let datagram = unwrapInboundIn(data)
        guard !isShuttingDown else { return }
        guard sourcePolicy.allows(datagram.remoteAddress) else {
            sourcesRejected += 1
            let search = try? SSDPParser.parseMessage(datagram.bytes)
            dropped(from: datagram.remoteAddress, .source, target: search?.headers["ST"], context: context)
            return
        }
        report(datagram, received: true)
        if clocksWaitForSearch, datagram.bytes.starts(with: Self.searchMethod) {
            // The search's start, as a virtual run counts: whatever the network then makes of it.
            clocksWaitForSearch = false
            for index in responder.devices.indices { restartResponder(device: index) }
        }
        guard !heardNetwork.isClean, datagram.bytes.starts(with: Self.searchMethod) else {
            hear(datagram, context: context)
            return
        }
        // A search through the network faults: lost, heard late, or heard twice, as a virtual run's devices
        // hear it.
        let copies = heardNetwork.copies()
        guard copies.contains(where: { $0 != nil }) else {
            networkCounts.lostIncoming += 1
            if let message = try? SSDPParser.parseMessage(datagram.bytes) {
                onEvent(
                    .searchReceived(from: datagram.remoteAddress, headers: message.headers, outcome: .lostByNetwork)
                )
            }
            return
        }
        for case let delay? in copies {
            guard delay > .zero else {
                hear(datagram, context: context)
                continue
            }
            context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(delay)) {
                [weak self] in
                guard let self, let context = self.context, !self.isShuttingDown else { return }
                self.hear(datagram, context: context)
                self.sendDueAnswers(context: context)
            }
        }
    }

    /// What every M-SEARCH begins with.
    private static let searchMethod = Array("M-SEARCH".utf8)

    /// Hands a datagram to the responder and schedules the answers it makes.
    private func hear(_ datagram: SSDPDatagram, context: ChannelHandlerContext) {
        let source = datagram.remoteAddress.ipAddress ?? "\(datagram.remoteAddress.endpointDescription)"
        let device = sources?.device(for: datagram.destinationAddress)
        let reception = responder.receive(datagram.bytes, from: source, at: now(context), device: device)
        report(reception, from: datagram.remoteAddress)
        let answerFrom = device == nil ? searchedAddress(of: datagram, context: context) : nil
        for (device, answer) in reception.answers {
            schedule(answer, from: device, to: datagram.remoteAddress, answerFrom: answerFrom, context: context)
        }
    }

    /// The end of a read burst (up to 16 × 16 datagrams): the answers it made that are due leave together.
    func channelReadComplete(context: ChannelHandlerContext) {
        sendDueAnswers(context: context)
    }

    private func report(_ reception: SimulatorResponder.Reception, from peer: SocketAddress) {
        let headers = reception.message?.headers ?? SSDPHeaders()
        // Metadata is made only when the level is logged: a flood must not make two strings per search.
        switch reception.kind {
        case .search:
            logger.info(
                "M-SEARCH received",
                metadata: [
                    "ssdp.peer": "\(peer.endpointDescription)", "ssdp.st": "\(headers["ST"] ?? "")",
                    "ssdp.mx": "\(headers["MX"] ?? "-")",
                    "ssdp.answers": "\(reception.answers.count)",
                ]
            )
            var answeredBy: [Int] = []
            for (device, _) in reception.answers where answeredBy.last != device + 1 { answeredBy.append(device + 1) }
            onEvent(
                .searchReceived(
                    from: peer,
                    headers: headers,
                    outcome: .answered(reception.answers.count),
                    answeredBy: answeredBy,
                    unanswered: reception.unanswered
                )
            )
        case .rejected(let rejection):
            logger.info(
                "M-SEARCH dropped",
                metadata: [
                    "ssdp.peer": "\(peer.endpointDescription)", "ssdp.st": "\(headers["ST"] ?? "")",
                    "ssdp.reason": "\(rejection.rawValue)",
                ]
            )
            onEvent(.searchReceived(from: peer, headers: headers, outcome: .rejected(rejection)))
        case .malformed:
            if let context { dropped(from: peer, .malformed, context: context) }
        case .notification, .response:
            logger.trace("Ignored datagram", metadata: ["ssdp.peer": "\(peer.endpointDescription)"])
        }
    }

    /// A datagram no device heard: journaled and counted every time, logged at most once a second for each
    /// reason (`DroppedDatagramLog`), with how many went unlogged since and the option that lets it in.
    private func dropped(
        from peer: SocketAddress,
        _ reason: DroppedDatagramReason,
        target: String? = nil,
        context: ChannelHandlerContext
    ) {
        onEvent(.datagramDropped(from: peer, reason: reason, target: target))
        guard let unlogged = droppedLog.drop(reason, at: now(context)) else { return }
        var metadata: Logger.Metadata = [
            "ssdp.peer": "\(peer.endpointDescription)", "ssdp.reason": "\(reason.explanation)",
        ]
        if let remedy = reason.remedy { metadata["ssdp.allowedBy"] = "\(remedy)" }
        if unlogged > 0 { metadata["ssdp.unloggedSince"] = "\(unlogged)" }
        logger.info("Datagram dropped", metadata: metadata)
    }

    /// The address a search was sent to when the devices have addresses of their own and it is none of
    /// them, nor the multicast group: the simulator's own (`nc -u 127.0.0.1 1900`). Its answers leave from
    /// there, through the link's socket, because a connected socket like netcat's takes datagrams from the
    /// address and port it sent to and no other; their LOCATIONs still name each device's own address. A
    /// recorded device that answered from a port of its own still does, from this address: netcat would
    /// not hear the real one either.
    private func searchedAddress(of datagram: SSDPDatagram, context: ChannelHandlerContext) -> SocketAddress? {
        guard sources != nil, var searched = datagram.destinationAddress, !searched.isMulticast else { return nil }
        searched.port = context.channel.localAddress?.port
        return searched
    }

    /// Queues `answer` for `answer.delay` from now, and sends what is due.
    private func schedule(
        _ answer: ScheduledAnswer,
        from device: Int,
        to peer: SocketAddress,
        answerFrom: SocketAddress?,
        context: ChannelHandlerContext
    ) {
        pendingAnswers.schedule(
            PendingAnswer(
                answer: answer,
                device: device,
                generation: generations[device],
                peer: peer,
                answerFrom: answerFrom
            ),
            at: now(context) + answer.delay
        )
    }

    /// Sends every answer due within `answerBatchWindow` from now, in one batch (one flush of the channel,
    /// `sendmmsg` calls on the source-address socket), then arms the one timer for the next. Each answer's
    /// fate through the network faults is drawn first, so that its event says when the network lost it.
    private func sendDueAnswers(context: ChannelHandlerContext) {
        let dueBy = now(context) + Self.answerBatchWindow
        var datagrams: [Outbound] = []
        var advertisements: [SSDPAdvertisement] = []
        while let (_, pending) = pendingAnswers.next(dueBy: dueBy) {
            responder.answerFinished()
            guard !isShuttingDown, pending.generation == generations[pending.device] else { continue }
            let bytes = pending.answer.dated(secondsSince1970: HTTPDate.secondsNow)
            let datagram = SSDPDatagram(remoteAddress: pending.peer, bytes: bytes)
            datagrams.append(
                Outbound(device: pending.device, datagram: datagram, answerFrom: pending.answerFrom, isAnswer: true)
            )
            advertisements.append(pending.answer.advertisement)
        }
        let fates = draw(datagrams.count, kind: .answers)
        for (index, advertisement) in advertisements.enumerated() {
            let peer = datagrams[index].datagram.remoteAddress
            answersSent += 1
            logger.debug(
                "Answer sent",
                metadata: [
                    "ssdp.peer": "\(peer.endpointDescription)", "ssdp.st": "\(advertisement.target)",
                    "ssdp.usn": "\(advertisement.usn)",
                ]
            )
            let lost = fates.map { $0[index].allSatisfy { $0 == nil } } ?? false
            onEvent(.answerSent(to: peer, usn: advertisement.usn, target: advertisement.target, lostByNetwork: lost))
        }
        write(datagrams, fates: fates, kind: .answers, context: context, promise: nil)
        armAnswerTimer(context: context)
    }

    /// Arms the answer timer for the earliest pending answer, unless it is armed for that already.
    private func armAnswerTimer(context: ChannelHandlerContext) {
        guard !isShuttingDown, let next = pendingAnswers.nextInstant else {
            answerTimer?.task.cancel()
            answerTimer = nil
            return
        }
        if let armed = answerTimer, armed.deadline <= next { return }
        answerTimer?.task.cancel()
        let task = context.eventLoop.assumeIsolated().scheduleTask(deadline: NIODeadline(next)) { [weak self] in
            guard let self, let context = self.context else { return }
            self.answerTimer = nil
            self.sendDueAnswers(context: context)
        }
        answerTimer = (next, task)
    }

    /// The network faults change (`DeviceSimulator.setNetwork`): from the next datagram on, their windows
    /// counted from there.
    func setNetwork(_ faults: NetworkFaults) {
        network.set(faults)
        notifyNetwork.set(faults)
        heardNetwork.set(faults)
    }

    /// What a write carries, for the network faults: answers draw from the answers' side of the seed (as a
    /// virtual run's answers do), NOTIFYs from their own; a byebye held back by the faults still leaves
    /// after its device went down.
    enum Outgoing: Equatable {
        case answers
        case notifications(byebye: Bool)
    }

    /// The fate of each of `count` datagrams through the network faults, or `nil` on a clean network (and
    /// while shutting down, when the byebyes leave as they are).
    private func draw(_ count: Int, kind: Outgoing) -> [NetworkFaults.Copies]? {
        guard !isShuttingDown else { return nil }
        switch kind {
        case .answers:
            guard !network.isClean else { return nil }
            return (0..<count).map { _ in network.copies(answer: true) }
        case .notifications:
            guard !notifyNetwork.isClean else { return nil }
            return (0..<count).map { _ in notifyNetwork.copies() }
        }
    }

    /// Writes each device's datagram as `fates` (from `draw`) says: each copy lost, sent at once, or sent
    /// after its delay (latency, reordering), a duplicated one twice; all at once when `fates` is `nil`. A
    /// copy held back is not sent if its device goes down meanwhile (a byebye is), and a byebye held back
    /// leaves at once when the simulator shuts down. `promise` completes when the ones sent at once are
    /// written.
    private func write(
        _ datagrams: [Outbound],
        fates: [NetworkFaults.Copies]?,
        kind: Outgoing,
        context: ChannelHandlerContext,
        promise: EventLoopPromise<Void>?
    ) {
        guard let fates else {
            send(datagrams, context: context, promise: promise)
            return
        }
        let byebye = kind == .notifications(byebye: true)
        var now: [Outbound] = []
        for (index, datagram) in datagrams.enumerated() {
            networkCounts.duplicated += fates[index].count - 1
            for delay in fates[index] {
                guard let delay else {
                    networkCounts.lostOutgoing += 1
                    continue
                }
                guard delay > .zero else {
                    now.append(datagram)
                    continue
                }
                let (id, generation) = (nextHeldBack, generations[datagram.device])
                nextHeldBack += 1
                let task = context.eventLoop.assumeIsolated().scheduleTask(
                    in: TimeAmount(delay)
                ) { [weak self] in
                    guard let self, let context = self.context else { return }
                    self.heldBackByebyes[id] = nil
                    guard !self.isShuttingDown, byebye || self.generations[datagram.device] == generation else {
                        return
                    }
                    self.send([datagram], context: context, promise: nil)
                }
                if byebye { heldBackByebyes[id] = (datagram, task) }
            }
        }
        send(now, context: context, promise: promise)
    }

    /// Writes each device's datagram and flushes: those from a device's own address through the
    /// source-address socket (`sendmmsg` batches, at once), the others through the channel, in order.
    /// `promise` completes when the last one through the channel is written (at once when there is none).
    private func send(
        _ datagrams: [Outbound],
        context: ChannelHandlerContext,
        promise: EventLoopPromise<Void>?
    ) {
        var fromOwnAddresses: [SSDPSourceAddressSocket.Outgoing] = []
        let ownAddress = { (outbound: Outbound) in
            self.sources?.source(of: outbound.device, answering: outbound.isAnswer, searched: outbound.answerFrom)
        }
        let lastThroughChannel = datagrams.lastIndex { ownAddress($0) == nil }
        for (index, outbound) in datagrams.enumerated() {
            let datagram = outbound.datagram
            if let sources, let source = ownAddress(outbound) {
                fromOwnAddresses.append(
                    .init(
                        bytes: datagram.bytes,
                        from: source,
                        to: datagram.remoteAddress,
                        ttl: sources.ttl(of: outbound.device, answering: outbound.isAnswer)
                    )
                )
                report(
                    datagram,
                    received: false,
                    local: sources.sourceAddress(
                        of: outbound.device,
                        answering: outbound.isAnswer,
                        searched: outbound.answerFrom
                    )
                )
            } else {
                report(datagram, received: false, local: outbound.answerFrom)
                context.write(wrapOutboundOut(datagram), promise: index == lastThroughChannel ? promise : nil)
            }
        }
        if let sources, !fromOwnAddresses.isEmpty {
            let sent = sources.socket.send(fromOwnAddresses)
            if sent < fromOwnAddresses.count {
                logger.debug("Datagrams not sent", metadata: ["ssdp.count": "\(fromOwnAddresses.count - sent)"])
            }
        }
        if lastThroughChannel == nil {
            promise?.succeed(())
        } else {
            context.flush()
        }
    }

    // MARK: - Advertising

    /// Starts every advertiser (no-op without a multicast destination).
    func startAdvertising() {
        guard let context, notifyDestination != nil else { return }
        let now = now(context)
        for index in advertisers.indices {
            // A replaying device multicasts what the capture shows and nothing else.
            if let replay = responder.devices[index].behaviour.replay {
                let device = responder.devices[index]
                notificationReplays[index] = NotificationReplay(
                    replay,
                    startedAt: now,
                    locations: device.replayLocations,
                    own: DeviceResponder.schemeAndAuthority(of: device.device.location)
                )
            } else {
                advertisers[index].start(at: now)
            }
        }
        armTimer(context: context)
    }

    /// Carries out what a device's lifecycle asks of this link (`DeviceSimulator.perform`): its byebyes,
    /// its silence, its update to a new BOOTID, its return. HTTP and subscriptions are not the link's.
    func perform(_ action: DeviceLifecycle.Action, device index: Int) {
        guard let context, !isShuttingDown else { return }
        let now = now(context)
        switch action {
        case .sayByebye:
            let byebyes = wire(advertisers[index].stop(at: now), of: index)
            multicast(byebyes, subtype: .byebye, context: context)
        case .fallSilent:
            _ = advertisers[index].stop(at: now)
            generations[index] += 1
            responder.absentDevices.insert(index)
        case .sayUpdate(let nextBootID):
            let messages = advertisers[index].update(at: now, to: nextBootID)
            responder.devices[index].device.bootID = nextBootID
            // A UPnP 1.0 device says byebye instead (`DeviceAdvertiser.update`).
            multicast(
                wire(messages, of: index),
                subtype: messages.first?.notificationSubtype ?? .update,
                context: context
            )
        case .boot(let bootID):
            responder.devices[index].device.bootID = bootID
            // Back from a reboot or a power cut: its ignored searches and silent windows count afresh, as a
            // virtual run's new host's do.
            responder.devices[index].restart(at: now)
            responder.absentDevices.remove(index)
            if notifyDestination != nil { advertisers[index].restart(bootID: bootID, at: now) }
        case .closeHTTP, .openHTTP, .forgetSubscriptions:
            return
        }
        armTimer(context: context)
    }

    /// Device `index` runs as `configured` from now on (`DeviceSimulator.change`): its answers and NOTIFYs
    /// carry its new max-age, CONFIGID and behaviour, at the BOOTID it has on this link.
    func reconfigure(_ configured: SimulatedDevice, device index: Int) {
        guard let context else { return }
        var root = responder.devices[index].device
        root.device = configured.device
        root.maxAge = configured.maxAge
        root.configID = configured.configID
        responder.devices[index].device = root
        responder.devices[index].behaviour = configured.behaviour
        advertisers[index].reconfigure(root, at: now(context))
        armTimer(context: context)
    }

    /// A device joins the link (`DeviceSimulator.add`), as `root` at `address` (its own, or `nil` for the
    /// link's): it answers from the next search, and a fresh alive set goes out 0–100 ms from now. Its
    /// responder and advertiser draw from the link's seed at its index, as a device there from the start.
    func add(_ root: SSDPRootDevice, configured: SimulatedDevice, address: String?) throws {
        guard let context, !isShuttingDown, let model = advertisers.first else { return }
        let now = now(context)
        let index = advertisers.count
        let port = context.channel.localAddress?.port ?? SSDPSearchSessionConfiguration.multicastPort
        try sources?.append(address, sending: DeviceSources.Sending(configured, ssdpPort: port))
        responder.devices.append(
            DeviceResponder(
                device: root,
                behaviour: configured.behaviour,
                startedAt: now,
                seed: SSDPRandom.derivedSeed(seed: seed, stream: UInt64(index) << 1)
            )
        )
        var advertiser = DeviceAdvertiser(
            device: root,
            copies: model.askedCopies,
            copySpacing: model.copySpacing,
            host: model.host,
            seed: SSDPRandom.derivedSeed(seed: seed, stream: UInt64(index) << 1 | 1)
        )
        if notifyDestination != nil { advertiser.start(at: now) }
        advertisers.append(advertiser)
        notificationReplays.append(nil)
        generations.append(0)
        armTimer(context: context)
    }

    /// Device `index`'s HTTP side moved (`DeviceSimulator.moveHTTP`): its answers and NOTIFYs name `root`'s
    /// LOCATION from now on, at the BOOTID it has.
    func relocate(device index: Int, to root: SSDPRootDevice) {
        guard let context else { return }
        var moved = root
        moved.bootID = responder.devices[index].device.bootID
        responder.devices[index].device = moved
        advertisers[index].reconfigure(moved, at: now(context))
    }

    /// Whether every device's clock starts with the next M-SEARCH to arrive (`DeviceSimulator.startClocks`).
    var clocksWaitForSearch = false

    /// Device `index` starts over (`DeviceSimulator.reset`): the searches it ignores (`ignoreFirst`) and its
    /// silent windows count from now.
    func restartResponder(device index: Int) {
        guard let context else { return }
        responder.devices[index].restart(at: now(context))
    }

    /// Sends one byebye per advertisement still valid, then closes the channel once they are written.
    func shutdown() {
        guard let context, !isShuttingDown else { return }
        isShuttingDown = true
        timer?.cancel()
        answerTimer?.task.cancel()
        answerTimer = nil
        let now = now(context)
        var byebyes = advertisers.indices.flatMap { index in wire(advertisers[index].stop(at: now), of: index) }
        for (_, held) in heldBackByebyes.sorted(by: { $0.key < $1.key }) {
            held.task.cancel()
            byebyes.append((held.datagram.device, held.datagram.datagram.bytes))
        }
        heldBackByebyes = [:]
        multicast(byebyes, subtype: .byebye, context: context).assumeIsolated().whenComplete { _ in
            self.sources?.socket.close()
            context.close(promise: nil)
        }
    }

    /// Device `index`'s NOTIFYs as it writes them, each with the device's index.
    private func wire(_ messages: [SSDPMessage], of index: Int) -> [(Int, [UInt8])] {
        messages.map { (index, advertisers[index].datagram($0)) }
    }

    private func armTimer(context: ChannelHandlerContext) {
        timer?.cancel()
        let deadlines = advertisers.compactMap(\.nextDeadline) + notificationReplays.compactMap { $0?.nextDeadline }
        guard let deadline = deadlines.min() else { return }
        timer = context.eventLoop.assumeIsolated().scheduleTask(deadline: NIODeadline(deadline)) { [weak self] in
            guard let self, let context = self.context else { return }
            let now = self.now(context)
            let due = self.advertisers.indices.map { self.advertisers[$0].timerFired(at: now) }
            // A device that says byebye at start (`SSDPNotifyHeaders.byebyeAtStart`) sends its byebye sets
            // first: they go, and are counted, logged and faulted, as byebyes.
            for subtype in [SSDPNotificationSubtype.byebye, .alive] {
                let messages = due.indices.flatMap { index in
                    self.wire(due[index].filter { ($0.notificationSubtype ?? .alive) == subtype }, of: index)
                }
                self.multicast(messages, subtype: subtype, context: context)
            }
            self.multicastReplayed(at: now, context: context)
            self.armTimer(context: context)
        }
    }

    /// Multicasts the captured NOTIFY messages due by `now`, each reported under its own NTS.
    private func multicastReplayed(at now: SSDPInstant, context: ChannelHandlerContext) {
        var bySubtype: [SSDPNotificationSubtype: [(device: Int, bytes: [UInt8])]] = [:]
        for index in notificationReplays.indices {
            for bytes in notificationReplays[index]?.due(at: now) ?? [] {
                let nts = (try? SSDPParser.parseMessage(bytes))?.notificationSubtype ?? .alive
                bySubtype[nts, default: []].append((index, bytes))
            }
        }
        for (nts, datagrams) in bySubtype.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            multicast(datagrams, subtype: nts, context: context)
        }
    }

    /// Writes each device's `messages` to the multicast group; the future completes when they are written.
    @discardableResult
    private func multicast(
        _ messages: [(device: Int, bytes: [UInt8])],
        subtype: SSDPNotificationSubtype,
        context: ChannelHandlerContext
    ) -> EventLoopFuture<Void> {
        guard let destination = notifyDestination, !messages.isEmpty else {
            return context.eventLoop.makeSucceededVoidFuture()
        }
        let promise = context.eventLoop.makePromise(of: Void.self)
        let datagrams = messages.map {
            Outbound(device: $0.device, datagram: SSDPDatagram(remoteAddress: destination, bytes: $0.bytes))
        }
        let kind = Outgoing.notifications(byebye: subtype == .byebye)
        write(datagrams, fates: draw(datagrams.count, kind: kind), kind: kind, context: context, promise: promise)
        notificationsSent += messages.count
        logger.info("NOTIFY sent", metadata: ["ssdp.nts": "\(subtype.rawValue)", "ssdp.count": "\(messages.count)"])
        let devices = Set(messages.map(\.device)).sorted().map { $0 + 1 }
        onEvent(.notificationsSent(subtype: subtype, count: messages.count, devices: devices))
        // A failed write (no route for multicast, say) must not stop the byebye path from closing.
        return promise.futureResult.recover { _ in }
    }

    /// Hands a copy of a datagram to `onEvent` when traces are asked for; `local` is the address it left
    /// from or arrived at, the channel's by default.
    private func report(_ datagram: SSDPDatagram, received: Bool, local: SocketAddress? = nil) {
        guard reportsDatagrams, let channelAddress = context?.channel.localAddress else { return }
        var local = local ?? channelAddress
        if received, var destination = datagram.destinationAddress {
            // A socket bound to every address: the address the datagram was sent to, on the socket's port.
            destination.port = channelAddress.port
            local = destination
        }
        onEvent(.datagram(received: received, peer: datagram.remoteAddress, local: local, bytes: datagram.bytes))
    }

    private func now(_ context: ChannelHandlerContext) -> SSDPInstant {
        SSDPInstant(context.eventLoop.now)
    }
}

extension SimulatorHandler {
    /// An answer waiting for its delay: which device sends it, and to whom.
    private struct PendingAnswer {
        var answer: ScheduledAnswer
        var device: Int
        /// The device's generation when the answer was scheduled.
        var generation: Int
        var peer: SocketAddress
        /// The address the search was sent to, when the answer leaves from there (`searchedAddress`).
        var answerFrom: SocketAddress?
    }

    /// A datagram to send for a device: from the device's own address when it has one (or an answer from
    /// its own port, `DeviceSources.source`), else through the link's socket (from `answerFrom`, the address
    /// searched, when that is set).
    struct Outbound {
        var device: Int
        var datagram: SSDPDatagram
        var answerFrom: SocketAddress?
        /// Whether it answers a search (not a NOTIFY).
        var isAnswer = false
    }

    /// Answers due this close together leave in one batch: a flood of searches or ten thousand devices'
    /// answers cost a system call per batch, not per answer, for a delay no client can tell from jitter.
    static let answerBatchWindow = Duration.milliseconds(1)
}

@available(*, unavailable)
extension SimulatorHandler: Sendable {}
