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
#elseif canImport(Darwin)
import Darwin
#endif

/// Standard input as a lifeline: a parent that starts `serve` with a pipe as its standard input and then
/// dies (killed, crashed) closes the pipe, and `serve --stop-on-stdin-eof` stops with it.
enum StandardInput {
    /// A stream that finishes when standard input reaches its end (or cannot be read). What arrives is
    /// read and dropped. The blocking reads run on a thread of their own, not on one of Swift's
    /// cooperative threads; a task that stops iterating (cancelled) leaves that thread blocked until the
    /// process exits, which is when it matters no more.
    static func closed() -> AsyncStream<Void> {
        AsyncStream { continuation in
            let reader = Thread {
                var buffer = [UInt8](repeating: 0, count: 4096)
                while true {
                    let count = read(STDIN_FILENO, &buffer, buffer.count)
                    if count > 0 || (count < 0 && errno == EINTR) { continue }
                    break
                }
                continuation.finish()
            }
            reader.name = "stdin-lifeline"
            reader.start()
        }
    }
}
