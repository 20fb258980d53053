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

/// What a recording keeps of an answer: every byte the device sent, line ends after its length included.
@Suite struct HTTPFetchTests {
    /// libupnp's error page: 60 bytes said, then CR LF CR LF more.
    static let page =
        "HTTP/1.1 500 Internal Server Error\r\nCONTENT-LENGTH: 60\r\n\r\n"
        + "<html><body><h1>500 Internal Server Error</h1></body></html>\r\n\r\n"

    @Test(arguments: [true, false])
    func aRecordingKeepsTheBytesAfterTheLengthWhetherTheDeviceClosesOrNot(closes: Bool) async throws {
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(OneAnswer(bytes: Self.page, closes: closes))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        defer { server.close(promise: nil) }
        let port = try #require(server.localAddress?.port)
        let url = try #require(URL(string: "http://127.0.0.1:\(port)/x"))
        let recording = HTTPFetch(timeout: .seconds(5), trailingBytesWait: .milliseconds(200))
        let kept = try await recording.exchange("GET", url).response.get()
        #expect(String(decoding: kept.raw, as: UTF8.self) == Self.page)
        #expect(kept.body.count == 60)
        // A check reads the answer to its length and no further.
        let checked = try await HTTPFetch(timeout: .seconds(5)).exchange("GET", url).response.get()
        #expect(
            String(decoding: checked.raw, as: UTF8.self) == String(Self.page.dropLast(2)),
            "CR LF is one Character: two line ends"
        )
    }
}

/// Answers any request with `bytes`, then closes the connection or leaves it open.
private final class OneAnswer: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer
    let bytes: String
    let closes: Bool

    init(bytes: String, closes: Bool) {
        self.bytes = bytes
        self.closes = closes
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let answer = context.channel.allocator.buffer(string: bytes)
        let closes = closes
        context.writeAndFlush(NIOAny(answer)).assumeIsolated().whenComplete { [context] _ in
            if closes { context.close(promise: nil) }
        }
    }
}
