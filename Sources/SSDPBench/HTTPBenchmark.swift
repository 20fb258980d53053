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
import NIOPosix
import SSDPDeviceCore
import SSDPDevices
import SSDPSimulator

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// 8. One device's HTTP side under load: descriptions served per second with 10 and with 1,000
/// connections in flight, from 10 client addresses, beside a bare SwiftNIO HTTP/1.1 server answering the
/// same bytes in the same run.
///
/// Each connection asks for the description once and is read to its close; a connection that ends without
/// a whole 200 answer (refused, closed early) counts as refused, and the client opens another in its
/// place at once. At 1,000 in flight each address holds 100 connections, more than a device reads at once
/// from one client (`HTTPConnectionLimiter.maximumPerClient`): the rest wait their turn, and the figure
/// says whether the device keeps its pace. The process's open-file limit is raised to its hard limit
/// first (2,000 sockets and more are open at once). Rounds alternate the servers, so a busy neighbour slows
/// both alike, and each figure is the median of its rounds' ratios with their spread.
enum HTTPBenchmark {
    /// The client addresses, 127.0.0.11 to 127.0.0.20 (every 127/8 address is the loopback's on Linux).
    static let sources = (11...20).map { try! SocketAddress(ipAddress: "127.0.0.\($0)", port: 0) }

    static func run(rounds: Int, duration: Duration) async throws -> [Figure] {
        let name = "http"
        raiseOpenFileLimit()
        let (simulator, serverGroup) = try await BenchSimulator.start(
            [SimulatorProfile.generic.device(number: 1, seed: 7)]
        )
        let clientGroup = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let location = simulator.devices[0].location
        let afterScheme = location.dropFirst("http://".count)
        let path = String(afterScheme[(afterScheme.firstIndex(of: "/") ?? afterScheme.endIndex)...])
        let device = simulator.httpAddress
        var bare: (any Channel)?
        do {
            let description = try await fetch(path, from: device, group: clientGroup)
            try require(
                description.status == 200,
                name,
                "the device answered its description with \(description.status)"
            )
            bare = try await BareServer.start(body: description.body, group: serverGroup)
            let bareAddress = bare!.localAddress!
            var served: [String: [Double]] = [:]
            var refused: [String: Int] = [:]
            for _ in 0..<rounds {
                for inFlight in [10, 1_000] {
                    for (server, address) in [("device", device), ("nio", bareAddress)] {
                        let result = try await Load.run(
                            path: path,
                            on: address,
                            inFlight: inFlight,
                            duration: duration,
                            group: clientGroup
                        )
                        // Nothing served under the full load is a figure (0 %); nothing at 10 is a broken run.
                        try require(
                            result.served > 0 || inFlight > 10,
                            name,
                            "\(server) served nothing with \(inFlight) in flight"
                        )
                        served["\(server)-\(inFlight)", default: []].append(Double(result.served) / duration.seconds)
                        refused["\(server)-\(inFlight)", default: 0] += result.refused
                    }
                }
            }
            try await bare?.close()
            try await clientGroup.shutdownGracefully()
            _ = await simulator.shutdown()
            try await serverGroup.shutdownGracefully()

            func ratios(_ measured: String, _ anchor: String) -> Spread {
                Spread(zip(served[measured]!, served[anchor]!).filter { $0.1 > 0 }.map { $0 / $1 * 100 })
            }
            let underLoad = ratios("device-1000", "device-10")
            let besideNIO = ratios("device-1000", "nio-1000")
            var details: [String: Double] = ["rounds": Double(rounds), "secondsEach": duration.seconds]
            for (key, rates) in served { details["\(key) served/s"] = Spread(rates).median }
            for (key, count) in refused where count > 0 { details["\(key) refused"] = Double(count) }
            return [
                Figure(
                    name: "http-1000-vs-10",
                    unit: "% of served/s at 10 in flight",
                    value: underLoad.median,
                    target: .atLeast(80),
                    details: details,
                    remark: "ratio per round: \(underLoad.text)"
                ),
                Figure(
                    name: "http-1000-vs-nio",
                    unit: "% of bare SwiftNIO's served/s",
                    value: besideNIO.median,
                    target: .atLeast(50),
                    remark: "ratio per round: \(besideNIO.text)"
                ),
            ]
        } catch {
            try? await bare?.close()
            try? await clientGroup.shutdownGracefully()
            _ = await simulator.shutdown()
            try? await serverGroup.shutdownGracefully()
            throw error
        }
    }

    /// Raises the soft limit on open files to the hard one, as a server under load is run.
    static func raiseOpenFileLimit() {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }

    /// One GET of `path` and its answer, read to the connection's close.
    static func fetch(
        _ path: String,
        from address: SocketAddress,
        group: MultiThreadedEventLoopGroup
    ) async throws -> Answer {
        let loop = group.next()
        let promise = loop.makePromise(of: Answer.self)
        ask(Load.request(path: path, address: address), at: address, on: loop) { promise.succeed($0) }
        return try await promise.futureResult.get()
    }

