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

/// Something that can happen to a running device, whoever asks for it: a scenario's timed event, a Swift
/// test through SSDPTesting, another language through the control API.
public enum DeviceOperation: Hashable, Sendable {
    /// Says byebye for everything it advertised, then is gone: no answers, no NOTIFY, no HTTP.
    case byebye
    /// Gone without a word, as when the power is cut: its advertisements stay in control points' caches
    /// until they expire.
    case vanish
    /// A gone device comes back: a fresh alive set, with the next BOOTID (UDA 1.1 §1.2.2: BOOTID grows at
    /// each initial announcement).
    case alive
    /// Says byebye, is gone for `downFor`, then comes back with the next BOOTID and a fresh alive set; its
    /// event subscriptions are forgotten, so renewals get 412, as on real devices. With `newPort`, its HTTP
    /// side comes back on another port, and its LOCATION with it (the simulator's part: the lifecycle is
    /// the same).
    case reboot(downFor: Duration, newPort: Bool = false)
    /// Sends `ssdp:update` with NEXTBOOTID and moves to that BOOTID (UDA 1.1 §1.2.4); it stays up and keeps
    /// its subscriptions.
    case update
    /// Its configuration changes (`DeviceChange`); a change to what its description says bumps CONFIGID
    /// and, while it is up, is announced with `ssdp:update` and the next BOOTID.
    case change(DeviceChange)
    /// Leaves the LAN for good (`DELETE /devices/{id}`): a byebye first when `byebye` is true and it is up,
    /// then gone; no operation reaches it after, until a reset.
    case remove(byebye: Bool)

    /// The operation's name in the control API and scenario files: `byebye`, `vanish`, `alive`, `reboot`,
    /// `update`, `change`, `remove`.
    public var name: String {
        switch self {
        case .byebye: "byebye"
        case .vanish: "vanish"
        case .alive: "alive"
        case .reboot: "reboot"
        case .update: "update"
        case .change: "change"
        case .remove: "remove"
        }
    }
}

/// Whether one device is up, and what each operation does to it (a state machine in the shape of the
/// others here: it reads no clock, and says what to do as actions).
///
/// States:
/// - `alive`: answering, advertising and serving HTTP.
/// - `gone`: silent (after a byebye or a vanish) until `alive`.
/// - `rebooting`: gone until `until`, when `timerFired` brings it back.
/// - `removed`: gone for good; every operation is refused.
///
/// Every time the device goes down its `generation` counts up, so that answers scheduled before (a
/// search's answer waiting for its delay) can be told from the new life's and dropped. BOOTID is the
/// device's own and moves on with every return and every update.
public struct DeviceLifecycle: Hashable, Sendable {
    /// Whether the device is up.
    public enum State: Hashable, Sendable {
        /// Up: it answers, advertises and serves.
        case alive
        /// Down until an `alive` brings it back.
        case gone
        /// Down until `until`, then back by itself.
        case rebooting(until: SSDPInstant)
        /// Taken off the LAN for good.
        case removed

        /// `alive`, `gone`, `rebooting` or `removed`.
        public var name: String {
            switch self {
            case .alive: "alive"
            case .gone: "gone"
            case .rebooting: "rebooting"
            case .removed: "removed"
            }
        }
    }

    /// What the caller does, in this order, for an operation or a timer.
    public enum Action: Hashable, Sendable {
        /// Send a byebye for every advertisement (while the alive set is still valid).
        case sayByebye
        /// Stop answering and advertising; answers of this generation or older waiting for their delay are
        /// never sent.
        case fallSilent
        /// Stop serving HTTP.
        case closeHTTP
        /// Forget every event subscription (renewals get 412).
        case forgetSubscriptions
        /// Send `ssdp:update` with NEXTBOOTID `nextBootID`, then advertise with it.
        case sayUpdate(nextBootID: Int)
        /// Serve HTTP again, before anything is announced: a control point fetches LOCATION at once.
        case openHTTP
        /// Come up with BOOTID `bootID`: answer again and start advertising with a fresh alive set.
        case boot(bootID: Int)
    }

