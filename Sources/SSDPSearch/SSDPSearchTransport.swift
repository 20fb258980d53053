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

/// How a search session reaches the network: UDP sockets (the default), or a channel that something else
/// provides, such as a virtual network that runs the session in virtual time (`VirtualLAN` in
/// SSDPTesting).
///
/// A provided channel carries `AddressedEnvelope<ByteBuffer>` both ways, as a UDP channel does: the session
/// writes each M-SEARCH addressed to the configuration's host and port, and reads answers. The session
/// reads its clock from the channel's event loop (`eventLoop.now`), so an event loop whose time is moved by
/// hand (NIO's `NIOAsyncTestingEventLoop`) runs a 9-second search in as long as the moving takes. The
/// session closes the channel when the search ends.
public struct SSDPSearchTransport: Sendable {
    enum Kind: Sendable {
        case udp
        case channel(eventLoop: any EventLoop, open: @Sendable () -> EventLoopFuture<any Channel>)
    }

    let kind: Kind

    /// A UDP socket per interface: the real network.
    public static let udp = Self(kind: .udp)

    /// A channel on `eventLoop` that `open` makes for each session, once, when the session starts.
    public static func channel(
        on eventLoop: any EventLoop,
        _ open: @escaping @Sendable () -> EventLoopFuture<any Channel>
    ) -> Self {
        Self(kind: .channel(eventLoop: eventLoop, open: open))
    }
}
