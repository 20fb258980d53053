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
import NIOCore
import NIOPosix
import SSDPCore

/// One HTTP exchange with a device, as the checks show it: the request sent, the answer read (or why
/// none was), and the local address the connection came from (where the device can reach the checker).
struct HTTPExchange: Sendable {
    /// The request as sent.
    var request: String
    /// The answer, or why there is none.
    var response: Result<HTTPMessage, HTTPFetchError>
    /// The checker's end of the connection, when it was made.
    var localAddress: SocketAddress?

    /// The answer, if there was one.
    var message: HTTPMessage? { try? response.get() }

    /// The answer's status as a check names it (`404 Not Found`), or `with nothing (…)` and why there was none.
    var statusText: String {
        switch response {
        case .success(let message):
            message.startLine.split(separator: " ", maxSplits: 1).dropFirst().first.map(String.init)
                ?? message.startLine
        case .failure(let error): "with nothing (\(error.reason))"
        }
    }

    /// What a check says of an answer that is not 200 OK (`answered 404 Not Found, not 200 OK`, or `no
    /// answer: …`), or `nil` for one that is: `guard let message = exchange.message, message.status == 200
    /// else { return exchange.notOK }`.
    var notOK: String? {
        guard let message else { return "no answer: \(statusText)" }
        return message.status == 200 ? nil : "answered \(statusText), not 200 OK"
    }

    /// The same, naming what was asked: `SUBSCRIBE was answered 412 Precondition Failed, not 200 OK`, with
    /// `reference` after it (`(DIAL 2.2 §6.3)`) when given.
    func notOK(_ what: String, reference: String? = nil) -> String? {
        message?.status == 200
            ? nil
            : "\(what) was answered \(statusText), not 200 OK" + (reference.map { " \($0)" } ?? "")
    }

    /// The exchange written out for a report: the request, then the answer's head and the start of its
    /// body, or the reason there was none.
    var evidence: String {
        let answer: String
        switch response {
        case .success(let message):
            let head = ([message.startLine] + message.headers.map { "\($0.name): \($0.value)" }).joined(separator: "\n")
            let body = String(decoding: message.body.prefix(1_024), as: UTF8.self)
            answer = head + "\n\n" + body + (message.body.count > 1_024 ? "\n… (\(message.body.count) bytes)" : "")
        case .failure(let error):
            answer = "(no answer: \(error.reason))"
        }
        // CR LF is one Character: split the scalars
        return "> "
            + request.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
            .map { String(String.UnicodeScalarView($0.last == "\r" ? $0.dropLast() : $0)) }
            .joined(separator: "\n> ") + "\n" + answer
    }
}

/// Why an HTTP exchange gave no answer.
struct HTTPFetchError: Error, Sendable, Hashable {
    var reason: String
}

/// A small HTTP/1.1 client for talking to devices, bounded in time and size: one request per
/// connection, the answer read whole up to `maximumBodySize`, everything given up after `timeout`.
struct HTTPFetch: Sendable {
    /// How long one exchange may take, connecting included.
    var timeout: Duration
    /// The largest body read; a longer one fails the exchange.
    var maximumBodySize: Int
    /// How long to wait, after an answer whose head gives its length, for what else the device sends
    /// before it closes (libupnp's CR LF CR LF after a page), kept in `HTTPMessage.raw` up to
    /// `maximumTrailingSize` bytes: what a recording plays byte for byte. `nil`: the answer ends at its
    /// length.
    var trailingBytesWait: Duration?
    var eventLoopGroup: any EventLoopGroup

    /// The most bytes after an answer's length kept (`trailingBytesWait`).
    static let maximumTrailingSize = 4_096

    init(
        timeout: Duration = .seconds(5),
        maximumBodySize: Int = 1 << 20,
        trailingBytesWait: Duration? = nil,
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) {
        self.timeout = timeout
        self.maximumBodySize = maximumBodySize
        self.trailingBytesWait = trailingBytesWait
        self.eventLoopGroup = eventLoopGroup
    }

