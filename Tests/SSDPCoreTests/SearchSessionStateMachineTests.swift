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

import SSDPCore
import Testing

@Suite struct SearchSessionStateMachineTests {
    typealias Machine = SearchSessionStateMachine
    let roku = SearchResponseBuilder.roku
    let hue = SearchResponseBuilder.hue
    let dial = SearchResponseBuilder.dial
    let error = SSDPSearchSessionError(.sendFailed, reason: "send failed: Network is unreachable")

    // MARK: - Zero requests

    @Test func zeroRequestsStopsAtOnceReportingNoServices() throws {
        var machine = try Machine.multicast(requests: 0)
        #expect(machine.start(at: .zero) == [.stop(foundServices: [], reason: .noSearchRequests)])
        #expect(machine.statistics.searchesSent == 0)
        expectFinished(&machine, at: .zero + .milliseconds(1))
    }

    // MARK: - Sending M-SEARCH

    @Test func doesNothingBeforeStart() throws {
        var machine = try Machine.multicast()
        #expect(machine.nextDeadline == nil)
        #expect(!machine.isStopped)
        #expect(machine.timerFired(at: .zero + .seconds(100)) == [])
        #expect(machine.received(roku.datagram, at: .zero) == .dropped(.notSearching))
        #expect(machine.statistics.searchesSent == 0)
    }

