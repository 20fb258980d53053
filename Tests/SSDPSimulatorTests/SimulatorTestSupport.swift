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
import SSDPCore
import SSDPDeviceCore
import SSDPDevices
import SSDPSearch
import SSDPSimulator
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

extension Tag {
    /// Tests that use real sockets (loopback only).
    @Tag static var live: Self
}

enum SimulatorFixtures {
    /// A gateway from a device file: the root and two embedded devices, four services of three types, one
    /// of them twice in the same device.
    static let gatewayFile = """
        { "devices": [ {
            "udn": "uuid:00000000-0000-4000-8000-000000000001",
            "deviceType": "urn:schemas-upnp-org:device:InternetGatewayDevice:2",
            "services": ["urn:schemas-upnp-org:service:Layer3Forwarding:1"],
            "embeddedDevices": [ {
                "deviceType": "urn:schemas-upnp-org:device:WANDevice:2",
                "services": ["urn:schemas-upnp-org:service:WANCommonInterfaceConfig:1"],
                "embeddedDevices": [ {
                    "deviceType": "urn:schemas-upnp-org:device:WANConnectionDevice:2",
                    "services": ["urn:schemas-upnp-org:service:WANIPConnection:2", "urn:schemas-upnp-org:service:WANIPConnection:2"]
                } ]
            } ]
        } ] }
        """

    static var gateway: SSDPRootDevice {
        get throws {
            let simulated = try DeviceFile.decode(Data(gatewayFile.utf8), file: "gateway.json", seed: 1).devices[0]
            return simulated.rootDevice(baseURL: "http://192.168.1.1:5000/device/0", defaultBootID: 1)
        }
    }
}

/// The elements of an XML document, as (name, text) pairs in document order.
enum XMLElements {
    static func parse(_ xml: String) throws -> [(String, String)] {
        let parser = XMLParser(data: Data(xml.utf8))
        let collector = Collector()
        parser.delegate = collector
        try #require(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
        return collector.elements
    }

    private final class Collector: NSObject, XMLParserDelegate {
        var elements: [(String, String)] = []
        private var text = ""

        func parser(
            _ parser: XMLParser,
            didStartElement name: String,
            namespaceURI: String?,
            qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            text = ""
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            text += string
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            elements.append((name, text.trimmingCharacters(in: .whitespacesAndNewlines)))
            text = ""
        }
    }
}

/// A plain HTTP/1.0 client over a NIO socket: sends one request and reads until the server closes.
enum PlainHTTP {
    struct Response {
        var status: Int
        var headers: String
        var body: String
        /// The body as it came, for one that is not text (an icon).
        var bodyBytes: [UInt8] = []

        /// The names of the headers, in order.
        var headerNames: [String] {
            headers.components(separatedBy: "\r\n").dropFirst().map { String($0.prefix { $0 != ":" }) }
        }

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
    }

    static func request(
        _ method: String = "GET",
        url: String,
        headers: [String: String] = [:],
        body: String? = nil
    ) async throws -> Response {
        let parsed = try #require(URL(string: url))
        let host = try #require(parsed.host)
        let port = try #require(parsed.port)
        let path = parsed.path(percentEncoded: true)
        let query = parsed.query(percentEncoded: true).map { "?\($0)" } ?? ""
        var request = "\(method) \(path.isEmpty ? "/" : path)\(query) HTTP/1.0\r\nHost: \(host):\(port)\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            request += "\(name): \(value)\r\n"
        }
        if let body {
            request += "Content-Length: \(body.utf8.count)\r\n\r\n\(body)"
        } else {
            request += "\r\n"
        }
        // The request leaves as soon as the connection is up, on the event loop: a test task that the
        // cooperative pool runs late (a full `swift test` on two cores) must not leave the server's
        // 10-second idle timeout to close the connection before anything was sent.
        let collected = EventLoopPromise<[UInt8]>.makeTestPromise()
        do {
            _ = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .channelInitializer { [request] channel in
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
        let bytes = try await collected.futureResult.get()
        let text = String(decoding: bytes, as: UTF8.self)
        let parts = text.components(separatedBy: "\r\n\r\n")
        let statusLine = parts[0].components(separatedBy: "\r\n")[0].split(separator: " ")
        let headEnd = (0..<max(bytes.count - 3, 0)).first { bytes[$0..<$0 + 4].elementsEqual([13, 10, 13, 10]) }
        return Response(
            status: Int(statusLine.dropFirst().first ?? "") ?? 0,
            headers: parts[0],
            body: parts.dropFirst().joined(separator: "\r\n\r\n"),
            bodyBytes: headEnd.map { Array(bytes[($0 + 4)...]) } ?? []
        )
    }

    private final class Collect: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer
        private var bytes: [UInt8] = []
        private let promise: EventLoopPromise<[UInt8]>
        private let request: String

        init(promise: EventLoopPromise<[UInt8]>, request: String) {
            self.promise = promise
            self.request = request
        }

        func channelActive(context: ChannelHandlerContext) {
            context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(string: request)), promise: nil)
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

extension EventLoopPromise {
    static func makeTestPromise() -> EventLoopPromise<Value> {
        MultiThreadedEventLoopGroup.singleton.next().makePromise(of: Value.self)
    }
}

/// A running `DeviceSimulator` on 127.0.0.1 (unicast only, port 0), and the real `SSDPSearchSession`
/// searching it.
enum LoopbackSimulator {
    static func start(
        _ devices: [SimulatedDevice],
        rateLimit: Int = 1_000,
        addressing: DeviceAddressing? = nil,
        events: NIOLockedValueBox<[SimulatorEvent]>? = nil
    ) async throws -> DeviceSimulator {
        var configuration = SimulatorConfiguration(
            devices: devices,
            interfaces: ["lo"],
            port: 0,
            httpPort: .any,
            listening: .unicastOnly,
            responder: .init(answersPerSourcePerSecond: rateLimit),
            seed: 11
        )
        if let addressing { configuration.addressing = addressing }
        return try await DeviceSimulator.start(configuration) { event in events?.withLockedValue { $0.append(event) } }
    }

    static func search(
        _ simulator: DeviceSimulator,
        target: String = "upnp:rootdevice",
        requests: Int = 2
    ) async throws
        -> (found: [SSDPService], statistics: SearchSessionStatistics)
    {
        let session = SSDPSearchSession(
            configuration: try .createUnicastConfiguration(
                forSearchTarget: target,
                host: "127.0.0.1",
                port: try #require(simulator.udpAddress.port),
                maximumWaitResponseTime: 1,
                maximumSearchRequestsBeforeClosing: requests
            )
        )
        let found = try await session.search()
        return (found, session.statistics)
    }
}
