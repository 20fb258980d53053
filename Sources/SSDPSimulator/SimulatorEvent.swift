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

import NIOCore
import SSDPCore
import SSDPDeviceCore
import SSDPDevices
import SSDPNIO

/// What a running simulator reports as it works, for `--json` event streams and for tests.
public enum SimulatorEvent: Sendable {
    /// The simulator is listening: the first link's UDP address and devices with their LOCATIONs, the
    /// first HTTP address, and every link.
    case started(udp: SocketAddress, http: SocketAddress, devices: [SSDPRootDevice], links: [SimulatorLink])
    /// A datagram that was an M-SEARCH arrived, with its headers; `outcome` says what the simulator made of it.
    case searchReceived(
        from: SocketAddress,
        headers: SSDPHeaders,
        outcome: SearchOutcome,
        answeredBy: [Int] = [],
        unanswered: SimulatorResponder.Unanswered = .init()
    )
    /// A datagram dropped before any device heard it, and why (`source`: `--allow-any-source` lets such a
    /// search in); `target` is its ST when it was a readable M-SEARCH.
    case datagramDropped(from: SocketAddress, reason: DroppedDatagramReason, target: String? = nil)
    /// One answer left for `to`.
    case answerSent(to: SocketAddress, usn: String, target: String, lostByNetwork: Bool = false)
    /// A set of NOTIFY messages left for the multicast group, and the numbers (from 1) of the devices they
    /// were from, in order.
    case notificationsSent(subtype: SSDPNotificationSubtype, count: Int, devices: [Int] = [])
    /// An HTTP request to a device (a description, an API call), with the status it got (0 when it is
    /// never answered), and the server's origin as the client reached it (`http://127.0.0.2:5000`), so
    /// that origin + path is the URL the client asked for.
    case httpRequest(method: String, path: String, status: Int, origin: String)
    /// A client made a device do something over its HTTP API: a Roku key press or launch, a DIAL launch,
    /// stop or hide.
    case deviceAction(DeviceAction)
    /// A client called a SOAP action on a device's control URL, and what the device answered.
    case actionCalled(ActionRecord)
    /// A client subscribed to a device's events, renewed, unsubscribed, or was refused.
    case subscription(SubscriptionRecord)
    /// A device sent an event message (GENA NOTIFY) to a subscriber, and how the subscriber answered.
    case eventSent(EventDelivery)
    /// An operation changed a device (the control API, a scenario's event, a test), or a rebooting device
    /// came back (`operation` is then `alive`): the device as it is after.
    case deviceChanged(DeviceStatus, operation: DeviceOperation)
    /// A device joined the running simulator (`POST /devices`): the device as it is.
    case deviceAdded(DeviceStatus)
    /// The network faults on what the simulator sends and hears changed (`PUT /network`, a reset).
    case networkChanged(NetworkFaults)
    /// The simulator stopped; the final counters.
    case stopped(SimulatorCounters)
    /// One datagram received (from a local source) or sent, whole; only when the configuration asks
    /// for `reportsDatagrams`, for traces.
    case datagram(received: Bool, peer: SocketAddress, local: SocketAddress, bytes: [UInt8])

    /// What the simulator made of one M-SEARCH (`answeredBy`: the numbers, from 1, of the devices that
    /// answer it; `unanswered`: why the others do not).
    public enum SearchOutcome: Sendable, Hashable {
        /// Accepted; this many answers were scheduled.
        case answered(Int)
        /// Dropped by the acceptance rules.
        case rejected(SSDPSearchRequest.Rejection)
        /// Lost on the way in by the network faults (`PUT /network`): no device heard it.
        case lostByNetwork
    }
}

/// One link a simulator serves: an interface and a multicast scope, the UDP socket's address, and the
/// devices as they appear there (LOCATION on the interface's address).
public struct SimulatorLink: Sendable {
    /// The interface and multicast scope served, with the interface's address of that scope.
    public var link: SSDPLink
    /// The local address of the link's UDP socket, with the port it got (the real one when port 0 was asked for).
    public var udpAddress: SocketAddress
    /// The root devices as they appear on this link, each with its LOCATION here.
    public var devices: [SSDPRootDevice]
    /// Per device, the address it lives at on this link (its answers' source, its LOCATION's host): its
    /// own, or the link's when devices share it.
    public var deviceAddresses: [String]

    /// Whether several devices share one address (and so take consecutive HTTP ports).
    public var devicesShareAnAddress: Bool {
        devices.count > 1 && Set(deviceAddresses).count < deviceAddresses.count
    }
}