    @Test func sendsTheSeedsSearchMessageByteForByte() throws {
        var machine = try Machine.multicast(searchTarget: "roku:ecp", maximumWaitResponseTime: 3)
        let actions = machine.start(at: .zero)
        guard case .sendSearch(let message) = try #require(actions.first) else {
            Issue.record("start did not send an M-SEARCH: \(actions)")
            return
        }
        #expect(actions.count == 1)
        #expect(message.serialized() == seedSearchDatagram(searchTarget: "roku:ecp", maximumWaitResponseTime: 3))
        #expect(
            message.serializedText
                == "M-SEARCH * HTTP/1.1\r\nHOST: 239.255.255.250:1900\r\nMAN: \"ssdp:discover\"\r\n"
                + "ST: roku:ecp\r\nMX: 3\r\n\r\n"
        )
    }

    @Test(arguments: [(1, 1), (2, 1), (3, 3), (4, 2), (5, 5), (7, 3), (10, 1)])
    func sendsNSearchesSpreadOverTheWindowThenStopsAtTimeout(requests: Int, maximumWaitResponseTime mx: Int) throws {
        let start = SSDPInstant.zero + .seconds(1_000)  // not the origin, so offsets must count from the start
        var machine = try Machine.multicast(searchTarget: "ssdp:all", maximumWaitResponseTime: mx, requests: requests)
        let timeline = machine.run(from: start)

        let timeout = Duration.seconds(requests * mx) + .milliseconds(100)
        let window = timeout - .seconds(mx)
        let search = SearchSessionStateMachine.Action.sendSearch(
            seedSearchMessage(searchTarget: "ssdp:all", maximumWaitResponseTime: mx)
        )
        let sends = (0..<requests).map { k in
            TimedAction(start + (k == 0 ? .zero : window * k / (requests - 1)), search)
        }
        #expect(timeline == sends + [TimedAction(start + timeout, .stop(foundServices: [], reason: .timedOut))])
        #expect(machine.statistics.searchesSent == requests)
        expectFinished(&machine, at: start + timeout)
    }

    /// The same rule with the instants worked out by hand, so a shared mistake in the formula shows.
    @Test(arguments: [
        (3, 3, [0, 3_050, 6_100], 9_100),
        (2, 1, [0, 1_100], 2_100),
        (5, 5, [0, 5_025, 10_050, 15_075, 20_100], 25_100),
        (1, 5, [0], 5_100),
        (3, 1, [0, 1_050, 2_100], 3_100),
    ])
    func sendsAtTheSeedsInstants(requests: Int, mx: Int, sendMilliseconds: [Int], stopMilliseconds: Int) throws {
        var machine = try Machine.multicast(maximumWaitResponseTime: mx, requests: requests)
        let timeline = machine.run()
        let sends = timeline.filter { if case .sendSearch = $0.action { true } else { false } }
        #expect(sends.map(\.instant) == sendMilliseconds.map { .zero + .milliseconds($0) })
        #expect(
            timeline.last
                == TimedAction(.zero + .milliseconds(stopMilliseconds), .stop(foundServices: [], reason: .timedOut))
        )
    }

    @Test func deadlinesPointAtTheNextSearchThenTheTimeout() throws {
        var machine = try Machine.multicast()  // N 3, MX 3: searches at 0, 3.05, 6.1 s, timeout 9.1 s
        _ = machine.start(at: .zero)
        #expect(machine.nextDeadline == .zero + .milliseconds(3_050))
        _ = machine.timerFired(at: .zero + .milliseconds(3_050))
        #expect(machine.nextDeadline == .zero + .milliseconds(6_100))
        _ = machine.timerFired(at: .zero + .milliseconds(6_100))
        #expect(machine.nextDeadline == .zero + .milliseconds(9_100))
    }

    @Test func earlyTimerCallDoesNothing() throws {
        var machine = try Machine.multicast()
        #expect(machine.start(at: .zero) == [.sendSearch(seedSearchMessage())])
        let deadline = try #require(machine.nextDeadline)
        #expect(machine.timerFired(at: .zero) == [])  // the first search is not sent twice
        #expect(machine.timerFired(at: .zero + .seconds(1)) == [])
        #expect(machine.timerFired(at: deadline + .nanoseconds(-1)) == [])
        #expect(machine.nextDeadline == deadline)
        #expect(machine.statistics.searchesSent == 1)
        #expect(machine.timerFired(at: deadline) == [.sendSearch(seedSearchMessage())])
        #expect(machine.timerFired(at: deadline) == [])
        #expect(machine.statistics.searchesSent == 2)
    }

    @Test func earlyTimerCallBeforeTheTimeoutDoesNotStop() throws {
        var machine = try Machine.multicast(maximumWaitResponseTime: 1, requests: 1)  // timeout 1.1 s
        _ = machine.start(at: .zero)
        let timeout = SSDPInstant.zero + .milliseconds(1_100)
        #expect(machine.nextDeadline == timeout)
        #expect(machine.timerFired(at: timeout + .nanoseconds(-1)) == [])
        #expect(!machine.isStopped)
        #expect(machine.nextDeadline == timeout)
        #expect(machine.timerFired(at: timeout) == [.stop(foundServices: [], reason: .timedOut)])
    }

    @Test func stalledTimerSendsEveryPendingSearchOnceThenStops() throws {
        var machine = try Machine.multicast(maximumWaitResponseTime: 1, requests: 5)  // timeout 5.1 s
        let search = Machine.Action.sendSearch(seedSearchMessage(maximumWaitResponseTime: 1))
        #expect(machine.start(at: .zero) == [search])
        #expect(
            machine.timerFired(at: .zero + .seconds(60))
                == [search, search, search, search, .stop(foundServices: [], reason: .timedOut)]
        )
        #expect(machine.statistics.searchesSent == 5)
        expectFinished(&machine, at: .zero + .seconds(61))
    }

    @Test func lateTimerCatchesUpAndKeepsTheSchedule() throws {
        var machine = try Machine.multicast(maximumWaitResponseTime: 1, requests: 5)  // 0, 1.025, 2.05, 3.075, 4.1
        let search = Machine.Action.sendSearch(seedSearchMessage(maximumWaitResponseTime: 1))
        _ = machine.start(at: .zero)
        #expect(machine.timerFired(at: .zero + .milliseconds(2_500)) == [search, search])
        #expect(machine.nextDeadline == .zero + .milliseconds(3_075))
        #expect(
            machine.fireTimers() == [
                TimedAction(.zero + .milliseconds(3_075), search),
                TimedAction(.zero + .milliseconds(4_100), search),
                TimedAction(.zero + .milliseconds(5_100), .stop(foundServices: [], reason: .timedOut)),
            ]
        )
    }

    @Test func startingTwiceDoesNothing() throws {
        var machine = try Machine.multicast()
        let start = SSDPInstant.zero + .seconds(5)
        #expect(machine.start(at: start) == [.sendSearch(seedSearchMessage())])
        #expect(machine.start(at: start + .seconds(1)) == [])
        #expect(machine.statistics.searchesSent == 1)
        #expect(machine.nextDeadline == start + .milliseconds(3_050))  // the first start's schedule stands
    }

    // MARK: - Timeout

    @Test func stopsAtTimeoutReportingEveryServiceInFoundOrderOnce() throws {
        var machine = try Machine.multicast(searchTarget: "ssdp:all")
        let start = SSDPInstant.zero + .seconds(50)
        _ = machine.start(at: start)
        #expect(machine.received(hue.datagram, at: start + .seconds(1)) == .reportService(hue.service()))
        #expect(machine.fireTimers(through: start + .seconds(4)).count == 1)
        #expect(machine.received(roku.datagram, at: start + .seconds(5)) == .reportService(roku.service()))
        #expect(machine.received(hue.datagram, at: start + .seconds(7)) == .dropped(.duplicate))
        #expect(machine.received(dial.datagram, at: start + .seconds(9)) == .reportService(dial.service()))

        let rest = machine.fireTimers()
        #expect(
            rest == [
                TimedAction(start + .milliseconds(6_100), .sendSearch(seedSearchMessage(searchTarget: "ssdp:all"))),
                TimedAction(
                    start + .milliseconds(9_100),
                    .stop(foundServices: [hue.service(), roku.service(), dial.service()], reason: .timedOut)
                ),
            ]
        )
        // The stop reports the first answer of each service (the duplicate's later max-age is not taken).
        guard case .stop(let found, _) = rest.last?.action else {
            Issue.record("the last action is not the stop: \(rest)")
            return
        }
        #expect(found.map(\.cacheControl) == [start + .seconds(101), start + .seconds(3_605), start + .seconds(1_809)])
        expectFinished(&machine, at: start + .milliseconds(9_100))
    }

    @Test func datagramAfterTheTimeoutIsDroppedEvenBeforeTheTimerFires() throws {
        var machine = try Machine.multicast(maximumWaitResponseTime: 1, requests: 1)  // timeout 1.1 s
        _ = machine.start(at: .zero)
        #expect(machine.received(roku.datagram, at: .zero + .milliseconds(1_099)) == .reportService(roku.service()))
        #expect(machine.received(dial.datagram, at: .zero + .milliseconds(1_100)) == .dropped(.notSearching))
        #expect(machine.received(hue.datagram, at: .zero + .seconds(2)) == .dropped(.notSearching))
        #expect(machine.statistics.notSearching == 2)
        #expect(
            machine.timerFired(at: .zero + .seconds(2)) == [.stop(foundServices: [roku.service()], reason: .timedOut)]
        )
    }

    // MARK: - Chatty devices

    @Test func keepsAResponseForTheSearchedTarget() throws {
        var machine = try Machine.multicast(searchTarget: "roku:ecp")
        _ = machine.start(at: .zero)
        #expect(machine.received(roku.datagram, at: .zero) == .reportService(roku.service()))
    }

    @Test func keepsAServiceEchoingTheSearchedVersion() throws {
        var machine = try Machine.multicast(searchTarget: "urn:dial-multiscreen-org:service:dial:1")
        _ = machine.start(at: .zero)
        #expect(machine.received(dial.datagram, at: .zero) == .reportService(dial.service()))
    }

    /// The original design keeps an ST that contains the searched one; UDA 1.1 has the device echo the search's ST, so
    /// the session asks for equality: a `:10` answer to a `:1` search, or a search without a version, is
    /// another target.
    @Test(arguments: [
        ("urn:schemas-upnp-org:device:MediaRenderer:1", "urn:schemas-upnp-org:device:MediaRenderer:10"),
        ("urn:dial-multiscreen-org:service:dial", "urn:dial-multiscreen-org:service:dial:1"),
        ("roku:ecp", "ROKU:ECP"),
    ])
    func dropsAResponseWhoseTargetOnlyContainsTheSearchedTarget(searched: String, answered: String) throws {
        var machine = try Machine.multicast(searchTarget: searched)
        _ = machine.start(at: .zero)
        let answer = SearchResponseBuilder.dial.setting("ST", to: answered)
        #expect(machine.received(answer.datagram, at: .zero) == .dropped(.wrongSearchTarget(answered)))
    }

    @Test func dropsAChattyDeviceAnsweringAnotherTarget() throws {
        var machine = try Machine.multicast(searchTarget: "roku:ecp")
        _ = machine.start(at: .zero)
        #expect(machine.received(hue.datagram, at: .zero) == .dropped(.wrongSearchTarget("upnp:rootdevice")))
        #expect(machine.statistics.wrongSearchTarget == 1)
        #expect(machine.stop(at: .zero + .seconds(1)) == [.stop(foundServices: [], reason: .stopRequested)])
    }

    @Test func dropsAnAnswerForAnotherVersionThanTheSearchedOne() throws {
        var machine = try Machine.multicast(searchTarget: "urn:dial-multiscreen-org:service:dial:2")
        _ = machine.start(at: .zero)
        #expect(
            machine.received(dial.datagram, at: .zero)
                == .dropped(.wrongSearchTarget("urn:dial-multiscreen-org:service:dial:1"))
        )
    }

    @Test(arguments: [SearchResponseBuilder.roku, .hue, .dial, .roku.setting("ST", to: "ssdp:all")])
    func searchingForAllKeepsEveryTarget(response: SearchResponseBuilder) throws {
        var machine = try Machine.multicast(searchTarget: "ssdp:all")
        _ = machine.start(at: .zero)
        #expect(machine.received(response.datagram, at: .zero) == .reportService(response.service()))
    }

    // MARK: - Incomplete responses

    @Test(arguments: ["CACHE-CONTROL", "LOCATION", "SERVER", "ST", "USN"])
    func responseWithoutARequiredFieldIsCountedNotReported(field: String) throws {
        var machine = try Machine.multicast(searchTarget: "ssdp:all")
        _ = machine.start(at: .zero)
        let response = roku.removing(field)
        #expect(machine.received(response.datagram, at: .zero) == .dropped(.incomplete(missingFields: [field])))
        #expect(machine.statistics.incomplete == 1)
        #expect(machine.statistics.servicesReported == 0)
        #expect(machine.stop(at: .zero + .seconds(1)) == [.stop(foundServices: [], reason: .stopRequested)])
    }

    @Test(arguments: ["max-age=:1800", "no-cache", "max-age=", "max-age=soon", "max-age=-1", ""])
    func responseWithUnreadableMaxAgeIsIncomplete(cacheControl: String) throws {
        var machine = try Machine.multicast()
        _ = machine.start(at: .zero)
        let response = roku.setting("CACHE-CONTROL", to: cacheControl)
        #expect(
            machine.received(response.datagram, at: .zero) == .dropped(.incomplete(missingFields: ["CACHE-CONTROL"]))
        )
        #expect(machine.statistics.incomplete == 1)
    }

    @Test func responseWithEmptyLocationIsIncomplete() throws {
        var machine = try Machine.multicast()
        _ = machine.start(at: .zero)
        let response = roku.setting("LOCATION", to: "")
        #expect(machine.received(response.datagram, at: .zero) == .dropped(.incomplete(missingFields: ["LOCATION"])))
    }

    @Test func incompleteResponseNamesEveryMissingField() throws {
        var machine = try Machine.multicast()
        _ = machine.start(at: .zero)
        let response = SearchResponseBuilder(["EXT": "", "ST": "roku:ecp"])
        #expect(
            machine.received(response.datagram, at: .zero)
                == .dropped(.incomplete(missingFields: ["CACHE-CONTROL", "LOCATION", "SERVER", "USN"]))
        )
    }

    // MARK: - De-duplication

    @Test func retriesThenReportsEachServiceOnce() throws {
        var machine = try Machine.multicast()
        var reports: [Machine.ReceiveResult] = []
        _ = machine.start(at: .zero)
        reports.append(machine.received(roku.datagram, at: .zero + .seconds(1)))
        _ = machine.fireTimers(through: .zero + .seconds(4))
        reports.append(machine.received(roku.datagram, at: .zero + .seconds(4)))
        _ = machine.fireTimers(through: .zero + .seconds(7))
        reports.append(machine.received(roku.datagram, at: .zero + .seconds(7)))
        #expect(reports == [.reportService(roku.service()), .dropped(.duplicate), .dropped(.duplicate)])
        #expect(machine.fireTimers().last?.action == .stop(foundServices: [roku.service()], reason: .timedOut))
        #expect(machine.statistics.searchesSent == 3)
        #expect(machine.statistics.duplicates == 2)
    }

    /// A repeat byte for byte is dropped before it is read; only repeats of an answer that reported a
    /// service are: a repeat of a dropped answer is dropped again for its own reason, and a repeat after
    /// the timeout is past the search.
    @Test func byteForByteRepeatIsADuplicateOnlyOfAReportedAnswer() throws {
        var machine = try Machine.multicast(searchTarget: "roku:ecp", maximumWaitResponseTime: 1, requests: 1)
        _ = machine.start(at: .zero)
        let chatty = hue.datagram
        let incomplete = roku.removing("SERVER").setting("USN", to: "uuid:roku:ecp:YN00AA000009").datagram
        for _ in 0..<2 {
            #expect(machine.received(chatty, at: .zero) == .dropped(.wrongSearchTarget("upnp:rootdevice")))
            #expect(machine.received(incomplete, at: .zero) == .dropped(.incomplete(missingFields: ["SERVER"])))
        }
        #expect(machine.received(roku.datagram, at: .zero) == .reportService(roku.service()))
        #expect(machine.received(roku.datagram, at: .zero + .milliseconds(1_099)) == .dropped(.duplicate))
        #expect(machine.received(roku.datagram, at: .zero + .milliseconds(1_100)) == .dropped(.notSearching))
        #expect(machine.statistics.duplicates == 1 && machine.statistics.wrongSearchTarget == 2)
    }

    /// A repeat byte for byte through another interface, or without one, is the reported service again:
    /// its first interface stays (the same USN and ST through two interfaces is one service).
    @Test func byteForByteRepeatThroughAnotherInterfaceIsADuplicate() throws {
        var machine = try Machine.multicast()
        _ = machine.start(at: .zero)
        var reported = roku.service()
        reported.interface = "eth0"
        #expect(machine.received(roku.datagram, at: .zero, interface: "eth0") == .reportService(reported))
        #expect(machine.received(roku.datagram, at: .zero, interface: "eth1") == .dropped(.duplicate))
        #expect(machine.received(roku.datagram, at: .zero) == .dropped(.duplicate))
        #expect(machine.stop(at: .zero + .seconds(1)) == [.stop(foundServices: [reported], reason: .stopRequested)])
    }

    @Test func sameAnswerWithAnotherMaxAgeIsADuplicate() throws {
        var machine = try Machine.multicast()
        _ = machine.start(at: .zero)
        #expect(machine.received(roku.datagram, at: .zero) == .reportService(roku.service()))
        let later = roku.setting("CACHE-CONTROL", to: "max-age=60")
        #expect(machine.received(later.datagram, at: .zero + .seconds(2)) == .dropped(.duplicate))
    }

    /// A repeated answer is dropped from its bytes before it is decoded; that must not change what it is
    /// dropped as: an unreadable repeat is incomplete, not a duplicate.
    @Test(arguments: [
        ("CACHE-CONTROL", "no-cache", ["CACHE-CONTROL"]), ("LOCATION", "", ["LOCATION"]),
    ])
    func repeatedAnswerThatIsNoLongerCompleteIsIncomplete(field: String, value: String, missing: [String]) throws {
        var machine = try Machine.multicast()
        _ = machine.start(at: .zero)
        #expect(machine.received(roku.datagram, at: .zero) == .reportService(roku.service()))
        let broken = roku.setting(field, to: value)
        #expect(
            machine.received(broken.datagram, at: .zero + .seconds(1)) == .dropped(.incomplete(missingFields: missing))
        )
    }

    @Test func sameAnswerWithOtherNameCaseAndOrderIsADuplicate() throws {
        var machine = try Machine.multicast()
        _ = machine.start(at: .zero)
        #expect(machine.received(roku.datagram, at: .zero) == .reportService(roku.service()))
        let reordered = SearchResponseBuilder([
            "usn": "uuid:roku:ecp:YN00AA000001", "St": "roku:ecp", "Server": "Roku/12.0.0 UPnP/1.0 Roku/12.0.0",
            "Location": "http://192.168.1.20:8060/", "Cache-Control": "max-age=3600",
        ])
        #expect(machine.received(reordered.datagram, at: .zero + .seconds(1)) == .dropped(.duplicate))
    }

    /// Equal as text but not as bytes (é precomposed, then as e and a combining accent): the same service, as
    /// `SSDPService`'s equality says, though the bytes that drop repeats early differ. The same for a text
    /// equal to ASCII text (the Kelvin sign is `K`), in the USN, ST or LOCATION as in the SERVER.
    @Test(arguments: [
        ("SERVER", "Caf\u{E9}/1.0 UPnP/1.0 Roku/12.0.0", "Cafe\u{301}/1.0 UPnP/1.0 Roku/12.0.0"),
        ("SERVER", "Roku/12.0.0 UPnP/1.0 Roku/12.0.0 \u{212A}", "Roku/12.0.0 UPnP/1.0 Roku/12.0.0 K"),
        ("USN", "uuid:roku:ecp:YN00AA000001", "uuid:roku:ecp:YN00AA000001"),
        ("USN", "uuid:roku:ecp:\u{212A}00", "uuid:roku:ecp:K00"),
        ("LOCATION", "http://192.168.1.20:8060/x\u{2260}y", "http://192.168.1.20:8060/x=\u{338}y"),
    ])
    func sameAnswerInAnotherUnicodeFormIsADuplicate(field: String, first: String, second: String) throws {
        var machine = try Machine.multicast()
        _ = machine.start(at: .zero)
        let one = roku.setting(field, to: first)
        let other = roku.setting(field, to: second)
        #expect(first == second)
        #expect(machine.received(one.datagram, at: .zero) == .reportService(one.service()))
        #expect(machine.received(other.datagram, at: .zero + .seconds(1)) == .dropped(.duplicate))
        #expect(machine.statistics.servicesReported == 1)
    }

    @Test func sameAnswerWithOtherExtraHeadersIsADuplicate() throws {
        var machine = try Machine.multicast(searchTarget: "ssdp:all")
        _ = machine.start(at: .zero)
        #expect(machine.received(dial.datagram, at: .zero) == .reportService(dial.service()))
        let rebooted = dial.setting("BOOTID.UPNP.ORG", to: "8").removing("DATE").setting("X-Extra", to: "1")
        #expect(machine.received(rebooted.datagram, at: .zero + .seconds(2)) == .dropped(.duplicate))
    }

    /// Bytes that are not UTF-8 send an answer the long way (the parser decodes them to U+FFFD); its repeat
    /// is still a duplicate, before and after an answer that went the short way.
    @Test func answerWithBytesThatAreNotUTF8IsReportedDecodedAndOnce() throws {
        var machine = try Machine.multicast()
        _ = machine.start(at: .zero)
        var garbled = roku.setting("SERVER", to: "Roku/12.0.0 UPnP/1.0 Roku/~").datagram
        let marker = try #require(garbled.firstIndex(of: UInt8(ascii: "~")))
        garbled[marker] = 0xFF
        let decoded = roku.setting("SERVER", to: "Roku/12.0.0 UPnP/1.0 Roku/\u{FFFD}")
        #expect(machine.received(garbled, at: .zero) == .reportService(decoded.service()))
        #expect(machine.received(garbled, at: .zero) == .dropped(.duplicate))
        #expect(machine.received(roku.datagram, at: .zero) == .reportService(roku.service()))
        #expect(machine.received(garbled, at: .zero) == .dropped(.duplicate))
        #expect(machine.received(roku.datagram, at: .zero) == .dropped(.duplicate))
        #expect(
            machine.stop(at: .zero + .seconds(1))
                == [.stop(foundServices: [decoded.service(), roku.service()], reason: .stopRequested)]
        )
    }

    @Test(arguments: [
        ("LOCATION", "http://192.168.1.21:8060/"),
        ("SERVER", "Roku/12.5.0 UPnP/1.0 Roku/12.5.0"),
        ("ST", "upnp:rootdevice"),
        ("USN", "uuid:roku:ecp:YN00AA000002"),
    ])
    func answerDifferingInAnIdentifyingFieldIsANewService(field: String, value: String) throws {
        var machine = try Machine.multicast(searchTarget: "ssdp:all")
        _ = machine.start(at: .zero)
        let other = roku.setting(field, to: value)
        #expect(machine.received(roku.datagram, at: .zero) == .reportService(roku.service()))
        #expect(machine.received(other.datagram, at: .zero) == .reportService(other.service()))
        #expect(
            machine.stop(at: .zero + .seconds(1))
                == [.stop(foundServices: [roku.service(), other.service()], reason: .stopRequested)]
        )
    }

    // MARK: - Reporting

    @Test func reportsAServiceAsSoonAsItArrives() throws {
        var machine = try Machine.multicast()
        let start = SSDPInstant.zero + .seconds(10)
        _ = machine.start(at: start)
        let result = machine.received(roku.datagram, at: start + .milliseconds(250))
        guard case .reportService(let service) = result else {
            Issue.record("not reported: \(result)")
            return
        }
        #expect(service.location == "http://192.168.1.20:8060/")
        #expect(service.server == "Roku/12.0.0 UPnP/1.0 Roku/12.0.0")
        #expect(service.searchTarget == "roku:ecp")
        #expect(service.uniqueServiceName == "uuid:roku:ecp:YN00AA000001")
        #expect(service.maxAge == .seconds(3_600))
        #expect(service.cacheControl == start + .milliseconds(250) + .seconds(3_600))
        #expect(service.otherHeaders.fields == [SSDPHeaderField(name: "EXT", value: "")])
        #expect(machine.statistics.servicesReported == 1)
    }

    @Test func stopRequestReportsWhatWasFoundThenNothingMore() throws {
        var machine = try Machine.multicast()
        _ = machine.start(at: .zero)
        _ = machine.received(roku.datagram, at: .zero + .seconds(1))
        #expect(
            machine.stop(at: .zero + .seconds(2)) == [.stop(foundServices: [roku.service()], reason: .stopRequested)]
        )
        expectFinished(&machine, at: .zero + .seconds(2))
        #expect(machine.timerFired(at: .zero + .milliseconds(9_100)) == [])
    }

    @Test func stopBeforeStartReportsAnEmptyStop() throws {
        var machine = try Machine.multicast()
        #expect(machine.stop(at: .zero) == [.stop(foundServices: [], reason: .stopRequested)])
        expectFinished(&machine, at: .zero + .seconds(1))
        #expect(machine.statistics.searchesSent == 0)
    }

    // MARK: - Transport errors

    @Test func transportErrorStopsTheSessionAndIsReportedOnce() throws {
        var machine = try Machine.multicast()
        _ = machine.start(at: .zero)
        _ = machine.received(roku.datagram, at: .zero + .seconds(1))
        #expect(machine.failed(error, at: .zero + .seconds(2)) == [.fail(error)])
        #expect(machine.failed(error, at: .zero + .seconds(2)) == [])
        #expect(machine.fireTimers() == [])  // no stop report follows, as in the original design
        expectFinished(&machine, at: .zero + .seconds(3))
    }

    @Test func transportErrorAfterTheStopIsNotReported() throws {
        var machine = try Machine.multicast(maximumWaitResponseTime: 1, requests: 1)
        _ = machine.run()
        #expect(machine.failed(error, at: .zero + .seconds(2)) == [])
    }

    // MARK: - Other datagrams

    @Test func notifyIsDroppedAsNotAResponse() throws {
        var machine = try Machine.multicast(searchTarget: "ssdp:all")
        _ = machine.start(at: .zero)
        let notify = Array(
            ("NOTIFY * HTTP/1.1\r\nHOST: 239.255.255.250:1900\r\nCACHE-CONTROL: max-age=100\r\n"
                + "LOCATION: http://192.168.1.30:80/description.xml\r\n"
                + "SERVER: Linux/3.14.0 UPnP/1.0 IpBridge/1.26.0\r\n"
                + "NTS: ssdp:alive\r\nNT: upnp:rootdevice\r\nUSN: uuid:2f402f80::upnp:rootdevice\r\n\r\n").utf8
        )
        #expect(machine.received(notify, at: .zero) == .dropped(.notAResponse(.notify)))
        #expect(machine.statistics.notResponses == 1)
    }

    @Test func echoedSearchIsDroppedAsNotAResponse() throws {
        var machine = try Machine.multicast(searchTarget: "ssdp:all")
        _ = machine.start(at: .zero)
        let echo = seedSearchDatagram(searchTarget: "ssdp:all", maximumWaitResponseTime: 3)
        #expect(machine.received(echo, at: .zero) == .dropped(.notAResponse(.search)))
    }

    @Test(arguments: [
        ([UInt8](), SSDPParseError.Code.emptyDatagram),
        (Array("hello, world".utf8), .unknownStartLine),
        ([0xFF, 0xFE, 0x00, 0x0D, 0x0A], .unknownStartLine),
        (Array("HTTP/1.1 200 OK\r\nno colon here\r\n\r\n".utf8), .headerLineWithoutColon),
        ([UInt8](repeating: 0x41, count: 65_537), .datagramTooLarge),
    ])
    func garbageIsDroppedAsUnparseable(datagram: [UInt8], code: SSDPParseError.Code) throws {
        var machine = try Machine.multicast(searchTarget: "ssdp:all")
        _ = machine.start(at: .zero)
        let result = machine.received(datagram, at: .zero)
        guard case .dropped(.unparseable(let error)) = result else {
            Issue.record("not dropped as unparseable: \(result)")
            return
        }
        #expect(error.code == code)
        #expect(machine.statistics.unparseable == 1)
    }

    // MARK: - Statistics

    @Test func statisticsCountEveryDatagramOnce() throws {
        var machine = try Machine.multicast(searchTarget: "roku:ecp", maximumWaitResponseTime: 1, requests: 2)
        _ = machine.start(at: .zero)
        _ = machine.received(roku.datagram, at: .zero)  // reported
        _ = machine.received(roku.datagram, at: .zero)  // duplicate
        _ = machine.received(roku.removing("USN").datagram, at: .zero)  // incomplete
        _ = machine.received(hue.datagram, at: .zero)  // wrong search target
        _ = machine.received(Array("garbage".utf8), at: .zero)  // unparseable
        _ = machine.received(seedSearchDatagram(searchTarget: "roku:ecp", maximumWaitResponseTime: 1), at: .zero)
        _ = machine.fireTimers()
        _ = machine.received(roku.datagram, at: .zero + .seconds(5))  // not searching

        var expected = SearchSessionStatistics()
        expected.searchesSent = 2
        expected.datagramsReceived = 7
        expected.servicesReported = 1
        expected.duplicates = 1
        expected.incomplete = 1
        expected.wrongSearchTarget = 1
        expected.unparseable = 1
        expected.notResponses = 1
        expected.notSearching = 1
        #expect(machine.statistics == expected)
        #expect(machine.statistics.dropped == 6)
        #expect(
            machine.statistics.datagramsReceived == machine.statistics.servicesReported + machine.statistics.dropped
        )
    }
}

