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
import SSDPDeviceCore
import Testing

@Suite struct SimulatorResponderTests {
    private func host(devices: Int = 2, rate: Int = 1_000, pending: Int = 10_000) -> SimulatorResponder {
        SimulatorResponder(
            configuration: .init(strictness: .strict, answersPerSourcePerSecond: rate, maximumPendingAnswers: pending),
            devices: (0..<devices).map { index in
                var device = DeviceFixtures.gateway
                device.device.udn = "uuid:device-\(index)"
                device.device.embeddedDevices = []
                return DeviceResponder(device: device, startedAt: .zero, seed: UInt64(index))
            }
        )
    }

    private func search(_ target: String, mx: String? = "1") -> [UInt8] {
        var headers: SSDPHeaders = ["HOST": "239.255.255.250:1900", "MAN": "\"ssdp:discover\""]
        if let mx { headers.append(name: "MX", value: mx) }
        headers.append(name: "ST", value: target)
        return SSDPMessage(kind: .search, headers: headers).serialized()
    }

    @Test func everyDeviceAnswersOneSearch() {
        var responder = host()
        let reception = responder.receive(search("upnp:rootdevice"), from: "10.0.0.5", at: .zero)
        #expect(reception.answers.map(\.device) == [0, 1])
        #expect(responder.pendingAnswers == 2)
        responder.answerFinished()
        #expect(responder.pendingAnswers == 1)
    }

    @Test func aSearchSaysWhyTheDevicesThatDidNotAnswerDidNot() {
        var responder = host(devices: 3)
        responder.absentDevices = [2]
        responder.devices[1].behaviour.ignoredSearches = 1
        let first = responder.receive(search("upnp:rootdevice"), from: "10.0.0.5", at: .zero)
        #expect(first.answers.map(\.device) == [0])
        #expect(first.unanswered.reason == "1 device: gone, 1 device: did not hear it")
        let unmatched = responder.receive(search("urn:x-example:device:Toaster:1"), from: "10.0.0.5", at: .zero)
        #expect(unmatched.answers.isEmpty)
        #expect(unmatched.unanswered.reason == "2 devices: no match for the target, 1 device: gone")
        var everyone = host(devices: 1)
        #expect(everyone.receive(search("ssdp:all"), from: "10.0.0.5", at: .zero).unanswered.reason == nil)
    }

