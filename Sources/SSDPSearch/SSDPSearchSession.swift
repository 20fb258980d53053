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
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import SSDPCore
import SSDPNIO

/// Searches the network for SSDP services: the original design's `SSDPSearchSession` on SwiftNIO.
///
/// A session sends `maximumSearchRequestsBeforeClosing` M-SEARCH messages spread over N × MX + 0.1 s,
/// reports each matching service once as soon as it arrives, ignores answers for other search targets
/// and incomplete answers, and stops at the timeout with everything it found. Sessions are single use.
///
/// Use the delegate, as in the original design:
/// ```swift
/// let session = SSDPSearchSession(configuration: try .createMulticastConfiguration(forSearchTarget: "roku:ecp"))
/// session.delegate = self
/// session.startSearch()
/// ```
/// or the async API:
/// ```swift
/// for try await service in session.services { print(service.location) }   // starts the search
/// let all = try await session.search()                                     // or: everything at once
/// ```
public final class SSDPSearchSession: Sendable {
    /// What the session searches for, where, and how many times.
    public let configuration: SSDPSearchSessionConfiguration
    private let interfaces: [String]
    private let multicastTTL: Int
    private let transport: SSDPSearchTransport
    private let eventLoop: any EventLoop
    private let logger: Logger
    private let state: NIOLockedValueBox<State>
    private let stream: AsyncThrowingStream<SSDPService, any Error>

    private struct State {
        enum Phase {
            case idle
            case opening(stopRequested: Bool)
            case running(any Channel)
            case finished
        }

        var phase = Phase.idle
        weak var delegate: (any SSDPSearchSessionDelegate)?
        var continuation: AsyncThrowingStream<SSDPService, any Error>.Continuation
        var statistics = SearchSessionStatistics()
        var stopReason: StopReason?
        /// `services` made its iterator (or `search()` ran): the results go to that one reader.
        var isIterated = false
        /// `search()` waits for the stop, which carries every service found: nothing is yielded one by one
        /// (waking the waiting task for each of 60,000 answers cost the reading thread a tenth of its time).
        var collectsUntilStop = false
        /// The services the stop reported, for `search()`.
        var foundAtStop: [SSDPService] = []
    }

    /// Why a search ended: the state machine's reasons (`stopRequested` when `stopSearch()` was called, or
    /// the task iterating `services` was cancelled).
    public typealias StopReason = SearchSessionStateMachine.StopReason

    /// The multicast TTL (IPv6: hop limit) a session uses unless told otherwise: 2, as UDA 1.1 recommends.
    public static let defaultMulticastTTL = SSDPSocket.defaultMulticastTTL

    /// A session that searches with `configuration` on the real network, through UDP sockets.
    ///
    /// - Parameters:
    ///   - configuration: what to search for and where.
    ///   - interfaces: the network interfaces to search on (`["eth0", "wlan0"]`), or none for the system's
    ///     choice. With several, every M-SEARCH goes out on each, each service is reported once (by USN and
    ///     ST) with the interface it was first seen on (`SSDPService.interface`), and LOCATION is the one
    ///     the device gave on that interface.
    ///   - multicastTTL: the multicast TTL (IPv6: hop limit); UDA 1.1 recommends 2.
    ///   - eventLoopGroup: where the sockets run; the delegate is called on one of its event loops.
    ///   - logger: receives debug messages for every search sent and datagram dropped.
    public init(
        configuration: SSDPSearchSessionConfiguration,
        interfaces: [String] = [],
        multicastTTL: Int = SSDPSearchSession.defaultMulticastTTL,
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        logger: Logger = Logger(label: "ssdp.search", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        self.configuration = configuration
        self.interfaces = interfaces
        self.multicastTTL = multicastTTL
        self.transport = .udp
        self.eventLoop = eventLoopGroup.next()
        self.logger = logger
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: SSDPService.self)
        self.stream = stream
        self.state = NIOLockedValueBox(State(continuation: continuation))
    }

