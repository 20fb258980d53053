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

/// The original design's `SSDPSearchSession` as a pure state machine: it decides what to send, what to
/// report and when to stop, and never touches a socket or a clock.
///
/// States:
/// - `idle`: made, not started. `start(at:)` sends the first M-SEARCH (or, with zero requests, stops).
/// - `searching`: M-SEARCH number k goes out at `configuration.searchRequestOffset(k)`; responses are
///   parsed, filtered by search target, de-duplicated and reported as they arrive. At
///   `configuration.searchTimeout` it stops and reports everything it found, once.
/// - `stopped`: final. Every event is ignored; nothing is reported again.
///
/// The caller passes `now` into every event and arms one timer for `nextDeadline`; a timer that fires
/// early does nothing. The same machine runs under SwiftNIO's event loop and the harness's virtual clock.
public struct SearchSessionStateMachine: Sendable {
    /// What the caller must do.
    public enum Action: Hashable, Sendable {
        /// Send this M-SEARCH to the configured host and port.
        case sendSearch(SSDPMessage)
        /// The search is over: report its end with every service found, in the order found. Sent once.
        case stop(foundServices: [SSDPService], reason: StopReason)
        /// The transport failed: report the error, once. The session is over; as in the original design, no stop
        /// report follows.
        case fail(SSDPSearchSessionError)
    }

    /// Why a search ended.
    public enum StopReason: Hashable, Sendable {
        /// N × MX + 0.1 s passed.
        case timedOut
        /// The user stopped it (`SSDPSearchSession`: `stopSearch()` was called, or the task iterating its
        /// `services` was cancelled).
        case stopRequested
        /// The configuration asks for zero requests, so there was nothing to wait for.
        case noSearchRequests
    }

    /// What became of one received datagram.
    public enum ReceiveResult: Hashable, Sendable {
        /// A new service: report it now.
        indirect case reportService(SSDPService)  // boxed: most datagrams are dropped, and a drop moves a few words
        /// Not reported, and why.
        case dropped(DropReason)
    }

    /// Why a received datagram was not reported. Each is counted in `statistics`.
    public enum DropReason: Hashable, Sendable {
        /// The bytes are not an SSDP message.
        indirect case unparseable(SSDPParseError)
        /// An SSDP message, but not a search response (a NOTIFY, or an M-SEARCH echoed back).
        case notAResponse(SSDPMessage.Kind)
        /// A response without CACHE-CONTROL max-age, LOCATION, SERVER, ST or USN.
        case incomplete(missingFields: [String])
        /// A response for a search target other than the one searched (a chatty device).
        case wrongSearchTarget(String)
        /// A service equal to one already reported, or with the USN and ST of one already reported
        /// through another interface.
        case duplicate
        /// The session is not searching: not started, stopped, or past its timeout.
        case notSearching
    }

    private enum State: Sendable {
        case idle
        /// Searching: `searching` holds the search.
        case searching
        case stopped
    }

    /// What a search keeps while it runs: a property of its own rather than the `searching` state's payload,
    /// so that each answer reads and adds to its tables in place (a payload is copied out, and each table
    /// retained and released, to be read).
    private struct Searching: Sendable {
        var startedAt: SSDPInstant
        /// `startedAt` plus the configuration's timeout: answers from then on are not read.
        var endsAt: SSDPInstant
        var searchesSent: Int
        var found = FoundServices()
        /// The interface each USN and ST was first reported through, when answers name their interface.
        var interfaceOf: [ServiceKey: String] = [:]
        /// What recognises a repeat of a reported service before it is decoded.
        var repeats = RepeatedAnswers()
    }

    private struct ServiceKey: Hashable, Sendable {
        var usn: String
        var searchTarget: String
    }

    /// What the session searches for, where, and how many times.
    public let configuration: SSDPSearchSessionConfiguration
    private var state: State = .idle
    /// The search, while `state` is `searching`; empty otherwise.
    private var searching = Searching(startedAt: .zero, endsAt: .zero, searchesSent: 0)
    /// The fields of the last datagram read, as ranges of it: kept for their capacity (`classify`).
    private var fieldSpans: [SSDPHeaders.Span] = []
    /// Counts of what the session sent, received, reported and dropped.
    public private(set) var statistics = SearchSessionStatistics()

    /// An idle session for `configuration`; nothing is sent until `start(at:)`.
    public init(configuration: SSDPSearchSessionConfiguration) {
        self.configuration = configuration
    }

    // MARK: - Events

