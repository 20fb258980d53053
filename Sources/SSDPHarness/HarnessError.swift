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

/// A reason the harness itself could not run something.
package struct HarnessError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, in words for the user (`cannot write PATH: …`).
    package var reason: String

    /// An error saying `reason`.
    package init(reason: String) {
        self.reason = reason
    }

    /// The reason.
    package var description: String { reason }
}
