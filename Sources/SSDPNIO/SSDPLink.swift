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
import NIOPosix

/// Where SSDP multicast goes: IPv4's group, or one of IPv6's by scope (UDA 2.0 §1.1.2).
public enum SSDPMulticastScope: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// 239.255.255.250.
    case ipv4
    /// FF02::C: the link; answered with the interface's link-local address (`fe80::…`).
    case ipv6LinkLocal
    /// FF05::C: the site; answered with the interface's global or unique-local address.
    case ipv6SiteLocal

    /// The group's address, as `SocketAddress(ipAddress:port:)` takes it.
    public var group: String {
        switch self {
        case .ipv4: "239.255.255.250"
        case .ipv6LinkLocal: "ff02::c"
        case .ipv6SiteLocal: "ff05::c"
        }
    }

    /// The protocol family of the group's addresses: `.inet` for IPv4, `.inet6` for the IPv6 scopes.
    public var family: NIOBSDSocket.ProtocolFamily { self == .ipv4 ? .inet : .inet6 }

    /// The scope for people: `IPv4`, `IPv6 link-local` or `IPv6 site-local`.
    public var description: String {
        switch self {
        case .ipv4: "IPv4"
        case .ipv6LinkLocal: "IPv6 link-local"
        case .ipv6SiteLocal: "IPv6 site-local"
        }
    }

    /// Whether `address` is an interface address of this scope: any IPv4 address; `fe80::/10` for the
    /// link; any other IPv6 address but loopback for the site.
    public func contains(_ address: SocketAddress) -> Bool {
        switch self {
        case .ipv4: address.protocol == .inet
        case .ipv6LinkLocal: address.isIPv6LinkLocal
        case .ipv6SiteLocal: address.protocol == .inet6 && !address.isIPv6LinkLocal && !address.isLoopback
        }
    }

    /// The scope of a multicast group address (`239.255.255.250`, `ff02::c`, `FF05::C`), or `nil`.
    public init?(group: String) {
        let lowered = group.lowercased()
        guard let scope = Self.allCases.first(where: { $0.group == lowered }) else { return nil }
        self = scope
    }
}

/// One interface and one multicast scope: the interface's address of that scope (with its zone for a
/// link-local one) and the group an SSDP socket joins there.
public struct SSDPLink: Sendable, Hashable, CustomStringConvertible {
    /// The interface as NIO enumerates it, with the address of `scope`.
    public let device: NIONetworkDevice
    /// The multicast scope: it decides the group joined (`scope.group`) and which of the interface's addresses is used.
    public let scope: SSDPMulticastScope
    /// The interface's address of `scope`, port 0: `device.address`.
    public let address: SocketAddress

    /// The link of `device` (one of NIO's entries: an interface with one address) for `scope`, or `nil`
    /// when that address is not of the scope.
    public init?(device: NIONetworkDevice, scope: SSDPMulticastScope) {
        guard let address = device.address, scope.contains(address) else { return nil }
        self.device = device
        self.scope = scope
        self.address = address
    }

    /// The interface's name (`eth0`).
    public var interfaceName: String { device.name }
    /// The interface's index, which is also the zone of its link-local addresses.
    public var interfaceIndex: Int { device.interfaceIndex }

    /// The address as the host of a URL: `10.0.0.2`, `[fe80::1]`. Without the zone: a zone names an
    /// interface of the sender, which means nothing to the receiver (it uses the interface it heard on).
    public var urlHost: String {
        let ip = address.ipAddress ?? "?"
        return address.protocol == .inet6 ? "[\(ip)]" : ip
    }

    /// `address` with `port`, its zone kept: what a socket of this link binds.
    public func address(port: Int) -> SocketAddress {
        switch address {
        case .v4(let v4):
            var raw = v4.address
            raw.sin_port = in_port_t(UInt16(port)).bigEndian
            return SocketAddress(raw, host: v4.host)
        case .v6(let v6):
            var raw = v6.address
            raw.sin6_port = in_port_t(UInt16(port)).bigEndian
            return SocketAddress(raw, host: v6.host)
        default:
            return address
        }
    }

    /// The group of `scope` on `port`.
    public func group(port: Int) throws -> SocketAddress {
        try SocketAddress(ipAddress: scope.group, port: port)
    }

