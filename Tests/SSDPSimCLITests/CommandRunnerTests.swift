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
import Testing

/// The runner the CLI tests share: whatever a program leaves behind, the run ends at its timeout.
@Suite struct CommandRunnerTests {
    /// A program that exits and leaves a process holding its output (a script's background server): the
    /// timeout kills that process too, instead of the run waiting for it to end on its own.
    @Test func theTimeoutStopsWhatAProgramLeftHoldingItsOutput() async throws {
        let clock = ContinuousClock()
        let start = clock.now
        let output = try await CommandRunner.run(
            URL(fileURLWithPath: "/bin/bash"),
            ["-c", "sleep 120 & echo $!"],
            timeout: .seconds(2)
        )
        #expect(clock.now - start < .seconds(100), "the run waited for the background sleep")
        let sleeper = try #require(pid_t(output.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)))
        var gone = false
        for _ in 0..<100 where !gone {
            gone = !Self.isRunning(sleeper)
            if !gone { try await Task.sleep(for: .milliseconds(100)) }
        }
        #expect(gone, "the background sleep \(sleeper) still runs")
    }

    /// Whether `process` exists and has not exited (a zombie, killed and not yet reaped, has exited).
    static func isRunning(_ process: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(process)/stat", encoding: .utf8),
            let name = stat.range(of: ")", options: .backwards)
        else { return false }
        return stat[name.upperBound...].trimmingCharacters(in: .whitespaces).first != "Z"
    }
}
