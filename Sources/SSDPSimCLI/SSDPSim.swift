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
import SSDPDeviceCore
import SSDPHarness

#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif

@main
enum Entry {
    static func main() async {
        // Line-buffer standard output so that each line (a found service, a JSON event, the responder's
        // address) reaches a pipe, a file or a container log as soon as it is printed.
        setvbuf(stdout, nil, _IOLBF, 0)
        let commandLine = Array(CommandLine.arguments.dropFirst())
        let arguments = ServeEnvironment.arguments(commandLine)
        let command: any ParsableCommand
        do {
            command = try SSDPSim.parseAsRoot(arguments)
        } catch {
            // A container's user wrote SSDP_SIM_PROFILE, not --profile: the message names the variable.
            if let (variable, value) = ServeEnvironment.blame(SSDPSim.message(for: error), arguments: commandLine),
                SSDPSim.exitCode(for: error) == .validationFailure
            {
                let message = SSDPSim.fullMessage(for: error)
                // A secret is named, never shown.
                let shown = variable == ServeEnvironment.variable(for: "control-token") ? "(hidden)" : "'\(value)'"
                printError("Error: \(variable)=\(shown): " + message.dropFirst(message.hasPrefix("Error: ") ? 7 : 0))
                SSDPSim.exit(withError: ExitCode.validationFailure)
            }
            SSDPSim.exit(withError: error)
        }
        do {
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                var command = command
                try command.run()
            }
        } catch {
            SSDPSim.exit(withError: error)
        }
    }
}

struct SSDPSim: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ssdp-sim",
        abstract: "SSDP root-device simulator and test harness.",
        discussion: """
            Start with `ssdp-sim demo`: it replays answers modelled on real devices on loopback and \
            runs the real search session against them, with no network and no setup.
            """,
        version: ToolVersion.current,
        subcommands: [
            Run.self, Serve.self, Send.self, Search.self, Check.self, Record.self, Import.self, Profiles.self,
            Demo.self, Ready.self,
        ]
    )
}
