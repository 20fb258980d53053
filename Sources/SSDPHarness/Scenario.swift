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

import FoundationEssentials
import SSDPCore
import SSDPDeviceCore
import SSDPDevices
import SSDPSimulator
import SSDPVirtualNetwork

/// One scenario file: which devices, which network, what the search does, and what must happen.
///
/// The format is documented in `Scenarios/README.md` and `Scenarios/scenario.schema.json`. Decoding is
/// strict (an unknown field is an error) and `ScenarioFile.load` checks every value, so a bad file fails with
/// its name, the JSON path and the reason before anything runs.
package struct Scenario: Sendable {
    /// The file it came from, as the user named it.
    package var file: String
    /// The scenario's name (`name`), unique in a run; it names report entries and trace files.
    package var name: String
    /// One line saying what the scenario proves (`description`), shown in reports.
    package var description: String
    /// The seed of every random choice; `--seed` overrides it.
    package var seed: UInt64
    /// Labels such as `live` (the scenario makes sense over real sockets).
    package var tags: [String]
    /// The search the session makes (`search`).
    package var search: SearchSpecification
    /// The devices, in order; device numbers in events count from 1 over the expanded list.
    package var devices: [SimulatedDevice]
    /// What happens to the devices during the search (`events`: byebye, reboot, vanish, alive, update,
    /// change, network), in
    /// time order; live runs do them through the simulator's device operations.
    package var events: [TimedEvent]
    /// Faults on the virtual network (`network`); none in a live scenario.
    package var network: NetworkFaults
    /// What must happen besides the invariants every run checks (`expect`).
    package var expect: Expectations
    /// Where an imported scenario came from (`provenance`); `nil` for one written by hand.
    package var provenance: ScenarioProvenance? = nil

    /// A scenario made in Swift rather than read from a file (`ScenarioFile.load` reads and checks one):
    /// `devices` searched by `search` with `seed`, `events` done to them on a network with `network`'s
    /// faults, held to `expect`. `file` names it in reports; none by default.
    package init(
        name: String,
        description: String = "",
        seed: UInt64 = 1,
        tags: [String] = [],
        search: SearchSpecification,
        devices: [SimulatedDevice],
        events: [TimedEvent] = [],
        network: NetworkFaults = NetworkFaults(),
        expect: Expectations,
        provenance: ScenarioProvenance? = nil,
        file: String = ""
    ) {
        self.file = file
        self.name = name
        self.description = description
        self.seed = seed
        self.tags = tags
        self.search = search
        self.devices = devices
        self.events = events
        self.network = network
        self.expect = expect
        self.provenance = provenance
    }

    /// Whether `--live` runs it.
    package var isLive: Bool { tags.contains("live") }
}

/// The search the session makes.
package struct SearchSpecification: Sendable, Hashable {
    /// Where the M-SEARCH messages go (`search.mode`).
    package enum Mode: String, Sendable, Hashable, CaseIterable {
        /// To 239.255.255.250:1900: every device hears it.
        case multicast
        /// To one device's own address (`device`): only it hears, and it answers within 1 s.
        case unicast
    }

    /// The ST searched for (`search.target`): `ssdp:all`, `upnp:rootdevice`, a UUID, a URN, or a vendor target such as
    /// `roku:ecp`.
    package var target: String
    /// MX in seconds, 1...5 (`search.mx`).
    package var mx: Int
    /// How many M-SEARCH messages the session sends, 0...100 (`search.requests`); 0 stops at once.
    package var requests: Int
    /// Multicast to the group, or unicast to one device (`search.mode`).
    package var mode: Mode
    /// The device a unicast search is sent to, counting from 1.
    package var device: Int
    /// The virtual network's addresses (`search.ipv6`): IPv4, or IPv6's FF02::C (and the devices' fe80::
    /// addresses), answered with `http://[fe80::…]:port/` LOCATIONs. Virtual runs only.
    package var addressPlan = VirtualAddressPlan.ipv4

    /// A search for `target`; the defaults are those a scenario file gets when it leaves the fields out.
    package init(target: String, mx: Int = 3, requests: Int = 3, mode: Mode = .multicast, device: Int = 1) {
        self.target = target
        self.mx = mx
        self.requests = requests
        self.mode = mode
        self.device = device
    }

    /// The production configuration for this search, sent to `host:port`.
    package func configuration(host: String, port: Int) throws(SSDPConfigurationError) -> SSDPSearchSessionConfiguration
    {
        try SSDPSearchSessionConfiguration(
            searchTarget: target,
            host: host,
            port: port,
            maximumWaitResponseTime: mx,
            maximumSearchRequestsBeforeClosing: requests
        )
    }

    /// When the original design stops: requests × MX + 0.1 s, or at once when no request is made.
    package var designedStop: Duration {
        guard requests > 0 else { return .zero }
        return SSDPSearchSessionConfiguration.searchTimeout(requests: requests, maximumWaitResponseTime: mx)
    }

    /// When the original design sends request `index` (from 0).
    package func designedOffset(_ index: Int) -> Duration {
        SSDPSearchSessionConfiguration.searchRequestOffset(index, requests: requests, maximumWaitResponseTime: mx)
    }
}

