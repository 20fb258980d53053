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

import ArgumentParser
import Foundation

#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif

/// `ssdp-sim ready`: whether a `serve` in this container is serving every device, for a container's
/// HEALTHCHECK (the image has no shell and no curl). It reads the file `serve --ready-file` writes once every
/// device serves and removes when it stops, and checks that the process named there is alive, so a file left
/// by a killed `serve` does not pass.
struct Ready: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Exit 0 if the serve that writes --ready-file is serving every device (a container's health check).",
        discussion: """
            Reads the file `ssdp-sim serve --ready-file FILE` writes once every device serves; the file \
            comes from SSDP_SIM_READY_FILE when --file is not given (the image sets it). Exits 1 if there \
            is no such file or its serve is gone.
            """
    )

    @Option(help: "The file serve's --ready-file names (default: $SSDP_SIM_READY_FILE).")
    var file: String?

    func run() throws {
        let variable = ServeEnvironment.variable(for: "ready-file")
        guard let path = file ?? ProcessInfo.processInfo.environment[variable] else {
            throw ValidationError("give --file or set \(variable)")
        }
        guard let contents = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw CommandFailure("not ready: no \(path)")
        }
        guard let line = contents.split(separator: "\n").first, let pid = pid_t(line), Self.isAlive(pid) else {
            throw CommandFailure("not ready: \(path) names no running serve")
        }
        print("ready: \(contents.split(separator: "\n").dropFirst().joined(separator: " "))")
    }

    /// Whether a process `pid` exists (it may belong to another user: EPERM says it does).
    static func isAlive(_ pid: pid_t) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }

    /// What serve writes: its process ID, then the ready line's words.
    static func contents(_ summary: String) -> String {
        "\(getpid())\n\(summary)\n"
    }
}