    /// Starts the search: sends the first M-SEARCH, or stops at once when zero requests are configured.
    /// Does nothing unless the session is idle (sessions are single use).
    public mutating func start(at now: SSDPInstant) -> [Action] {
        guard case .idle = state else { return [] }
        guard configuration.maximumSearchRequestsBeforeClosing > 0 else {
            state = .stopped
            return [.stop(foundServices: [], reason: .noSearchRequests)]
        }
        state = .searching
        searching = Searching(startedAt: now, endsAt: now + configuration.searchTimeout, searchesSent: 0)
        return timerFired(at: now)
    }

    /// Sends every M-SEARCH that is due and stops when the timeout has passed. Early calls do nothing.
    public mutating func timerFired(at now: SSDPInstant) -> [Action] {
        guard case .searching = state else { return [] }
        var actions: [Action] = []
        while searching.searchesSent < configuration.maximumSearchRequestsBeforeClosing,
            now >= searching.startedAt + configuration.searchRequestOffset(searching.searchesSent)
        {
            searching.searchesSent += 1
            statistics.searchesSent += 1
            actions.append(.sendSearch(configuration.searchMessage))
        }
        if now >= searching.endsAt {
            actions.append(.stop(foundServices: finish(), reason: .timedOut))
        }
        return actions
    }

    /// Handles one received datagram: parses it, keeps it only if it is a complete response for the
    /// searched target that was not reported before, and says whether to report it.
    ///
    /// A session that searches on several interfaces names the one each datagram arrived on: the service
    /// reported carries it, and the same USN and ST arriving through another interface (a device on
    /// both networks, with a LOCATION for each) is a duplicate. Through one interface, duplicates are the
    /// original design's: equal LOCATION, SERVER, ST and USN.
    public mutating func received(
        _ datagram: some Collection<UInt8>,
        at now: SSDPInstant,
        interface: String? = nil
    ) -> ReceiveResult {
        datagram.withContiguousStorageIfAvailable { received(buffer: $0, array: nil, at: now, interface: interface) }
            ?? Array(datagram).withUnsafeBufferPointer {
                received(buffer: $0, array: nil, at: now, interface: interface)
            }
    }

    /// Handles one received datagram given as an array, as `received(_:at:interface:)` handles any bytes:
    /// a service reported from it keeps the array itself rather than a copy of its bytes.
    public mutating func received(_ datagram: [UInt8], at now: SSDPInstant, interface: String? = nil) -> ReceiveResult {
        datagram.withUnsafeBufferPointer { received(buffer: $0, array: datagram, at: now, interface: interface) }
    }

    /// Handles the datagram in `buffer`; `array`, when given, is the array `buffer` is the storage of.
    private mutating func received(
        buffer: UnsafeBufferPointer<UInt8>,
        array: [UInt8]?,
        at now: SSDPInstant,
        interface: String?
    ) -> ReceiveResult {
        statistics.datagramsReceived += 1
        let result = classify(buffer: buffer, array: array, at: now, interface: interface)
        statistics.count(result)
        return result
    }

    /// Stops the search at the user's request and reports what was found. Does nothing once stopped.
    public mutating func stop(at now: SSDPInstant) -> [Action] {
        switch state {
        case .idle:
            state = .stopped
            return [.stop(foundServices: [], reason: .stopRequested)]
        case .searching:
            return [.stop(foundServices: finish(), reason: .stopRequested)]
        case .stopped:
            return []
        }
    }

    /// The transport failed: ends the session and reports the error once. Does nothing once stopped.
    public mutating func failed(_ error: SSDPSearchSessionError, at now: SSDPInstant) -> [Action] {
        if case .stopped = state { return [] }
        _ = finish()
        return [.fail(error)]
    }

    /// Ends the search: the services it found, its tables released.
    private mutating func finish() -> [SSDPService] {
        state = .stopped
        let services = searching.found.services
        searching = Searching(startedAt: .zero, endsAt: .zero, searchesSent: 0)
        return services
    }

    // MARK: - Queries

    /// When the caller must call `timerFired(at:)` next, or `nil` when no timer is needed.
    public var nextDeadline: SSDPInstant? {
        guard case .searching = state else { return nil }
        let timeout = searching.endsAt
        guard searching.searchesSent < configuration.maximumSearchRequestsBeforeClosing else { return timeout }
        return min(timeout, searching.startedAt + configuration.searchRequestOffset(searching.searchesSent))
    }

    /// Whether the session has ended (stopped, timed out or failed).
    public var isStopped: Bool {
        if case .stopped = state { return true }
        return false
    }

    // MARK: - Filtering

