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
import SSDPSimulator

/// Reads one HTTP request whole into a `ControlRequest` for the server's task, and writes its
/// `ControlResponse` back, then closes (`Connection: close`).
///
/// The limits are the device handler's, with a larger body: headers above `maximumHeaderSize` get 431, a
/// body above `maximumBodySize` is read and discarded and gets 413 (so that the client, still sending, reads
/// the answer), HTTP/1.1 without exactly one Host gets 400, and a client that has not sent its whole request
/// within `requestDeadline` of connecting, or has not read its answer within `responseDeadline` of it
/// leaving, is disconnected.
final class ControlHTTPHandler: ChannelDuplexHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = ControlRequest
    typealias OutboundIn = ControlResponse
    typealias OutboundOut = HTTPServerResponsePart

    /// The most header bytes (request line and header lines) read.
    static let maximumHeaderSize = 16_384
    /// The most body bytes read: 1 MiB.
    static let maximumBodySize = 1 << 20
    /// How long a client has, from connecting, to send its whole request.
    static let requestDeadline = TimeAmount.seconds(10)
    /// How long a client has to read its answer (a large journal page) once it leaves.
    static let responseDeadline = TimeAmount.seconds(30)

    private let connections: ControlConnections
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []
    private var tooLarge = false
    /// The request is in (or refused): the request deadline no longer applies.
    private var complete = false
    private var deadline: Scheduled<Void>?

    /// A handler that tells `connections` when its request is in.
    init(connections: ControlConnections) {
        self.connections = connections
    }

    func handlerAdded(context: ChannelHandlerContext) {
        deadline = context.eventLoop.assumeIsolated().scheduleTask(in: Self.requestDeadline) {
            context.close(promise: nil)
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !complete else { return }
        switch unwrapInboundIn(data) {
        case .head(let head):
            guard head.headerSize <= Self.maximumHeaderSize else {
                return refuse(ControlResponse.error(431, "the request's headers are too large"), head, context)
            }
            guard head.hasRequiredHost else {
                return refuse(ControlResponse.error(400, "HTTP/1.1 needs exactly one Host header"), head, context)
            }
            let declared = head.headers["Content-Length"].first.flatMap { Int($0) } ?? 0
            tooLarge = declared > Self.maximumBodySize
            self.head = head
        case .body(let buffer):
            guard !tooLarge else { return }
            if body.count + buffer.readableBytes > Self.maximumBodySize {
                tooLarge = true
                body = []
            } else {
                body += buffer.readableBytesView
            }
        case .end:
            guard let head else { return }
            if tooLarge {
                return refuse(.error(413, "the body is larger than \(Self.maximumBodySize) bytes"), head, context)
            }
            complete = true
            deadline?.cancel()
            connections.requested(ObjectIdentifier(context.channel))
            let headers = Dictionary(head.headers.map { ($0.name.lowercased(), $0.value) }) { first, _ in first }
            let request = ControlRequest(method: "\(head.method)", target: head.uri, headers: headers, body: body)
            body = []
            context.fireChannelRead(wrapInboundOut(request))
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        send(unwrapOutboundIn(data), version: head?.version ?? .http1_1, context: context, promise: promise)
    }

    /// A request the parser could not read: `HTTPServerProtocolErrorHandler` has answered 400; close now.
    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        complete = true
        context.close(promise: nil)
    }

    private func refuse(_ response: ControlResponse, _ head: HTTPRequestHead, _ context: ChannelHandlerContext) {
        send(response, version: head.version, context: context, promise: nil)
    }

    private func send(
        _ response: ControlResponse,
        version: HTTPVersion,
        context: ChannelHandlerContext,
        promise: EventLoopPromise<Void>?
    ) {
        complete = true
        deadline?.cancel()
        context.eventLoop.assumeIsolated().scheduleTask(in: Self.responseDeadline) { context.close(promise: nil) }
        var headers = HTTPHeaders(response.headers)
        if !response.body.isEmpty { headers.add(name: "Content-Type", value: "application/json") }
        headers.add(name: "Content-Length", value: "\(response.body.utf8.count)")
        headers.add(name: "Connection", value: "close")
        let status = HTTPResponseStatus(statusCode: response.status)
        let responseHead = HTTPResponseHead(version: version, status: status, headers: headers)
        context.write(wrapOutboundOut(.head(responseHead)), promise: nil)
        if !response.body.isEmpty {
            let buffer = context.channel.allocator.buffer(string: response.body)
            context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
        }
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { result in
            promise?.completeWith(result)
            context.close(promise: nil)
        }
    }
}

@available(*, unavailable)
extension ControlHTTPHandler: Sendable {}
