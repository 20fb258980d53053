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

/// How a scenario is run.
public enum RunMode: String, Sendable, Hashable, Codable {
    /// Virtual clock and virtual network, no sockets.
    case virtual
    /// The simulator and the real `SSDPSearchSession` over real UDP sockets.
    case live
    /// The simulator over real sockets and someone else's client, watched on the wire.
    case externalClient = "external-client"
}

/// What happened during one run of a scenario, whatever the mode: what the client put on the wire, what
/// it reported and when it stopped. The expectations are checked against this alone.
public struct RunRecord: Sendable {
    /// One M-SEARCH the client sent, as a device saw it.
    public struct Search: Sendable, Hashable {
        /// From the start of the search.
        public var at: Duration
        /// The M-SEARCH's headers, as parsed.
        public var headers: SSDPHeaders

        /// A search seen `at` (from the start of the search) with these headers.
        public init(at: Duration, headers: SSDPHeaders) {
            self.at = at
            self.headers = headers
        }
    }

    /// Why a client's search ended, as a run records it and a scenario expects it: the search session's
    /// own reasons, or an external client's exit.
    public enum StopReason: String, Sendable, Hashable, CaseIterable {
        /// N × MX + 0.1 s passed.
        case timedOut
        /// The session was told to stop.
        case stopRequested
        /// The search sends no requests, so there was nothing to wait for.
        case noSearchRequests
        /// An external client's process ended: its exit carries no reason of the session's kind.
        case exited

        /// The reason's name, or `unknown` for a stop that gave none.
        static func describe(_ reason: StopReason?) -> String { reason?.rawValue ?? "unknown" }

        /// The search session's reason.
        public init(_ reason: SearchSessionStateMachine.StopReason) {
            switch reason {
            case .timedOut: self = .timedOut
            case .stopRequested: self = .stopRequested
            case .noSearchRequests: self = .noSearchRequests
            }
        }
    }

    /// Something the client told its user, in order.
    public enum Outcome: Sendable, Hashable {
        case found(ReportedService)
        /// The search ended; `reason` is nil when the session stopped without saying why.
        case stopped(reason: StopReason?, found: Int)
        case failed(String)

        /// Whether it reports a service found.
        public var isReport: Bool {
            if case .found = self { return true }
            return false
        }
    }

    /// How many M-SEARCH messages one device heard, against how many the network delivered to it.
    public struct Hearing: Sendable, Hashable {
        /// The device's number, counting from 1.
        public var device: Int
        /// M-SEARCH messages the virtual network delivered to the device, over all its reboots.
        public var delivered: Int
        /// Of those, the M-SEARCH messages the device accepted (before its own search loss and ignored searches).
        public var heard: Int

        /// One device's counts of searches delivered and heard.
        public init(device: Int, delivered: Int, heard: Int) {
            self.device = device
            self.delivered = delivered
            self.heard = heard
        }
    }

