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

import Logging
import NIOCore
import NIOEmbedded
import SSDPCore
import SSDPNIO
import Testing

/// The handler on an `EmbeddedChannel`: virtual time through `advanceTime`, datagrams written by hand.
@Suite struct SearchSessionHandlerTests {
    let device = try! SocketAddress(ipAddress: "192.0.2.10", port: 1900)
    let searcher = try! SocketAddress(ipAddress: "192.0.2.1", port: 50_000)

    /// A channel with the codec and a search handler whose events land in `events`.
    private func makeChannel(
        requests: Int = 3,
        mx: Int = 1,
        searchTarget: String = "upnp:rootdevice"
    ) throws -> (EmbeddedChannel, EventLog) {
        let configuration = try SSDPSearchSessionConfiguration.createUnicastConfiguration(
            forSearchTarget: searchTarget,
            host: "192.0.2.10",
            maximumWaitResponseTime: mx,
            maximumSearchRequestsBeforeClosing: requests
        )
        let events = EventLog()
        let handler = SearchSessionHandler(
            configuration: configuration,
            destination: device,
            logger: .init(label: "test")
        ) { events.append($0) }
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandlers(SSDPDatagramCodec(), handler)
        try channel.connect(to: searcher).wait()
        return (channel, events)
    }

    private func response(
        usn: String,
        st: String = "upnp:rootdevice",
        maxAge: Int = 1800
    ) -> AddressedEnvelope<ByteBuffer> {
        let text =
            "HTTP/1.1 200 OK\r\nCACHE-CONTROL: max-age=\(maxAge)\r\nEXT:\r\nLOCATION: http://192.0.2.10/d.xml\r\n"
            + "SERVER: Test/1 UPnP/1.0 Test/1\r\nST: \(st)\r\nUSN: \(usn)\r\n\r\n"
        return AddressedEnvelope(remoteAddress: device, data: ByteBuffer(string: text))
    }

    /// Every M-SEARCH written so far, as (destination, text).
    private func sentSearches(_ channel: EmbeddedChannel) throws -> [(SocketAddress, String)] {
        var sent: [(SocketAddress, String)] = []
        while let envelope = try channel.readOutbound(as: AddressedEnvelope<ByteBuffer>.self) {
            sent.append((envelope.remoteAddress, String(buffer: envelope.data)))
        }
        return sent
    }

    @Test func sendsEachSearchOnScheduleThenStopsAtTheTimeout() throws {
        let (channel, events) = try makeChannel(requests: 3, mx: 1)
        channel.pipeline.fireUserInboundEventTriggered(SearchSessionHandler.Start())
        let first = try sentSearches(channel)
        #expect(first.count == 1)
        #expect(first.first?.0 == device)
        #expect(
            first.first?.1
                == "M-SEARCH * HTTP/1.1\r\nHOST: 192.0.2.10:1900\r\nMAN: \"ssdp:discover\"\r\nST: upnp:rootdevice\r\nMX: 1\r\n\r\n"
        )

