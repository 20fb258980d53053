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
import SSDPCore
import SSDPDemo
import SSDPHarness
import SSDPNIO
import SSDPSearch

struct Demo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the real search session against answers modelled on real devices, on loopback.",
        discussion: """
            Starts a responder on 127.0.0.1 that answers every M-SEARCH with 15 datagrams captured from \
            real devices (Roku, Hue, Sonos, a miniupnpd router, the DIAL reference server, a Dell printer): \
            duplicates, answers for other search targets, an answer without LOCATION, an unparseable one \
            and a stray NOTIFY. Then searches it for upnp:rootdevice with the real SSDPSearchSession, which \
            must report each of the four devices once. Needs no network and no setup.

            With --serve-for, only the responder runs, so you can search it yourself:
              ssdp-sim demo --serve-for 60
              ssdp-sim search upnp:rootdevice --host 127.0.0.1 --port <port it prints> --mx 1
            """
    )

    @Option(help: "MX for the demo search, 1...5.")
    var mx = 1

    @Option(help: "How many M-SEARCH messages the demo search sends.")
    var requests = 3

    @Option(help: "Only run the responder, for this many seconds (1...3600), and print the searches it hears.")
    var serveFor: Int?

    @Flag(help: "Print one JSON object per line instead of text.")
    var json = false

    @Option(help: "Log level on standard error.")
    var logLevel: Logger.Level = .warning

    func validate() throws {
        guard SSDPSearchSessionConfiguration.maximumWaitResponseTimeRange.contains(mx) else {
            throw ValidationError("--mx must be 1...5 seconds, got \(mx)")
        }
        guard (1...100).contains(requests) else {
            throw ValidationError("--requests must be 1...100 for the demo, got \(requests)")
        }
        if let serveFor, !(1...3600).contains(serveFor) {
            throw ValidationError("--serve-for must be 1...3600 seconds, got \(serveFor)")
        }
    }

    func run() async throws {
        let responder = try await ReplayResponder.start(answers: DemoAnswers.all)
        let result: Result<Void, any Error>
        do {
            try await run(against: responder)
            result = .success(())
        } catch {
            result = .failure(error)
        }
        await responder.stop()
        try result.get()
    }

    private func run(against responder: ReplayResponder) async throws {
        let output = CommandOutput(json: json)
        let port = responder.localAddress.port ?? 0
        if let serveFor {
            output.say("Responder listening on 127.0.0.1:\(port) for \(serveFor) s; try:")
            output.say("  ssdp-sim search upnp:rootdevice --host 127.0.0.1 --port \(port) --mx 1")
            try await Task.sleep(for: .seconds(serveFor))
            output.say("Heard \(responder.receivedSearches.count) M-SEARCH.")
            return
        }
        let configuration = try SSDPSearchSessionConfiguration.createUnicastConfiguration(
            forSearchTarget: "upnp:rootdevice",
            host: "127.0.0.1",
            port: port,
            maximumWaitResponseTime: mx,
            maximumSearchRequestsBeforeClosing: requests
        )
        let session = SSDPSearchSession(configuration: configuration, logger: makeLogger(level: logLevel))
        let record = await SearchOutput(json: json).run(session)
        guard !record.failed else { throw ExitCode.failure }
        let heard = responder.receivedSearches.count
        output.say("The responder heard \(heard) M-SEARCH and answered each with \(DemoAnswers.all.count) datagrams.")
        let expected = DemoAnswers.expectedUniqueServiceNames
        let found = record.reports.map(\.service.usn)
        guard heard == requests, found.sorted() == expected.sorted() else {
            output.error(
                "demo failed: expected \(expected.count) services after \(requests) searches, found \(found.count) after \(heard)"
            )
            throw ExitCode.failure
        }
    }
}
