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
import SSDPCore
import SSDPDeviceCore
import SSDPNIO
import SSDPSimulator

/// One simulated device as a test sees it: who it is and where it lives.
public struct LANDevice: Hashable, Sendable {
    /// The unique device name, `uuid:` included, as its description and USNs give it.
    public var udn: String
    /// The name shown to users, from the description's `<friendlyName>`.
    public var friendlyName: String
    /// The root device's type, `urn:<domain>:device:<type>:<version>`.
    public var deviceType: String
    /// The URL of its description, as its answers give it.
    public var location: String
    /// The host part of `location`: the device's own address (127.0.0.2, …) when it has one.
    public var address: String
    /// What it advertises: every (ST, USN) pair a search for `ssdp:all` is answered with.
    public var advertisements: [SSDPAdvertisement]

    init(_ root: SSDPRootDevice, address: String) {
        udn = root.device.udn
        friendlyName = root.device.friendlyName
        deviceType = root.device.deviceType
        location = root.location
        self.address = address
        advertisements = root.advertisements
    }
}

/// An M-SEARCH a simulated device heard, and what became of it.
public struct HeardSearch: Hashable, Sendable {
    /// The client's address and port, as the datagram came from them.
    public var from: String
    /// The search target (ST), or "" when the search had none.
    public var target: String
    /// The MX header as sent, or `nil` when there was none.
    public var mx: String?
    /// How many answers the devices scheduled for it; 0 for a search that was dropped.
    public var answers: Int
    /// Why the search was dropped (no MAN, a bad MX, …), or `nil` when it was accepted.
    public var rejection: SSDPSearchRequest.Rejection?

    init(
        from client: SocketAddress,
        headers: SSDPHeaders,
        answers: Int = 0,
        rejection: SSDPSearchRequest.Rejection? = nil
    ) {
        from = client.endpointDescription
        target = headers["ST"] ?? ""
        mx = headers["MX"]
        self.answers = answers
        self.rejection = rejection
    }
}

/// One answer a simulated device sent.
public struct SentAnswer: Hashable, Sendable {
    /// The client's address and port.
    public var to: String
    /// The USN the answer carried.
    public var usn: String
    /// The ST the answer carried: one of the device's advertised targets.
    public var target: String
}

/// One HTTP request a simulated device served.
public struct ServedRequest: Hashable, Sendable {
    /// The HTTP method: `GET`, `POST`, `SUBSCRIBE`, …
    public var method: String
    /// The whole URL, as the client asked for it: `http://127.0.0.2:8060/query/apps`.
    public var url: String
    /// The status answered, 0 when it never was.
    public var status: Int
}

/// What a run's devices heard and did, as they did it; read through `SimulatedLAN`.
final class LANRecorder: Sendable {
    /// A bound, so a long flood cannot grow the record without end; what goes past it is counted.
    static let maximumEvents = 1_000_000

    private let state = NIOLockedValueBox<(events: [SimulatorEvent], overflow: Int)>(([], 0))

    func record(_ event: SimulatorEvent) {
        state.withLockedValue { state in
            if state.events.count < Self.maximumEvents {
                state.events.append(event)
            } else {
                state.overflow += 1
            }
        }
    }

    var events: [SimulatorEvent] { state.withLockedValue { $0.events } }
    var overflow: Int { state.withLockedValue { $0.overflow } }

    var searches: [HeardSearch] {
        events.compactMap { event in
            guard case .searchReceived(let from, let headers, let outcome, _, _) = event else { return nil }
            switch outcome {
            case .answered(let count): return HeardSearch(from: from, headers: headers, answers: count)
            case .rejected(let rejection): return HeardSearch(from: from, headers: headers, rejection: rejection)
            case .lostByNetwork: return nil
            }
        }
    }

    var answers: [SentAnswer] {
        events.compactMap { event in
            guard case .answerSent(let to, let usn, let target, _) = event else { return nil }
            return SentAnswer(to: to.endpointDescription, usn: usn, target: target)
        }
    }

    var httpRequests: [ServedRequest] {
        events.compactMap { event in
            guard case .httpRequest(let method, let path, let status, let origin) = event else { return nil }
            return ServedRequest(method: method, url: origin + path, status: status)
        }
    }

    var actions: [ActionRecord] {
        events.compactMap { event in
            guard case .actionCalled(let record) = event else { return nil }
            return record
        }
    }

    var deviceActions: [DeviceAction] {
        events.compactMap { event in
            guard case .deviceAction(let action) = event else { return nil }
            return action
        }
    }

    var notifications: [(subtype: SSDPNotificationSubtype, count: Int)] {
        events.compactMap { event in
            guard case .notificationsSent(let subtype, let count, _) = event else { return nil }
            return (subtype, count)
        }
    }
}