    @Test func countsAddUpOverEveryKindOfDatagram() {
        var responder = host()
        let datagrams: [[UInt8]] = [
            search("ssdp:all"), search("ssdp:all", mx: nil), Array("garbage".utf8),
            DeviceFixtures.gateway.alive(DeviceFixtures.gateway.advertisements[0]).serialized(),
            DeviceFixtures.gateway.searchResponse(for: DeviceFixtures.gateway.advertisements[0]).serialized(),
            search("roku:ecp"),
        ]
        for datagram in datagrams { _ = responder.receive(datagram, from: "10.0.0.5", at: .zero) }
        let counters = responder.counters
        #expect(counters.datagrams == 6)
        #expect(counters.searchesAccepted == 2 && counters.searchesRejected == 1 && counters.malformed == 1)
        #expect(counters.notifications == 1 && counters.responses == 1)
        #expect(
            counters.searchesAccepted + counters.searchesRejected + counters.malformed + counters.notifications
                + counters.responses == counters.datagrams
        )
        #expect(responder.deviceStatistics.searchesUnmatched == 2)
    }

    /// A reflection amplifier it is not: one source gets at most the rate limit, and another source is
    /// not affected.
    @Test func rateLimitCapsAnswersPerSourceAndRefills() {
        var responder = host(devices: 2, rate: 10)
        let perSearch = 2 * responder.devices[0].device.advertisements.count
        let first = responder.receive(search("ssdp:all"), from: "10.0.0.5", at: .zero).answers.count
        let second = responder.receive(search("ssdp:all"), from: "10.0.0.5", at: .zero).answers.count
        #expect(first == 10 && second == 0)
        // The first search's two devices give exactly ten; the second asks neither, so cuts none.
        #expect(perSearch == 10 && responder.counters.answersRateLimited == 0)
        #expect(responder.counters.searchesRateLimited == 1)
        #expect(responder.receive(search("ssdp:all"), from: "10.0.0.6", at: .zero).answers.count == 10)
        let later = SSDPInstant(offset: .milliseconds(500))
        #expect(responder.receive(search("ssdp:all"), from: "10.0.0.5", at: later).answers.count == 5)
    }

    /// Devices are asked, in order, only until the search's source has every answer the limit lets it have:
    /// the answers kept are those every device's decision would have kept, the others are not asked (nor
    /// counted as searched), a flood past the limit asks none, and another source is asked as before.
    @Test func aSearchAsksOnlyAsManyDevicesAsItsSourceMayHaveAnswers() {
        var limited = host(devices: 50, rate: 10)
        var unlimited = host(devices: 50)
        let first = limited.receive(search("upnp:rootdevice"), from: "10.0.0.5", at: .zero)
        let everyone = unlimited.receive(search("upnp:rootdevice"), from: "10.0.0.5", at: .zero)
        #expect(first.answers.map(\.device) == Array(0..<10))
        #expect(first.answers.map(\.answer) == everyone.answers.prefix(10).map(\.answer))
        #expect(first.unanswered.notAsked == 40)
        #expect(first.unanswered.reason == "40 devices: not asked, past the source's rate limit")
        #expect(limited.deviceStatistics.searchesReceived == 10)
        #expect(limited.counters.answersRateLimited == 0 && limited.counters.searchesRateLimited == 1)

        for _ in 0..<99 {
            let flooded = limited.receive(search("upnp:rootdevice"), from: "10.0.0.5", at: .zero)
            #expect(flooded.answers.isEmpty && flooded.unanswered.notAsked == 50)
        }
        #expect(limited.deviceStatistics.searchesReceived == 10, "no device was asked again")
        #expect(limited.counters.searchesAccepted == 100 && limited.counters.searchesRateLimited == 100)
        let gateway = DeviceFixtures.gateway
        let notify = limited.receive(gateway.alive(gateway.advertisements[0]).serialized(), from: "10.0.0.5", at: .zero)
        #expect(notify.unanswered.notAsked == 50, "a NOTIFY past the limit asks no device either")
        #expect(limited.counters.searchesRateLimited == 100, "and is not a search")

        let other = limited.receive(search("upnp:rootdevice"), from: "10.0.0.6", at: .zero)
        #expect(other.answers.map(\.device) == Array(0..<10))
        // A tenth of a second refills one answer: one device is asked, and answers.
        let later = limited.receive(
            search("upnp:rootdevice"),
            from: "10.0.0.5",
            at: SSDPInstant(offset: .milliseconds(100))
        )
        #expect(later.answers.map(\.device) == [0] && limited.deviceStatistics.searchesReceived == 21)

        // Devices that are gone say so, among those asked and those not.
        var someGone = host(devices: 50, rate: 10)
        someGone.absentDevices = [3, 30]
        let withGone = someGone.receive(search("upnp:rootdevice"), from: "10.0.0.5", at: .zero)
        #expect(withGone.answers.map(\.device) == [0, 1, 2] + Array(4...10))
        #expect(withGone.unanswered.gone == 2 && withGone.unanswered.notAsked == 38)

        // A device asked with fewer answers left than it gives: its excess is cut, and counted.
        var several = host(devices: 50, rate: 12)
        let perDevice = several.devices[0].device.advertisements.count
        let all = several.receive(search("ssdp:all"), from: "10.0.0.5", at: .zero)
        #expect(all.answers.count == 12)
        #expect(several.counters.answersRateLimited == 3 * perDevice - 12)
        #expect(all.unanswered.notAsked == 50 - 3, "\(perDevice) answers a device: three asked")
    }

    /// The rate limiter says how many answers a source could have without taking any: a known source its
    /// bucket's, a new one the whole rate while the table has room.
    @Test func theLimiterSaysHowManyAnswersASourceHasLeft() {
        var limiter = SSDPRateLimiter(rate: 4, maximumSources: 2)
        func left(_ source: String, after milliseconds: Int = 0) -> Int {
            limiter.available(for: source, at: SSDPInstant(offset: .milliseconds(milliseconds)))
        }
        func take(_ count: Int, _ source: String) -> Int { limiter.take(count, for: source, at: .zero) }
        let new = left("a")
        let (firstTake, oneLeft, stillOne) = (take(3, "a"), left("a"), left("a"))
        let (lastTake, noneLeft, refilled) = (take(3, "a"), left("a"), left("a", after: 500))
        #expect(new == 4 && firstTake == 3)
        #expect(oneLeft == 1 && stillOne == 1, "asking takes nothing")
        #expect(lastTake == 1 && noneLeft == 0)
        #expect(refilled == 2, "half a second refills two")
        let (otherTake, otherLeft, newWhenFull, newTake) = (take(4, "b"), left("b"), left("c"), take(1, "c"))
        #expect(otherTake == 4 && otherLeft == 0)
        #expect(newWhenFull == 0 && newTake == 0, "the table is full of busy sources")
        #expect(left("c", after: 2_000) == 4, "idle sources are forgotten")
    }

    /// The reader keeps the last datagram read: bytes equal to it are not read again, and anything else,
    /// or the same bytes under other rules, is read afresh.
    @Test func aReaderReadsRepeatedBytesAsItReadTheFirstOnes() throws {
        var reader = SimulatorResponder.Reader()
        let rootDevice = search("upnp:rootdevice")
        let withoutMX = search("ssdp:all", mx: nil)
        let sequence: [([UInt8], SSDPSearchRequest.Strictness)] = [
            (rootDevice, .strict), (rootDevice, .strict), (withoutMX, .strict), (withoutMX, .lenient),
            (withoutMX, .strict), (Array("garbage".utf8), .strict), (rootDevice, .strict),
        ]
        for (bytes, strictness) in sequence {
            let read = reader.read(bytes, strictness: strictness)
            let fresh = SimulatorResponder.Datagram(bytes, strictness: strictness)
            #expect(read.strictness == strictness)
            #expect((try? read.message.get()) == (try? fresh.message.get()))
            #expect((try? read.search?.get()) == (try? fresh.search?.get()))
        }
    }

    /// UDA 1.1 §1.3.2's start line is `M-SEARCH * HTTP/1.1`: a strict device ignores a search with another
    /// one the parser understands anyway, as `ssdp-sim check` expects; a lenient one answers it, as
    /// miniupnpd does.
    @Test func aStrictDeviceIgnoresASearchWithAnotherStartLine() throws {
        let standard = search("upnp:rootdevice")
        let text = String(decoding: standard, as: UTF8.self)
        for line in ["M-SEARCH / HTTP/1.1", "M-SEARCH * HTTP/1.0", "M-SEARCH http://x HTTP/1.1"] {
            let bytes = Array(text.replacing("M-SEARCH * HTTP/1.1", with: line).utf8)
            let strict = SimulatorResponder.Datagram(bytes, strictness: .strict)
            #expect(strict.search == .failure(.nonStandardStartLine), "\(line)")
            let lenient = SimulatorResponder.Datagram(bytes, strictness: .lenient)
            #expect((try? lenient.search?.get())?.target == .rootDevice, "\(line)")
        }
        #expect((try? SimulatorResponder.Datagram(standard, strictness: .strict).search?.get()) != nil)
        let bareLineFeeds = Array(text.replacing("\r\n", with: "\n").utf8)
        #expect((try? SimulatorResponder.Datagram(bareLineFeeds, strictness: .strict).search?.get()) != nil)
        #expect(!SSDPSearchRequest.hasStandardStartLine(Array("M-SEARCH * HTTP/1.1".utf8)))
        #expect(!SSDPSearchRequest.hasStandardStartLine(Array("M-SEARCH * HTTP/1.10\r\n".utf8)))
    }

    @Test func pendingCapDropsAndCountsTheExcess() {
        var responder = host(devices: 2, pending: 15)
        let perSearch = 2 * responder.devices[0].device.advertisements.count
        let first = responder.receive(search("ssdp:all"), from: "10.0.0.5", at: .zero).answers.count
        let second = responder.receive(search("ssdp:all"), from: "10.0.0.6", at: .zero).answers.count
        #expect(first == perSearch && second == 15 - perSearch)
        #expect(responder.counters.answersOverflowed == 2 * perSearch - 15)
        #expect(responder.pendingAnswers == 15)
    }
}

