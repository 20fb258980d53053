import NIOCore
import SSDPCore

/// One UDP datagram and the address at the other end: where it came from, or where it goes.
public struct SSDPDatagram: Sendable, Hashable {
    public var remoteAddress: SocketAddress
    public var bytes: [UInt8]

    public init(remoteAddress: SocketAddress, bytes: [UInt8]) {
        self.remoteAddress = remoteAddress
        self.bytes = bytes
    }
}