        // N = 3, MX = 1: timeout 3.1 s, searches every (3.1 − 1) / 2 = 1.05 s.
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(1049))
        #expect(try sentSearches(channel).isEmpty)
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(1))
        #expect(try sentSearches(channel).count == 1)
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(1050))
        #expect(try sentSearches(channel).count == 1)
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(999))
        #expect(events.stops.isEmpty)
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(1))
        #expect(events.stops.count == 1)
        #expect(try sentSearches(channel).isEmpty)
        #expect(!channel.isActive)
    }

    @Test func reportsEachServiceOnceAsItArrives() throws {
        let (channel, events) = try makeChannel()
        channel.pipeline.fireUserInboundEventTriggered(SearchSessionHandler.Start())
        try channel.writeInbound(response(usn: "uuid:a::upnp:rootdevice"))
        #expect(events.found.map(\.uniqueServiceName) == ["uuid:a::upnp:rootdevice"])
        try channel.writeInbound(response(usn: "uuid:a::upnp:rootdevice", maxAge: 60))
        try channel.writeInbound(response(usn: "uuid:b", st: "uuid:b"))
        try channel.writeInbound(AddressedEnvelope(remoteAddress: device, data: ByteBuffer(string: "garbage")))
        try channel.writeInbound(response(usn: "uuid:c::upnp:rootdevice"))
        #expect(events.found.map(\.uniqueServiceName) == ["uuid:a::upnp:rootdevice", "uuid:c::upnp:rootdevice"])

        channel.embeddedEventLoop.advanceTime(by: .seconds(4))
        guard case .stopped(let found, let reason, let statistics) = events.stops.first else {
            Issue.record("no stop reported")
            return
        }
        #expect(found.map(\.uniqueServiceName) == ["uuid:a::upnp:rootdevice", "uuid:c::upnp:rootdevice"])
        #expect(reason == .timedOut)
        #expect(statistics.duplicates == 1)
        #expect(statistics.wrongSearchTarget == 1)
        #expect(statistics.unparseable == 1)
        #expect(statistics.searchesSent == 3)
    }

    @Test func stopEventEndsTheSearchOnceWithWhatWasFound() throws {
        let (channel, events) = try makeChannel()
        channel.pipeline.fireUserInboundEventTriggered(SearchSessionHandler.Start())
        try channel.writeInbound(response(usn: "uuid:a::upnp:rootdevice"))
        channel.pipeline.fireUserInboundEventTriggered(SearchSessionHandler.Stop())
        channel.pipeline.fireUserInboundEventTriggered(SearchSessionHandler.Stop())
        channel.embeddedEventLoop.advanceTime(by: .seconds(10))
        #expect(events.stops.count == 1)
        if case .stopped(let found, let reason, _) = events.stops.first {
            #expect(found.count == 1)
            #expect(reason == .stopRequested)
        }
        #expect(!channel.isActive)
    }

    @Test func socketErrorFailsTheSearchOnce() throws {
        let (channel, events) = try makeChannel()
        channel.pipeline.fireUserInboundEventTriggered(SearchSessionHandler.Start())
        channel.pipeline.fireErrorCaught(SSDPTransportError(reason: "boom"))
        channel.pipeline.fireErrorCaught(SSDPTransportError(reason: "again"))
        channel.embeddedEventLoop.advanceTime(by: .seconds(10))
        #expect(events.stops.count == 1)
        guard case .failed(let error, _) = events.stops.first else {
            Issue.record("expected a failure, got \(events.stops)")
            return
        }
        #expect(error.reason.contains("boom"))
    }

    @Test func codecDropsAndCountsOversizedDatagrams() throws {
        let codec = SSDPDatagramCodec()
        let channel = EmbeddedChannel(handler: codec)
        let big = ByteBuffer(repeating: UInt8(ascii: "a"), count: SSDPParser.maximumDatagramSize + 1)
        try channel.writeInbound(AddressedEnvelope(remoteAddress: device, data: big))
        #expect(try channel.readInbound(as: SSDPDatagram.self) == nil)
        #expect(codec.oversizedDropped == 1)
        try channel.writeInbound(AddressedEnvelope(remoteAddress: device, data: ByteBuffer(string: "x")))
        #expect(
            try channel.readInbound(as: SSDPDatagram.self)
                == SSDPDatagram(remoteAddress: device, bytes: [UInt8(ascii: "x")])
        )
    }
}

/// Collects a handler's events (the embedded loop runs everything on the test's thread).
final class EventLog {
    private(set) var events: [SearchSessionHandler.Event] = []

    func append(_ event: SearchSessionHandler.Event) { events.append(event) }

    var found: [SSDPService] {
        events.compactMap { if case .found(let service) = $0 { service } else { nil } }
    }

    /// The stop and failure events.
    var stops: [SearchSessionHandler.Event] {
        events.filter { if case .found = $0 { false } else { true } }
    }
}
