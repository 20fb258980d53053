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

import CSSDPTestSettings
import Foundation
import Testing

/// The test process sets Swift Testing up before it starts (Tests/CSSDPTestSettings/settings.c), unless
/// the environment already says otherwise.
@Suite struct TestSettingsTests {
    @Test func theTestProcessRunsAFewTestsPerCoreAtOnce() throws {
        let width = try #require(ProcessInfo.processInfo.environment["SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH"])
        // Eight per core, unless the environment gave another width (then kept, and nothing was set).
        let set = cssdp_test_width_set()
        if set != 0 {
            #expect(CSSDP_TESTS_PER_CORE == 8)
            #expect(set == Int(CSSDP_TESTS_PER_CORE) * max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))))
            #expect(width == "\(set)")
        }
    }

    @Test func noBacktraceIsTakenOfEachThrownErrorUnlessAsked() throws {
        let flag = try #require(ProcessInfo.processInfo.environment["SWT_SWIFT_ERROR_BACKTRACING_ENABLED"])
        #expect(!flag.isEmpty)
    }
}
