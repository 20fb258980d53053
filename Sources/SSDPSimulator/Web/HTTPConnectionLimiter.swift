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

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How many HTTP connections the simulator's servers hold at once, shared by all of them, so that no client
/// can take the descriptors every other client needs.
///
/// One client (an address) has at most `maximumPerClient` connections to each device read at once (a server
/// shared by N devices, N times as many). Its connections beyond that wait, unread, in the order they came,
/// and the first of them is read as soon as one of the client's others closes: a client that opens more
/// connections than its share is served at the pace of its share, not refused, and a refused connection
/// it would open again at once cannot turn the server into a machine for refusing. All clients together
/// hold at most `maximumTotal` connections, waiting ones included; when that many are open, a new
/// connection is taken in and, of the client holding the most connections, the one that has waited
/// longest for its request (or to be read) is closed in its place. Every connection closes at once after
/// its answer and has `DeviceHTTPHandler.requestDeadline` from connecting to send its request, so a client
/// that asks and waits for its answer always gets in, however many connections others hold open.
final class HTTPConnectionLimiter: Sendable {
    /// The most connections of one client address read at once by one device: a browser opens six, a
    /// control point fetching every SCPD of a Sonos at once a dozen or two.
    static let maximumPerClient = 32

    /// The most connections held in all.
    let maximumTotal: Int

    /// A client at one server: the unit of the per-client share.
    private struct Client: Hashable {
        var server: Int
        var address: String
    }

    private struct Connection {
        var channel: any Channel
        var client: Client
        /// Its request has been read: it is no longer one to close for a newcomer.
        var answered = false
        /// It waits, unread, for a place in its client's share.
        var waiting = false
    }

    private struct State {
        /// The open connections by ticket, the order they were taken in.
        var connections: [Int: Connection] = [:]
        /// The connections of each client being read (those not waiting).
        var reading: [Client: Int] = [:]
        /// The tickets of each client's waiting connections, first come first.
        var waiting: [Client: [Int]] = [:]
        var accepted = 0
        var refused = 0
        var displaced = 0
    }

    private let state = NIOLockedValueBox(State())

    /// A limiter for at most `maximumTotal` connections (`defaultTotal()` is the usual choice).
    init(maximumTotal: Int) {
        self.maximumTotal = maximumTotal
    }

    /// Half the descriptors the process may open (its soft `RLIMIT_NOFILE`) beyond 256 kept for its sockets
    /// and files, within 64...4,096.
    static func defaultTotal() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1_024 }
        let available = Int(clamping: limit.rlim_cur)
        return min(4_096, max(64, (available - 256) / 2))
    }

    /// Takes in `channel`, just accepted by server `server` (which serves `devices` devices) from `address`
    /// and not yet registered, and returns its ticket; or closes it and returns `nil` when every slot holds a
    /// connection being answered. When every slot is taken, a connection of the client holding the most is
    /// closed instead (`makingRoom(in:)`). A connection over the client's share is taken in with reading turned off,
    /// and turned on when its turn comes. The slot is given back when the channel closes.
    func admit(_ channel: any Channel, server: Int, devices: Int = 1, from address: String) -> Int? {
        let client = Client(server: server, address: address)
        let share = Self.maximumPerClient * max(1, devices)
        let admitted: (ticket: Int, waits: Bool, displaced: (any Channel)?, next: (any Channel)?)? =
            state.withLockedValue { state in
                var displaced: (any Channel)?
                var next: (any Channel)?
                if state.connections.count >= maximumTotal {
                    guard let oldest = Self.makingRoom(in: state) else {
                        state.refused += 1
                        return nil
                    }
                    displaced = state.connections[oldest]?.channel
                    state.displaced += 1
                    next = remove(oldest, from: &state)
                }
                state.accepted += 1
                let waits = state.reading[client, default: 0] >= share
                state.connections[state.accepted] = Connection(channel: channel, client: client, waiting: waits)
                if waits {
                    state.waiting[client, default: []].append(state.accepted)
                } else {
                    state.reading[client, default: 0] += 1
                }
                return (state.accepted, waits, displaced, next)
            }
        guard let admitted else {
            channel.close(promise: nil)
            return nil
        }
        if admitted.waits { try? channel.syncOptions?.setOption(.autoRead, value: false) }
        admitted.displaced?.close(promise: nil)
        admitted.next.map(Self.read)
        channel.closeFuture.whenComplete { _ in
            let next = self.state.withLockedValue { self.remove(admitted.ticket, from: &$0) }
            next.map(Self.read)
        }
        return admitted.ticket
    }

    /// The request of the connection with `ticket` has been read: it is no longer one to close for a newcomer.
    func answered(_ ticket: Int) {
        state.withLockedValue { $0.connections[ticket]?.answered = true }
    }

    /// Connections refused (every slot answering) and closed to make room, since the start.
    var counts: (refused: Int, displaced: Int) {
        state.withLockedValue { ($0.refused, $0.displaced) }
    }

    /// The connection to close for a newcomer when every slot is taken: of the client holding the most
    /// connections, the one that has waited longest for its request (tickets count up, so the smallest is
    /// the oldest). So one address may fill the table while nobody else needs it, but gives its own up
    /// first. `nil` when every connection's request is in.
    private static func makingRoom(in state: State) -> Int? {
        var held: [Client: (count: Int, oldest: Int)] = [:]
        for (ticket, connection) in state.connections where !connection.answered {
            let entry = held[connection.client] ?? (0, ticket)
            held[connection.client] = (entry.count + 1, min(entry.oldest, ticket))
        }
        // The holder of the most, and among equals the one whose oldest came first: the same choice every run.
        return held.values.max { ($0.count, $1.oldest) < ($1.count, $0.oldest) }?.oldest
    }

    /// Forgets connection `ticket`; when it was being read and its client has one waiting, the first waiting
    /// one takes its place and is returned, to be read.
    private func remove(_ ticket: Int, from state: inout State) -> (any Channel)? {
        guard let connection = state.connections.removeValue(forKey: ticket) else { return nil }
        let client = connection.client
        if connection.waiting {
            state.waiting[client]?.removeAll { $0 == ticket }
            if state.waiting[client]?.isEmpty == true { state.waiting[client] = nil }
            return nil
        }
        if var queue = state.waiting[client], !queue.isEmpty {
            let first = queue.removeFirst()
            state.waiting[client] = queue.isEmpty ? nil : queue
            state.connections[first]?.waiting = false
            return state.connections[first]?.channel
        }
        state.reading[client, default: 1] -= 1
        if state.reading[client] == 0 { state.reading[client] = nil }
        return nil
    }

    /// Turns reading on for a connection whose turn has come.
    private static func read(_ channel: any Channel) {
        channel.setOption(.autoRead, value: true).whenFailure { _ in }
    }
}
