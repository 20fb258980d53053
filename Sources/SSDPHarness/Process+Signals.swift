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

extension Process {
    /// Starts the process with no signal blocked.
    ///
    /// A new process inherits the signal mask of the thread that starts it, and the threads Swift
    /// concurrency runs on (libdispatch's workers) block nearly every signal, so that Dispatch can take
    /// them. A client started from one cannot be stopped by SIGTERM or SIGINT, nor can anything it runs
    /// (`timeout 8 cmd` sends SIGTERM to a `cmd` that never sees it, and both wait forever). So the
    /// calling thread unblocks every signal for the moment of the start, and blocks them again.
    package func runWithNoSignalBlocked() throws {
        var none = sigset_t()
        var previous = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        try run()
    }
}