/// Searching on several interfaces: each answer names the interface it arrived on.
@Suite struct SearchSessionInterfaceTests {
    let roku = SearchResponseBuilder.roku

    @Test func aServiceCarriesTheInterfaceItWasSeenOn() throws {
        var machine = try SearchSessionStateMachine.multicast()
        _ = machine.start(at: .zero)
        guard case .reportService(let service) = machine.received(roku.datagram, at: .zero, interface: "eth1") else {
            Issue.record("not reported")
            return
        }
        #expect(service.interface == "eth1")
        #expect(service == roku.service())  // the interface is not part of equality
    }

    @Test func theSameUSNAndSTThroughAnotherInterfaceIsADuplicateEvenWithItsOwnLocation() throws {
        var machine = try SearchSessionStateMachine.multicast()
        _ = machine.start(at: .zero)
        let onLan = roku.setting("LOCATION", to: "http://10.77.1.5:8060/")
        let onIot = roku.setting("LOCATION", to: "http://10.77.2.5:8060/")
        #expect(machine.received(onLan.datagram, at: .zero, interface: "eth0") == .reportService(onLan.service()))
        #expect(machine.received(onIot.datagram, at: .zero, interface: "eth1") == .dropped(.duplicate))
        #expect(machine.received(onLan.datagram, at: .zero, interface: "eth0") == .dropped(.duplicate))
        #expect(machine.statistics.duplicates == 2)
        // Through one interface the original design's rule stands: a new LOCATION is a new service.
        #expect(machine.received(onIot.datagram, at: .zero, interface: "eth0") == .reportService(onIot.service()))
    }

    @Test func withoutInterfacesTheSeedsRuleStands() throws {
        var machine = try SearchSessionStateMachine.multicast()
        _ = machine.start(at: .zero)
        let onLan = roku.setting("LOCATION", to: "http://10.77.1.5:8060/")
        let onIot = roku.setting("LOCATION", to: "http://10.77.2.5:8060/")
        #expect(machine.received(onLan.datagram, at: .zero) == .reportService(onLan.service()))
        #expect(machine.received(onIot.datagram, at: .zero) == .reportService(onIot.service()))
        let result = machine.received(roku.datagram, at: .zero)
        guard case .reportService(let service) = result else {
            Issue.record("not reported: \(result)")
            return
        }
        #expect(service.interface == nil)
    }
}
