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

/// Faults of the network between the client and the devices: latency, loss, loss of search answers only,
/// duplicates and reordering, each with a probability, and each optionally held to a window (`after` the
/// first datagrams it lets pass, at most `times` datagrams). The virtual network applies them to every
/// datagram in both directions; the live simulator to what it sends and the searches it hears, through
/// a `NetworkFaultMachine`.
public struct NetworkFaults: Sendable, Hashable {
    /// One-way latency, drawn uniformly from this range for each datagram.
    public var latency: ClosedRange<Duration> = .zero ... .zero
    /// Probability that a datagram is lost.
    public var loss: Double = 0
    /// Probability that an answer to a search is lost (NOTIFYs and searches pass).
    public var answerLoss: Double = 0
    /// Probability that a datagram arrives twice.
    public var duplicate: Double = 0
    /// Probability that a datagram is held back by up to `reorderDelay`, so later ones overtake it.
    public var reorder: Double = 0
    /// The longest hold-back of a reordered datagram (`network.reorderDelay`).
    public var reorderDelay: Duration = .milliseconds(100)
    /// Per fault, the window it applies in ("lose the first two answers, then none": `answerLoss` 1 with
    /// `times` 2). A fault without one applies to every datagram.
    public var windows: [Fault: Window] = [:]

    /// A kind of fault, as the control API and scenario files name it.
    public enum Fault: String, CaseIterable, Hashable, Sendable {
        case latency, loss, answerLoss, duplicate, reorder
    }

    /// Which of the datagrams a fault may hit: not the first `after` it sees, and at most `times` of them.
    public struct Window: Hashable, Sendable {
        /// How many datagrams the fault lets pass before it applies.
        public var after: Int
        /// How many datagrams it hits at most; `nil` for no limit.
        public var times: Int?

        /// A window of `times` datagrams after the first `after`.
        public init(after: Int = 0, times: Int? = nil) {
            self.after = after
            self.times = times
        }
    }

    /// A clean network: no latency, loss, duplicates or reordering.
    public init() {}

    /// Whether no fault is configured.
    public var isClean: Bool {
        latency == .zero ... .zero && loss == 0 && answerLoss == 0 && duplicate == 0 && reorder == 0
    }

    /// The probability of `fault`; latency's is 1 when it has a range above zero.
    public func probability(of fault: Fault) -> Double {
        switch fault {
        case .latency: latency == .zero ... .zero ? 0 : 1
        case .loss: loss
        case .answerLoss: answerLoss
        case .duplicate: duplicate
        case .reorder: reorder
        }
    }

    /// The fates of the copies of one datagram, one or two: a value rather than an array, since the virtual
    /// network draws them for every datagram it carries to every host.
    public struct Copies: RandomAccessCollection, Sendable {
        private let first: Duration?
        private let second: Duration?
        /// How many copies: 1, or 2 when duplicated.
        public let count: Int

        init(first: Duration?, second: Duration?, count: Int) {
            (self.first, self.second, self.count) = (first, second, count)
        }

        /// 0.
        public var startIndex: Int { 0 }
        /// The number of copies.
        public var endIndex: Int { count }
        /// The copy's fate: lost (`nil`), or its delay.
        public subscript(position: Int) -> Duration? {
            precondition(indices.contains(position), "copy \(position) of \(count)")
            return position == 0 ? first : second
        }
    }
}

/// Draws the fate of each datagram under `NetworkFaults`, from a seeded generator, counting what each fault
/// has seen and hit for its window. The same faults and seed draw the same fates for the same sequence of
/// datagrams, live or virtual: a run draws the answers the devices send from the `.sent` side of its seed,
/// the searches they hear from the `.heard` side (and live, its NOTIFYs from `.notified`), so the k-th
/// answer the live simulator sends meets the fate the k-th answer of a virtual run of the same seed meets.
public struct NetworkFaultMachine: Sendable {
    /// Which datagrams a machine draws for: those the devices send, or those they hear.
    public enum Side: UInt64, Sendable {
        /// Answers and NOTIFYs, from the devices.
        case sent = 0xFA17
        /// Searches, to the devices.
        case heard = 0xC11E
        /// NOTIFYs, from the devices (live only: a virtual run's client does not listen for them).
        case notified = 0x40F1
    }

    /// The faults it draws under; `set` changes them and starts the windows over.
    public private(set) var faults: NetworkFaults
    private var random: SSDPRandom
    private var seen: [NetworkFaults.Fault: Int] = [:]
    private var hit: [NetworkFaults.Fault: Int] = [:]

    /// A machine drawing from `seed`'s fault stream for `side`.
    public init(faults: NetworkFaults, seed: UInt64, side: Side = .sent) {
        self.faults = faults
        self.random = SSDPRandom.derived(seed: seed, stream: side.rawValue)
    }

    /// New faults from the next datagram on, with their windows counted from there.
    public mutating func set(_ faults: NetworkFaults) {
        self.faults = faults
        seen = [:]
        hit = [:]
    }

    /// Whether the network is clean (nothing to draw).
    public var isClean: Bool { faults.isClean }

    /// The fate of each copy of one datagram to one recipient: one copy, or two when duplicated, each lost
    /// (`nil`) or arriving after its delay (latency, plus a hold-back when reordered). `answer` marks an
    /// answer to a search, which `answerLoss` may also lose.
    public mutating func copies(answer: Bool = false) -> NetworkFaults.Copies {
        let duplicated = strikes(.duplicate)
        let first = fate(answer: answer)
        return NetworkFaults.Copies(
            first: first,
            second: duplicated ? fate(answer: answer) : nil,
            count: duplicated ? 2 : 1
        )
    }

    /// Whether a datagram coming in is heard (loss applies to it; nothing else does).
    public mutating func hears() -> Bool {
        !strikes(.loss)
    }

    private mutating func fate(answer: Bool) -> Duration? {
        if answer, strikes(.answerLoss) { return nil }
        if strikes(.loss) { return nil }
        var delay = Duration.zero
        if faults.latency != .zero ... .zero, strikes(.latency) {
            delay =
                faults.latency.lowerBound
                + random.duration(upTo: faults.latency.upperBound - faults.latency.lowerBound)
        }
        if strikes(.reorder) {
            delay += random.duration(upTo: faults.reorderDelay)
        }
        return delay
    }

    /// Whether `fault` hits this datagram: inside its window, and drawn with its probability. A fault with
    /// probability 0 draws nothing (so adding one never changes the others' draws).
    private mutating func strikes(_ fault: NetworkFaults.Fault) -> Bool {
        let probability = faults.probability(of: fault)
        guard probability > 0 else { return false }
        guard let window = faults.windows[fault] else {
            return fault == .latency || random.chance(probability)
        }
        seen[fault, default: 0] += 1
        guard seen[fault, default: 0] > window.after, hit[fault, default: 0] < window.times ?? .max else {
            return false
        }
        let struck = fault == .latency || random.chance(probability)
        if struck { hit[fault, default: 0] += 1 }
        return struck
    }
}