    /// Reads the datagram in `buffer` and reports the service it reads as, or says why it is dropped. A new
    /// service's headers keep `array` (`buffer`'s own), or a copy of `buffer`.
    private mutating func classify(
        buffer: UnsafeBufferPointer<UInt8>,
        array: [UInt8]?,
        at now: SSDPInstant,
        interface: String?
    ) -> ReceiveResult {
        guard case .searching = state, now < searching.endsAt else { return .dropped(.notSearching) }
        // Most answers repeat one that reported a service, byte for byte: a device sends the same bytes to
        // every retry. Such an answer is that service again, whatever else the session would read in it.
        let datagramHash = mixHash(buffer)
        if searching.repeats.isReportingDatagram(buffer, hash: datagramHash) {
            return .dropped(.duplicate)
        }
        // The fields are read as ranges of the datagram, into an array kept from one datagram to the next: an
        // answer that repeats a reported one with other bytes is dropped before anything is allocated or copied.
        let service: SSDPService
        let fingerprint: ResponseFingerprint?
        var datagram: (hash: Int, bytes: [UInt8])? = nil
        do throws(SSDPParseError) {
            var isASCII = false
            switch try SSDPParser.readFields(of: buffer, into: &fieldSpans, isASCII: &isASCII) {
            case .response?:
                let repeats: Bool
                // Called with the tables themselves, not from a closure (which would copy them out of `self`).
                (fingerprint, repeats) = searching.repeats.match(
                    buffer,
                    fieldSpans,
                    isASCII: isASCII,
                    found: searching.found
                )
                guard !repeats else { return .dropped(.duplicate) }
                let bytes = array ?? Array(buffer)
                datagram = (datagramHash, bytes)
                if let fingerprint {
                    service = SSDPService(text: bytes, spans: fieldSpans, fingerprint: fingerprint, receivedAt: now)
                } else {  // it lacks a field a service needs: the general reading says which
                    let headers = SSDPHeaders(text: bytes, spans: fieldSpans)
                    do throws(SSDPIncompleteResponse) {
                        service = try SSDPService(
                            response: SSDPMessage(kind: .response, headers: headers),
                            receivedAt: now
                        )
                    } catch {
                        return .dropped(.incomplete(missingFields: error.missingFields))
                    }
                }
            case let kind?:
                return .dropped(.notAResponse(kind))
            case nil:  // a name or value that is not UTF-8: the full parse decodes it
                let message = try SSDPParser.parseMessage(buffer)
                guard message.kind == .response else { return .dropped(.notAResponse(message.kind)) }
                let repeats: Bool
                (fingerprint, repeats) = message.headers.withStorage {
                    searching.repeats.match($0, $1, isASCII: false, found: searching.found)
                }
                guard !repeats else { return .dropped(.duplicate) }
                do throws(SSDPIncompleteResponse) {
                    service = try SSDPService(response: message, receivedAt: now)
                } catch {
                    return .dropped(.incomplete(missingFields: error.missingFields))
                }
            }
        } catch {
            return .dropped(.unparseable(error))
        }
        guard isSearchedFor(service) else { return .dropped(.wrongSearchTarget(service.searchTarget)) }
        return add(consume service, fingerprint: fingerprint, datagram: datagram, interface: interface)
    }

    /// Reports `service` unless it is one already reported (through another interface, or with other
    /// bytes), and keeps what recognises its repeats: its answer's `fingerprint` and `datagram` (its hash and
    /// bytes, where the service's headers hold the datagram as it came).
    private mutating func add(
        _ service: consuming SSDPService,
        fingerprint: ResponseFingerprint?,
        datagram: (hash: Int, bytes: [UInt8])?,
        interface: String?
    ) -> ReceiveResult {
        if let interface {
            service.interface = interface
            let key = ServiceKey(usn: service.uniqueServiceName, searchTarget: service.searchTarget)
            let first = searching.interfaceOf[key, default: interface]
            guard first == interface else { return .dropped(.duplicate) }
            searching.interfaceOf[key] = first
        }
        let hash = fingerprint?.hash ?? searching.found.hash(of: service)  // the same, from the bytes
        guard !searching.found.contains(service, hash: hash) else { return .dropped(.duplicate) }
        searching.found.append(service, hash: hash)
        searching.repeats.remember(datagram: datagram)
        return .reportService(service)
    }

    /// The chatty-device filter: keep a service whose ST is the searched ST, or everything when searching
    /// for `ssdp:all`. The original design keeps an ST that only *contains* the searched one; a device must echo the
    /// ST of the search, in the request's version and spelling (UDA 1.1 §1.3.2, §1.3.3), so an answer
    /// `…:MediaRenderer:10` to a search for `…:MediaRenderer:1` is another target, and is dropped.
    private func isSearchedFor(_ service: SSDPService) -> Bool {
        configuration.searchTarget == "ssdp:all" || service.searchTarget == configuration.searchTarget
    }
}