    /// Connects to `target` (from `source`, when given), sends `request`, and hands `onAnswer` what came back
    /// by the connection's close: status 0 when there was no whole answer, or no connection.
    static func ask(
        _ request: ByteBuffer,
        at target: SocketAddress,
        from source: SocketAddress? = nil,
        on loop: any EventLoop,
        onAnswer: @escaping @Sendable (Answer) -> Void
    ) {
        var bootstrap = ClientBootstrap(group: loop)
        if let source { bootstrap = bootstrap.bind(to: source) }
        bootstrap
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(AnswerReader(onAnswer: onAnswer))
                }
            }
            .connect(to: target)
            .whenComplete { result in
                switch result {
                case .success(let channel): channel.writeAndFlush(request, promise: nil)
                case .failure: onAnswer(Answer(status: 0, body: []))
                }
            }
    }

    /// An HTTP answer as the load client reads it: the status, and the body when it is whole.
    struct Answer: Sendable {
        var status: Int
        var body: [UInt8]
    }

    /// Keeps `inFlight` connections open to a server for `duration`, each asking once, and counts the
    /// answers that came whole within the time.
    final class Load: @unchecked Sendable {  // touched only on `loop`
        let loop: any EventLoop
        let target: SocketAddress
        let request: ByteBuffer
        let deadline: NIODeadline
        let finished: EventLoopPromise<Void>
        var opened = 0
        var open = 0
        var served = 0
        var refused = 0

        struct Result {
            var served: Int
            var refused: Int
        }

        static func request(path: String, address: SocketAddress) -> ByteBuffer {
            let host = "\(address.ipAddress ?? "127.0.0.1"):\(address.port ?? 80)"
            return ByteBuffer(string: "GET \(path) HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n")
        }

        private init(loop: any EventLoop, target: SocketAddress, path: String, duration: Duration) {
            self.loop = loop
            self.target = target
            self.request = Self.request(path: path, address: target)
            self.deadline = .now() + .nanoseconds(Int64(duration.seconds * 1e9))
            self.finished = loop.makePromise()
        }

        static func run(
            path: String,
            on target: SocketAddress,
            inFlight: Int,
            duration: Duration,
            group: MultiThreadedEventLoopGroup
        ) async throws -> Result {
            let loop = group.next()
            let load = Load(loop: loop, target: target, path: path, duration: duration)
            try await loop.submit { for _ in 0..<inFlight { load.connect() } }.get()
            try await load.finished.futureResult.get()
            return try await loop.submit { Result(served: load.served, refused: load.refused) }.get()
        }

        /// Opens one more connection, unless the time is up; then finishes once the last one is in.
        func connect() {
            guard NIODeadline.now() < deadline else {
                if open == 0 { finished.succeed() }
                return
            }
            let source = HTTPBenchmark.sources[opened % HTTPBenchmark.sources.count]
            opened += 1
            open += 1
            HTTPBenchmark.ask(request, at: target, from: source, on: loop) { self.ended(whole: $0.status == 200) }
        }

        private func ended(whole: Bool) {
            open -= 1
            if NIODeadline.now() < deadline {
                if whole { served += 1 } else { refused += 1 }
            }
            // Later on the loop, not here: a connect that fails at once (no descriptor left) would otherwise
            // call back into this one until the stack runs out.
            loop.execute { self.connect() }
        }
    }

    /// Reads an answer to the connection's close and hands it on: the status, and the body if it is as long
    /// as its Content-Length says (status 0 when the connection ended without a whole answer).
    final class AnswerReader: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        private var bytes: [UInt8] = []
        private let onAnswer: (Answer) -> Void

        init(onAnswer: @escaping (Answer) -> Void) {
            self.onAnswer = onAnswer
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            var buffer = unwrapInboundIn(data)
            bytes += buffer.readBytes(length: buffer.readableBytes) ?? []
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            context.close(promise: nil)
        }

        func channelInactive(context: ChannelHandlerContext) {
            onAnswer(Self.answer(bytes))
        }

        /// Reads bytes, not text: the client shares the machine with the server it measures.
        static func answer(_ bytes: [UInt8]) -> Answer {
            guard bytes.count > 12, let headEnd = bytes.firstOffset(of: "\r\n\r\n") else {
                return Answer(status: 0, body: [])
            }
            let status = number(bytes[9..<12])
            let head = bytes[..<headEnd].map { (65...90).contains($0) ? $0 + 32 : $0 }  // lower case, for the name
            guard let name = head.firstOffset(of: "\r\ncontent-length:") else { return Answer(status: 0, body: []) }
            let value = bytes[(name + 17)..<headEnd].drop { $0 == UInt8(ascii: " ") }.prefix { (48...57).contains($0) }
            guard bytes.count - headEnd - 4 == number(value) else { return Answer(status: 0, body: []) }
            return Answer(status: status, body: Array(bytes[(headEnd + 4)...]))
        }

        private static func number(_ digits: ArraySlice<UInt8>) -> Int {
            digits.reduce(0) { $0 * 10 + Int($1) - 48 }
        }
    }

    /// The anchor: a SwiftNIO HTTP/1.1 server with nothing but NIO's own pipeline, answering every request
    /// with `body` and closing, as the device does.
    enum BareServer {
        static func start(body: [UInt8], group: MultiThreadedEventLoopGroup) async throws -> any Channel {
            try await ServerBootstrap(group: group)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                        try channel.pipeline.syncOperations.addHandler(Responder(body: body))
                    }
                }
                .bind(to: SocketAddress(ipAddress: "127.0.0.1", port: 0)).get()
        }

        final class Responder: ChannelInboundHandler {
            typealias InboundIn = HTTPServerRequestPart
            typealias OutboundOut = HTTPServerResponsePart
            let body: [UInt8]

            init(body: [UInt8]) {
                self.body = body
            }

            func channelRead(context: ChannelHandlerContext, data: NIOAny) {
                guard case .end = unwrapInboundIn(data) else { return }
                var head = HTTPResponseHead(version: .http1_1, status: .ok)
                head.headers.add(name: "Content-Type", value: "text/xml; charset=\"utf-8\"")
                head.headers.add(name: "Content-Length", value: "\(body.count)")
                head.headers.add(name: "Connection", value: "close")
                context.write(wrapOutboundOut(.head(head)), promise: nil)
                context.write(
                    wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: body)))),
                    promise: nil
                )
                context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
                    context.close(promise: nil)
                }
            }
        }
    }
}
