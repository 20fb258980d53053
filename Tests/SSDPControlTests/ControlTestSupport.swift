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
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import Testing

@testable import SSDPControl
@testable import SSDPDevices
@testable import SSDPSimulator

extension Tag {
    /// Tests that use real sockets (loopback only).
    @Tag static var live: Self
}

/// A running `DeviceSimulator` on loopback (unicast only, port 0), its journal, and a `ControlServer` on
/// 127.0.0.1 port 0 that runs for the length of `body`.
struct ControlHarness: Sendable {
    let simulator: DeviceSimulator
    let server: ControlServer
    let journal: SimulatorJournal
    /// The NOTIFY messages the devices sent, when asked for (`notifies: true`), as text.
    let notifies: NIOLockedValueBox<[String]>

    static func run(
        _ devices: [SimulatedDevice] = [1, 2].map { SimulatorProfile.roku.device(number: $0, seed: 21) },
        allowedOrigins: Set<String> = [],
        token: String? = nil,
        notifies: Bool = false,
        journal: SimulatorJournal = SimulatorJournal(),
        _ body: @Sendable (ControlHarness) async throws -> Void
    ) async throws {
        let server = try await ControlServer.bind(.init(allowedOrigins: allowedOrigins, token: token), journal: journal)
        var configuration = SimulatorConfiguration(
            devices: devices,
            interfaces: ["lo"],
            port: 0,
            httpPort: .any,
            listening: .unicastOnly,
            seed: 21
        )
        let received = NIOLockedValueBox<[String]>([])
        let listener = notifies ? try await DatagramCollector.bind(into: received) : nil
        configuration.notifyDestination = listener?.localAddress
        defer { listener?.close(promise: nil) }
        let simulator = try await DeviceSimulator.start(configuration, onEvent: journal.append)
        server.attach(simulator)
        let harness = ControlHarness(simulator: simulator, server: server, journal: journal, notifies: received)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await server.run() }
            do {
                try await body(harness)
            } catch {
                group.cancelAll()
                await simulator.shutdown()
                throw error
            }
            group.cancelAll()
            await simulator.shutdown()
        }
    }

    /// A request to the control API; the answer's status must be one the OpenAPI document lists for the
    /// path and method, when the path takes the method.
    func request(_ target: String, headers: [String: String] = [:]) async throws -> PlainHTTP.Response {
        try await request("GET", target, headers: headers)
    }

    /// A request to the control API with `method`.
    func request(
        _ method: String,
        _ target: String,
        headers: [String: String] = [:],
        body: [UInt8]? = nil
    ) async throws -> PlainHTTP.Response {
        let response = try await PlainHTTP.request(method, url: server.url + target, headers: headers, body: body)
        if let (route, _) = ControlRoute.match(ControlRequest(method: method, target: target).segments),
            route.methods.contains(method), headers["Origin"] == nil
        {
            let documented = try OpenAPIDocument.statuses(path: route.template, method: method)
            #expect(documented.contains(response.status), "\(method) \(target): \(response.status) not in the document")
        }
        return response
    }
}

/// A UDP socket on 127.0.0.1 that keeps the text of every datagram it gets.
final class DatagramCollector: ChannelInboundHandler, Sendable {
    typealias InboundIn = AddressedEnvelope<ByteBuffer>
    let box: NIOLockedValueBox<[String]>

    private init(box: NIOLockedValueBox<[String]>) {
        self.box = box
    }

    static func bind(into box: NIOLockedValueBox<[String]>) async throws -> any Channel {
        try await DatagramBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(DatagramCollector(box: box))
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let text = String(decoding: unwrapInboundIn(data).data.readableBytesView, as: UTF8.self)
        box.withLockedValue { $0.append(text) }
    }
}

