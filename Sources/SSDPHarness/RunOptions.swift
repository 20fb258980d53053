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

/// What a run keeps of the datagrams on the wire.
package enum Tracing: Sendable, Hashable {
    /// What the checks need: the searches, the reports and the counts.
    case off
    /// Every datagram as well, with its fate, for `--trace`'s pcap and timeline.
    case everyDatagram
}

/// Where a live run's devices listen and its search goes.
package enum LiveNetwork: Sendable, Hashable {
    /// Unicast to the simulator on 127.0.0.1: safe on any machine.
    case loopback
    /// Multicast to 239.255.255.250 on the loopback interface: only inside a private network namespace
    /// (`ssdp-sim run --live --namespace`), never on the host's.
    case namespaceMulticast
}
