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
import Testing

@testable import SSDPCheck

/// An HTTP server on 127.0.0.1 that answers every request with the same bytes, and then closes or, with
/// `hangs`, keeps the connection open and says nothing more.
final class FixedAnswerServer: Sendable {
    private let channel: any Channel

    var location: URL { URL(string: "http://127.0.0.1:\(channel.localAddress?.port ?? 0)/description.xml")! }

    init(answer: [UInt8], hangs: Bool = false) async throws {
        channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(Answerer(answer: answer, hangs: hangs))
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
    }

    func stop() async { try? await channel.close() }

    private final class Answerer: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer
        let answer: [UInt8]
        let hangs: Bool

        init(answer: [UInt8], hangs: Bool) {
            self.answer = answer
            self.hangs = hangs
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard !answer.isEmpty else { return }
            let written = context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(bytes: answer)))
            if !hangs { written.assumeIsolated().whenComplete { _ in context.close(promise: nil) } }
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            context.close(promise: nil)  // the checker hung up on a document too large: expected
        }
    }
}

@Suite(.tags(.live)) struct BadDeviceTests {
    /// Checks `location` with a 1-second timeout: the description is all there is to check.
    func check(_ location: URL) async -> (DeviceCheckReport, Duration) {
        var options = DeviceCheckOptions()
        options.timeout = .seconds(1)
        options.ssdpPort = 9  // nothing answers searches there; discovery fails on its own
        let start = ContinuousClock.now
        let report = await DeviceChecker.run(.location(location), options: options)
        return (report, ContinuousClock.now - start)
    }

    func fetchResult(_ report: DeviceCheckReport) -> DeviceCheckResult? {
        report.results.first { $0.check == "description.fetch" }
    }

    @Test func anUnreachableLocationIsAFailedFetchWithItsReason() async throws {
        let closed = try await FixedAnswerServer(answer: [])
        let location = closed.location
        await closed.stop()  // the port is free again: nothing listens there
        let (report, _) = await check(location)
        let fetch = try #require(fetchResult(report))
        #expect(fetch.outcome == .failed)
        #expect(fetch.detail.contains("cannot connect"), "\(fetch.detail)")
        // Nothing downstream is made without a description, and each says why.
        #expect(
            report.results.filter { $0.outcome == .skipped }.allSatisfy {
                $0.detail == "the description could not be read"
            }
        )
        #expect(!report.passed())
    }

    @Test func aDeviceThatHangsTheConnectionIsGivenUpOnAfterTheTimeout() async throws {
        let server = try await FixedAnswerServer(
            answer: Array("HTTP/1.1 200 OK\r\nContent-Length: 900\r\n\r\n<root".utf8),
            hangs: true
        )
        defer { Task { await server.stop() } }
        let (report, elapsed) = await check(server.location)
        let fetch = try #require(fetchResult(report))
        #expect(fetch.outcome == .failed)
        #expect(fetch.detail == "no whole answer within 1 s")
        #expect(elapsed < .seconds(30))  // bounded by the timeout, generously
    }

    @Test(arguments: [true, false])
    func aTenMegabyteDescriptionIsRefusedAfterTheLimit(declared: Bool) async throws {
        let body = [UInt8](repeating: UInt8(ascii: "a"), count: 10_000_000)
        let head = "HTTP/1.1 200 OK\r\n" + (declared ? "Content-Length: \(body.count)\r\n" : "") + "\r\n"
        let server = try await FixedAnswerServer(answer: Array(head.utf8) + body)
        defer { Task { await server.stop() } }
        let (report, _) = await check(server.location)
        let fetch = try #require(fetchResult(report))
        #expect(fetch.outcome == .failed)
        #expect(
            fetch.detail.contains("more than the \(1 << 20)"),
            "\(fetch.detail)"
        )
        #expect(fetch.evidence.utf8.count <= DeviceCheckResult.maximumEvidence + 16)
    }

    @Test func anXMLBombIsAFailedCheckNotAnExpansion() async throws {
        let lol = (1...9).map { level in
            "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level - 1);", count: 10) + "\">"
        }.joined()
        let bomb =
            #"<?xml version="1.0"?><!DOCTYPE root [<!ENTITY lol0 "lol">"# + lol + "]>"
            + #"<root xmlns="urn:schemas-upnp-org:device-1-0"><device><friendlyName>&lol9;</friendlyName></device></root>"#
        let server = try await FixedAnswerServer(
            answer: Array("HTTP/1.1 200 OK\r\nContent-Length: \(bomb.utf8.count)\r\n\r\n\(bomb)".utf8)
        )
        defer { Task { await server.stop() } }
        let (report, _) = await check(server.location)
        #expect(fetchResult(report)?.outcome == .passed)
        let wellFormed = try #require(report.results.first { $0.check == "description.well-formed" })
        #expect(wellFormed.outcome == .failed)
        #expect(wellFormed.detail.contains("declares entities"))
    }

    @Test func aServerThatAnswersSomethingElseIsAFailedFetch() async throws {
        let server = try await FixedAnswerServer(answer: Array("SSH-2.0-OpenSSH_9.2\r\n".utf8))
        defer { Task { await server.stop() } }
        let (report, _) = await check(server.location)
        let fetch = try #require(fetchResult(report))
        #expect(fetch.outcome == .failed)
        #expect(fetch.evidence.contains("no answer"))
    }
}
