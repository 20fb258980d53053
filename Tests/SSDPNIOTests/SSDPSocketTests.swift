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
        let ttl = try await (channel as! SocketOptionProvider).getIPMulticastTTL().get()
        try await channel.close()
        #expect(port != 1900)
        #expect(port > 1024)
        #expect(ttl == 2)
    }

    @Test(arguments: [1, 4, 255])
    func usesTheRequestedTTL(ttl: Int) async throws {
        let channel = try await openSearchChannel(interface: nil, ttl: ttl)
        let actual = try await (channel as! SocketOptionProvider).getIPMulticastTTL().get()
        try await channel.close()
        #expect(Int(actual) == ttl)
    }

    @Test func aChosenInterfaceIsTheMulticastInterfaceAndTheBoundAddress() async throws {
        let channel = try await openSearchChannel(interface: "lo")
        let multicastInterface = try await (channel as! SocketOptionProvider).getIPMulticastIF().get()
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
