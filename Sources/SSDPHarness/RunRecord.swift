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
package enum RunMode: String, Sendable, Hashable, Codable {
    /// Virtual clock and virtual network, no sockets.
    case virtual
    /// The simulator and the real `SSDPSearchSession` over real UDP sockets.
    case live
    /// The simulator over real sockets and someone else's client, watched on the wire.
    case externalClient = "external-client"
}

/// What happened during one run of a scenario, whatever the mode: what the client put on the wire, what
/// it reported and when it stopped. The expectations are checked against this alone.
package struct RunRecord: Sendable {
    /// One M-SEARCH the client sent, as a device saw it.
    package struct Search: Sendable, Hashable {
        /// From the start of the search.
        package var at: Duration
        /// The M-SEARCH's headers, as parsed.
        package var headers: SSDPHeaders

        /// A search seen `at` (from the start of the search) with these headers.
        package init(at: Duration, headers: SSDPHeaders) {
            self.at = at
            self.headers = headers
        }
    }

    /// Why a client's search ended, as a run records it and a scenario expects it: the search session's
    /// own reasons, or an external client's exit.
    package enum StopReason: String, Sendable, Hashable, CaseIterable {
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
        package init(_ reason: SearchSessionStateMachine.StopReason) {
            switch reason {
            case .timedOut: self = .timedOut
            case .stopRequested: self = .stopRequested
            case .noSearchRequests: self = .noSearchRequests
            }
        }
    }

    /// Something the client told its user, in order.
    package enum Outcome: Sendable, Hashable {
        case found(ReportedService)
        /// The search ended; `reason` is nil when the session stopped without saying why.
        case stopped(reason: StopReason?, found: Int)
        case failed(String)

        /// Whether it reports a service found.
        package var isReport: Bool {
            if case .found = self { return true }
            return false
        }
    }

    /// How many M-SEARCH messages one device heard, against how many the network delivered to it.
    package struct Hearing: Sendable, Hashable {
        /// The device's number, counting from 1.
        package var device: Int
        /// M-SEARCH messages the virtual network delivered to the device, over all its reboots.
        package var delivered: Int
        /// Of those, the M-SEARCH messages the device accepted (before its own search loss and ignored searches).
        package var heard: Int

        /// One device's counts of searches delivered and heard.
        package init(device: Int, delivered: Int, heard: Int) {
            self.device = device
            self.delivered = delivered
            self.heard = heard
        }
    }

    /// How the scenario was run.
    package var mode: RunMode
    /// The seed the run used: the scenario's, or the one given with `--seed`.
    package var seed: UInt64
    /// The M-SEARCH messages the client sent, in order.
    package var searches: [Search] = []
    /// What the client reported, with when, in order.
    package var outcomes: [(at: Duration, outcome: Outcome)] = []
    /// The session's counters; `nil` for an external client, whose insides cannot be seen.
    package var statistics: SearchSessionStatistics?
    /// Per device, in virtual mode only.
    package var hearings: [Hearing]?
    /// Every datagram, for `--trace`.
    package var trace: [TraceEntry] = []
    /// What the client made of each datagram that reached it, with a trace in virtual time.
    package var deliveries: [ClientDelivery] = []
    /// When the search began, in seconds since 1970: the wall clock for live runs, 0 for virtual ones (so
    /// trace timestamps read as virtual seconds).
    package var startedAt: Double = 0
    /// How much time the run covered (virtual or real).
    package var duration: Duration = .zero
    /// Remarks for the report, such as how an external client exited.
    package var notes: [String] = []
    /// What an external client did over HTTP after discovery; `nil` where it cannot be seen (virtual time)
    /// or where the client is the project's own session, which fetches nothing.
    package var http: HTTPActivity?
    /// Every service the devices put on the wire, as they sent it, each distinct (USN, ST, LOCATION, SERVER)
    /// once: what a reported service is held against. Live, search answers and alive NOTIFYs (a client in a
    /// namespace hears those too); in virtual time, the answers (the virtual client does not listen on 1900).
    package var advertised: Set<Advertisement> = []
    /// When each search answer left the devices, from the start of the search (live runs): when a client
    /// that stops after a quiet time (`SearchPolicy.Stop.idle`) should stop.
    package var answers: [Duration] = []
    /// The datagrams `advertised` was read from, by their `mixHash` (the first, where two hashes collide),
    /// their arrays shared with the datagrams sent, not copied: a datagram is skipped only when its bytes
    /// equal a noted one's.
    private var notedDatagrams: [Int: [UInt8]] = [:]

    /// An empty record of a run in `mode` with `seed`.
    package init(mode: RunMode, seed: UInt64) {
        self.mode = mode
        self.seed = seed
    }

    /// Adds something the client reported at `time`, from the start of the search.
    package mutating func record(_ outcome: Outcome, at time: Duration) {
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
    package var reports: [(at: Duration, service: ReportedService)] {
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
    package var endings: [(at: Duration, outcome: Outcome)] {
        outcomes.filter { !$0.outcome.isReport }
    }
}

/// One service a client reported, with what it said of it.
package struct ReportedService: Sendable, Hashable, CustomStringConvertible {
    /// The USN the client reported.
    package var usn: String
    /// The ST the client reported; for a bare USN, the harness's guess (the part after `::`).
    package var st: String
    /// Whether the client gave the ST itself (`false` for a bare USN).
    package var stGiven: Bool
    /// The LOCATION the client reported, `nil` when it gave none.
    package var location: String?
    /// The SERVER the client reported, `nil` when it gave none.
    package var server: String?

    /// A service as a client reported it; `stGiven` is `false` when `st` was guessed from a bare USN.
    package init(usn: String, st: String, stGiven: Bool = true, location: String? = nil, server: String? = nil) {
        self.usn = usn
        self.st = st
        self.stGiven = stGiven
        self.location = location
        self.server = server
    }

    /// What the project's own session reported: every field.
    package init(_ service: SSDPService) {
        self.init(
            usn: service.uniqueServiceName,
            st: service.searchTarget,
            location: service.location,
            server: service.server
        )
    }

    /// `USN (ST)`, for reports.
    package var description: String { "\(usn) (\(st))" }
}

/// A service as a device put it on the wire: a search answer's USN, ST, LOCATION and SERVER, or an alive
/// NOTIFY's with NT for ST.
package struct Advertisement: Sendable, Hashable {
    /// The USN header.
    package var usn: String
    /// The ST of an answer, or the NT of a NOTIFY.
    package var st: String
    /// The LOCATION header, if any.
    package var location: String?
    /// The SERVER header, if any.
    package var server: String?

    /// An advertisement with these header values.
    package init(usn: String, st: String, location: String?, server: String?) {
        self.usn = usn
        self.st = st
        self.location = location
        self.server = server
    }

    /// The advertisement in `message`, if it is an answer or an alive (or update) NOTIFY with USN and target.
    package init?(_ message: SSDPMessage) {
        switch message.kind {
        case .response: break
        case .notify where message.notificationSubtype != .byebye: break
        default: return nil
        }
        guard let usn = message.headers[.usn], let st = message.searchTarget else { return nil }
        self.init(usn: usn, st: st, location: message.headers[.location], server: message.headers[.server])
    }

    /// The advertisement in a datagram as the tolerant parser reads it.
    package init?(datagram: some Collection<UInt8>) {
        guard let message = try? SSDPParser.parseMessage(datagram) else { return nil }
        self.init(message)
    }

    /// Hashes USN and ST, which tell advertisements apart nearly always, and not the long LOCATION and
    /// SERVER: equality still compares all four.
    package func hash(into hasher: inout Hasher) {
        hasher.combine(usn)
        hasher.combine(st)
    }
}

/// One datagram on the (virtual or real) wire.
package struct TraceEntry: Sendable, Hashable {
    /// From the start of the search (negative before it).
    package var at: Duration
    /// Who sent the datagram.
    package var source: SSDPEndpoint
    /// Where it was sent: the multicast group or one host.
    package var destination: SSDPEndpoint
    /// The datagram's payload, whole.
    package var bytes: [UInt8]
    /// What became of it: "arrives 0.052", "lost", "to 4 devices: 3 copies delivered, 1 lost", …
    package var fate: String
    /// Each copy the network made of it, to whom and when it arrived (`nil`: lost): in virtual runs, where
    /// the network is the harness's; empty where nobody in the run receives it (a NOTIFY in virtual time)
    /// or the harness saw the datagram on a real socket.
    package var copies: [Copy] = []

    /// One copy of a datagram on its way to one recipient.
    package struct Copy: Sendable, Hashable {
        /// The recipient.
        package var to: SSDPEndpoint
        /// When it arrived, from the start of the search; `nil` when the network lost it.
        package var arrival: Duration?

        /// A copy to `to` that arrived at `arrival`, or was lost (`nil`).
        package init(to: SSDPEndpoint, arrival: Duration?) {
            self.to = to
            self.arrival = arrival
        }
    }

    /// A datagram sent `at` from `source` to `destination`; `fate` says what became of it.
    package init(at: Duration, source: SSDPEndpoint, destination: SSDPEndpoint, bytes: [UInt8], fate: String) {
        self.at = at
        self.source = source
        self.destination = destination
        self.bytes = bytes
        self.fate = fate
    }
}

/// A datagram that reached the client, and what the client made of it: in virtual runs with a trace,
/// where the session's verdict on each datagram can be seen.
package struct ClientDelivery: Sendable, Hashable {
    /// When it arrived, from the start of the search.
    package var at: Duration
    /// Who sent it.
    package var source: SSDPEndpoint
    /// "reported", or why the session dropped it ("duplicate", "wrong target", "unparseable", "after the
    /// stop", …).
    package var verdict: String

    /// A datagram from `source` that arrived `at`, with the session's verdict.
    package init(at: Duration, source: SSDPEndpoint, verdict: String) {
        self.at = at
        self.source = source
        self.verdict = verdict
    }
}

/// A client's HTTP requests to the devices of a run, and the SOAP actions among them.
package struct HTTPActivity: Sendable, Hashable {
    /// One HTTP request the client made to a device.
    package struct Request: Sendable, Hashable {
        /// From the start of the search.
        package var at: Duration
        /// The HTTP method (`GET`, `POST`, `SUBSCRIBE`, …).
        package var method: String
        /// The URL the client asked for: the server's origin and the path as sent.
        package var url: String
        /// The status answered, 0 when never answered.
        package var status: Int

        /// A request made `at` (from the start of the search) with this method and URL, answered `status`.
        package init(at: Duration, method: String, url: String, status: Int) {
            self.at = at
            self.method = method
            self.url = url
            self.status = status
        }
    }

    /// One SOAP action the client called on a device.
    package struct ActionCall: Sendable, Hashable {
        /// From the start of the search.
        package var at: Duration
        /// The UDN of the root device called.
        package var udn: String
        /// The action's name (`AddPortMapping`).
        package var action: String
        /// The in-arguments as sent, by name.
        package var arguments: [String: String]
        /// The UPnP error code of a fault, `nil` for a success.
        package var errorCode: Int?

        /// A call of `action` on the device `udn` with these arguments, made `at`; `errorCode` for a fault.
        package init(at: Duration, udn: String, action: String, arguments: [String: String], errorCode: Int? = nil) {
            self.at = at
            self.udn = udn
            self.action = action
            self.arguments = arguments
            self.errorCode = errorCode
        }
    }

    /// One GENA event a device sent to a subscriber.
    package struct EventSent: Sendable, Hashable {
        /// From the start of the search.
        package var at: Duration
        /// The UDN of the device whose service evented.
        package var udn: String
        /// The service's type.
        package var serviceType: String
        /// The subscription's SID, the callback URL and the event's SEQ.
        package var sid: String, callback: String, sequence: UInt32
        /// The property set, as sent.
        package var body: String
        /// The status the subscriber answered; `nil` when it never answered, or the event was lost.
        package var status: Int?
        /// Whether the device's network faults lost it.
        package var lost: Bool

        /// An event of the service `serviceType` of the device `udn` to a subscription, sent `at`.
        package init(
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
    package var locations: [String] = []
    /// Every HTTP request to the devices, in order.
    package var requests: [Request] = []
    /// The SOAP actions called, in order.
    package var actions: [ActionCall] = []
    /// The GENA events the devices sent to the client's callbacks, in order.
    package var events: [EventSent] = []

    /// The activity around devices at these LOCATIONs (in device order): the requests, actions and events.
    package init(
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
