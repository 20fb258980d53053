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

/// Runs `body`, then `cleanup` whether `body` returned or threw (or its task was cancelled), and returns
/// or rethrows what `body` did: how both kinds of LAN end a test.
func withCleanup<Result>(
    isolation: isolated (any Actor)? = #isolation,
    _ body: () async throws -> Result,
    cleanup: () async -> Void
) async throws -> Result {
    let result: Result
    do {
        result = try await body()
    } catch {
        await cleanup()
        throw error
    }
    await cleanup()
    return result
}
