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

/// Reads one HTTP request whole and answers it from an `HTTPSite`: the simulator's descriptions and the
/// devices' APIs.
///
/// Bad input never costs more than the limits: request headers above `maximumHeaderSize` get 431, a body
/// above `maximumBodySize` gets 413 (both close the connection at once), and a client that does not finish
/// its request within the idle timeout is disconnected. One request per connection (`Connection: close`).
final class DeviceHTTPHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    /// The most header bytes (request line and header lines) read.
    static let maximumHeaderSize = 8_192
    /// The most body bytes read; the largest a device takes is a DIAL payload of 4,096 bytes, so one a
    /// little larger still gets the device's own 413.
    static let maximumBodySize = 16_384

    private let site: any HTTPSite
    private let onEvent: @Sendable (SimulatorEvent) -> Void
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []
    private var answered = false

    init(site: any HTTPSite, onEvent: @escaping @Sendable (SimulatorEvent) -> Void) {
        self.site = site
        self.onEvent = onEvent
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !answered else { return }
        switch unwrapInboundIn(data) {
        case .head(let head):
            let size =
                head.uri.utf8.count + head.headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 }
            guard size <= Self.maximumHeaderSize else {
                respond(to: head, with: .status(431), context: context)
                return
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
            let request = DeviceHTTPRequest(
                method: "\(head.method)",
                target: head.uri,
                headers: Dictionary(head.headers.map { ($0.name.lowercased(), $0.value) }) { $1 },
                body: body,
                origin: Self.origin(context),
                client: context.channel.remoteAddress?.ipAddress ?? ""
            )
            let response = site.respond(to: request)
            answered = true
            if response.hangs {
                // Never answered; closed when the client gives up, or at the limit.
                context.eventLoop.assumeIsolated().scheduleTask(
                    in: .nanoseconds(Int64(HTTPFaults.hangLimit / .nanoseconds(1)))
                ) {
                    context.close(promise: nil)
                }
                onEvent(.httpRequest(method: "\(head.method)", path: head.uri, status: 0, origin: request.origin))
            } else if let delay = response.delay {
                context.eventLoop.assumeIsolated().scheduleTask(in: .nanoseconds(Int64(delay / .nanoseconds(1)))) {
                    self.respond(to: head, with: response, context: context)
                }
            } else {
                respond(to: head, with: response, context: context)
            }
        }
    }

    /// The server's origin as the client reached it: `http://192.168.1.20:8060` (IPv6 in brackets).
    private static func origin(_ context: ChannelHandlerContext) -> String {
        let local = context.channel.localAddress
        let host = local?.ipAddress ?? "127.0.0.1"
        return "http://\(host.contains(":") ? "[\(host)]" : host):\(local?.port ?? 80)"
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is IdleStateHandler.IdleStateEvent, !answered {
            context.close(promise: nil)  // a client too slow to finish its request
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }

    private func respond(to request: HTTPRequestHead, with response: DeviceHTTPResponse, context: ChannelHandlerContext)
    {
        answered = true
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
        var headers = HTTPHeaders()
        for field in response.headers {
            headers.add(name: field.name, value: field.value)
        }
        headers.add(name: "Content-Length", value: "\(response.body.utf8.count)")
        headers.add(name: "Connection", value: "close")
        let status = HTTPResponseStatus(statusCode: response.status)
        context.write(
            wrapOutboundOut(.head(HTTPResponseHead(version: request.version, status: status, headers: headers))),
            promise: nil
        )
        if request.method != .HEAD, !response.body.isEmpty {
            context.write(
                wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: response.body)))),
                promise: nil
            )
        }
        let group = context.eventLoop
        let onEvent = onEvent
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
            context.close(promise: nil)
            for delivery in response.events {
                EventNotifier.deliver(delivery, on: group, onEvent: onEvent)
            }
        }
    }
}

@available(*, unavailable)
extension DeviceHTTPHandler: Sendable {}