    /// The text form: `eth0 (IPv4, 10.0.0.2)`.
    public var description: String { "\(interfaceName) (\(scope), \(urlHost))" }
}

/// Finds network interfaces by name, and the links SSDP uses on them.
public enum SSDPNetworkInterface {
    /// The interface called `name` with an address of the same family as `destination`; for an IPv6
    /// multicast destination, an address of the group's scope when the interface has one.
    public static func find(named name: String, like destination: SocketAddress) throws -> NIONetworkDevice {
        let devices = try System.enumerateDevices()
        let candidates = devices.filter { $0.name == name && $0.address?.protocol == destination.protocol }
        let scope = destination.ipAddress.flatMap(SSDPMulticastScope.init(group:))
        let ofScope = scope.flatMap { scope in candidates.first { SSDPLink(device: $0, scope: scope) != nil } }
        if let device = ofScope ?? candidates.first {
            return device
        }
        let family = destination.protocol == .inet6 ? "IPv6" : "IPv4"
        throw SSDPTransportError(
            reason: "no interface named \(name) with an \(family) address (interfaces: \(names(devices)))"
        )
    }

    /// One link per interface in `names` and scope in `scopes`, in that order.
    ///
    /// - Throws: `SSDPTransportError` naming the interface and scope when an interface does not exist or
    ///   has no address of a scope.
    public static func links(named names: [String], scopes: [SSDPMulticastScope]) throws -> [SSDPLink] {
        let devices = try System.enumerateDevices()
        return try names.flatMap { name in
            try scopes.map { scope in
                guard devices.contains(where: { $0.name == name }) else {
                    throw SSDPTransportError(reason: "no interface named \(name) (interfaces: \(Self.names(devices)))")
                }
                let link = devices.lazy.filter { $0.name == name }.compactMap { SSDPLink(device: $0, scope: scope) }
                    .first
                guard let link else {
                    throw SSDPTransportError(reason: "interface \(name) has no \(scope) address\(hint(for: scope))")
                }
                return link
            }
        }
    }

    /// The names of the interfaces that can multicast and are not loopback, with an address of every
    /// scope in `scopes`, in the system's order: what "all interfaces" means.
    public static func multicastInterfaceNames(scopes: [SSDPMulticastScope]) throws -> [String] {
        let devices = try System.enumerateDevices()
        var names: [String] = []
        for device in devices where device.multicastSupported && !names.contains(device.name) {
            let addresses = devices.filter { $0.name == device.name }.compactMap(\.address)
            if !addresses.contains(where: \.isLoopback) && scopes.allSatisfy({ addresses.contains(where: $0.contains) })
            {
                names.append(device.name)
            }
        }
        return names
    }

    private static func names(_ devices: [NIONetworkDevice]) -> String {
        Set(devices.map(\.name)).sorted().joined(separator: ", ")
    }

    private static func hint(for scope: SSDPMulticastScope) -> String {
        switch scope {
        case .ipv4: ""
        case .ipv6LinkLocal:
            " (is IPv6 on, and the interface up? a new address is unusable until duplicate address detection ends)"
        case .ipv6SiteLocal: " (FF05::C needs a global or unique-local address on the interface)"
        }
    }
}

extension SocketAddress {
    /// 127.0.0.0/8 or ::1.
    public var isLoopback: Bool {
        switch self {
        case .v4(let v4): UInt32(bigEndian: v4.address.sin_addr.s_addr) >> 24 == 127
        case .v6: ipv6Bytes.dropLast().allSatisfy { $0 == 0 } && ipv6Bytes.last == 1
        case .unixDomainSocket: false
        }
    }

    /// fe80::/10, an IPv6 address valid on its link only.
    public var isIPv6LinkLocal: Bool {
        guard case .v6 = self else { return false }
        return ipv6Bytes[0] == 0xFE && ipv6Bytes[1] & 0xC0 == 0x80
    }

    /// The 16 bytes of an IPv6 address (empty for any other).
    private var ipv6Bytes: [UInt8] {
        guard case .v6(let v6) = self else { return [] }
        return withUnsafeBytes(of: v6.address.sin6_addr) { Array($0) }
    }
}