extension Scenario {
    /// One answer a replaying device sends.
    package struct ReplayedAnswer: Sendable, Hashable {
        /// The device, counting from 1.
        package var device: Int
        /// The answer's place in the device's replay, counting from 0.
        package var answer: Int
        /// When it reaches the session: its search's designed offset plus its captured delay.
        package var at: Duration
    }

    /// The answers the replaying devices deliver less than `margin` before the search's designed stop, in
    /// the order they arrive. (NOTIFY messages go to the group, which the session does not listen to.)
    package func replayedAnswers(within margin: Duration) -> [ReplayedAnswer] {
        let stop = search.designedStop
        var late: [ReplayedAnswer] = []
        for (index, device) in devices.enumerated() {
            for (number, answer) in (device.behaviour.replay?.answers ?? []).enumerated() {
                let at = search.designedOffset(answer.search) + answer.delay
                if at < stop && stop - at < margin {
                    late.append(ReplayedAnswer(device: index + 1, answer: number, at: at))
                }
            }
        }
        return late.sorted { $0.at < $1.at }
    }
}

/// Something that happens to a device at a time during the scenario.
package struct TimedEvent: Sendable, Hashable {
    /// What happens to the device (`events[].action`).
    package enum Action: String, Sendable, Hashable, CaseIterable {
        /// The device says byebye for everything it advertised and stops answering.
        case byebye
        /// The device says byebye, is gone for `downFor`, then comes back with the next BOOTID and a new
        /// alive set, and answers again.
        case reboot
        /// The device is gone without a word (its power is cut).
        case vanish
        /// A gone device comes back with the next BOOTID and a new alive set.
        case alive
        /// The device sends `ssdp:update` and moves to the next BOOTID.
        case update
        /// The device's fields change (`set`, as `PATCH /devices/{id}` takes them).
        case change
        /// The network's faults change (`network`, as `PUT /network` takes them); no device.
        case network
    }

    /// The operation the event does to its device (`DeviceOperation`, as the control API and SSDPTesting
    /// do it); `nil` for a network event.
    package var operation: DeviceOperation? {
        switch action {
        case .byebye: .byebye
        case .reboot: .reboot(downFor: downFor)
        case .vanish: .vanish
        case .alive: .alive
        case .update: .update
        case .change: .change(change)
        case .network: nil
        }
    }

    /// Seconds from the start of the search.
    package var at: Duration
    /// Whether the device leaves for good or reboots.
    package var action: Action
    /// The device, counting from 1 (0 for a network event).
    package var device: Int
    /// How long a rebooting device is gone.
    package var downFor: Duration
    /// What a `change` changes.
    package var change = DeviceChange()
    /// The faults a `network` event sets, replacing the ones before.
    package var network = NetworkFaults()
}