    /// Sends `method` for `url` with `headers` (Host, Connection: close and Content-Length are added)
    /// and `body`, and reads the answer.
    func exchange(
        _ method: String,
        _ url: URL,
        headers: [(String, String)] = [],
        body: [UInt8] = []
    ) async -> HTTPExchange {
        let host = url.host ?? ""
        let port = url.port ?? 80
        var lines = [
            "\(method) \(Self.requestTarget(of: url)) HTTP/1.1",
            "HOST: \(host.contains(":") ? "[\(host)]" : host):\(port)",
        ]
        lines += headers.map { "\($0.0): \($0.1)" }
        if !body.isEmpty || method == "POST" { lines.append("CONTENT-LENGTH: \(body.count)") }
        lines.append("CONNECTION: close")
        let head = lines.joined(separator: "\r\n") + "\r\n\r\n"
        let request = head + String(decoding: body, as: UTF8.self)
        guard url.scheme?.lowercased() == "http", !host.isEmpty else {
            return HTTPExchange(
                request: request,
                response: .failure(HTTPFetchError(reason: "\(url.absoluteString) is not an http:// URL with a host")),
                localAddress: nil
            )
        }
        let reader = HTTPMessageReader(
            maximumBodySize: maximumBodySize,
            endsAtClose: true,
            untilClose: method == "HEAD"
        )
        // one event loop for the channel, its promise and its deadline
        let eventLoop = eventLoopGroup.next()
        let promise = eventLoop.makePromise(of: HTTPMessage.self)
        // One deadline for the whole exchange, connecting included; the wait for bytes after the answer
        // ends before it.
        let deadline = ContinuousClock.now + timeout
        let collector = ResponseCollector(
            reader: reader,
            promise: promise,
            trailingBytesWait: trailingBytesWait.map { (wait: $0, until: deadline - .milliseconds(20)) }
        )
        let bootstrap = ClientBootstrap(group: eventLoop)
            .connectTimeout(TimeAmount(timeout))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(collector) }
            }
        let channel: any Channel
        do {
            channel = try await bootstrap.connect(host: host.trimmingCharacters(in: ["[", "]"]), port: port).get()
        } catch {
            promise.fail(error)  // a promise is never left unfulfilled
            return HTTPExchange(
                request: request,
                response: .failure(HTTPFetchError(reason: "cannot connect to \(host):\(port): \(Self.reason(error))")),
                localAddress: nil
            )
        }
        let localAddress = channel.localAddress
        let remaining = max(deadline - ContinuousClock.now, .zero)
        let giveUp = channel.eventLoop.scheduleTask(in: TimeAmount(remaining)) {
            promise.fail(HTTPFetchError(reason: "no whole answer within \(timeout.shortSecondsText) s"))
            channel.close(promise: nil)
        }
        var buffer = channel.allocator.buffer(capacity: head.utf8.count + body.count)
        buffer.writeString(head)
        buffer.writeBytes(body)
        channel.writeAndFlush(buffer, promise: nil)
        let response: Result<HTTPMessage, HTTPFetchError>
        do {
            response = .success(try await promise.futureResult.get())
        } catch let error as HTTPFetchError {
            response = .failure(error)
        } catch {
            response = .failure(HTTPFetchError(reason: "\(error)"))
        }
        giveUp.cancel()
        try? await channel.close()
        return HTTPExchange(request: request, response: response, localAddress: localAddress)
    }
}

extension HTTPFetch {
    /// A connection's failure in the system's words (`Connection refused`), not NIO's types'.
    static func reason(_ error: any Error) -> String {
        let io =
            (error as? NIOConnectionError)?.connectionErrors.lazy.compactMap { $0.error as? IOError }.first
            ?? error as? IOError
        return io.map { String(cString: strerror($0.errnoCode)) } ?? "\(error)"
    }

    /// The path and query of `url` as a request line sends them: as written, escapes kept (`URL.path`
    /// would decode them and drop a trailing slash), `/` for none.
    static func requestTarget(of url: URL) -> String {
        let components = URLComponents(url: url, resolvingAgainstBaseURL: true)
        var path = components?.percentEncodedPath ?? "/"
        if path.isEmpty { path = "/" }
        if let query = components?.percentEncodedQuery { path += "?" + query }
        return path
    }
}

