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
import SSDPDeviceCore
import SSDPDevices
import SSDPNIO

/// The own addresses of a link's devices (see `DeviceAddressing`) and the socket their answers and NOTIFYs
/// leave from, each datagram with its device's address as the source; and the devices that send from a
/// port of their own as recorded (`Sending`), whose datagrams leave through the same socket from the
/// link's address.
final class DeviceSources {
    /// How a device without an address of its own sends, where it was recorded doing so.
    struct Sending: Hashable {
        /// Its answers leave from a port of its own (`SSDPRecordedAnswers.answersFromItsOwnPort`).
        var answersFromOwnPort = false
        /// Its NOTIFYs leave from a port of its own (`SSDPNotifyHeaders.sentFromOwnPort`).
        var notifiesFromOwnPort = false
        /// The IP TTL its NOTIFYs leave with, when that is its own (`SSDPNotifyHeaders.ttl`).
        var notifyTTL: Int?

        /// How `device` sends on a link whose SSDP port is `ssdpPort`.
        init(_ device: SimulatedDevice, ssdpPort: Int) {
            answersFromOwnPort = device.behaviour.recorded?.answersFromItsOwnPort(listeningOn: ssdpPort) == true
            notifiesFromOwnPort = device.notifyHeaders?.sentFromOwnPort == true
            notifyTTL = device.notifyHeaders?.ttl
        }

        /// Whether any of it needs this socket.
        var isOwn: Bool { answersFromOwnPort || notifiesFromOwnPort }
    }

    /// Per device, its own address, or `nil` for a device that uses the link's.
    private(set) var addresses: [SocketAddress?]
    /// Per device, how it sends.
    private(set) var sending: [Sending]
    /// The link's address, where a datagram of a device without an address of its own leaves from.
    private let linkAddress: SocketAddress
    let socket: SSDPSourceAddressSocket
    private var deviceByAddress: [String: Int]

    init(addresses: [String?], sending: [Sending], link: SSDPLink, ttl: Int) throws {
        self.addresses = try addresses.map { try $0.map { try SocketAddress(ipAddress: $0, port: 0) } }
        self.sending = sending
        linkAddress = link.address(port: 0)
        var deviceByAddress: [String: Int] = [:]
        for (index, address) in addresses.enumerated() {
            if let address { deviceByAddress[address] = index }
        }
        self.deviceByAddress = deviceByAddress
        do {
            socket = try SSDPSourceAddressSocket(interfaceIndex: link.interfaceIndex, ttl: ttl)
        } catch {
            throw SimulatorError(reason: "cannot send from the devices' own addresses on \(link): \(error)")
        }
    }

    /// A device added while the simulator runs, at `address` (or the link's, `nil`).
    func append(_ address: String?, sending: Sending) throws {
        if let address { deviceByAddress[address] = addresses.count }
        addresses.append(try address.map { try SocketAddress(ipAddress: $0, port: 0) })
        self.sending.append(sending)
    }

    /// The device a datagram sent to `destination` is for: the one at that address, or `nil` (every device)
    /// for the multicast group, the interface's own address, or an address no device has.
    func device(for destination: SocketAddress?) -> Int? {
        destination?.ipAddress.flatMap { deviceByAddress[$0] }
    }

    /// The host address a datagram of `device` leaves this socket from, or `nil` when it leaves through the
    /// link's own socket. `answering` a search sent to `searched`, an address of the link's: from there.
    func source(of device: Int, answering: Bool, searched: SocketAddress?) -> SocketAddress? {
        let ownPort = answering ? sending[device].answersFromOwnPort : sending[device].notifiesFromOwnPort
        guard searched == nil else { return ownPort ? searched : nil }
        return addresses[device] ?? (ownPort ? linkAddress : nil)
    }

    /// The IP TTL a datagram of `device` leaves with, when not the socket's: its NOTIFYs' own.
    func ttl(of device: Int, answering: Bool) -> Int? {
        answering ? nil : sending[device].notifyTTL
    }

    /// Where a datagram of `device` leaves from, as traces record it; `nil` for the link's own socket.
    func sourceAddress(of device: Int, answering: Bool, searched: SocketAddress?) -> SocketAddress? {
        guard let address = source(of: device, answering: answering, searched: searched), let ip = address.ipAddress
        else { return nil }
        return try? SocketAddress(ipAddress: ip, port: socket.port)
    }
}

@available(*, unavailable)
extension DeviceSources: Sendable {}
