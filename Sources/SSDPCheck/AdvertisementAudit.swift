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
import SSDPNIO

/// Listens to the SSDP group for NOTIFY messages while a check runs (`--listen SECONDS`): what the
/// advertisement checks read. Keeps at most `maximumKept` datagrams.
final class NotifyListener: Sendable {
    /// The most datagrams kept; a device that floods the group is not kept without bound.
    static let maximumKept = 4_096

    private let channel: any Channel
    private let start: ContinuousClock.Instant
    private let heard: NIOLockedValueBox<[CheckAnswer]>

    private init(channel: any Channel, start: ContinuousClock.Instant, heard: NIOLockedValueBox<[CheckAnswer]>) {
        self.channel = channel
        self.start = start
        self.heard = heard
    }

    /// A listener on the group's port, joined to 239.255.255.250 on `interface` (the system's choice when
    /// `nil`), sharing the port with any SSDP stack on this host.
    static func start(port: Int, interface: String?) async throws -> NotifyListener {
        let group = try SocketAddress(ipAddress: SSDPMulticastScope.ipv4.group, port: port)
        let device = try interface.map { try SSDPNetworkInterface.find(named: $0, like: group) }
        let start = ContinuousClock.now
        let heard = NIOLockedValueBox<[CheckAnswer]>([])
        let channel = try await DatagramBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelOption(.socketOption(.so_reuseaddr), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(
                        NotifyCollector { envelope in
                            var data = envelope.data
                            let datagram = CheckAnswer(
                                elapsed: ContinuousClock.now - start,
                                source: envelope.remoteAddress.ipAddress ?? "",
                                bytes: data.readBytes(length: data.readableBytes) ?? []
                            )
                            heard.withLockedValue { if $0.count < maximumKept { $0.append(datagram) } }
                        }
                    )
                }
            }
            // Bound to the group's address, not to any: unicast searches to this host (a device the
            // checker runs beside) still reach the device's socket, not this one.
            .bind(to: group)
            .get()
        do {
            guard let multicast = channel as? any MulticastChannel else {
                throw DeviceCheckError("cannot listen to the SSDP group: not a multicast socket")
            }
            try await multicast.joinGroup(group, device: device).get()
        } catch {
            try? await channel.close()
            throw error
        }
        return NotifyListener(channel: channel, start: start, heard: heard)
    }

    /// Since the listener started.
    var elapsed: Duration { ContinuousClock.now - start }

    /// What was heard, in order.
    var datagrams: [CheckAnswer] { heard.withLockedValue { $0 } }

    func stop() async {
        try? await channel.close()
    }
}

private final class NotifyCollector: ChannelInboundHandler, Sendable {
    typealias InboundIn = AddressedEnvelope<ByteBuffer>

    private let onDatagram: @Sendable (AddressedEnvelope<ByteBuffer>) -> Void

    init(onDatagram: @escaping @Sendable (AddressedEnvelope<ByteBuffer>) -> Void) {
        self.onDatagram = onDatagram
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        onDatagram(unwrapInboundIn(data))
    }
}