extension URL {
    /// Whether `text` names the same document as this URL, written another way: the scheme and host in
    /// any case, port 80 written or not, an empty path as `/` (`http://H:8060` and `http://h:8060/`).
    func isSameDocument(as text: String) -> Bool {
        guard let other = URL(string: text) else { return false }
        func key(_ url: URL) -> String? {
            guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return nil }
            let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
            return [
                components.scheme?.lowercased() ?? "", components.host?.lowercased() ?? "",
                "\(components.port ?? 80)", path, components.percentEncodedQuery ?? "",
            ].joined(separator: " ")
        }
        return key(self) != nil && key(self) == key(other)
    }

    /// The scheme, host and port alone: where a device's fixed paths (`/query/device-info`) are.
    var origin: URL? {
        var components = URLComponents()
        (components.scheme, components.host, components.port) = (scheme, host, port)
        return components.url
    }
}

/// Gathers a connection's bytes until `HTTPMessageReader` says the answer is whole, refused, or the
/// connection ends; then, with a `trailingBytesWait`, what else arrives before the connection closes or the
/// wait ends, up to `HTTPFetch.maximumTrailingSize` bytes. Never holds more than the reader allows: a longer
/// answer fails as it arrives.
private final class ResponseCollector: ChannelInboundHandler, @unchecked Sendable {
    // Used only on its channel's event loop.
    typealias InboundIn = ByteBuffer

    private let reader: HTTPMessageReader
    private let promise: EventLoopPromise<HTTPMessage>
    private let trailingBytesWait: (wait: Duration, until: ContinuousClock.Instant)?
    private var bytes: [UInt8] = []
    private var done = false
    /// The whole answer, while bytes after it are still awaited.
    private var answered: (message: HTTPMessage, length: Int)?

    init(
        reader: HTTPMessageReader,
        promise: EventLoopPromise<HTTPMessage>,
        trailingBytesWait: (wait: Duration, until: ContinuousClock.Instant)?
    ) {
        self.reader = reader
        self.promise = promise
        self.trailingBytesWait = trailingBytesWait
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !done else { return }
        var buffer = unwrapInboundIn(data)
        bytes += buffer.readBytes(length: buffer.readableBytes) ?? []
        if let answered {
            if bytes.count - answered.length >= HTTPFetch.maximumTrailingSize { finish(context: context) }
            return
        }
        settle(context: context, closed: false)
    }

    func channelInactive(context: ChannelHandlerContext) {
        if answered != nil { finish(context: context) }
        settle(context: context, closed: true)
        if !done { promise.fail(HTTPFetchError(reason: "the connection closed")) }
        done = true
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard !done else { return }
        if answered != nil {
            finish(context: context)
            return
        }
        done = true
        promise.fail(HTTPFetchError(reason: "the connection failed: \(error)"))
        context.close(promise: nil)
    }

    private func settle(context: ChannelHandlerContext, closed: Bool) {
        guard !done else { return }
        switch reader.read(bytes, closed: closed) {
        case .incomplete:
            return
        case .complete(var message):
            if message.raw.isEmpty { message.raw = bytes }
            if let trailing = trailingBytesWait, !closed,
                case let wait = min(trailing.wait, trailing.until - ContinuousClock.now), wait > .zero
            {
                answered = (message, message.raw.count)
                let loop = context.eventLoop.assumeIsolated()
                loop.scheduleTask(in: TimeAmount(wait)) { [weak self] in self?.finish(context: context) }
                return
            }
            done = true
            promise.succeed(message)
        case .invalid(let reason):
            done = true
            promise.fail(HTTPFetchError(reason: reason))
        }
        context.close(promise: nil)
    }

    /// Ends the wait for bytes after the answer: the answer with them, as far as they are kept.
    private func finish(context: ChannelHandlerContext) {
        guard !done, var (message, length) = answered else { return }
        done = true
        answered = nil
        length = min(bytes.count, length + HTTPFetch.maximumTrailingSize)
        message.raw = Array(bytes[..<length])
        promise.succeed(message)
        context.close(promise: nil)
    }
}
