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
import SSDPNIO

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension SSDPService {
    /// LOCATION as an absolute URL, or `nil` when it is not one (Microsoft PNRP sends `192.168.1.1`).
    public var locationURL: URL? {
        guard let url = URL(string: location), url.scheme != nil, url.host() != nil else { return nil }
        return url
    }

    /// When the answer stops being valid, on the wall clock: the original design's `cacheControl` date.
    ///
    /// Meaningful for services found by a live `SSDPSearchSession`, whose clock is the system uptime.
    public var expirationDate: Date {
        Date(timeIntervalSinceNow: (cacheControl - SSDPInstant(NIODeadline.now())).inSeconds)
    }
}
