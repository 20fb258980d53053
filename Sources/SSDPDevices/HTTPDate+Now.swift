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

import Foundation
import SSDPCore

extension HTTPDate {
    /// The seconds since 1970 now, by the system's clock: the DATE a live device writes.
    public static var secondsNow: Int {
        Int(Date().timeIntervalSince1970)
    }
}