    /// A session on one interface (`eth0`), or on the system's choice with `nil`.
    public convenience init(
        configuration: SSDPSearchSessionConfiguration,
        interface: String?,
        multicastTTL: Int = SSDPSearchSession.defaultMulticastTTL,
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        logger: Logger = Logger(label: "ssdp.search", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        self.init(
            configuration: configuration,
            interfaces: interface.map { [$0] } ?? [],
            multicastTTL: multicastTTL,
            eventLoopGroup: eventLoopGroup,
            logger: logger
        )
    }

    /// A session whose datagrams go through `transport`: a channel a test provides, such as SSDPTesting's
    /// `VirtualLAN`, which runs the search in virtual time.
    public init(
        configuration: SSDPSearchSessionConfiguration,
        transport: SSDPSearchTransport,
        logger: Logger = Logger(label: "ssdp.search", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        self.configuration = configuration
        self.interfaces = []
        self.multicastTTL = Self.defaultMulticastTTL
        self.transport = transport
        switch transport.kind {
        case .udp: self.eventLoop = MultiThreadedEventLoopGroup.singleton.next()
        case .channel(let eventLoop, _): self.eventLoop = eventLoop
        }
        self.logger = logger
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: SSDPService.self)
        self.stream = stream
        self.state = NIOLockedValueBox(State(continuation: continuation))
    }

    deinit {
        // As in the original design, a session that goes away stops its search. Nothing is reported: the handler's
        // reference to the session is weak, and `self` must not escape a deinit.
        let (phase, continuation) = state.withLockedValue { ($0.phase, $0.continuation) }
        if case .running(let channel) = phase {
            channel.pipeline.fireUserInboundEventTriggered(SearchSessionHandler.Stop())
        }
        continuation.finish()
    }

    /// Receives the search's progress. Held weakly, as in the original design.
    public var delegate: (any SSDPSearchSessionDelegate)? {
        get { state.withLockedValue { $0.delegate } }
        set { state.withLockedValue { $0.delegate = newValue } }
    }

    /// What the session sent, received, reported and dropped, as of its end.
    public var statistics: SearchSessionStatistics {
        state.withLockedValue { $0.statistics }
    }

    /// Why the search stopped (timed out, stopped by the user, no requests), or `nil` while it runs and
    /// after a failure.
    public var stopReason: StopReason? {
        state.withLockedValue { $0.stopReason }
    }

    // MARK: - Search

    /// Opens the socket and starts searching. Does nothing if the session was already started or stopped.
    public func startSearch() {
        let shouldStart = state.withLockedValue { state in
            guard case .idle = state.phase else { return false }
            state.phase = .opening(stopRequested: false)
            return true
        }
        guard shouldStart else { return }
        openChannel().whenComplete { [weak self] result in
            guard let self else {
                // The session went away while its socket was opening: nobody will use the socket.
                if case .success(let channel) = result { channel.close(promise: nil) }
                return
            }
            self.channelOpened(result)
        }
    }

    /// Stops searching and reports what was found. A session that never started reports an empty stop.
    public func stopSearch() {
        enum Step {
            case reportEmptyStop
            case stop(any Channel)
            case nothing
        }
        let step: Step = state.withLockedValue { state in
            switch state.phase {
            case .idle:
                state.phase = .finished
                return .reportEmptyStop
            case .opening:
                state.phase = .opening(stopRequested: true)  // channelOpened stops it
                return .nothing
            case .running(let channel):
                return .stop(channel)
            case .finished:
                return .nothing
            }
        }
        switch step {
        case .reportEmptyStop:
            handle(.stopped(foundServices: [], reason: .stopRequested, statistics: SearchSessionStatistics()))
        case .stop(let channel):
            channel.pipeline.fireUserInboundEventTriggered(SearchSessionHandler.Stop())
        case .nothing:
            break
        }
    }

    /// The services found, as they arrive. Iterating starts the search; the sequence ends when the
    /// search stops and throws `SSDPSearchSessionError` if the socket fails. Cancelling the iterating
    /// task stops the search. A session searches once: iterating it a second time (or after `search()`)
    /// is a programming error and stops the program with a message that says so.
    public var services: Services {
        Services(session: self)
    }

    /// Searches and returns every service found when the search ends.
    ///
    /// - Throws: `SSDPSearchSessionError`: the socket failed (`socketUnavailable`, `sendFailed`,
    ///   `socketFailed`, `socketClosed`), or the task was cancelled (`cancelled`; the search is stopped).
    public func search() async throws(SSDPSearchSessionError) -> [SSDPService] {
        state.withLockedValue { $0.collectsUntilStop = true }
        for try await _ in services {}  // nothing comes before the stop, which ends the sequence
        if Task.isCancelled {
            throw SSDPSearchSessionError(.cancelled, reason: "the task waiting for the search was cancelled")
        }
        return state.withLockedValue { $0.foundAtStop }
    }

    // MARK: - Socket

    private func openChannel() -> EventLoopFuture<any Channel> {
        let destination: SocketAddress
        do {
            destination = try SocketAddress(ipAddress: configuration.host, port: configuration.port)
        } catch {
            return eventLoop.makeFailedFuture(error)
        }
        let (configuration, logger, eventLoop) = (self.configuration, self.logger, self.eventLoop)
        let names: [String?] = interfaces.isEmpty ? [nil] : interfaces
        let opening: [EventLoopFuture<any Channel>]
        switch transport.kind {
        case .udp:
            // One socket per interface; the first carries the session, the others are its peers.
            opening = names.map { name in
                SSDPSocket.makeSearchChannel(
                    destination: destination,
                    interface: name,
                    multicastTTL: multicastTTL,
                    eventLoop: eventLoop
                ) { channel in
                    try channel.pipeline.syncOperations.addHandler(SSDPDatagramCodec())
                }
            }
        case .channel(_, let open):
            opening = [
                open().hop(to: eventLoop).flatMapThrowing { channel in
                    try channel.pipeline.syncOperations.addHandler(SSDPDatagramCodec())
                    return channel
                }
            ]
        }
        return EventLoopFuture.whenAllComplete(opening, on: eventLoop).flatMapThrowing { [weak self] results in
            let channels = results.compactMap { try? $0.get() }
            do {
                for case .failure(let error) in results { throw error }
                let handler = SearchSessionHandler(
                    configuration: configuration,
                    destination: destination,
                    interface: names[0],
                    logger: logger
                ) { self?.handle($0) }
                try channels[0].pipeline.syncOperations.addHandler(handler)
                for (channel, name) in zip(channels, names).dropFirst() {
                    try handler.addPeer(channel, interface: name ?? "")
                }
                return channels[0]
            } catch {
                for channel in channels { channel.close(promise: nil) }
                throw error
            }
        }
    }

    private func channelOpened(_ result: Result<any Channel, any Error>) {
        switch result {
        case .success(let channel):
            let stopRequested = state.withLockedValue { state in
                guard case .opening(let stopRequested) = state.phase else { return true }
                state.phase = .running(channel)
                return stopRequested
            }
            channel.pipeline.fireUserInboundEventTriggered(
                stopRequested ? SearchSessionHandler.Stop() as any Sendable : SearchSessionHandler.Start()
            )
        case .failure(let error):
            handle(
                .failed(
                    SSDPSearchSessionError(.socketUnavailable, reason: "cannot open socket: \(error)"),
                    statistics: SearchSessionStatistics()
                )
            )
        }
    }

    // MARK: - Reporting

    private func handle(_ event: SearchSessionHandler.Event) {
        let (delegate, continuation, yields) = state.withLockedValue { state in
            switch event {
            case .found: break
            case .stopped(let found, let reason, let statistics):
                state.phase = .finished
                state.statistics = statistics
                state.stopReason = reason
                if state.collectsUntilStop { state.foundAtStop = found }
            case .failed(_, let statistics):
                state.phase = .finished
                state.statistics = statistics
            }
            return (state.delegate, state.continuation, !state.collectsUntilStop)
        }
        switch event {
        case .found(let service):
            if yields { continuation.yield(service) }
            delegate?.searchSession(self, didFindService: service)
        case .stopped(let found, _, _):
            continuation.finish()
            delegate?.searchSessionDidStopSearch(self, foundServices: found)
        case .failed(let error, _):
            continuation.finish(throwing: error)
            delegate?.searchSession(self, didEncounterError: error)
        }
    }

    fileprivate func makeStreamIterator() -> AsyncThrowingStream<SSDPService, any Error>.Iterator {
        let isFirst = state.withLockedValue { state in
            defer { state.isIterated = true }
            guard !state.isIterated else { return false }
            state.continuation.onTermination = { [weak self] termination in
                if case .cancelled = termination { self?.stopSearch() }
            }
            return true
        }
        precondition(
            isFirst,
            "an SSDPSearchSession searches once: its services were already iterated (or search() called); make a new session to search again"
        )
        startSearch()
        return stream.makeAsyncIterator()
    }
}

extension SSDPSearchSession {
    /// The services a session finds, in the order found; see `SSDPSearchSession.services`.
    public struct Services: AsyncSequence, Sendable {
        /// Each element is a service found.
        public typealias Element = SSDPService
        /// The error that ends the sequence when the search fails.
        public typealias Failure = SSDPSearchSessionError
        let session: SSDPSearchSession

        /// Starts the search and returns its only iterator; a second call is a programming error.
        public func makeAsyncIterator() -> Iterator {
            Iterator(session: session, base: session.makeStreamIterator())
        }

        /// Keeps the session alive while it is iterated, so `for try await s in SSDPSearchSession(…).services`
        /// runs the whole search.
        public struct Iterator: AsyncIteratorProtocol {
            /// Each element is a service found.
            public typealias Element = SSDPService
            /// The error that ends the iteration when the search fails.
            public typealias Failure = SSDPSearchSessionError
            let session: SSDPSearchSession
            var base: AsyncThrowingStream<SSDPService, any Error>.Iterator

            /// The next service found, or `nil` once the search has stopped.
            ///
            /// - Throws: the `SSDPSearchSessionError` that ended the search.
            public mutating func next() async throws(SSDPSearchSessionError) -> SSDPService? {
                do {
                    return try await base.next()
                } catch let error as SSDPSearchSessionError {
                    throw error
                } catch {
                    // The session finishes its stream with an SSDPSearchSessionError only.
                    throw SSDPSearchSessionError(.socketFailed, reason: "\(error)")
                }
            }
        }
    }
}
