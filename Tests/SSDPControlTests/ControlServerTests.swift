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
import Logging
import NIOCore
import NIOEmbedded
import NIOPosix
import ServiceLifecycle
import Testing

@testable import SSDPControl
@testable import SSDPDevices
@testable import SSDPSimulator

/// The control API over loopback, against a real simulator of two Rokus.
@Suite(.tags(.live)) struct ControlServerTests {
    @Test func healthSaysServingWithTheDeviceCount() async throws {
        try await ControlHarness.run { harness in
            let health = try await harness.request("/health")
            #expect(health.status == 200)
            #expect(health.header("Content-Type") == "application/json")
            #expect(try health.json()["status"] as? String == "serving")
            #expect(try health.json()["devices"] as? Int == 2)
        }
    }

    @Test func healthSays503UntilTheSimulatorIsAttached() async throws {
        let server = try await ControlServer.bind(.init(), journal: SimulatorJournal())
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await server.run() }
            let health = try await PlainHTTP.request(url: server.url + "/health")
            #expect(health.status == 503)
            #expect(try health.json()["status"] as? String == "starting")
            #expect(try await PlainHTTP.request(url: server.url + "/devices").status == 503)
            group.cancelAll()
        }
    }

    @Test func listsTheDevicesAndFindsOneByNumberOrUDN() async throws {
        try await ControlHarness.run { harness in
            let devices = try #require(try await harness.request("/devices").json()["devices"] as? [[String: Any]])
            #expect(devices.compactMap { $0["number"] as? Int } == [1, 2])
            let udn = try #require(devices[1]["udn"] as? String)
            for id in ["2", udn, udn.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? udn] {
                let device = try await harness.request("/devices/\(id)").json()
                #expect(device["udn"] as? String == udn)
                #expect(device["state"] as? String == "alive")
                #expect(device["profile"] as? String == "roku")
                let advertisements = device["advertisements"] as? [[String: String]] ?? []
                #expect(advertisements.contains { $0["nt"] == "roku:ecp" })
                for key in ["friendlyName", "deviceType", "address", "location", "bootId", "configId"] {
                    #expect(device[key] != nil, "\(key)")
                }
            }
            let unknown = try await harness.request("/devices/7")
            #expect(unknown.status == 404)
            #expect(try unknown.json()["error"] as? String == "no device 7 (a number from 1, or a UDN)")
        }
    }

    @Test func vanishAndAliveChangeTheDeviceAndTheJournalSaysSo() async throws {
        try await ControlHarness.run { harness in
            let before = try await harness.request("/devices/2").json()
            let vanished = try await harness.request("POST", "/devices/2/actions/vanish")
            #expect(vanished.status == 200)
            #expect(try vanished.json()["state"] as? String == "gone")
            let entries =
                try await harness.request("/journal?kind=device&device=2").json()["entries"] as? [[String: Any]]
            let fields = try #require(entries?.first?["fields"] as? [String: Any])
            #expect(fields["action"] as? String == "vanish")
            #expect(fields["state"] as? String == "gone")
            #expect(entries?.first?["device"] as? Int == 2)
            // A client that asks the gone device is not answered, and the journal says it asked.
            let location = try #require(before["location"] as? String)
            let unanswered = try? await PlainHTTP.request(url: location + "query/device-info")
            #expect((unanswered?.status ?? 0) == 0, "closed without a status line")
            let asked = try await harness.request(
                "/journal/wait?kind=http&device=2&path=/query/device-info&status=0&timeout=5"
            )
            #expect(asked.status == 200, "\(asked.body)")
            let back = try await harness.request("POST", "/devices/2/actions/alive").json()
            #expect(back["state"] as? String == "alive")
            #expect(back["bootId"] as? Int != before["bootId"] as? Int, "a device that comes back has the next BOOTID")
            let again = try await harness.request("POST", "/devices/2/actions/alive")
            #expect(again.status == 409)
            #expect(
                try again.json()["error"] as? String
                    == "device 2: it is up already (alive brings back a device that is gone)"
            )
        }
    }

    @Test func aRebootTakesItsDownTimeFromTheBodyAndTheDeviceComesBack() async throws {
        try await ControlHarness.run { harness in
            let body = Array(#"{"downFor": 0.3}"#.utf8)
            let rebooting = try await harness.request("POST", "/devices/1/actions/reboot", body: body).json()
            #expect(rebooting["state"] as? String == "rebooting")
            let back = try await harness.request("/journal/wait?kind=device&device=1&action=alive&timeout=10")
            #expect(back.status == 200, "\(back.body)")
            #expect(try await harness.request("/devices/1").json()["state"] as? String == "alive")
        }
    }

    @Test(arguments: [
        ("{", "$"), (#"[1]"#, "$"), (#"{"downFor": "soon"}"#, "$.downFor"), (#"{"downFor": 3601}"#, "$.downFor"),
        (#"{"downFor": -1}"#, "$.downFor"), (#"{"down": 5}"#, "$.down"),
    ])
    func aBadBodyIs400NamingItsPath(body: String, path: String) async throws {
        try await ControlHarness.run { harness in
            let response = try await harness.request("POST", "/devices/1/actions/reboot", body: Array(body.utf8))
            #expect(response.status == 400)
            #expect(try response.json()["path"] as? String == path, "\(response.body)")
            #expect(try await harness.request("/devices/1").json()["state"] as? String == "alive")
        }
    }

    @Test func everyBodyIsReadByTheStrictDecoderWithItsWords() async throws {
        try await ControlHarness.run { harness in
            let vanish = try await harness.request(
                "POST",
                "/devices/1/actions/vanish",
                body: Array(#"{"soon": 1}"#.utf8)
            )
            #expect(vanish.status == 400)
            #expect(try vanish.json()["error"] as? String == "unknown field (it takes none)")
            #expect(try vanish.json()["path"] as? String == "$.soon")
            let reboot = try await harness.request(
                "POST",
                "/devices/1/actions/reboot",
                body: Array(#"{"down": 5}"#.utf8)
            )
            #expect(try reboot.json()["error"] as? String == "unknown field (fields: downFor, newPort)")
            let soon = try await harness.request(
                "POST",
                "/devices/1/actions/reboot",
                body: Array(#"{"downFor": "soon"}"#.utf8)
            )
            #expect(try soon.json()["error"] as? String == "expected a number")
            // Not JSON at all: the same words from an action as from a device file or a change.
            for (method, path) in [
                ("POST", "/devices/1/actions/reboot"), ("POST", "/devices"), ("PATCH", "/devices/1"),
            ] {
                let response = try await harness.request(method, path, body: Array(#"{"downFor": "#.utf8))
                #expect(response.status == 400)
                let error = try response.json()["error"] as? String
                #expect(error?.hasPrefix("the body is not JSON: ") == true, "\(method) \(path): \(response.body)")
                #expect(error != "the body is not JSON: ", "\(method) \(path) says where it stops being JSON")
            }
            #expect(try await harness.request("/devices/1").json()["state"] as? String == "alive")
        }
    }

    @Test func badRequestsGetTheirStatus() async throws {
        try await ControlHarness.run { harness in
            let action = try await harness.request("POST", "/devices/1/actions/explode")
            #expect(action.status == 404)
            #expect(
                try action.json()["error"] as? String
                    == "no action explode (the actions: byebye, vanish, alive, update, reboot)"
            )
            #expect(try await harness.request("POST", "/devices/9/actions/vanish").status == 404)
            #expect(try await harness.request("/nowhere").status == 404)
            let method = try await harness.request("PUT", "/journal")
            #expect(method.status == 405)
            #expect(method.header("Allow") == "GET, DELETE")
            let kind = try await harness.request("/journal?kind=toaster")
            #expect(kind.status == 400)
            #expect(
                try kind.json()["error"] as? String
                    == "no kind toaster (the kinds: search, dropped, answer, notify, http, soap, subscription, "
                    + "event, device, action, network)"
            )
            #expect(try await harness.request("/journal?count=2").status == 400)
            #expect(try await harness.request("/journal/wait?timeout=301").status == 400)
            let large = try await harness.request(
                "POST",
                "/devices/1/actions/reboot",
                body: Array(repeating: 32, count: 2_000_000)
            )
            #expect(large.status == 413)
        }
    }

    @Test func webPagesAreRefusedUnlessTheirOriginIsAllowed() async throws {
        try await ControlHarness.run(allowedOrigins: ["http://localhost:3000"]) { harness in
            let refused = try await harness.request(
                "POST",
                "/devices/1/actions/vanish",
                headers: ["Origin": "http://evil.example"]
            )
            #expect(refused.status == 403)
            #expect(try await harness.request("/devices/1").json()["state"] as? String == "alive")
            let allowed = try await harness.request("/health", headers: ["Origin": "http://localhost:3000"])
            #expect(allowed.status == 200)
            #expect(allowed.header("Access-Control-Allow-Origin") == "http://localhost:3000")
            let rebound = try await harness.request("/journal", headers: ["Host": "evil.example:8080"])
            #expect(rebound.status == 403, "a DNS name rebound to loopback")
            #expect(try await harness.request("/health", headers: ["Host": "localhost:1"]).status == 200)
        }
    }

    /// With a token, every request but GET /health must carry it: without it, with another, or with it
    /// cut short or lengthened, 401 and nothing done; the token appears in no answer.
    @Test func aTokenGuardsEveryRequestButHealth() async throws {
        let token = "t0k3n-\(UInt64.random(in: 0...UInt64.max))"
        try await ControlHarness.run(token: token) { harness in
            let wrongs = [
                nil, "Bearer nope", "Bearer " + token.dropLast(), "Bearer \(token)x", token, "Basic \(token)",
            ]
            for wrong in wrongs {
                let refused = try await harness.request(
                    "POST",
                    "/devices/1/actions/vanish",
                    headers: wrong.map { ["Authorization": $0] } ?? [:]
                )
                #expect(refused.status == 401, "\(wrong ?? "none")")
                #expect(refused.header("WWW-Authenticate") == "Bearer")
                #expect(!refused.body.contains(token))
            }
            #expect(try await harness.request("/journal").status == 401)
            #expect(try await harness.request("/openapi.json").status == 401)
            #expect(try await harness.request("/health").status == 200)
            #expect(try await harness.request("POST", "/health").status == 401)
            let bearer = ["Authorization": "Bearer \(token)"]
            #expect(try await harness.request("/devices/1", headers: bearer).json()["state"] as? String == "alive")
            #expect(try await harness.request("/journal", headers: ["Authorization": "bearer  \(token)"]).status == 200)
            #expect(try await harness.request("POST", "/devices/1/actions/vanish", headers: bearer).status == 200)
            #expect(try await harness.request("/devices/1", headers: bearer).json()["state"] as? String == "gone")
        }
    }

    @Test(arguments: [
        ("127.0.0.1:8080", true), ("127.1.2.3", true), ("[::1]:8080", true), ("LOCALHOST:1", true), ("::1", true),
        ("evil.example:8080", false), ("127.0.0.1.evil.example", false), ("[::2]:80", false), ("10.0.0.1:80", false),
    ])
    func aLoopbackServerTakesOnlyLoopbackHosts(host: String, loopback: Bool) {
        #expect(ControlAPI.isLoopback(host: host) == loopback)
    }

    @Test func theJournalFiltersPagesAndClears() async throws {
        try await ControlHarness.run { harness in
            let location = try #require(harness.simulator.statuses().last?.location)
            for key in ["Home", "Back", "Home"] {
                _ = try await PlainHTTP.request("POST", url: location + "keypress/\(key)")
            }
            let home = try await harness.request("/journal?kind=http&path=/keypress/Home&device=2").json()
            #expect((home["entries"] as? [Any])?.count == 2)
            let actions =
                try await harness.request("/journal?kind=action&value=Back").json()["entries"] as? [[String: Any]]
            #expect(actions?.count == 1)
            #expect(actions?.first?["device"] as? Int == 2)
            let page = try await harness.request("/journal?kind=http&limit=1").json()
            #expect((page["entries"] as? [Any])?.count == 1)
            let next = try #require(page["next"] as? Int)
            let rest = try await harness.request("/journal?kind=http&since=\(next)").json()
            #expect((rest["entries"] as? [Any])?.count == 2)
            #expect(try await harness.request("DELETE", "/journal").status == 204)
            #expect((try await harness.request("/journal").json()["entries"] as? [Any])?.isEmpty == true)
        }
    }

    @Test func aWaitIsAnsweredByTheMatchingRequestNotByATimer() async throws {
        // The journal's timers run on a virtual clock that never moves: only the request's entry can end the
        // wait, and it must, or the request below times out.
        let journal = SimulatorJournal(eventLoopGroup: NIOAsyncTestingEventLoop())
        try await ControlHarness.run(journal: journal) { harness in
            let location = try #require(harness.simulator.statuses().first?.location)
            async let waited = harness.request("/journal/wait?kind=http&path=/keypress/Home&timeout=20")
            try await harness.journal.untilWaiting()
            let pressed = try await PlainHTTP.request("POST", url: location + "keypress/Home")
            let ended = try await harness.journal.untilNoWaits()
            // Were it not ended by the request, end it here, so that the failure below is reported at once.
            if !ended { harness.journal.endWaits() }
            let response = try await waited
            #expect(ended, "the request's journal entry did not end the wait")
            #expect(pressed.status == 200)
            #expect(response.status == 200)
            let entries = try response.json()["entries"] as? [[String: Any]]
            #expect((entries?.first?["fields"] as? [String: Any])?["path"] as? String == "/keypress/Home")
        }
    }

    @Test func aWaitThatTimesOutIs408WithTheNearMisses() async throws {
        try await ControlHarness.run { harness in
            let none = try await harness.request("/journal/wait?kind=soap&timeout=0.2")
            #expect(
                try none.json()["error"] as? String
                    == "timed out after 0.2 s: 0 of 1 entries with kind=soap; no entry came near since #0",
                "\(none.body)"
            )
            let location = try #require(harness.simulator.statuses().first?.location)
            _ = try await PlainHTTP.request("POST", url: location + "keypress/Back")
            let response = try await harness.request("/journal/wait?kind=http&path=/keypress/Home&timeout=0.5")
            #expect(response.status == 408)
            let json = try response.json()
            let error = try #require(json["error"] as? String)
            #expect(
                error.hasPrefix("timed out after 0.5 s: 0 of 1 entries with kind=http path=/keypress/Home"),
                "\(error)"
            )
            let misses = try #require(json["nearMisses"] as? [[String: Any]])
            let mismatches = misses.last?["mismatches"] as? [[String: Any]]
            #expect(mismatches?.first?["field"] as? String == "path")
            #expect(mismatches?.first?["actual"] as? String == "/keypress/Back")
            // Since #3, the Home key press alone came: one of the three asked for, and nothing else.
            _ = try await PlainHTTP.request("POST", url: location + "keypress/Home")
            let partial = try await harness.request("/journal/wait?kind=action&since=3&count=3&timeout=0.2")
            #expect(
                try partial.json()["error"] as? String
                    == "timed out after 0.2 s: 1 of 3 entries with kind=action; no other entry came near since #3",
                "\(partial.body)"
            )
        }
    }

    @Test func aGracefulShutdownAnswersAPendingWaitAndClosesIdleConnections() async throws {
        let journal = SimulatorJournal()
        let server = try await ControlServer.bind(.init(), journal: journal)
        let services = ServiceGroup(
            configuration: .init(services: [.init(service: server)], logger: Logger(label: "test"))
        )
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await services.run() }
            async let waited = PlainHTTP.request(url: server.url + "/journal/wait?kind=device&timeout=60")
            try await journal.untilWaiting()
            // A client that connects and sends nothing.
            let idle = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connect(host: "127.0.0.1", port: server.address.port ?? 0).get()
            let shutdown = ContinuousClock.now
            await services.triggerGracefulShutdown()
            let response = try await waited
            try await group.waitForAll()
            try await idle.closeFuture.get()
            print("shutdown: the pending wait answered and the server stopped in \(ContinuousClock.now - shutdown)")
            #expect(response.status == 503)
            #expect(try response.json()["error"] as? String == "the control server is shutting down")
        }
        let later = await journal.wait(for: JournalFilter(), timeout: .seconds(60))
        #expect(later.outcome == .cancelled, "a wait after the shutdown ends at once")
    }

    /// A condition on a field no entry has would match nothing, and a test asserting that nothing came would
    /// pass: such a query is 400, naming the nearest name when there is one.
    @Test(arguments: [
        ("/journal?kind=http&stauts=200", "no journal entry has a field stauts (did you mean status?)"),
        ("/journal/wait?kind=http&timout=2", "no journal entry has a field timout (did you mean timeout?)"),
        (
            "/journal?kind=soap&argument.NewExternalPort=80",
            "no journal entry has a field argument (did you mean arguments?)"
        ),
        ("/journal?colour=red", "no journal entry has a field colour (the fields: action, additionalDataUrl, address,"),
        ("/journal/wait?kind=http&limit=5", "limit is not a parameter of this path"),
        ("/journal?field:kind=http", "no journal entry has a field kind ("),
        ("/journal?.x=1", "a filter needs a field name: got .x=1"),
    ])
    func aFieldNoEntryHasIs400(target: String, error: String) async throws {
        try await ControlHarness.run { harness in
            let response = try await harness.request(target)
            #expect(response.status == 400)
            let said = try #require(try response.json()["error"] as? String)
            #expect(said.hasPrefix(error), "\(said)")
        }
    }

    @Test func fieldsEntriesHaveAreFilteredAsBefore() async throws {
        try await ControlHarness.run { harness in
            for target in [
                "/journal?kind=soap&arguments.NewExternalPort=8080", "/journal?field:count=6", "/journal?usn=x",
                "/journal?kind=network&faults.answerLoss.times=2",
            ] {
                let status = try await harness.request(target).status
                #expect(status == 200, "\(target)")
            }
        }
    }

    @Test func aPortInUseIsSaidInWordsWithTheFlagThatChoosesAnother() async throws {
        let taken = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(host: "127.0.0.1", port: 0).get()
        let port = try #require(taken.localAddress?.port)
        let error = await #expect(throws: SimulatorError.self) {
            try await ControlServer.bind(.init(port: port), journal: SimulatorJournal())
        }
        #expect(
            error?.reason
                == "the control API cannot listen on 127.0.0.1:\(port): the port is in use (choose another with --control HOST:PORT, or port 0 for a free one)"
        )
        try await taken.close()
    }

    /// Cancelling the server while connections are accepted but not yet served drops them unserved. They
    /// were once channels whose writer trapped when dropped ("Deinited NIOAsyncWriter without calling
    /// finish()", swift-nio#2813): a burst of connections then a cancellation crashed the process. Every
    /// connection is closed at the cancellation, those whose request was in included.
    @Test func cancellingTheServerWithConnectionsInTheBacklogDropsThemWithoutACrash() async throws {
        for _ in 1...5 {
            let server = try await ControlServer.bind(.init(), journal: SimulatorJournal())
            let port = try #require(server.address.port)
            let connections = try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await server.run() }
                var connections: [any Channel] = []
                for _ in 1...64 {
                    let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                        .connect(host: "127.0.0.1", port: port).get()
                    var request = channel.allocator.buffer(capacity: 64)
                    request.writeString("GET /health HTTP/1.0\r\n\r\n")
                    channel.writeAndFlush(request, promise: nil)
                    connections.append(channel)
                }
                group.cancelAll()
                try await group.waitForAll()
                return connections
            }
            // Each one is answered or closed by the server, well before the 10-second request deadline would.
            let deadline = ContinuousClock.now + .seconds(5)
            while connections.contains(where: \.isActive) && ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(connections.filter(\.isActive).isEmpty, "connections left open by the cancelled server")
            for connection in connections where connection.isActive {
                connection.close(promise: nil)
            }
        }
    }

    /// What the shutdown above relies on, without a clock: the connections that have not sent a request are
    /// closed when the server closes, and so is one accepted after (still in the backlog then), rather than
    /// at their 10-second deadline.
    @Test func closingTheServerClosesIdleConnectionsAndEveryLaterOne() async throws {
        let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(host: "127.0.0.1", port: 0).get()
        defer { listener.close(promise: nil) }
        let port = try #require(listener.localAddress?.port)
        let connect = {
            try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connect(host: "127.0.0.1", port: port).get()
        }
        let (idle, answered, later) = (try await connect(), try await connect(), try await connect())
        let connections = ControlConnections()
        connections.opened(idle)
        connections.opened(answered)
        connections.requested(ObjectIdentifier(answered))
        connections.closeIdle()
        try await idle.closeFuture.get()
        #expect(answered.isActive, "a connection being answered is left to finish")
        connections.opened(later)
        try await later.closeFuture.get()
        answered.close(promise: nil)
    }

    @Test func theOpenAPIDocumentHasExactlyTheRoutes() async throws {
        let routes = Set(ControlRoute.allCases.flatMap { route in route.methods.map { "\($0) \(route.template)" } })
        #expect(try OpenAPIDocument.operations() == routes)
        try await ControlHarness.run { harness in
            let served = try await harness.request("/openapi.json").json()
            #expect(served["openapi"] as? String == "3.1.0")
        }
    }

    /// The document is a file (`Resources/openapi.json`); the journal's kinds it lists (for the `kind`
    /// parameter and an entry's `kind`) are `JournalEntry.Kind`'s.
    @Test func theOpenAPIDocumentListsTheJournalsKinds() throws {
        let schemas = try #require(
            (try OpenAPIDocument.parsed()["components"] as? [String: Any])?["schemas"] as? [String: Any]
        )
        let listed = try #require((schemas["JournalKind"] as? [String: Any])?["enum"] as? [String])
        #expect(listed == JournalEntry.Kind.allCases.map(\.rawValue))
    }
}
