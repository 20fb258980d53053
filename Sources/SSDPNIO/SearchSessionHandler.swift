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
public final class SearchSessionHandler: ChannelInboundHandler {
    public typealias InboundIn = SSDPDatagram
    public typealias OutboundOut = SSDPDatagram

    /// User event: start searching.
    public struct Start: Sendable {
        public init() {}
    }

    /// User event: stop searching now and report what was found.
    public struct Stop: Sendable {
        public init() {}
    }

    /// What the session reports, in order: services as they are found, then one stop or one failure.
    public enum Event: Sendable {
        case found(SSDPService)
        case stopped(
            foundServices: [SSDPService],
            reason: SearchSessionStateMachine.StopReason,
            statistics: SearchSessionStatistics
        )
        case failed(SSDPSearchSessionError, statistics: SearchSessionStatistics)
    }

    private var machine: SearchSessionStateMachine
    private let destination: SocketAddress
    private let onEvent: (Event) -> Void
    private let logger: Logger
    private var timer: Scheduled<Void>?
    private var context: ChannelHandlerContext?

    /// - Parameters:
    ///   - configuration: what to search for; its host and port are resolved to `destination` by the caller.
    ///   - destination: where each M-SEARCH goes.
    ///   - onEvent: called on the channel's event loop for every service found and for the end of the search.
    public init(
        configuration: SSDPSearchSessionConfiguration,
        destination: SocketAddress,
        logger: Logger,
        onEvent: @escaping (Event) -> Void
    ) {
        self.machine = SearchSessionStateMachine(configuration: configuration)
        self.destination = destination
        self.logger = logger
        self.onEvent = onEvent
    }

    /// Counts of what the session sent, received, reported and dropped so far.
    public var statistics: SearchSessionStatistics { machine.statistics }

    public func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    public func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        self.context = nil
    }

    public func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        switch event {
        case is Start:
            perform(machine.start(at: now(context)), context: context)
        case is Stop:
            perform(machine.stop(at: now(context)), context: context)
        default:
            context.fireUserInboundEventTriggered(event)
        }
    }

    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let datagram = unwrapInboundIn(data)
        let result = machine.received(datagram.bytes, at: now(context))
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

    public func errorCaught(context: ChannelHandlerContext, error: Error) {
        fail(SSDPSearchSessionError(reason: "socket error: \(error)"), context: context)
    }

    public func channelInactive(context: ChannelHandlerContext) {
        fail(SSDPSearchSessionError(reason: "socket closed"), context: context)
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
                context.close(promise: nil)
            case .fail(let error):
                logger.debug("Search failed", metadata: ["ssdp.error": "\(error)"])
                onEvent(.failed(error, statistics: machine.statistics))
                context.close(promise: nil)
            }
        }
        armTimer(context: context)
    }

    private func send(_ message: SSDPMessage, context: ChannelHandlerContext) {
        logger.debug("Sending M-SEARCH", metadata: ["ssdp.peer": "\(destination)"])
        let promise = context.eventLoop.makePromise(of: Void.self)
        promise.futureResult.assumeIsolated().whenFailure { [weak self] error in
            guard let self, let context = self.context else { return }
            self.fail(SSDPSearchSessionError(reason: "send to \(self.destination) failed: \(error)"), context: context)
        }
        context.writeAndFlush(
            wrapOutboundOut(SSDPDatagram(remoteAddress: destination, bytes: message.serialized())),
            promise: promise
        )
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
