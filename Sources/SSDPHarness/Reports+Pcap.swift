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

import SSDPCapture

extension Reports {
    /// A pcap file of every datagram in the trace (`PcapWriter`), stamped `start` seconds after 1970 plus
    /// its time from the start of the search. Virtual runs start at 0, so `tcpdump -tt` prints virtual seconds.
    package static func pcap(_ trace: [TraceEntry], startingAt start: Double = 0) -> [UInt8] {
        let datagrams = trace.map { entry in
            PcapWriter.Datagram(
                at: entry.at,
                source: entry.source,
                destination: entry.destination,
                payload: entry.bytes
            )
        }
        return PcapWriter.pcap(datagrams, startingAt: start)
    }
}
