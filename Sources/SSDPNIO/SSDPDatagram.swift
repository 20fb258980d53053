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

/// One UDP datagram and the address at the other end: where it came from, or where it goes.
package struct SSDPDatagram: Sendable, Hashable {
    /// The other end: the sender of a received datagram, the destination of one to send.
    package var remoteAddress: SocketAddress
    /// The UDP payload, as received or to be sent.
    package var bytes: [UInt8]
    /// The address a received datagram was sent to (a multicast group, or one of this host's addresses),
    /// when the socket reports it (`ChannelOptions.receivePacketInfo`).
    package var destinationAddress: SocketAddress?

    /// A datagram of `bytes` from or to `remoteAddress`; `destinationAddress` is for received ones only.
    package init(remoteAddress: SocketAddress, bytes: [UInt8], destinationAddress: SocketAddress? = nil) {
        self.remoteAddress = remoteAddress
        self.bytes = bytes
        self.destinationAddress = destinationAddress
    }
}

extension SocketAddress {
    /// The address as people write it: `127.0.0.1:1900`, `[fe80::1]:1900`.
    package var endpointDescription: String {
        guard let ip = ipAddress, let port else { return "\(self)" }
        return self.protocol == .inet6 ? "[\(ip)]:\(port)" : "\(ip):\(port)"
    }
}