@Suite struct SSDPRateLimiterTests {
    @Test func grantsABurstThenRefillsAtTheRate() {
        var limiter = SSDPRateLimiter(rate: 100)
        #expect(limiter.take(150, for: "a", at: .zero) == 100)
        #expect(limiter.take(1, for: "a", at: SSDPInstant(offset: .milliseconds(5))) == 0)
        #expect(limiter.take(100, for: "a", at: SSDPInstant(offset: .milliseconds(250))) == 25)
        #expect(limiter.take(500, for: "a", at: SSDPInstant(offset: .seconds(60))) == 100)
    }

    @Test func tracksABoundedNumberOfSources() {
        var limiter = SSDPRateLimiter(rate: 10, maximumSources: 3)
        for source in ["a", "b", "c"] { #expect(limiter.take(10, for: source, at: .zero) == 10) }
        #expect(limiter.take(1, for: "d", at: .zero) == 0, "the table is full of busy sources")
        #expect(limiter.take(1, for: "d", at: SSDPInstant(offset: .seconds(2))) == 1, "idle sources were forgotten")
    }

    /// The first source is held apart from the others (inline, no table): each source still has its own
    /// bucket, and the first is forgotten when idle like any other, its place then taken by a new source.
    @Test func theFirstSourceIsOneSourceAmongTheOthers() {
        var limiter = SSDPRateLimiter(rate: 10, maximumSources: 2)
        #expect(limiter.take(10, for: "first", at: .zero) == 10)
        #expect(limiter.take(4, for: "second", at: .zero) == 4)
        #expect(limiter.take(1, for: "first", at: .zero) == 0, "its bucket is its own, and empty")
        #expect(limiter.take(10, for: "second", at: .zero) == 6)
        #expect(limiter.take(1, for: "third", at: .zero) == 0, "two sources tracked, both busy")
        let later = SSDPInstant(offset: .milliseconds(500))
        #expect(limiter.take(10, for: "first", at: later) == 5, "refilled at its rate")
        let idle = SSDPInstant(offset: .seconds(3))
        #expect(limiter.take(3, for: "third", at: idle) == 3, "both were idle and forgotten: the first place is free")
        #expect(limiter.take(10, for: "fourth", at: idle) == 10)
        #expect(limiter.take(10, for: "first", at: idle) == 0, "both places taken again")
        #expect(limiter.take(10, for: "third", at: idle) == 7)
    }
}