    /// How the scenario was run.
    public var mode: RunMode
    /// The seed the run used: the scenario's, or the one given with `--seed`.
    public var seed: UInt64
    /// The M-SEARCH messages the client sent, in order.
    public var searches: [Search] = []
    /// What the client reported, with when, in order.
    public var outcomes: [(at: Duration, outcome: Outcome)] = []
    /// The session's counters; `nil` for an external client, whose insides cannot be seen.
    public var statistics: SearchSessionStatistics?
    /// Per device, in virtual mode only.
    public var hearings: [Hearing]?
    /// Every datagram, for `--trace`.
    public var trace: [TraceEntry] = []
    /// What the client made of each datagram that reached it, with a trace in virtual time.
    public var deliveries: [ClientDelivery] = []
    /// When the search began, in seconds since 1970: the wall clock for live runs, 0 for virtual ones (so
    /// trace timestamps read as virtual seconds).
    public var startedAt: Double = 0
    /// How much time the run covered (virtual or real).
    public var duration: Duration = .zero
    /// Remarks for the report, such as how an external client exited.
    public var notes: [String] = []
    /// What an external client did over HTTP after discovery; `nil` where it cannot be seen (virtual time)
    /// or where the client is the project's own session, which fetches nothing.
    public var http: HTTPActivity?
    /// Every service the devices put on the wire, as they sent it, each distinct (USN, ST, LOCATION, SERVER)
    /// once: what a reported service is held against. Live, search answers and alive NOTIFYs (a client in a
    /// namespace hears those too); in virtual time, the answers (the virtual client does not listen on 1900).
    public var advertised: Set<Advertisement> = []
    /// When each search answer left the devices, from the start of the search (live runs): when a client
    /// that stops after a quiet time (`SearchPolicy.Stop.idle`) should stop.
    public var answers: [Duration] = []
    /// The datagrams `advertised` was read from, by their `mixHash` (the first, where two hashes collide),
    /// their arrays shared with the datagrams sent, not copied: a datagram is skipped only when its bytes
    /// equal a noted one's.
    private var notedDatagrams: [Int: [UInt8]] = [:]

    /// An empty record of a run in `mode` with `seed`.
    public init(mode: RunMode, seed: UInt64) {
        self.mode = mode
        self.seed = seed
    }

    /// Adds something the client reported at `time`, from the start of the search.
    public mutating func record(_ outcome: Outcome, at time: Duration) {
        outcomes.append((time, outcome))
    }

    /// Moves every time in the record `shift` earlier: what happened before the new start gets a negative
    /// time.
    mutating func moveStart(later shift: Duration) {
        for index in searches.indices { searches[index].at -= shift }
        for index in outcomes.indices { outcomes[index].at -= shift }
        for index in trace.indices {
            trace[index].at -= shift
            for copy in trace[index].copies.indices { trace[index].copies[copy].arrival? -= shift }
        }
        for index in deliveries.indices { deliveries[index].at -= shift }
        for index in answers.indices { answers[index] -= shift }
        guard http != nil else { return }
        for index in http!.requests.indices { http!.requests[index].at -= shift }
        for index in http!.actions.indices { http!.actions[index].at -= shift }
        for index in http!.events.indices { http!.events[index].at -= shift }
    }

    /// The services reported, in order, with their times.
    public var reports: [(at: Duration, service: ReportedService)] {
        outcomes.compactMap { entry in
            guard case .found(let service) = entry.outcome else { return nil }
            return (entry.at, service)
        }
    }

    /// Makes room for `count` distinct advertisements (a virtual run asks for one per device, what a search
    /// for one target brings), so that noting them does not grow the sets step by step.
    mutating func reserveAdvertisements(_ count: Int) {
        advertised.reserveCapacity(count)
        notedDatagrams.reserveCapacity(count)
    }

    /// Notes what a device sent, if it is an answer or an alive NOTIFY with a USN and a target.
    /// A device repeats the same answer to every search, so each distinct datagram is parsed once (one whose
    /// hash another already has, each time).
    mutating func noteSent(_ bytes: [UInt8]) {
        let hash = bytes.withUnsafeBufferPointer(mixHash)
        if let noted = notedDatagrams[hash] {
            guard noted != bytes else { return }
        } else {
            notedDatagrams[hash] = bytes
        }
        if let message = try? SSDPParser.parseMessage(bytes), let advertisement = Advertisement(message) {
            advertised.insert(advertisement)
        }
    }

    /// The stops and failures reported, with their times.
    public var endings: [(at: Duration, outcome: Outcome)] {
        outcomes.filter { !$0.outcome.isReport }
    }
}

/// One service a client reported, with what it said of it.
public struct ReportedService: Sendable, Hashable, CustomStringConvertible {
    /// The USN the client reported.
    public var usn: String
    /// The ST the client reported; for a bare USN, the harness's guess (the part after `::`).
    public var st: String
    /// Whether the client gave the ST itself (`false` for a bare USN).
    public var stGiven: Bool
    /// The LOCATION the client reported, `nil` when it gave none.
    public var location: String?
    /// The SERVER the client reported, `nil` when it gave none.
    public var server: String?

