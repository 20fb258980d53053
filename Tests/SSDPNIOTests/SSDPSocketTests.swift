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
import SSDPNIO
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The search socket's configuration, read back from the kernel. Nothing is sent.
@Suite struct SSDPSocketTests {
    let group = try! SocketAddress(ipAddress: "239.255.255.250", port: 1900)

    private func openSearchChannel(
        interface: String?,
        ttl: Int = SSDPSocket.defaultMulticastTTL
    ) async throws -> any Channel {
        try await SSDPSocket.makeSearchChannel(
            destination: group,
            interface: interface,
            multicastTTL: ttl,
            eventLoop: MultiThreadedEventLoopGroup.singleton.next()
        ) { _ in }.get()
    }

    @Test func bindsAnEphemeralPortNever1900WithMulticastTTL2() async throws {
        let channel = try await openSearchChannel(interface: nil)
        let port = try #require(channel.localAddress?.port)
        let ttl = try await (channel as! any SocketOptionProvider).getIPMulticastTTL().get()
        try await channel.close()
        #expect(port != 1900)
        #expect(port > 1024)
        #expect(ttl == 2)
    }

    @Test(arguments: [1, 4, 255])
    func usesTheRequestedTTL(ttl: Int) async throws {
        let channel = try await openSearchChannel(interface: nil, ttl: ttl)
        let actual = try await (channel as! any SocketOptionProvider).getIPMulticastTTL().get()
        try await channel.close()
        #expect(Int(actual) == ttl)
    }

    @Test func aChosenInterfaceIsTheMulticastInterfaceAndTheBoundAddress() async throws {
        let channel = try await openSearchChannel(interface: "lo")
        let multicastInterface = try await (channel as! any SocketOptionProvider).getIPMulticastIF().get()
        let local = channel.localAddress
        try await channel.close()
        var loopback = in_addr()
        inet_pton(AF_INET, "127.0.0.1", &loopback)
        #expect(multicastInterface.s_addr == loopback.s_addr)
        #expect(local?.ipAddress == "127.0.0.1")
    }

    @Test func anUnknownInterfaceIsAnErrorListingTheRealOnes() async throws {
        do {
            _ = try await openSearchChannel(interface: "no-such-if0")
            Issue.record("opened a socket on an interface that does not exist")
        } catch let error as SSDPTransportError {
            #expect(error.reason.contains("no interface named no-such-if0"))
            #expect(error.reason.contains("lo"))
        }
    }

    @Test func aTTLOutsideTheByteRangeIsRejected() async throws {
        await #expect(throws: SSDPTransportError.self) {
            _ = try await openSearchChannel(interface: nil, ttl: 256)
        }
    }
}

/// Links: an interface and a multicast scope, with the interface's address of that scope.
@Suite struct SSDPLinkTests {
    private func address(_ text: String) throws -> SocketAddress {
        try SocketAddress(ipAddress: text, port: 0)
    }

    @Test func scopesTakeTheAddressesOfTheirKind() throws {
        let (v4, linkLocal, ula, global, loopback) = (
            try address("10.77.1.2"), try address("fe80::1c2:3ff:fe04:506"), try address("fd00:77::2"),
            try address("2001:db8::2"), try address("::1")
        )
        #expect(SSDPMulticastScope.ipv4.contains(v4) && !SSDPMulticastScope.ipv4.contains(linkLocal))
        #expect(SSDPMulticastScope.ipv6LinkLocal.contains(linkLocal))
        #expect(![v4, ula, global, loopback].contains(where: SSDPMulticastScope.ipv6LinkLocal.contains))
        #expect(SSDPMulticastScope.ipv6SiteLocal.contains(ula) && SSDPMulticastScope.ipv6SiteLocal.contains(global))
        #expect(![v4, linkLocal, loopback].contains(where: SSDPMulticastScope.ipv6SiteLocal.contains))
        #expect(SSDPMulticastScope(group: "FF02::C") == .ipv6LinkLocal)
        #expect(SSDPMulticastScope(group: "239.255.255.250") == .ipv4)
        #expect(SSDPMulticastScope(group: "ff0e::c") == nil)
    }

    @Test func aLinkOnLoopbackHasItsAddressAndAURLHost() throws {
        let link = try #require(try SSDPNetworkInterface.links(named: ["lo"], scopes: [.ipv4]).first)
        #expect(link.interfaceName == "lo")
        #expect(link.urlHost == "127.0.0.1")
        #expect(link.address(port: 1900).port == 1900)
        #expect(try link.group(port: 1900).ipAddress == "239.255.255.250")
    }

    @Test func anInterfaceWithoutAnAddressOfAScopeIsNamedInTheError() throws {
        // Loopback has ::1 at most: no link-local address, and ::1 is not a site address.
        #expect {
            try SSDPNetworkInterface.links(named: ["lo"], scopes: [.ipv4, .ipv6LinkLocal])
        } throws: { error in
            "\(error)".hasPrefix("interface lo has no IPv6 link-local address")
        }
        #expect {
            try SSDPNetworkInterface.links(named: ["no-such-if0"], scopes: [.ipv4])
        } throws: { error in
            "\(error)".hasPrefix("no interface named no-such-if0 (interfaces: ") && "\(error)".contains("lo")
        }
    }

    @Test func aLinkLocalURLHostIsBracketedWithoutItsZone() throws {
        var raw = sockaddr_in6()
        raw.sin6_family = sa_family_t(AF_INET6)
        inet_pton(AF_INET6, "fe80::1", &raw.sin6_addr)
        raw.sin6_scope_id = 7
        let address = SocketAddress(raw, host: "")
        let device = NIONetworkDevice(
            name: "eth7",
            address: address,
            netmask: nil,
            broadcastAddress: nil,
            pointToPointDestinationAddress: address,
            multicastSupported: true,
            interfaceIndex: 7
        )
        let link = try #require(SSDPLink(device: device, scope: .ipv6LinkLocal))
        #expect(SSDPLink(device: device, scope: .ipv6SiteLocal) == nil)
        #expect(link.interfaceName == "eth7" && link.interfaceIndex == 7)
        #expect(link.urlHost == "[fe80::1]")
        guard case .v6(let bound) = link.address(port: 1900) else {
            Issue.record("not IPv6")
            return
        }
        #expect(bound.address.sin6_scope_id == 7)
        #expect(in_port_t(bigEndian: bound.address.sin6_port) == 1900)
    }
}
