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

/// Drives a `SearchSessionStateMachine` on a channel: feeds it received datagrams and timer ticks,
/// sends the M-SEARCH messages it asks for, and reports what it decides through `onEvent`.
///
/// The search starts when `SearchSessionHandler.Start` travels up the pipeline (after the socket is
/// configured) and ends early on `SearchSessionHandler.Stop`. It reads time from
/// `context.eventLoop.now`, so `EmbeddedEventLoop.advanceTime` drives it in tests. When the search
/// ends, the handler closes the channel.
///
/// To search on several interfaces, open one channel per interface on the same event loop, put this
/// handler on the first and `addPeer` the others: every M-SEARCH goes out on all of them, what any of
/// them receives feeds the one session (named by its interface), and the end closes them all.
package final class SearchSessionHandler: ChannelInboundHandler {
    /// What the handler reads: datagrams from the `SSDPDatagramCodec` below it.
    package typealias InboundIn = SSDPDatagram
    /// What the handler writes: each M-SEARCH, addressed to `destination`.
    package typealias OutboundOut = SSDPDatagram

    /// User event: start searching.
    package struct Start: Sendable {
        /// A start event, to send up the pipeline with `fireUserInboundEventTriggered`.
        package init() {}
    }

    /// User event: stop searching now and report what was found.
    package struct Stop: Sendable {
        /// A stop event, to send up the pipeline with `fireUserInboundEventTriggered`.
        package init() {}
    }

    /// What the session reports, in order: services as they are found, then one stop or one failure.
    package enum Event: Sendable {
        /// A new service, reported as soon as it arrives.
        case found(SSDPService)
        /// The search ended: every service found, in order, why it ended, and the final counts.
        case stopped(
            foundServices: [SSDPService],
            reason: SearchSessionStateMachine.StopReason,
            statistics: SearchSessionStatistics
        )
        /// The socket failed or closed, or a send failed: the error and the counts so far. No stop event follows.
        case failed(SSDPSearchSessionError, statistics: SearchSessionStatistics)
    }

    private var machine: SearchSessionStateMachine
    private let destination: SocketAddress
    private let interface: String?
    private var peers: [(channel: any Channel, interface: String)] = []
    private let onEvent: (Event) -> Void
    private let logger: Logger
    private var timer: Scheduled<Void>?
    private var context: ChannelHandlerContext?

    /// A handler that runs one search for `configuration` on the channel it is added to.
    ///
    /// - Parameters:
    ///   - configuration: what to search for; its host and port are resolved to `destination` by the caller.
    ///   - destination: where each M-SEARCH goes.
    ///   - interface: the interface the channel searches on, given to each service found through it.
    ///   - logger: receives debug messages for every search sent, service found and datagram dropped.
    ///   - onEvent: called on the channel's event loop for every service found and for the end of the search.
    package init(
        configuration: SSDPSearchSessionConfiguration,
        destination: SocketAddress,
        interface: String? = nil,
        logger: Logger,
        onEvent: @escaping (Event) -> Void
    ) {
        self.machine = SearchSessionStateMachine(configuration: configuration)
        self.destination = destination
        self.interface = interface
        self.logger = logger
        self.onEvent = onEvent
    }

    /// Counts of what the session sent, received, reported and dropped so far.
    package var statistics: SearchSessionStatistics { machine.statistics }

    /// Keeps `context` for the timer and for send failures, which arrive later.
    package func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    /// Cancels the pending timer and forgets `context`.
    package func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        self.context = nil
    }

    /// Starts the search on `Start`, stops it on `Stop`, and passes every other event on.
    package func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        switch event {
        case is Start:
            perform(machine.start(at: now(context)), context: context)
        case is Stop:
            perform(machine.stop(at: now(context)), context: context)
        default:
            context.fireUserInboundEventTriggered(event)
        }
    }

    /// Searches on `channel` too (a socket on `interface`, on this handler's event loop, with an
    /// `SSDPDatagramCodec`): call before the search starts.
    package func addPeer(_ channel: any Channel, interface: String) throws {
        try channel.pipeline.syncOperations.addHandler(Peer(session: self, interface: interface))
        peers.append((channel, interface))
    }

    /// Feeds a received datagram to the session, tagged with this channel's interface.
    package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        received(unwrapInboundIn(data), interface: interface, context: context)
    }

    private func received(_ datagram: SSDPDatagram, interface: String?, context: ChannelHandlerContext) {
        let result = machine.received(datagram.bytes, at: now(context), interface: interface)
        switch result {
        case .reportService(let service):
            logger.debug(
                "Found service",
                metadata: ["ssdp.usn": "\(service.uniqueServiceName)", "ssdp.peer": "\(datagram.remoteAddress)"]
            )
            onEvent(.found(service))
        case .dropped(let reason):
            logger.debug(
                "Dropped datagram",
                metadata: ["ssdp.reason": "\(reason)", "ssdp.peer": "\(datagram.remoteAddress)"]
            )
        }
    }

    /// Ends the search with a `socketFailed` error, unless it has already ended.
    package func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail(SSDPSearchSessionError(.socketFailed, reason: "socket error: \(error)"), context: context)
    }

    /// Ends the search with a `socketClosed` error, unless it has already ended, and passes the event on.
    package func channelInactive(context: ChannelHandlerContext) {
        fail(SSDPSearchSessionError(.socketClosed, reason: "socket closed"), context: context)
        context.fireChannelInactive()
    }

    // MARK: - Performing actions

    private func perform(_ actions: [SearchSessionStateMachine.Action], context: ChannelHandlerContext) {
        for action in actions {
            switch action {
            case .sendSearch(let message):
                send(message, context: context)
            case .stop(let found, let reason):
                logger.debug("Search stopped", metadata: ["ssdp.reason": "\(reason)", "ssdp.found": "\(found.count)"])
                onEvent(.stopped(foundServices: found, reason: reason, statistics: machine.statistics))
                closeAll(context: context)
            case .fail(let error):
                logger.debug("Search failed", metadata: ["ssdp.error": "\(error)"])
                onEvent(.failed(error, statistics: machine.statistics))
                closeAll(context: context)
            }
        }
        armTimer(context: context)
    }

    private func send(_ message: SSDPMessage, context: ChannelHandlerContext) {
        logger.debug("Sending M-SEARCH", metadata: ["ssdp.peer": "\(destination)"])
        let promise = context.eventLoop.makePromise(of: Void.self)
        promise.futureResult.assumeIsolated().whenFailure { [weak self] error in
            guard let self, let context = self.context else { return }
            self.fail(
                SSDPSearchSessionError(.sendFailed, reason: "send to \(self.destination) failed: \(error)"),
                context: context
            )
        }
        let datagram = SSDPDatagram(remoteAddress: destination, bytes: message.serialized())
        context.writeAndFlush(wrapOutboundOut(datagram), promise: promise)
        for (channel, interface) in peers {
            let sent = channel.writeAndFlush(datagram)
            sent.assumeIsolated().whenFailure { [weak self] error in
                guard let self, let context = self.context else { return }
                self.fail(
                    SSDPSearchSessionError(.sendFailed, reason: "send on \(interface) failed: \(error)"),
                    context: context
                )
            }
        }
    }

    private func closeAll(context: ChannelHandlerContext) {
        for (channel, _) in peers { channel.close(promise: nil) }
        context.close(promise: nil)
    }

    /// Feeds what a peer channel receives to the session, and fails it when the peer fails.
    private final class Peer: ChannelInboundHandler {
        typealias InboundIn = SSDPDatagram
        private weak var session: SearchSessionHandler?
        private let interface: String

        init(session: SearchSessionHandler, interface: String) {
            self.session = session
            self.interface = interface
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard let session, let sessionContext = session.context else { return }
            session.received(unwrapInboundIn(data), interface: interface, context: sessionContext)
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            guard let session, let sessionContext = session.context else { return }
            session.fail(
                SSDPSearchSessionError(.socketFailed, reason: "socket error on \(interface): \(error)"),
                context: sessionContext
            )
        }

        func channelInactive(context: ChannelHandlerContext) {
            if let session, let sessionContext = session.context {
                session.fail(
                    SSDPSearchSessionError(.socketClosed, reason: "socket on \(interface) closed"),
                    context: sessionContext
                )
            }
            context.fireChannelInactive()
        }
    }

    private func fail(_ error: SSDPSearchSessionError, context: ChannelHandlerContext) {
        perform(machine.failed(error, at: now(context)), context: context)
    }

    private func armTimer(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        guard let deadline = machine.nextDeadline else { return }
        timer = context.eventLoop.assumeIsolated().scheduleTask(deadline: NIODeadline(deadline)) { [weak self] in
            guard let self, let context = self.context else { return }
            self.perform(self.machine.timerFired(at: self.now(context)), context: context)
        }
    }

    private func now(_ context: ChannelHandlerContext) -> SSDPInstant {
        SSDPInstant(context.eventLoop.now)
    }
}

@available(*, unavailable)
extension SearchSessionHandler: Sendable {}
