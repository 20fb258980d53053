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

extension SSDPInstant {
    /// The instant of an event loop's clock (uptime), so live state machines and NIO timers agree.
    package init(_ deadline: NIODeadline) {
        self.init(offset: .nanoseconds(Int64(clamping: deadline.uptimeNanoseconds)))
    }
}

extension NIODeadline {
    /// The NIO deadline for an instant on the uptime clock.
    package init(_ instant: SSDPInstant) {
        let (seconds, attoseconds) = instant.offset.components
        let nanoseconds = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let total = nanoseconds.overflow ? Int64.max : nanoseconds.partialValue &+ attoseconds / 1_000_000_000
        self = .uptimeNanoseconds(UInt64(clamping: max(0, total)))
    }
}
