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

/// Socket options NIO has no names for, which a simulator serving several links needs, with each
/// platform's own numbers.
package enum LinkSocketOption {
    /// Binds a socket to one interface: it receives only what arrives there and sends through it. Linux:
    /// `SO_BINDTOIFINDEX` (Linux 5.0; without `CAP_NET_RAW` 5.7). Darwin: `IP_BOUND_IF` or `IPV6_BOUND_IF`
    /// for the scope's family.
    package static func bindToInterfaceIndex(_ scope: SSDPMulticastScope) -> ChannelOptions.Types.SocketOption {
        #if os(Linux)
        .init(level: .socket, name: .init(rawValue: 62))
        #else
        scope == .ipv4
            ? .init(level: .ip, name: .init(rawValue: 25))
            : .init(level: .ipv6, name: .init(rawValue: 125))
        #endif
    }

    /// Linux's `IP_MULTICAST_ALL` / `IPV6_MULTICAST_ALL`: with 0, the socket hears only the groups it joined
    /// itself, not every group any socket on the host joined. `nil` elsewhere: a BSD socket hears only
    /// the groups it joined.
    package static func multicastAll(_ scope: SSDPMulticastScope) -> ChannelOptions.Types.SocketOption? {
        #if os(Linux)
        scope == .ipv4
            ? .init(level: .ip, name: .init(rawValue: 49))
            : .init(level: .ipv6, name: .init(rawValue: 29))
        #else
        nil
        #endif
    }
}
