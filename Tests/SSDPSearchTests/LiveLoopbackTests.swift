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

import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import SSDPCore
import SSDPDemo
import SSDPNIO
import SSDPSearch
import Testing

extension Tag {
    /// Tests that use real sockets (loopback only).
    @Tag static var live: Self
}

/// The real `SSDPSearchSession` over real UDP sockets on 127.0.0.1 against an in-test responder.
@Suite(.tags(.live)) struct LiveLoopbackTests {
    /// A root device answer from device `id`.
    static func answer(_ id: String, st: String = "upnp:rootdevice", location: String? = nil) -> [UInt8] {
        let usn = st.hasPrefix("uuid:") ? "uuid:\(id)" : "uuid:\(id)::\(st)"
        var text = "HTTP/1.1 200 OK\r\nCACHE-CONTROL: max-age=1800\r\nEXT:\r\n"
        text += "LOCATION: \(location ?? "http://127.0.0.1:8060/\(id).xml")\r\nSERVER: Linux/6 UPnP/1.0 Test/1\r\n"
        text += "ST: \(st)\r\nUSN: \(usn)\r\n\r\n"
        return Array(text.utf8)
    }

    /// Two devices; the first answers twice, then a chatty answer for another target arrives.
    static let answers = [
        answer("roku"), answer("roku"), answer("hue"), answer("hue", st: "urn:schemas-upnp-org:device:basic:1"),
    ]

    private func configuration(port: Int, requests: Int = 3, mx: Int = 1) throws -> SSDPSearchSessionConfiguration {
        try .createUnicastConfiguration(
            forSearchTarget: "upnp:rootdevice",
            host: "127.0.0.1",
            port: port,
            maximumWaitResponseTime: mx,
            maximumSearchRequestsBeforeClosing: requests
        )
    }

    /// A running responder and a session aimed at it, with a recording delegate attached.
    private func makeFixture(
        answers: [[UInt8]] = answers,
        requests: Int = 3,
        mx: Int = 1,
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) async throws -> (ReplayResponder, SSDPSearchSession, RecordingDelegate) {
        let responder = try await ReplayResponder.start(answers: answers)
        let port = try #require(responder.localAddress.port)
        let session = SSDPSearchSession(
            configuration: try configuration(port: port, requests: requests, mx: mx),
            eventLoopGroup: eventLoopGroup
        )
        let delegate = RecordingDelegate()
        session.delegate = delegate
        return (responder, session, delegate)
    }

    @Test func findsEachServiceOnceAndTheResponderHearsExactlyNSearches() async throws {
        let (responder, session, _) = try await makeFixture()
        let port = try #require(responder.localAddress.port)

        let found = try await session.search()
        await responder.stop()

        #expect(found.map(\.uniqueServiceName) == ["uuid:roku::upnp:rootdevice", "uuid:hue::upnp:rootdevice"])
        let searches = responder.receivedSearches
        #expect(searches.count == 3)
        for search in searches {
            #expect(search.headers["ST"] == "upnp:rootdevice")
            #expect(search.headers["MX"] == "1")
            #expect(search.headers["MAN"] == "\"ssdp:discover\"")
            #expect(search.headers["HOST"] == "127.0.0.1:\(port)")
        }
        let statistics = session.statistics
        #expect(statistics.searchesSent == 3)
        #expect(statistics.datagramsReceived == 12)
        #expect(statistics.servicesReported == 2)
        // First search: roku's second copy. Each of the two later searches: roku twice and hue once.
        #expect(statistics.duplicates == 1 + 2 * 3)
        #expect(statistics.wrongSearchTarget == 3)
    }

    /// NIO's default 2,048-byte read would cut this answer short and lose the USN after the padding.
    @Test func aLongAnswerArrivesWhole() async throws {
        let padding = String(repeating: "x", count: 9_000)
        let text =
            "HTTP/1.1 200 OK\r\nCACHE-CONTROL: max-age=1800\r\nEXT:\r\nLOCATION: http://127.0.0.1:8060/long.xml\r\n"
            + "SERVER: Linux/6 UPnP/1.0 Test/1\r\nST: upnp:rootdevice\r\nX-PADDING: \(padding)\r\n"
            + "USN: uuid:long::upnp:rootdevice\r\n\r\n"
        let (responder, session, _) = try await makeFixture(answers: [Array(text.utf8)], requests: 1)
        let found = try await session.search()
        await responder.stop()
        #expect(found.map(\.uniqueServiceName) == ["uuid:long::upnp:rootdevice"])
        #expect(found.first?.otherHeaders["X-PADDING"]?.utf8.count == padding.utf8.count)
    }

    @Test func delegateHearsEachServiceThenOneStop() async throws {
        let (responder, session, delegate) = try await makeFixture()
        session.startSearch()
        session.startSearch()  // single use: a second start does nothing
        let calls = await delegate.waitForEnd()
        await responder.stop()

        #expect(calls == ["found uuid:roku::upnp:rootdevice", "found uuid:hue::upnp:rootdevice", "stop 2"])
        #expect(responder.receivedSearches.count == 3)
    }

    @Test func stopSearchEndsEarlyWithWhatWasFound() async throws {
        // 20 searches about 5 s apart over 100 s: however slowly a loaded machine wakes this task after the
        // first answer, the stop comes long before the last search.
        let (responder, session, delegate) = try await makeFixture(requests: 20, mx: 5)
        var iterator = session.services.makeAsyncIterator()
        let first = try await iterator.next()
        session.stopSearch()
        session.stopSearch()
        let calls = await delegate.waitForEnd()
        await responder.stop()

        #expect(first?.uniqueServiceName == "uuid:roku::upnp:rootdevice")
        #expect(calls.last?.hasPrefix("stop") == true)
        #expect(calls.filter { $0.hasPrefix("stop") }.count == 1)
        #expect(responder.receivedSearches.count < 20)
    }

    @Test func stoppingBeforeStartingReportsAnEmptyStopOnceAndNeverSearches() async throws {
        let (responder, session, delegate) = try await makeFixture()
        session.stopSearch()
        session.stopSearch()
        session.startSearch()  // single use: a stopped session does not start
        let calls = await delegate.waitForEnd()
        let found = try await session.search()
        try await Task.sleep(for: .milliseconds(200))
        await responder.stop()

        #expect(calls == ["stop 0"])
        #expect(found.isEmpty)
        #expect(responder.receivedSearches.isEmpty)
    }

    @Test func stoppingWhileTheSocketOpensStopsBeforeAnySearch() async throws {
        // Start and stop on the session's own event loop, so the socket cannot finish opening (and
        // answers cannot be read) between the two calls however the test threads are scheduled.
        let eventLoop = MultiThreadedEventLoopGroup.singleton.next()
        let (responder, session, delegate) = try await makeFixture(eventLoopGroup: eventLoop)
        try await eventLoop.submit {
            session.startSearch()
            session.stopSearch()
        }.get()
        let calls = await delegate.waitForEnd()
        try await Task.sleep(for: .milliseconds(200))
        await responder.stop()

        #expect(calls == ["stop 0"])
        #expect(responder.receivedSearches.count <= 1)
    }

    @Test func zeroRequestsStopsAtOnceAndSendsNothing() async throws {
        let (responder, session, _) = try await makeFixture(requests: 0)
        let found = try await session.search()
        await responder.stop()

        #expect(found.isEmpty)
        #expect(session.statistics.searchesSent == 0)
        #expect(responder.receivedSearches.isEmpty)
    }

    @Test func aSocketThatCannotOpenIsReportedOnceAsAnError() async throws {
        let session = SSDPSearchSession(configuration: try configuration(port: 9), interface: "no-such-interface0")
        let delegate = RecordingDelegate()
        session.delegate = delegate
        do {
            _ = try await session.search()
            Issue.record("a session without a socket searched")
        } catch {
            // Typed throws: `error` is an SSDPSearchSessionError, with the code a caller can act on.
            #expect(error.code == .socketUnavailable)
        }
        let calls = await delegate.waitForEnd()
        #expect(calls.count == 1)
        #expect(calls.first?.contains("no interface named no-such-interface0") == true)
    }

    @Test func cancellingTheIteratingTaskStopsTheSearch() async throws {
        // 20 searches 5.005 s apart: the stop comes long before the last, however loaded the machine.
        let (responder, session, delegate) = try await makeFixture(answers: [], requests: 20, mx: 5)
        let task = Task { try await session.search() }
        try await waitUntil { !responder.receivedSearches.isEmpty }
        task.cancel()
        // The search stops, and `search()` says it was cancelled rather than return a partial result.
        if case .failure(let error) = await task.result {
            #expect((error as? SSDPSearchSessionError)?.code == .cancelled)
        } else {
            Issue.record("a cancelled search() returned a result")
        }
        let calls = await delegate.waitForEnd()
        #expect(session.stopReason == .stopRequested)
        let heardAtStop = responder.receivedSearches.count
        // The next search would have gone 5.005 s after the one before; wait past it.
        try await Task.sleep(for: .milliseconds(5500))
        await responder.stop()

        #expect(calls == ["stop 0"])
        #expect(heardAtStop < 20)
        #expect(responder.receivedSearches.count == heardAtStop)
    }
}

