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

import NIOCore
import NIOHTTP1
import SSDPCore
import SSDPDeviceCore
import SSDPDevices

/// Reads one HTTP request whole and answers it from an `HTTPSite`: the simulator's descriptions and the
/// devices' APIs.
///
/// Bad input never costs more than the limits: request headers above `maximumHeaderSize` get 431, a body
/// above `maximumBodySize` gets 413, a request the parser cannot read (another HTTP version than 1.x, an
/// HTTP/2 preface among them) gets 400, HTTP/1.1 without exactly one Host gets 400 (RFC 9112 §3.2), all of
/// them closing the connection at once; and a client that has not sent its whole request, headers and
/// body, within `requestDeadline` of connecting is disconnected, however slowly it keeps sending. After an
/// answer given before the body is in (413), at most `drainByteLimit` more bytes and `drainLimit` are read. One
/// request per connection (`Connection: close`). How many connections a client may hold is the
/// `HTTPConnectionLimiter`'s to say.
final class DeviceHTTPHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    /// The most header bytes (request line and header lines) read.
    static let maximumHeaderSize = 8_192
    /// The most body bytes read; the largest a device takes is a DIAL payload of 4,096 bytes, so one a
    /// little larger still gets the device's own 413.
    static let maximumBodySize = 16_384
    /// How long a client has, from connecting, to send its whole request: a LAN client sends 16 KiB in
    /// milliseconds, a slow-body or slow-header attack is cut here.
    static let requestDeadline = TimeAmount.seconds(10)

    /// How long an answer given before the whole request arrived leaves the client to stop sending.
    static let drainLimit = TimeAmount.seconds(2)
    /// How many more bytes of a refused body are read and dropped, so that a client that reads while it
    /// sends gets its answer before the connection closes, but no client can make the device read without
    /// end (nginx's lingering close reads a little, too). One that sends it all before reading may find
    /// the connection reset instead.
    static let drainByteLimit = 65_536

    private let site: any HTTPSite
    private let onEvent: @Sendable (SimulatorEvent) -> Void
    private let limiter: HTTPConnectionLimiter
    private let ticket: Int
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []
    private var answered = false
    /// Whether the whole request, body and all, was read before the answer.
    private var requestIsIn = false
    /// The body bytes read and dropped after an early answer.
    private var drained = 0
    /// The tasks that would close the connection later (the request deadline, a drain, a hang), cancelled
    /// when it closes: left to run, each would hold the closed connection's pipeline until its time.
    private var timers: [Scheduled<Void>] = []

    /// A handler for one connection; `ticket` is the connection's with `limiter`, told when its request is in.
    init(
        site: any HTTPSite,
        limiter: HTTPConnectionLimiter,
        ticket: Int,
        onEvent: @escaping @Sendable (SimulatorEvent) -> Void
    ) {
        self.site = site
        self.limiter = limiter
        self.ticket = ticket
        self.onEvent = onEvent
    }

    func handlerAdded(context: ChannelHandlerContext) {
        closeLater(context, in: Self.requestDeadline) { !self.answered }
    }

    /// The timers go with the connection: the deadline alone held 60,000 closed pipelines for 10 s at 6,000
    /// answers a second.
    func channelInactive(context: ChannelHandlerContext) {
        for timer in timers { timer.cancel() }
        timers = []
        context.fireChannelInactive()
    }

    /// Closes the connection after `delay`, if `when` still holds then.
    private func closeLater(
        _ context: ChannelHandlerContext,
        in delay: TimeAmount,
        when: @escaping () -> Bool = { true }
    ) {
        timers.append(
            context.eventLoop.assumeIsolated().scheduleTask(in: delay) {
                if when() { context.close(promise: nil) }
            }
        )
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !answered else {
            if case .body(let buffer) = unwrapInboundIn(data) {
                drained += buffer.readableBytes
                if drained > Self.drainByteLimit { context.close(promise: nil) }
            }
            return
        }
        switch unwrapInboundIn(data) {
        case .head(let head):
            guard head.headerSize <= Self.maximumHeaderSize else {
                respond(to: head, with: .status(431), context: context)
                return
            }
            guard head.hasRequiredHost else {
                respond(to: head, with: .status(400), context: context)
                return
            }
            // A declared length over the limit is refused at once, not after the body it will not read (or
            // the idle limit, for a client that never sends it).
            if let declared = head.headers.first(name: "Content-Length") {
                guard let length = Int(declared), length >= 0 else {
                    respond(to: head, with: .status(400), context: context)
                    return
                }
                guard length <= Self.maximumBodySize else {
                    respond(to: head, with: .status(413), context: context)
                    return
                }
            }
            self.head = head
        case .body(var buffer):
            guard let head else { return }
            guard body.count + buffer.readableBytes <= Self.maximumBodySize else {
                respond(to: head, with: .status(413), context: context)
                return
            }
            body += buffer.readBytes(length: buffer.readableBytes) ?? []
        case .end:
            guard let head else { return }
            requestIsIn = true
            let request = DeviceHTTPRequest(
                method: "\(head.method)",
                target: head.uri,
                headers: Dictionary(head.headers.map { ($0.name.lowercased(), $0.value) }) { $1 },
                body: body,
                origin: Self.origin(context),
                client: context.channel.remoteAddress?.ipAddress ?? ""
            )
            let response = site.respond(to: request)
            markAnswered()
            if let forward = response.forward {
                // The real device's answer, when it comes: on this channel's event loop, as any other.
                let promise = context.eventLoop.makePromise(of: HTTPRecording.Played?.self)
                promise.completeWithTask { await forward() }
                promise.futureResult.assumeIsolated().whenSuccess { played in
                    self.respond(
                        to: head,
                        with: played.map(DeviceHTTPResponse.recorded) ?? .status(502),
                        context: context
                    )
                }
            } else if response.drops || response.hangs {
                // Never answered: reported with status 0, the connection closed now (a device that is gone) or
                // when the client gives up, or at the limit (a hang).
                onEvent(.httpRequest(method: "\(head.method)", path: head.uri, status: 0, origin: request.origin))
                if response.drops {
                    context.close(promise: nil)
                } else {
                    closeLater(context, in: TimeAmount(HTTPFaults.hangLimit))
                }
            } else if let delay = response.delay {
                context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(delay)) {
                    self.respond(to: head, with: response, context: context)
                }
            } else {
                respond(to: head, with: response, context: context)
            }
        }
    }

    /// The server's origin as the client reached it: `http://192.168.1.20:8060` (IPv6 in brackets). An IPv4
    /// client of a server on `::` reached `192.168.1.20`, which the socket reports as `::ffff:192.168.1.20`:
    /// written as the client wrote it, so that the Host it copied from LOCATION names this origin.
    private static func origin(_ context: ChannelHandlerContext) -> String {
        origin(of: context.channel.localAddress)
    }

    /// The origin of a server socket's local address (`origin(_:)`).
    static func origin(of local: SocketAddress?) -> String {
        let address = SSDPEndpoint.unmapped(local?.ipAddress ?? "127.0.0.1")
        return "http://" + SSDPEndpoint(address: address, port: local?.port ?? 80).description
    }

    /// A request the parser could not read: `HTTPServerProtocolErrorHandler`, before this handler, has
    /// answered 400; the connection closes now rather than at the deadline.
    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        answered = true
        context.close(promise: nil)
    }

    /// The request is in (or refused): the deadline no longer applies, and the limiter keeps the connection.
    private func markAnswered() {
        answered = true
        limiter.answered(ticket)
    }

    private func respond(to request: HTTPRequestHead, with response: DeviceHTTPResponse, context: ChannelHandlerContext)
    {
        markAnswered()
        // Reported before the response leaves: a client that has its answer finds the request, and what
        // it made the device do, already among the events (a test asserts right after its call returns).
        onEvent(
            .httpRequest(
                method: "\(request.method)",
                path: request.uri,
                status: response.status,
                origin: Self.origin(context)
            )
        )
        for action in response.actions {
            onEvent(.deviceAction(action))
        }
        for record in response.records {
            onEvent(record)
        }
        let group = context.eventLoop
        let onEvent = onEvent
        // The events the request made (a recorded change's too) go out once its answer is written.
        let deliverEvents = {
            for delivery in response.events {
                EventNotifier.deliver(delivery, on: group, onEvent: onEvent)
            }
        }
        if let raw = response.raw {
            writeRaw(raw, context: context, then: deliverEvents)
            return
        }
        var headers = HTTPHeaders()
        if let layout = response.layout {
            for field in layout {
                switch field.value {
                case "{length}":
                    headers.add(name: field.name, value: "\(response.bytes?.count ?? response.body.utf8.count)")
                case "{date}":
                    headers.add(name: field.name, value: HTTPDate.string(secondsSince1970: HTTPDate.secondsNow))
                default: headers.add(name: field.name, value: field.value)
                }
            }
        } else {
            for field in response.headers {
                headers.add(name: field.name, value: field.value)
            }
            headers.add(name: "Content-Length", value: "\(response.bytes?.count ?? response.body.utf8.count)")
            headers.add(name: "Connection", value: "close")
        }
        let status = HTTPResponseStatus(statusCode: response.status)
        context.write(
            wrapOutboundOut(.head(HTTPResponseHead(version: request.version, status: status, headers: headers))),
            promise: nil
        )
        if request.method != .HEAD, let bytes = response.bytes {
            context.write(
                wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: bytes)))),
                promise: nil
            )
        } else if request.method != .HEAD, !response.body.isEmpty {
            context.write(
                wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: response.body)))),
                promise: nil
            )
        }
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
            self.closeAfterAnswer(context: context)
            deliverEvents()
        }
    }

    /// Writes a recorded response as it is, below the HTTP encoder (which would write its own head), then
    /// closes as after any answer and runs `then`.
    private func writeRaw(_ bytes: [UInt8], context: ChannelHandlerContext, then: @escaping () -> Void = {}) {
        let buffer = context.channel.allocator.buffer(bytes: bytes)
        guard let encoder = try? context.pipeline.syncOperations.context(handlerType: HTTPResponseEncoder.self) else {
            context.close(promise: nil)
            return
        }
        encoder.writeAndFlush(NIOAny(IOData.byteBuffer(buffer))).assumeIsolated().whenComplete { _ in
            self.closeAfterAnswer(context: context)
            then()
        }
    }

    /// Closes the connection once its answer is written: at once when the request was read whole, else the
    /// sending side first (see below).
    private func closeAfterAnswer(context: ChannelHandlerContext) {
        if requestIsIn {
            context.close(promise: nil)
        } else {
            // Answered before the client sent all it meant to (a body too large): closing now would reset
            // the connection under the client's writes, and it could lose the answer. Close the sending
            // side, drop what still comes, and close the rest when the client does or soon after.
            context.close(mode: .output, promise: nil)
            closeLater(context, in: Self.drainLimit)
        }
    }
}

@available(*, unavailable)
extension DeviceHTTPHandler: Sendable {}
