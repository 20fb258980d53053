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
/// One client (an address) holds at most `maximumPerClient` connections to each device (a server shared
/// by N devices takes N times as many); one more is closed as it is accepted. All clients together hold at most `maximumTotal`; when that many are open, a new connection
/// is taken in and the connection that has waited longest for its request is closed in its place. Every
/// connection closes at once after its answer and has `DeviceHTTPHandler.requestDeadline` to send its
/// request, so a client that asks and waits for its answer always gets in, however many slow ones hold
/// connections open.
final class HTTPConnectionLimiter: Sendable {
    /// The most connections one client address holds to one device: a browser opens six, a control point
    /// fetching every SCPD of a Sonos at once a dozen or two.
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
        var answered = false
    }

    private struct State {
        /// The open connections by ticket, the order they were taken in.
        var connections: [Int: Connection] = [:]
        var perClient: [Client: Int] = [:]
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

    /// Takes in `channel`, just accepted by server `server` (which serves `devices` devices) from `address`,
    /// and returns its ticket; or closes it and returns `nil`: the client holds its share of that server
    /// already, or every slot holds a connection being answered. When every slot is taken, the connection
    /// that has waited longest for its request is closed instead. The slot is given back when the channel
    /// closes.
    func admit(_ channel: any Channel, server: Int, devices: Int = 1, from address: String) -> Int? {
        let client = Client(server: server, address: address)
        let admitted: (ticket: Int, displaced: (any Channel)?)? = state.withLockedValue { state in
            guard state.perClient[client, default: 0] < Self.maximumPerClient * max(1, devices) else {
                state.refused += 1
                return nil
            }
            var displaced: (any Channel)?
            if state.connections.count >= maximumTotal {
                // Tickets count up, so the smallest is the oldest.
                guard let oldest = state.connections.filter({ !$0.value.answered }).keys.min() else {
                    state.refused += 1
                    return nil
                }
                displaced = state.connections[oldest]?.channel
                state.displaced += 1
                remove(oldest, from: &state)
            }
            state.accepted += 1
            state.connections[state.accepted] = Connection(channel: channel, client: client)
            state.perClient[client, default: 0] += 1
            return (state.accepted, displaced)
        }
        guard let admitted else {
            channel.close(promise: nil)
            return nil
        }
        admitted.displaced?.close(promise: nil)
        channel.closeFuture.whenComplete { _ in
            self.state.withLockedValue { self.remove(admitted.ticket, from: &$0) }
        }
        return admitted.ticket
    }

    /// The request of the connection with `ticket` has been read: it is no longer one to close for a newcomer.
    func answered(_ ticket: Int) {
        state.withLockedValue { $0.connections[ticket]?.answered = true }
    }

    /// Connections open now, refused (their client at its limit, or every slot answering), and closed to
    /// make room.
    var counts: (open: Int, refused: Int, displaced: Int) {
        state.withLockedValue { ($0.connections.count, $0.refused, $0.displaced) }
    }

    private func remove(_ ticket: Int, from state: inout State) {
        guard let connection = state.connections.removeValue(forKey: ticket) else { return }
        state.perClient[connection.client, default: 1] -= 1
        if state.perClient[connection.client] == 0 { state.perClient[connection.client] = nil }
    }
}