/// What must happen. Fields left out are not checked, except the invariants every run checks: each
/// service reported once, exactly one stop at the designed time and nothing after it, the designed
/// number of M-SEARCH messages at the designed times, only answers for the searched target reported,
/// and no error unless one is expected.
package struct Expectations: Sendable, Hashable {
    /// The services the search must report (`expect.found`); required in a scenario file.
    package var found: FoundExpectation?
    /// What an external client must do over HTTP after discovery.
    package var http: HTTPExpectation?
    /// Why the search stops; by default `timedOut`, or `noSearchRequests` for zero requests.
    package var stopReason: RunRecord.StopReason?
    /// How far the stop may be from the design; by default exact in virtual time and generous live.
    package var stopTolerance: Duration?
    /// M-SEARCH messages the client sends; by default `search.requests`.
    package var searchesSent: Int?
    /// The session's drop counters by reason (`duplicates`, `wrongSearchTarget`, …).
    package var dropped: [SearchSessionStatistics.Drop: CountExpectation] = [:]
    /// A piece of the error the session must report; `nil` expects no error.
    package var error: String?

    /// No expectations besides the invariants.
    package init() {}
}

/// What a client must do with the devices it found: how often it fetches each LOCATION, and which SOAP
/// actions it calls with which arguments. Observable only for an external client.
package struct HTTPExpectation: Sendable, Hashable {
    /// One action the client must call (`count` times), with at least these arguments.
    package struct Action: Sendable, Hashable {
        /// The action's name (`AddPortMapping`).
        package var action: String
        /// In-arguments the call must carry with these values; it may carry others too.
        package var arguments: [String: String]
        /// How many such calls; at least one when the file does not say.
        package var count: CountExpectation
    }

    /// How many GETs of each device's LOCATION.
    package var locationFetches: CountExpectation?
    /// The actions the client must call (`expect.http.actions`).
    package var actions: [Action] = []
}

/// What the search must report (`expect.found`): an exact set of services, a count, or both.
package struct FoundExpectation: Sendable, Hashable {
    /// A service by USN and ST, as a client reports it.
    package struct Service: Sendable, Hashable, Comparable, CustomStringConvertible {
        /// The unique service name (USN), `uuid:…::upnp:rootdevice`.
        package var usn: String
        /// The search target (ST) the service is reported with.
        package var st: String

        /// The service with this USN and ST.
        package init(usn: String, st: String) {
            self.usn = usn
            self.st = st
        }

        /// Orders by USN, then ST, so that listings in check results are stable.
        package static func < (lhs: Service, rhs: Service) -> Bool { (lhs.usn, lhs.st) < (rhs.usn, rhs.st) }
        /// `USN (ST)`, for check results.
        package var description: String { "\(usn) (\(st))" }
    }

    /// Exactly the services to report, none missing and none extra (`found.services`); `[]` for nothing.
    package var services: [Service]?
    /// Services that must be among those reported, which may include others (`found.including`): what a
    /// search of a real network can promise, where devices the test does not know may answer too.
    package var including: [Service]?
    /// How many services are reported, counting every report (`found.count`).
    package var count: CountExpectation?

    /// An expectation of `services`, `including`, `count` or some of them; a `nil` part is not checked.
    package init(services: [Service]? = nil, including: [Service]? = nil, count: CountExpectation? = nil) {
        self.services = services
        self.including = including
        self.count = count
    }
}

/// A count: exact, or a range.
package struct CountExpectation: Sendable, Hashable, CustomStringConvertible {
    /// The counts accepted; an upper bound of `Int.max` means no limit.
    package var range: ClosedRange<Int>

    /// An expectation that accepts any count in `range` (`3...3` for exactly 3).
    package init(_ range: ClosedRange<Int>) {
        self.range = range
    }

    /// Whether `value` is in the range.
    package func accepts(_ value: Int) -> Bool { range.contains(value) }

    /// `3`, `at least 1` or `1...5`, for check results.
    package var description: String {
        if range.lowerBound == range.upperBound { return "\(range.lowerBound)" }
        if range.upperBound == Int.max { return "at least \(range.lowerBound)" }
        return "\(range.lowerBound)...\(range.upperBound)"
    }
}