/// The advertisement checks (UDA 1.1 §1.2): what a device's NOTIFY messages said while the checker
/// listened. Pure: the datagrams heard, with their times, in; the results out.
enum AdvertisementAudit {
    static func evaluate(
        _ datagrams: [CheckAnswer],
        device: DescribedDevice,
        location: URL,
        listened: Duration,
        expectByebye: Bool,
        knownMaxAge: Int? = nil
    ) -> [DeviceCheckResult] {
        let uuids = Set(device.allDevices.map { $0.udn.lowercased() })
        let notifications = datagrams.compactMap { datagram -> (CheckAnswer, SSDPParsedMessage)? in
            guard let parsed = try? SSDPParser.parse(datagram.bytes), parsed.message.kind == .notify,
                let usn = parsed.message.headers[.usn], uuids.contains(DiscoveryAudit.uuid(ofUSN: usn).lowercased())
            else { return nil }
            return (datagram, parsed)
        }
        let alive = notifications.filter { $0.1.message.notificationSubtype == .alive }
        let byebye = notifications.filter { $0.1.message.notificationSubtype == .byebye }
        let expected = DiscoveryAudit.searches(for: device).first { $0.subject == "ssdp:all" }?.expected ?? []
        let evidence = { (datagram: CheckAnswer) in
            "from \(datagram.source) at \(datagram.elapsed.milliseconds) ms:\n" + datagram.text
        }
        var results: [DeviceCheckResult] = []
        let maxAge = alive.compactMap { $0.1.message.headers[.cacheControl].flatMap { SSDPCacheControl($0).maxAge } }
            .min()
        guard !alive.isEmpty else {
            let window = "no ssdp:alive in the \(listened.shortSecondsText) s listened"
            results.append(
                knownMaxAge.map { listened > .seconds($0) } == true
                    ? .failed(
                        "advertisement.targets",
                        "",
                        window + ", longer than the max-age its answers gave (\(knownMaxAge ?? 0) s; UDA 1.1 §1.2.2)"
                    )
                    : .skipped(
                        "advertisement.targets",
                        "",
                        window + ": a device need only renew within its max-age; listen longer"
                    )
            )
            if expectByebye { results.append(byebyeResult(byebye, expected: expected, evidence: evidence)) }
            return results
        }
        results.append(
            DiscoveryAudit.headersResult(
                "advertisement.headers",
                "ssdp:alive",
                alive.map { ($0.0, Optional($0.1)) },
                template: "§1.2.2",
                evidence: evidence
            )
        )
        let advertised = Set(alive.compactMap { $0.1.message.headers[.usn] })
        let missing = expected.subtracting(advertised).sorted()
        let unexpected = advertised.subtracting(expected).filter { usn in
            // another description of the same device (a Roku's DIAL dd.xml) advertises its own targets
            alive.contains {
                $0.1.message.headers[.usn] == usn && location.isSameDocument(as: $0.1.message.headers[.location] ?? "")
            }
        }.sorted()
        var problems: [String] = []
        if !missing.isEmpty { problems.append("never advertised: " + missing.joined(separator: ", ")) }
        if !unexpected.isEmpty {
            problems.append("advertised but not described: " + unexpected.joined(separator: ", "))
        }
        results.append(
            .expect(
                "advertisement.targets",
                "",
                failure: problems.isEmpty ? nil : problems.joined(separator: "; ") + " (UDA 1.1 §1.2.2)",
                passed: "\(plural(advertised.count, "USN")) in \(plural(alive.count, "ssdp:alive"))",
                evidence: alive.first.map { evidence($0.0) } ?? ""
            )
        )
        let wrongLocation = alive.first { datagram, message in
            guard let text = message.message.headers[.location], let host = URL(string: text)?.host else { return true }
            return host != location.host
        }
        results.append(
            .expect(
                "advertisement.location",
                "",
                failure: wrongLocation.map {
                    "LOCATION \($0.1.message.headers[.location] ?? "missing") is not on the device's host, \(location.host ?? "")"
                },
                evidence: wrongLocation.map { evidence($0.0) } ?? ""
            )
        )
        if let maxAge {
            results.append(renewalResult(alive, byebye: byebye, maxAge: maxAge, listened: listened))
        }
        if expectByebye {
            results.append(byebyeResult(byebye, expected: advertised.union(expected), evidence: evidence))
        }
        return results
    }

    /// Each USN's alives come within its max-age of each other, and again before the last expires, until
    /// the checker stopped listening or the device said byebye for it.
    private static func renewalResult(
        _ alive: [(CheckAnswer, SSDPParsedMessage)],
        byebye: [(CheckAnswer, SSDPParsedMessage)],
        maxAge: Int,
        listened: Duration
    ) -> DeviceCheckResult {
        guard listened > .seconds(maxAge) else {
            return .skipped(
                "advertisement.renewal",
                "",
                "listened \(listened.shortSecondsText) s, less than one max-age (\(maxAge) s): --listen \(maxAge + 5) sees a renewal"
            )
        }
        var byUSN: [String: [Duration]] = [:]
        for (datagram, message) in alive {
            if let usn = message.message.headers[.usn] { byUSN[usn, default: []].append(datagram.elapsed) }
        }
        for (usn, times) in byUSN.sorted(by: { $0.key < $1.key }) {
            let last = times.last ?? .zero
            let end = byebye.first { $0.1.message.headers[.usn] == usn && $0.0.elapsed >= last }?.0.elapsed ?? listened
            let gaps = zip(times, times.dropFirst()).map { $1 - $0 } + [end - last]
            if let gap = gaps.first(where: { $0 > .seconds(maxAge) }) {
                return .failed(
                    "advertisement.renewal",
                    usn,
                    "no ssdp:alive for \(gap.shortSecondsText) s, longer than its max-age of \(maxAge) s (UDA 1.1 §1.2.2)"
                )
            }
        }
        return .passed("advertisement.renewal", "", "every USN renewed within \(maxAge) s")
    }

    private static func byebyeResult(
        _ byebye: [(CheckAnswer, SSDPParsedMessage)],
        expected: Set<String>,
        evidence: (CheckAnswer) -> String
    ) -> DeviceCheckResult {
        let said = Set(byebye.compactMap { $0.1.message.headers[.usn] })
        let missing = expected.subtracting(said).sorted()
        return .expect(
            "advertisement.byebye",
            "",
            failure: missing.isEmpty
                ? nil
                : (said.isEmpty ? "no ssdp:byebye at all" : "no ssdp:byebye for " + missing.joined(separator: ", "))
                    + " (UDA 1.1 §1.2.3: a device leaving says byebye for what it advertised)",
            passed: plural(said.count, "USN"),
            evidence: byebye.first.map { evidence($0.0) } ?? ""
        )
    }
}