    /// Why an operation cannot be done in the device's state.
    public struct Refusal: Error, Hashable, Sendable, CustomStringConvertible {
        /// What was asked for.
        public var operation: String
        /// The state the device is in.
        public var state: String

        /// Why, in words: `it is up already (alive brings back a device that is gone)`.
        public var description: String {
            if state == "removed" { return "it was removed (a reset brings it back)" }
            return operation == "alive"
                ? "it is up already (alive brings back a device that is gone)"
                : "it is \(state) (\(operation) needs a device that is up; alive brings it back)"
        }
    }

    /// Up, gone or rebooting.
    public private(set) var state: State = .alive
    /// The BOOTID.UPNP.ORG the device announces now.
    public private(set) var bootID: Int
    /// How many times the device has gone down.
    public private(set) var generation = 0

    /// A device that is up with `bootID`.
    public init(bootID: Int) {
        self.bootID = bootID
    }

    /// When `timerFired` has something to do: a rebooting device's return.
    public var nextDeadline: SSDPInstant? {
        if case .rebooting(let until) = state { return until }
        return nil
    }

    /// Applies `operation` at `now`, or refuses it: `update` and `reboot` need a device that is up, `alive`
    /// one that is down, and a removed device takes nothing. A byebye or vanish of a device that is down
    /// keeps it down (a rebooting device then does not come back), and sends nothing. A change is the
    /// caller's to apply; the lifecycle only announces a new description of a device that is up.
    public mutating func apply(_ operation: DeviceOperation, at now: SSDPInstant) throws(Refusal) -> [Action] {
        let refusal = Refusal(operation: operation.name, state: state.name)
        switch (operation, state) {
        case (_, .removed):
            throw refusal
        case (.remove(let byebye), .alive):
            goDown(to: .removed)
            return (byebye ? [.sayByebye] : []) + [.fallSilent, .closeHTTP]
        case (.remove, _):
            state = .removed
            return []
        case (.change(let change), .alive) where change.changesDescription:
            return try apply(.update, at: now)
        case (.change, _):
            return []
        case (.byebye, .alive):
            goDown(to: .gone)
            return [.sayByebye, .fallSilent, .closeHTTP]
        case (.vanish, .alive):
            goDown(to: .gone)
            return [.fallSilent, .closeHTTP]
        case (.byebye, _), (.vanish, _):
            state = .gone
            return []
        case (.reboot(let downFor, _), .alive):
            goDown(to: .rebooting(until: now + downFor))
            return [.sayByebye, .fallSilent, .closeHTTP, .forgetSubscriptions]
        case (.update, .alive):
            bootID = Self.next(after: bootID)
            return [.sayUpdate(nextBootID: bootID)]
        case (.alive, .gone), (.alive, .rebooting):
            return comeBack()
        case (.alive, .alive), (.reboot, _), (.update, _):
            throw refusal
        }
    }

    /// Back to the start (`POST /reset`): a device that is down comes back with the next BOOTID; one that is
    /// up stays up.
    public mutating func reset() -> [Action] {
        state == .alive ? [] : comeBack()
    }

    /// A rebooting device whose time has come is back; before then, or in another state, nothing.
    public mutating func timerFired(at now: SSDPInstant) -> [Action] {
        guard case .rebooting(let until) = state, now >= until else { return [] }
        return comeBack()
    }

    private mutating func goDown(to state: State) {
        self.state = state
        generation += 1
    }

    private mutating func comeBack() -> [Action] {
        state = .alive
        bootID = Self.next(after: bootID)
        return [.openHTTP, .boot(bootID: bootID)]
    }

    /// The BOOTID after `bootID`: one more, within 0...2147483647 (UDA 1.1: a 31-bit value).
    static func next(after bootID: Int) -> Int {
        bootID >= 0x7FFF_FFFF ? 0 : bootID + 1
    }
}
