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

/// What a recorded device (`ssdp-sim record`) answers to searches: for each search target it was asked,
/// the datagrams it sent, byte for byte, each with the time it took.
///
/// A search for a target the recording holds gets those answers at their recorded delays (or, for a device
/// seen to draw each answer's delay within the search's MX, as GSSDP does, at delays drawn so:
/// `drawsDelaysWithinMX`); the LOCATION's
/// `http://host:port` becomes the playing device's own (as a replay's does, `SSDPReplay.relocating`), a DATE
/// is written anew as the answer leaves, and BOOTID.UPNP.ORG says the device's BOOTID once it moved on since
/// the recording (a reboot, an update). A search for a target never recorded gets nothing, as a search
/// for a target a device does not have. Unlike a replay (`ssdp-sim import`), which answers the n-th search
/// as the capture's n-th was answered, whatever it asks, a recording answers by what is asked.
public struct SSDPRecordedAnswers: Hashable, Sendable {
    /// One recorded answer.
    public struct Answer: Hashable, Sendable {
        /// How long after the search it arrived.
        public var delay: Duration
        /// The datagram as it arrived.
        public var bytes: [UInt8]

        /// An answer that arrived `delay` after the search.
        public init(delay: Duration, bytes: [UInt8]) {
            self.delay = delay
            self.bytes = bytes
        }
    }

    /// One search target, and the answers to it.
    public struct Target: Hashable, Sendable {
        /// The target searched, as written.
        public var target: String
        /// Its answers, in the order they arrived.
        public var answers: [Answer]

        /// The answers to a search for `target`.
        public init(_ target: String, _ answers: [Answer]) {
            self.target = target
            self.answers = answers
        }
    }

    /// The answers to each search target, in the order recorded.
    public var targets: [Target]
    /// The UDP ports the answers came from, where the recording says.
    public var sourcePorts: Set<Int>
    /// Whether the device draws each answer's delay anew within the search's MX (UDA 1.1 §1.3.3, GSSDP),
    /// as its recording showed: played so, uniform within each search's window, rather than at the one
    /// delay each answer happened to have when it was recorded.
    public var drawsDelaysWithinMX: Bool

    /// The recorded answers to each of `targets`, from `sourcePorts`.
    public init(targets: [Target], sourcePorts: Set<Int> = [], drawsDelaysWithinMX: Bool = false) {
        self.targets = targets
        self.sourcePorts = sourcePorts
        self.drawsDelaysWithinMX = drawsDelaysWithinMX
    }

    /// How far apart, first to last, answers to one search may come and still count as sent together: a
    /// device that answers at once still needs the machine (0.6 s for a dozen answers on a busy CI one).
    public static let togetherWithin = Duration.milliseconds(900)

    /// The widest spread, first answer to last, of the answers to any one of some searches; `delays` are
    /// each search's answer delays.
    public static func widestSpread(_ delays: [[Duration]]) -> Duration {
        delays.map { ($0.max() ?? .zero) - ($0.min() ?? .zero) }.max() ?? .zero
    }

    /// Whether answers to the same search at an MX of 2 or more show a device that draws each answer's
    /// delay within the MX: some search's answers spread over more than `togetherWithin`. A device that
    /// answers at once, or all together after one delay (libupnp), shows none; one that draws each delay
    /// over MX 3 spreads four answers that far in 92 % of searches, so three searches miss it about 6 times
    /// in 10,000. `delays` are each search's answer delays.
    public static func spreadOverMX(_ delays: [[Duration]]) -> Bool {
        spreadOverMX(widestSpread: widestSpread(delays))
    }

    /// Whether `widestSpread` (of `widestSpread(_:)`) shows a device that draws its delays within the MX.
    public static func spreadOverMX(widestSpread: Duration) -> Bool {
        widestSpread > togetherWithin
    }

    /// Whether the device answered from a port of its own, not the one it heard the search on (libupnp opens
    /// a socket per answer, on a port the system picks): no recorded answer came from `ssdpPort`, the port
    /// the playing device listens on, nor from 1900, the port it was most likely recorded on.
    public func answersFromItsOwnPort(listeningOn ssdpPort: Int) -> Bool {
        Self.areOwn(sourcePorts, ssdpPort: ssdpPort)
    }

    /// Whether datagrams recorded from `ports` came from ports of the device's own: some were recorded, and
    /// none came from `ssdpPort` or from 1900. The rule for its answers and for its NOTIFYs alike.
    static func areOwn(_ ports: Set<Int>, ssdpPort: Int) -> Bool {
        !ports.isEmpty && !ports.contains(ssdpPort) && !ports.contains(SSDPSearchSessionConfiguration.multicastPort)
    }

    /// The answers to a search for `target`: those recorded for it as written, else for it in another case
    /// (`ssdp:all` written `SSDP:ALL`); `nil` when it was never asked.
    public func answers(to target: String) -> [Answer]? {
        targets.first { $0.target == target }?.answers
            ?? targets.first { $0.target.equalsIgnoringASCIICase(target) }?.answers
    }

    /// The answers to `target` as a device at `own` (`http://host:port`) whose BOOTID is `bootID` sends them,
    /// each dated at `HTTPDate.epoch` where it carries a DATE (`ScheduledAnswer.dated` writes the time it
    /// leaves), or with its LOCATION as recorded when `locations` is `.asCaptured` (a virtual network).
    public func scheduled(
        to target: String,
        own: String,
        bootID: Int? = nil,
        locations: SSDPReplay.Locations
    ) -> [ScheduledAnswer]? {
        answers(to: target)?.map { answer in
            var bytes = SSDPReplay.relocating(answer.bytes, locations, own: own)
            // A recorded value that is no BOOTID (GSSDP's -1) is the device's way, and stays.
            if let bootID, let range = HTTPRecording.headerValueRange("bootid.upnp.org", in: bytes),
                let recorded = Int(String(decoding: bytes[range], as: UTF8.self)),
                SSDPRootDevice.bootIDs ~= recorded, recorded != bootID
            {
                bytes.replaceSubrange(range, with: Array("\(bootID)".utf8))
            }
            let dateRange = HTTPRecording.dateValueRange(in: bytes)
            if let dateRange { bytes.replaceSubrange(dateRange, with: Array(HTTPDate.epoch.utf8)) }
            let headers = (try? SSDPParser.parseMessage(bytes))?.headers
            var scheduled = ScheduledAnswer(
                delay: answer.delay,
                advertisement: SSDPAdvertisement(target: headers?["ST"] ?? "", usn: headers?["USN"] ?? ""),
                bytes: bytes
            )
            scheduled.dateOffset = dateRange?.lowerBound
            return scheduled
        }
    }
}