/// Why a search session ended in failure: a stable `code` to act on, and the details for people.
///
/// Codes are values, not cases, so that a new one breaks no one's `switch`: compare with `==`.
public struct SSDPSearchSessionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of failure it was.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Hashable, Sendable {
            case socketUnavailable = "socket unavailable"
            case sendFailed = "send failed"
            case socketFailed = "socket failed"
            case socketClosed = "socket closed"
            case cancelled
        }

        private let base: Base

        private init(_ base: Base) {
            self.base = base
        }

        /// The socket could not be opened: no such interface, no address of the search's family there,
        /// the bind or the multicast set-up refused.
        public static let socketUnavailable = Code(.socketUnavailable)
        /// An M-SEARCH could not be sent (no route, say).
        public static let sendFailed = Code(.sendFailed)
        /// The socket reported an error while the session searched.
        public static let socketFailed = Code(.socketFailed)
        /// The socket closed under the session.
        public static let socketClosed = Code(.socketClosed)
        /// The task waiting for the session's results was cancelled.
        public static let cancelled = Code(.cancelled)

        /// The code's text: `socket unavailable`, `send failed`, `socket failed`, `socket closed` or `cancelled`.
        public var description: String { base.rawValue }
    }

    /// What kind of failure it was; compare with the `Code` constants.
    public var code: Code
    /// What failed, for people: "bind failed: Address already in use", "send to 239.255.255.250:1900 failed: …".
    public var reason: String

    /// A failure of kind `code`, with `reason` explaining it to people.
    public init(_ code: Code, reason: String) {
        self.code = code
        self.reason = reason
    }

    /// The text form: `search aborted (<code>): <reason>`.
    public var description: String { "search aborted (\(code)): \(reason)" }
}

/// What a search session sent, received, reported and dropped.
public struct SearchSessionStatistics: Hashable, Sendable {
    /// M-SEARCH messages sent.
    public var searchesSent = 0
    /// Datagrams received, reported or not.
    public var datagramsReceived = 0
    /// Services reported: new, complete responses for the searched target.
    public var servicesReported = 0
    /// Datagrams dropped because they are not SSDP messages.
    public var unparseable = 0
    /// Datagrams dropped because they are SSDP messages but not search responses (NOTIFY, echoed M-SEARCH).
    public var notResponses = 0
    /// Responses dropped for lacking CACHE-CONTROL max-age, LOCATION, SERVER, ST or USN.
    public var incomplete = 0
    /// Responses dropped because they answer another search target.
    public var wrongSearchTarget = 0
    /// Responses dropped as duplicates of a service already reported.
    public var duplicates = 0
    /// Datagrams dropped because the session was not searching (before the start or after the end).
    public var notSearching = 0

    /// Statistics with every count at zero.
    public init() {}

    /// A reason a received datagram was not reported, as a counter. The raw values are the names every
    /// place uses: scenario files (`expect.dropped`), JSON output and reports, and the README.
    public enum Drop: String, CaseIterable, Hashable, Sendable {
        case unparseable, notResponses, incomplete, wrongSearchTarget, duplicates, notSearching

        /// For people, after a count: "3 duplicates", "2 after the search".
        public var summary: String {
            switch self {
            case .unparseable: "unparseable"
            case .notResponses: "not responses"
            case .incomplete: "incomplete"
            case .wrongSearchTarget: "for another search target"
            case .duplicates: "duplicates"
            case .notSearching: "after the search"
            }
        }
    }

    /// The count of one drop reason.
    public subscript(drop: Drop) -> Int {
        switch drop {
        case .unparseable: unparseable
        case .notResponses: notResponses
        case .incomplete: incomplete
        case .wrongSearchTarget: wrongSearchTarget
        case .duplicates: duplicates
        case .notSearching: notSearching
        }
    }

    /// Every datagram received and not reported.
    public var dropped: Int {
        Drop.allCases.reduce(0) { $0 + self[$1] }
    }

    mutating func count(_ result: SearchSessionStateMachine.ReceiveResult) {
        switch result {
        case .reportService: servicesReported += 1
        case .dropped(.unparseable): unparseable += 1
        case .dropped(.notAResponse): notResponses += 1
        case .dropped(.incomplete): incomplete += 1
        case .dropped(.wrongSearchTarget): wrongSearchTarget += 1
        case .dropped(.duplicate): duplicates += 1
        case .dropped(.notSearching): notSearching += 1
        }
    }
}