    /// A service as a client reported it; `stGiven` is `false` when `st` was guessed from a bare USN.
    public init(usn: String, st: String, stGiven: Bool = true, location: String? = nil, server: String? = nil) {
        self.usn = usn
        self.st = st
        self.stGiven = stGiven
        self.location = location
        self.server = server
    }

    /// What the project's own session reported: every field.
    public init(_ service: SSDPService) {
        self.init(
            usn: service.uniqueServiceName,
            st: service.searchTarget,
            location: service.location,
            server: service.server
        )
    }

    /// `USN (ST)`, for reports.
    public var description: String { "\(usn) (\(st))" }
}

/// A service as a device put it on the wire: a search answer's USN, ST, LOCATION and SERVER, or an alive
/// NOTIFY's with NT for ST.
public struct Advertisement: Sendable, Hashable {
    /// The USN header.
    public var usn: String
    /// The ST of an answer, or the NT of a NOTIFY.
    public var st: String
    /// The LOCATION header, if any.
    public var location: String?
    /// The SERVER header, if any.
    public var server: String?

    /// An advertisement with these header values.
    public init(usn: String, st: String, location: String?, server: String?) {
        self.usn = usn
        self.st = st
        self.location = location
        self.server = server
    }

    /// The advertisement in `message`, if it is an answer or an alive (or update) NOTIFY with USN and target.
    public init?(_ message: SSDPMessage) {
        switch message.kind {
        case .response: break
        case .notify where message.notificationSubtype != .byebye: break
        default: return nil
        }
        guard let usn = message.headers[.usn], let st = message.searchTarget else { return nil }
        self.init(usn: usn, st: st, location: message.headers[.location], server: message.headers[.server])
    }

    /// The advertisement in a datagram as the tolerant parser reads it.
    public init?(datagram: some Collection<UInt8>) {
        guard let message = try? SSDPParser.parseMessage(datagram) else { return nil }
        self.init(message)
    }

    /// Hashes USN and ST, which tell advertisements apart nearly always, and not the long LOCATION and
    /// SERVER: equality still compares all four.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(usn)
        hasher.combine(st)
    }
}

/// One datagram on the (virtual or real) wire.
public struct TraceEntry: Sendable, Hashable {
    /// From the start of the search (negative before it).
    public var at: Duration
    /// Who sent the datagram.
    public var source: SSDPEndpoint
    /// Where it was sent: the multicast group or one host.
    public var destination: SSDPEndpoint
    /// The datagram's payload, whole.
    public var bytes: [UInt8]
    /// What became of it: "arrives 0.052", "lost", "to 4 devices: 3 copies delivered, 1 lost", …
    public var fate: String
    /// Each copy the network made of it, to whom and when it arrived (`nil`: lost): in virtual runs, where
    /// the network is the harness's; empty where nobody in the run receives it (a NOTIFY in virtual time)
    /// or the harness saw the datagram on a real socket.
    public var copies: [Copy] = []

    /// One copy of a datagram on its way to one recipient.
    public struct Copy: Sendable, Hashable {
        /// The recipient.
        public var to: SSDPEndpoint
        /// When it arrived, from the start of the search; `nil` when the network lost it.
        public var arrival: Duration?

        /// A copy to `to` that arrived at `arrival`, or was lost (`nil`).
        public init(to: SSDPEndpoint, arrival: Duration?) {
            self.to = to
            self.arrival = arrival
        }
    }

    /// A datagram sent `at` from `source` to `destination`; `fate` says what became of it.
    public init(at: Duration, source: SSDPEndpoint, destination: SSDPEndpoint, bytes: [UInt8], fate: String) {
        self.at = at
        self.source = source
        self.destination = destination
        self.bytes = bytes
        self.fate = fate
    }
}