@Suite struct SearchSessionSingleUseTests {
    /// A session searches once; a second search is a programming error that says so, not a silent hang.
    @Test func searchingTwiceStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            let session = try Self.sessionWithoutRequests()
            _ = try await session.search()
            _ = try await session.search()
        }
    }

    @Test func searchingOnceEndsNormally() async {
        await #expect(processExitsWith: .success) {
            let found = try await Self.sessionWithoutRequests().search()
            precondition(found.isEmpty)
        }
    }

    /// A session that sends nothing and stops at once.
    static func sessionWithoutRequests() throws -> SSDPSearchSession {
        SSDPSearchSession(
            configuration: try .createUnicastConfiguration(
                forSearchTarget: "ssdp:all",
                host: "127.0.0.1",
                port: 9,
                maximumSearchRequestsBeforeClosing: 0
            )
        )
    }
}

/// Polls `condition` every 10 ms for up to 10 s (generous: the machine may be busy with other tests).
func waitUntil(_ condition: () -> Bool) async throws {
    for _ in 0..<1000 where !condition() {
        try await Task.sleep(for: .milliseconds(10))
    }
    #expect(condition(), "condition not met within 10 s")
}

/// Records delegate calls as short strings and lets a test wait for the last one.
final class RecordingDelegate: SSDPSearchSessionDelegate {
    private let state = NIOLockedValueBox<
        (calls: [String], waiter: CheckedContinuation<[String], Never>?, ended: Bool)
    >(([], nil, false))

    func searchSession(_ searchSession: SSDPSearchSession, didFindService service: SSDPService) {
        record("found \(service.uniqueServiceName)", ends: false)
    }

    func searchSession(_ searchSession: SSDPSearchSession, didEncounterError error: SSDPSearchSessionError) {
        record("error \(error)", ends: true)
    }

    func searchSessionDidStopSearch(_ searchSession: SSDPSearchSession, foundServices: [SSDPService]) {
        record("stop \(foundServices.count)", ends: true)
    }

    private func record(_ call: String, ends: Bool) {
        let resume = state.withLockedValue { state -> (CheckedContinuation<[String], Never>, [String])? in
            state.calls.append(call)
            guard ends else { return nil }
            state.ended = true
            defer { state.waiter = nil }
            return state.waiter.map { ($0, state.calls) }
        }
        resume?.0.resume(returning: resume!.1)
    }

    /// The calls so far, once the search has stopped or failed.
    func waitForEnd() async -> [String] {
        await withCheckedContinuation { continuation in
            let calls = state.withLockedValue { state -> [String]? in
                if state.ended { return state.calls }
                state.waiter = continuation
                return nil
            }
            if let calls { continuation.resume(returning: calls) }
        }
    }
}
