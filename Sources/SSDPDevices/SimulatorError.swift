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

/// A simulator that could not start, with the reason.
public struct SimulatorError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, in words for the user, with a remedy where there is one.
    public var reason: String

    /// An error saying `reason`.
    public init(reason: String) {
        self.reason = reason
    }

    /// The reason.
    public var description: String { reason }
}
