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
import SSDPCore
import SSDPDeviceCore
import SSDPDevices
import SSDPNIO

/// Everything a simulator needs to start: its devices and how it meets the network.
public struct SimulatorConfiguration: Sendable {
    /// The root devices to run, in order: at least one, and no UDN in two of them.
    public var devices: [SimulatedDevice]
    /// The interfaces to serve on: each joins the group there and answers with a LOCATION of its own
    /// address. Empty picks the first multicast-capable IPv4 interface that is not loopback, or loopback
    /// when there is none.
    public var interfaces: [String]
    /// Serve on every multicast-capable interface that is not loopback and has an address of every scope
    /// (instead of `interfaces`).
    public var allInterfaces = false
    /// Which groups to serve on each interface: 239.255.255.250, FF02::C (link-local LOCATION), FF05::C
    /// (global or unique-local LOCATION). Each interface must have an address of each scope.
    public var scopes: [SSDPMulticastScope] = [.ipv4]
    /// The UDP port searches arrive on.
    public var port: Int
    /// Which port each device's HTTP side listens on: the real device's by default.
    public var httpPort: HTTPPorts
    /// Where the devices live: each at an address of its own (on loopback, 127.0.0.2 onwards), or at the
    /// interface's address. A device's own `address` wins over this.
    public var addressing: DeviceAddressing = .automatic
    /// Whether the simulator joins the multicast group and sends NOTIFYs, or answers unicast searches only.
    public var listening: Listening
    /// Where the HTTP requests to stand-ins go (`serve --record-from`); `nil`: every device answers its own.
    public var forwarding: HTTPForwarding?

    /// How the simulator hears searches.
    public enum Listening: Sendable, Hashable {
        /// It joins the multicast group and sends NOTIFYs.
        case multicast
        /// It answers unicast searches only, bound to the interface's address (to every address of the
        /// interface when devices have addresses of their own), and sends nothing unasked.
        case unicastOnly
    }

    /// Whether it joins the multicast group (`listening`).
    public var multicast: Bool { listening == .multicast }
    /// The host-wide answering rules: how strictly searches are read, the per-source rate limit and the cap on answers
    /// waiting for their delay.
    public var responder: SimulatorResponder.Configuration
    /// The TTL (IPv6: hop limit) of multicast NOTIFY messages, 1...255 (`--ttl`).
    public var multicastTTL: Int
    /// Which searchers get answers; by default only loopback, private and link-local sources.
    public var sourcePolicy: SourceAddressPolicy
    /// How many times each NOTIFY round sends the alive set (1...3).
    public var notifyCopies: Int
    /// The seed of every random choice (delays, loss, re-advertising times).
    public var seed: UInt64
    /// The BOOTID of devices that do not fix one; `nil` uses the start time in seconds, which grows with
    /// every start.
    public var bootID: Int?
    /// Report every datagram received and sent as a `SimulatorEvent.datagram`, for traces.
    public var reportsDatagrams = false
    /// Faults on what the simulator sends (answers and NOTIFYs: latency, loss, answer loss, duplicates,
    /// reordering) and hears (loss), drawn from `seed`; `DeviceSimulator.setNetwork` changes them while it runs.
    public var network = NetworkFaults()
    /// The most HTTP connections the devices' servers hold at once, all clients together; `nil` for half of
    /// what the process's descriptor limit leaves (at most 4,096). One client holds at most 32 of them.
    public var httpConnectionLimit: Int?
    /// Where NOTIFY messages go when the simulator does not join the multicast group (`multicast` off):
    /// `nil` sends none, an address (a test's listener on loopback) gets every alive, update and byebye
    /// unicast. With `multicast` on they go to the group and this is ignored.
    public var notifyDestination: SocketAddress?

    /// A configuration serving `devices` on UDP port 1900 with multicast, HTTP on the real devices' ports
    /// (`HTTPPorts.real`); `seed` draws every random choice, so a run replays.
    public init(
        devices: [SimulatedDevice],
        interfaces: [String] = [],
        port: Int = 1900,
        httpPort: HTTPPorts = .real,
        listening: Listening = .multicast,
        responder: SimulatorResponder.Configuration = .init(),
        multicastTTL: Int = 2,
        sourcePolicy: SourceAddressPolicy = .localOnly,
        notifyCopies: Int = 2,
        seed: UInt64,
        bootID: Int? = nil
    ) {
        self.devices = devices
        self.interfaces = interfaces
        self.port = port
        self.httpPort = httpPort
        self.listening = listening
        self.responder = responder
        self.multicastTTL = multicastTTL
        self.sourcePolicy = sourcePolicy
        self.notifyCopies = notifyCopies
        self.seed = seed
        self.bootID = bootID
    }

    /// Checks every value; the error names the field (`port`, `devices[2].maxAge`).
    public func validate() throws(SSDPConfigurationError) {
        guard !devices.isEmpty else {
            throw SSDPConfigurationError(field: "devices", value: "0", reason: "at least one device is needed")
        }
        guard !scopes.isEmpty, Set(scopes).count == scopes.count else {
            throw SSDPConfigurationError(
                field: "scopes",
                value: scopes.map(\.rawValue).joined(separator: ","),
                reason: "name each of ipv4, ipv6LinkLocal, ipv6SiteLocal at most once, and at least one"
            )
        }
        if let repeated = interfaces.first(where: { name in interfaces.filter { $0 == name }.count > 1 }) {
            throw SSDPConfigurationError(field: "interfaces", value: repeated, reason: "is given twice")
        }
        for (name, value, range) in [
            ("port", port, 0...65_535), ("ttl", multicastTTL, 1...255),
            ("notifyCopies", notifyCopies, 1...3),
            ("rateLimit", responder.answersPerSourcePerSecond, 1...1_000_000),
            ("maxPending", responder.maximumPendingAnswers, 1...10_000_000),
        ] where !range.contains(value) {
            throw SSDPConfigurationError(
                field: name,
                value: "\(value)",
                reason: "must be \(range.lowerBound)...\(range.upperBound)"
            )
        }
        if case .fixed(let httpPort) = httpPort, !(1...65_535).contains(httpPort) {
            throw SSDPConfigurationError(field: "httpPort", value: "\(httpPort)", reason: "must be 1...65535, or any")
        }
        if case .list(let addresses) = addressing {
            for address in addresses where IPv4(address) == nil {
                throw SSDPConfigurationError(field: "addresses", value: address, reason: "not an IPv4 address")
            }
        }
        var udns = Set<String>()
        for (index, device) in devices.enumerated() {
            do throws(SSDPConfigurationError) {
                try device.validate()
            } catch {
                throw SSDPConfigurationError(
                    field: "devices[\(index)].\(error.field)",
                    value: error.value,
                    reason: error.reason
                )
            }
            for udn in device.device.allDevices.map(\.udn) where !udns.insert(udn).inserted {
                throw SSDPConfigurationError(
                    field: "devices[\(index)].udn",
                    value: udn,
                    reason: "another device has this UDN"
                )
            }
        }
    }
}