/// A datagram that reached the client, and what the client made of it: in virtual runs with a trace,
/// where the session's verdict on each datagram can be seen.
public struct ClientDelivery: Sendable, Hashable {
    /// When it arrived, from the start of the search.
    public var at: Duration
    /// Who sent it.
    public var source: SSDPEndpoint
    /// "reported", or why the session dropped it ("duplicate", "wrong target", "unparseable", "after the
    /// stop", …).
    public var verdict: String

    /// A datagram from `source` that arrived `at`, with the session's verdict.
    public init(at: Duration, source: SSDPEndpoint, verdict: String) {
        self.at = at
        self.source = source
        self.verdict = verdict
    }
}

/// A client's HTTP requests to the devices of a run, and the SOAP actions among them.
public struct HTTPActivity: Sendable, Hashable {
    /// One HTTP request the client made to a device.
    public struct Request: Sendable, Hashable {
        /// From the start of the search.
        public var at: Duration
        /// The HTTP method (`GET`, `POST`, `SUBSCRIBE`, …).
        public var method: String
        /// The URL the client asked for: the server's origin and the path as sent.
        public var url: String
        /// The status answered, 0 when never answered.
        public var status: Int

        /// A request made `at` (from the start of the search) with this method and URL, answered `status`.
        public init(at: Duration, method: String, url: String, status: Int) {
            self.at = at
            self.method = method
            self.url = url
            self.status = status
        }
    }

    /// One SOAP action the client called on a device.
    public struct ActionCall: Sendable, Hashable {
        /// From the start of the search.
        public var at: Duration
        /// The UDN of the root device called.
        public var udn: String
        /// The action's name (`AddPortMapping`).
        public var action: String
        /// The in-arguments as sent, by name.
        public var arguments: [String: String]
        /// The UPnP error code of a fault, `nil` for a success.
        public var errorCode: Int?

        /// A call of `action` on the device `udn` with these arguments, made `at`; `errorCode` for a fault.
        public init(at: Duration, udn: String, action: String, arguments: [String: String], errorCode: Int? = nil) {
            self.at = at
            self.udn = udn
            self.action = action
            self.arguments = arguments
            self.errorCode = errorCode
        }
    }

    /// One GENA event a device sent to a subscriber.
    public struct EventSent: Sendable, Hashable {
        /// From the start of the search.
        public var at: Duration
        /// The UDN of the device whose service evented.
        public var udn: String
        /// The service's type.
        public var serviceType: String
        /// The subscription's SID, the callback URL and the event's SEQ.
        public var sid: String, callback: String, sequence: UInt32
        /// The property set, as sent.
        public var body: String
        /// The status the subscriber answered; `nil` when it never answered, or the event was lost.
        public var status: Int?
        /// Whether the device's network faults lost it.
        public var lost: Bool

        /// An event of the service `serviceType` of the device `udn` to a subscription, sent `at`.
        public init(
            at: Duration,
            udn: String,
            serviceType: String,
            sid: String,
            callback: String,
            sequence: UInt32,
            body: String,
            status: Int?,
            lost: Bool = false
        ) {
            self.at = at
            self.udn = udn
            self.serviceType = serviceType
            self.sid = sid
            self.callback = callback
            self.sequence = sequence
            self.body = body
            self.status = status
            self.lost = lost
        }
    }

    /// Each device's LOCATION, in device order.
    public var locations: [String] = []
    /// Every HTTP request to the devices, in order.
    public var requests: [Request] = []
    /// The SOAP actions called, in order.
    public var actions: [ActionCall] = []
    /// The GENA events the devices sent to the client's callbacks, in order.
    public var events: [EventSent] = []

    /// The activity around devices at these LOCATIONs (in device order): the requests, actions and events.
    public init(
        locations: [String] = [],
        requests: [Request] = [],
        actions: [ActionCall] = [],
        events: [EventSent] = []
    ) {
        self.locations = locations
        self.requests = requests
        self.actions = actions
        self.events = events
    }
}
