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

#if canImport(Glibc)
import Glibc
#endif

/// Runs CPU-heavy test work (the fuzz loops) on a thread of its own at the lowest priority.
///
/// The tests share Swift's cooperative thread pool, as wide as the machine has cores (two here), and the
/// machine's cores with the live tests, which time datagrams by the wall clock. A fuzz loop on the pool
/// would hold one of its threads; at normal priority beside the live tests it would make their answers
/// late. On a thread of its own at nice 19 it takes only the time nothing else wants.
enum LowPriority {
    static func run<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                lowerThisThreadsPriority()
                continuation.resume(with: Result { try body() })
            }
        }
    }

    static func run<Value: Sendable>(_ body: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                lowerThisThreadsPriority()
                continuation.resume(returning: body())
            }
        }
    }

    /// Nice 19 for the calling thread alone (Linux keeps a nice value per thread).
    private static func lowerThisThreadsPriority() {
        #if os(Linux)
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 19)
        #endif
    }
}
