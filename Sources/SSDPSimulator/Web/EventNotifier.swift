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

import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import SSDPCore
import SSDPDeviceCore

/// Delivers GENA event messages: one NOTIFY per message over its own connection (UDA 1.1 §4.3.2), as
/// miniupnpd sends them, and reports how each went. A subscriber that does not answer within
/// `timeout` is given up on; nothing is retried.
///
/// The messages of one subscription go one at a time, in the order they were made (SEQ order): the next
/// leaves when the one before it is answered, refused or given up on, so a subscriber never reads SEQ 1
/// before SEQ 0 (two connections at once could arrive in either order).
enum EventNotifier {
    static let timeout = TimeAmount.seconds(5)

    /// One message waiting for its subscription's message in flight.
    private struct Waiting: Sendable {
        var delivery: EventDelivery
        var eventLoop: any EventLoop
        var onEvent: @Sendable (SimulatorEvent) -> Void

        /// Its subscription: the SID and the callback (two simulators of one seed in one process draw the
        /// same SIDs).
        var subscription: String { delivery.event.sid + " " + delivery.event.callback }
    }

    /// By subscription (`Waiting.subscription`), those with a message in flight, and the messages waiting
    /// behind it.
    private static let inFlight = NIOLockedValueBox<[String: [Waiting]]>([:])
    /// The most messages one subscription keeps waiting (its subscriber answering nothing, each given up on
    /// after `timeout`); a message beyond them is reported undelivered at once, never kept.
    static let maximumWaiting = 32

    /// Sends `delivery` (after its delay, if it has one) from `eventLoop`, once its subscription's earlier
    /// messages are done.
    static func deliver(
        _ delivery: EventDelivery,
        on eventLoop: any EventLoop,
        onEvent: @escaping @Sendable (SimulatorEvent) -> Void
    ) {
        let waiting = Waiting(delivery: delivery, eventLoop: eventLoop, onEvent: onEvent)
        guard let delay = delivery.delay else {
            enqueue(waiting)
            return
        }
        eventLoop.scheduleTask(in: TimeAmount(delay)) {
            enqueue(waiting)
        }
    }

    /// Sends `waiting` now when its subscription has nothing in flight, else queues it behind (or, behind
    /// `maximumWaiting` others, reports it undelivered).
    private static func enqueue(_ waiting: Waiting) {
        let key = waiting.subscription
        enum Fate { case now, queued, dropped }
        let fate = inFlight.withLockedValue { queues -> Fate in
            guard let queue = queues[key] else {
                queues[key] = []
                return .now
            }
            guard queue.count < maximumWaiting else { return .dropped }
            queues[key, default: []].append(waiting)
            return .queued
        }
        switch fate {
        case .now: start(waiting)
        case .queued: break
        case .dropped: waiting.onEvent(.eventSent(waiting.delivery))
        }
    }

    /// Sends one message; when it is done, the next of its subscription goes.
    private static func start(_ waiting: Waiting) {
        let key = waiting.subscription
        let onEvent = waiting.onEvent
        send(waiting.delivery, on: waiting.eventLoop) { event in
            onEvent(event)
            let next = inFlight.withLockedValue { queues -> Waiting? in
                guard var queue = queues[key], !queue.isEmpty else {
                    queues[key] = nil
                    return nil
                }
                let first = queue.removeFirst()
                queues[key] = queue
                return first
            }
            if let next { start(next) }
        }
    }

    private static func send(
        _ delivery: EventDelivery,
        on eventLoop: any EventLoop,
        onEvent: @escaping @Sendable (SimulatorEvent) -> Void
    ) {
        // The subscription checked its callback when it was made; one that does not read is not sent to.
        guard case .success(let callback) = GENACallback.read(delivery.event.callback) else {
            onEvent(.eventSent(delivery))
            return
        }
        let (host, port) = (callback.host, callback.port)
        var request = "NOTIFY \(callback.path) HTTP/1.1\r\n"
        for field in delivery.event.headers(host: "\(host.contains(":") ? "[\(host)]" : host):\(port)") {
            request += "\(field.name): \(field.value)\r\n"
        }
        request += "\r\n" + delivery.event.body
        let bytes = request
        ClientBootstrap(group: eventLoop)
            .connectTimeout(timeout)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(
                        StatusLineReader(delivery: delivery, onEvent: onEvent)
                    )
                }
            }
            .connect(host: host, port: port)
            .whenComplete { result in
                switch result {
                case .success(let channel):
                    if !delivery.silent {
                        channel.writeAndFlush(channel.allocator.buffer(string: bytes), promise: nil)
                    }
                    channel.eventLoop.scheduleTask(in: timeout) { channel.close(promise: nil) }
                case .failure:
                    onEvent(.eventSent(delivery))
                }
            }
    }
}

/// Reads the status line of the subscriber's answer, reports the delivery, and closes.
private final class StatusLineReader: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let delivery: EventDelivery
    private let onEvent: @Sendable (SimulatorEvent) -> Void
    private var received: [UInt8] = []
    private var reported = false

    init(delivery: EventDelivery, onEvent: @escaping @Sendable (SimulatorEvent) -> Void) {
        self.delivery = delivery
        self.onEvent = onEvent
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        guard !reported, received.count < 1_024 else { return }
        received += buffer.readBytes(length: buffer.readableBytes) ?? []
        guard let end = received.firstIndex(of: UInt8(ascii: "\r")) else { return }
        // HTTP/1.1 200 OK
        let line = String(decoding: received[..<end], as: UTF8.self).split(separator: " ")
        report(status: line.count >= 2 ? Int(line[1]) : nil)
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        report(status: nil)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    private func report(status: Int?) {
        guard !reported else { return }
        reported = true
        var delivery = delivery
        delivery.status = status
        onEvent(.eventSent(delivery))
    }
}

@available(*, unavailable)
extension StatusLineReader: Sendable {}
