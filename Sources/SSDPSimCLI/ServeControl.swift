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
import Logging
import NIOCore
import SSDPControl
import SSDPDevices
import SSDPSimulator

/// The control API of `serve`: where it listens, which web origins it takes, and the journal's size.
struct ControlOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Serve the control API (HTTP+JSON, docs/control.md) on ADDRESS:PORT, or PORT on 127.0.0.1; port 0 takes a "
                + "free one, printed at the start. 'off' serves none (the container image turns it on by default).",
            valueName: "address:port"
        )
    )
    var control: String?

    @Option(
        help: ArgumentHelp(
            "A web origin (http://localhost:3000) whose pages may call the control API; repeatable. Others get 403.",
            valueName: "origin"
        )
    )
    var controlAllowOrigin: [String] = []

    @Option(
        help: ArgumentHelp(
            "A file holding the token every control request must carry (Authorization: Bearer TOKEN; its first "
                + "line, without the line end). Others get 401; GET /health needs none.",
            valueName: "file"
        )
    )
    var controlTokenFile: String?

    // A token may begin with a dash (a URL-safe random one does, one time in 64).
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "The token itself, as --control-token-file (a command line is visible to other users: prefer the file, "
                + "or SSDP_SIM_CONTROL_TOKEN).",
            valueName: "token"
        )
    )
    var controlToken: String?

    @Option(help: "How many events the control API's journal keeps, 1...1000000; the oldest go first.")
    var journalSize = SimulatorJournal.defaultCapacity

    /// The control server's configuration, or `nil` without `--control`.
    func makeConfiguration() throws -> ControlServer.Configuration? {
        guard (1...1_000_000).contains(journalSize) else {
            throw ValidationError("--journal-size '\(journalSize)': must be 1...1000000")
        }
        guard let control, control != "off" else {
            if !controlAllowOrigin.isEmpty { throw ValidationError("--control-allow-origin needs --control") }
            if controlToken != nil || controlTokenFile != nil {
                throw ValidationError("--control-token and --control-token-file need --control")
            }
            return nil
        }
        guard let (host, port) = Self.parse(control) else {
            throw ValidationError(
                "--control '\(control)': expected ADDRESS:PORT or PORT (127.0.0.1:8080, [::1]:0, 8080) with a port "
                    + "0...65535 and an IP address"
            )
        }
        return ControlServer.Configuration(
            host: host,
            port: port,
            allowedOrigins: Set(controlAllowOrigin),
            token: try token()
        )
    }

    /// The token from `--control-token-file` or `--control-token`, or `nil`. Errors never say the token.
    func token() throws -> String? {
        if controlToken != nil, controlTokenFile != nil {
            throw ValidationError("--control-token and --control-token-file: give one of them")
        }
        var token = controlToken
        if let file = controlTokenFile {
            guard let text = FileManager.default.contents(atPath: file).map({ String(decoding: $0, as: UTF8.self) })
            else { throw ValidationError("--control-token-file '\(file)': cannot be read") }
            token = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first
                .map { String($0.hasSuffix("\r") ? $0.dropLast() : $0) }
        }
        guard let token else { return nil }
        let source = controlTokenFile.map { "--control-token-file '\($0)'" } ?? "--control-token"
        guard !token.isEmpty else { throw ValidationError("\(source): the token is empty") }
        guard token.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw ValidationError("\(source): the token must be printable ASCII without spaces (an HTTP header value)")
        }
        return token
    }

    /// `127.0.0.1:8080`, `[::1]:8080`, `localhost:8080` or `8080` as an IP address and a port.
    static func parse(_ text: String) -> (host: String, port: Int)? {
        var host = "127.0.0.1"
        var portText = Substring(text)
        if let colon = text.lastIndex(of: ":") {
            host = String(text[..<colon])
            portText = text[text.index(after: colon)...]
            if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
            if host == "localhost" { host = "127.0.0.1" }
        }
        guard let port = Int(portText), (0...65_535).contains(port),
            (try? SocketAddress(ipAddress: host, port: port)) != nil
        else { return nil }
        return (host, port)
    }

    /// The control server, listening, and its journal; `nil` without `--control`.
    func start(logger: Logger) async throws -> (server: ControlServer, journal: SimulatorJournal)? {
        guard let configuration = try makeConfiguration() else { return nil }
        let journal = SimulatorJournal(capacity: journalSize)
        do {
            return (try await ControlServer.bind(configuration, journal: journal, logger: logger), journal)
        } catch let error as SimulatorError {
            throw CommandFailure("\(error)")
        }
    }
}