extension SimulatorJournal {
    /// Returns once a wait is pending (bounded: 5 s).
    func untilWaiting() async throws {
        for _ in 0..<500 where pendingWaits == 0 {
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Returns whether no wait is pending, once none is or after 5 s.
    func untilNoWaits() async throws -> Bool {
        for _ in 0..<500 where pendingWaits > 0 {
            try await Task.sleep(for: .milliseconds(10))
        }
        return pendingWaits == 0
    }

    /// How many waits are pending.
    var pendingWaits: Int { state.withLockedValue { $0.waiters.count } }
}

/// The OpenAPI document the server serves, parsed.
enum OpenAPIDocument {
    static func parsed() throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(ControlOpenAPI.document.utf8)) as? [String: Any])
    }

    /// Every (path, method) the document has, methods in upper case.
    static func operations() throws -> Set<String> {
        let paths = try #require(try parsed()["paths"] as? [String: [String: Any]])
        let methods: Set<String> = ["get", "post", "put", "delete", "patch", "head", "options"]
        return Set(
            paths.flatMap { path, item in item.keys.filter(methods.contains).map { "\($0.uppercased()) \(path)" } }
        )
    }

    /// The statuses the document lists for `method` on `path`.
    static func statuses(path: String, method: String) throws -> Set<Int> {
        let paths = try #require(try parsed()["paths"] as? [String: [String: Any]])
        let operation = try #require(paths[path]?[method.lowercased()] as? [String: Any], "\(method) \(path)")
        let responses = try #require(operation["responses"] as? [String: Any])
        return Set(responses.keys.compactMap { Int($0) })
    }
}

/// A plain HTTP/1.0 client over a NIO socket: sends one request and reads until the server closes (the
/// simulator tests' client, with a body of bytes).
enum PlainHTTP {
    struct Response: Sendable {
        var status: Int
        var headers: String
        var body: String

        /// The value of the first header called `name`, ignoring case.
        func header(_ name: String) -> String? {
            for line in headers.components(separatedBy: "\r\n").dropFirst() {
                let parts = line.split(separator: ":", maxSplits: 1)
                if parts.count == 2, parts[0].lowercased() == name.lowercased() {
                    return parts[1].trimmingCharacters(in: .whitespaces)
                }
            }
            return nil
        }

        /// The body as a JSON object.
        func json() throws -> [String: Any] {
            try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any], "\(body)")
        }
    }

    static func request(
        _ method: String = "GET",
        url: String,
        headers: [String: String] = [:],
        body: [UInt8]? = nil
    ) async throws -> Response {
        let parsed = try #require(URL(string: url))
        let host = try #require(parsed.host)
        let port = try #require(parsed.port)
        let path = parsed.path(percentEncoded: true)
        let query = parsed.query(percentEncoded: true).map { "?\($0)" } ?? ""
        var head = "\(method) \(path.isEmpty ? "/" : path)\(query) HTTP/1.0\r\n"
        for (name, value) in (["Host": "\(host):\(port)"].merging(headers) { $1 }).sorted(by: { $0.key < $1.key }) {
            head += "\(name): \(value)\r\n"
        }
        head += body.map { "Content-Length: \($0.count)\r\n\r\n" } ?? "\r\n"
        let request = Array(head.utf8) + (body ?? [])
        let collected = MultiThreadedEventLoopGroup.singleton.next().makePromise(of: [UInt8].self)
        do {
            _ = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(Collect(promise: collected, request: request))
                    }
                }
                .connect(host: host, port: port)
                .get()
        } catch {
            collected.fail(error)
            throw error
        }
        let text = String(decoding: try await collected.futureResult.get(), as: UTF8.self)
        let parts = text.components(separatedBy: "\r\n\r\n")
        let statusLine = parts[0].components(separatedBy: "\r\n")[0].split(separator: " ")
        return Response(
            status: Int(statusLine.dropFirst().first ?? "") ?? 0,
            headers: parts[0],
            body: parts.dropFirst().joined(separator: "\r\n\r\n")
        )
    }

    private final class Collect: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer
        private var bytes: [UInt8] = []
        private let promise: EventLoopPromise<[UInt8]>
        private let request: [UInt8]

        init(promise: EventLoopPromise<[UInt8]>, request: [UInt8]) {
            self.promise = promise
            self.request = request
        }

        func channelActive(context: ChannelHandlerContext) {
            context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(bytes: request)), promise: nil)
            context.fireChannelActive()
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            bytes += unwrapInboundIn(data).readableBytesView
        }

        func channelInactive(context: ChannelHandlerContext) {
            promise.succeed(bytes)
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            promise.fail(error)
            context.close(promise: nil)
        }
    }
}
