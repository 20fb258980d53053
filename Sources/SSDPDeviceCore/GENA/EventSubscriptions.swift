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

/// A GENA request to an event URL (UDA 1.1 §4.1), read from its method and headers.
public enum GENARequest: Hashable, Sendable {
    /// SUBSCRIBE with CALLBACK and `NT: upnp:event`: the callback URLs, and the seconds asked for.
    case subscribe(callbacks: [GENACallback], timeout: Int?)
    /// SUBSCRIBE with SID: a renewal.
    case renew(sid: String, timeout: Int?)
    /// UNSUBSCRIBE with SID.
    case unsubscribe(sid: String)

    /// The request, or the HTTP status that refuses it (after-discovery.md §2.1, as miniupnpd and MiniDLNA
    /// answer): 400 for SID together with CALLBACK or NT, 412 for a subscription without a CALLBACK, with a
    /// CALLBACK URL that `GENACallback` refuses or with another NT, or a request with neither; 405 for
    /// another method. `headers` are keyed by lower-case name.
    /// With `rules` `.miniupnpd`, as upnphttp.c reads a SUBSCRIBE: NT is not looked at, and a CALLBACK
    /// makes a new subscription even beside a SID. With `.miniDLNA`, as its upnphttp.c does: a CALLBACK
    /// without NT is 400, a subscription without TIMEOUT gets 300 s, and a renewal 300 s whatever it asks.
    /// With `.libupnp`, as gena_device.c does: a CALLBACK without NT is 400, and a request without TIMEOUT
    /// gets 1801 s.
    public static func read(
        method: String,
        headers: [String: String],
        rules: GENARules = .uda
    ) -> Result<GENARequest, GENARefusal> {
        var sid = headers["sid"]?.trimmingASCIIWhitespace
        let callback = headers["callback"]
        var nt = headers["nt"]?.trimmingASCIIWhitespace
        var timeout = headers["timeout"].flatMap(Self.seconds)
        if rules == .miniupnpd, method == "SUBSCRIBE" {
            nt = callback == nil ? nil : "upnp:event"
            if callback != nil { sid = nil }
        }
        if rules == .miniDLNA || rules == .libupnp, method == "SUBSCRIBE", callback != nil, nt == nil {
            return .failure(.incompatibleHeaders)
        }
        // libupnp (gena_device.c) grants its default to a request without TIMEOUT, a renewal too.
        if rules == .libupnp, timeout == nil { timeout = Self.libupnpTimeout }
        switch method {
        case "SUBSCRIBE":
            if let sid {
                guard callback == nil, nt == nil else { return .failure(.incompatibleHeaders) }
                return .success(.renew(sid: sid, timeout: rules == .miniDLNA ? Self.miniDLNATimeout : timeout))
            }
            guard let callback, nt == "upnp:event" else { return .failure(.preconditionFailed) }
            let urls = Self.callbackURLs(callback)
            guard !urls.isEmpty else { return .failure(.preconditionFailed) }
            var callbacks: [GENACallback] = []
            for url in urls {
                switch GENACallback.read(url) {
                case .success(let read): callbacks.append(read)
                case .failure(let refusal): return .failure(refusal)
                }
            }
            return .success(
                .subscribe(
                    callbacks: callbacks,
                    timeout: rules == .miniDLNA ? timeout ?? Self.miniDLNATimeout : timeout
                )
            )
        case "UNSUBSCRIBE":
            guard let sid else { return .failure(.preconditionFailed) }
            guard callback == nil, nt == nil else { return .failure(.incompatibleHeaders) }
            return .success(.unsubscribe(sid: sid))
        default:
            return .failure(.methodNotAllowed)
        }
    }

    /// The seconds libupnp 1.8 grants a subscription or renewal that asks for none (DEFAULT_TIMEOUT).
    static let libupnpTimeout = 1_801

    /// The seconds MiniDLNA answers a renewal, and a subscription that asks for none (upnphttp.c).
    static let miniDLNATimeout = 300

    /// The URLs of a CALLBACK header, `<http://a/cb><http://b/cb>`, at most four (the header's size is
    /// bounded by the HTTP server's).
    static func callbackURLs(_ header: String) -> [String] {
        header.split(separator: "<").compactMap { part in
            guard let end = part.firstIndex(of: ">") else { return nil }
            return String(part[..<end])
        }.prefix(4).map { $0 }
    }

    /// The seconds of `Second-1800`, leading digits only (async-upnp-client once sent `Second-1800.0`);
    /// `nil` for `Second-infinite` or no number, which UDA 1.1 treats as no TIMEOUT at all.
    static func seconds(_ header: String) -> Int? {
        let text = header.trimmingASCIIWhitespace
        guard text.lowercased().hasPrefix("second-") else { return nil }
        return Int(String(text.dropFirst(7).prefix { $0.isASCII && $0.isNumber }.prefix(9)))
    }
}

/// How strictly an event URL reads a GENA request: as UDA 1.1 §4.1 says (`uda`), or as miniupnpd, MiniDLNA
/// or libupnp does (`GENARequest.read(method:headers:rules:)` says how each differs).
public enum GENARules: Hashable, Sendable {
    /// UDA 1.1 §4.1.
    case uda
    /// miniupnpd's upnphttp.c: NT not looked at, a CALLBACK beside a SID makes a new subscription.
    case miniupnpd
    /// MiniDLNA's upnphttp.c: a CALLBACK without NT is 400; 300 s when no TIMEOUT, and for every renewal.
    case miniDLNA
    /// libupnp 1.8's gena_device.c: a CALLBACK without NT is 400; 1801 s when no TIMEOUT.
    case libupnp
}

/// Why an event URL refuses a request, with the HTTP status it answers.
public enum GENARefusal: Error, Hashable, Sendable {
    /// HTTP 400 Bad Request: SID together with CALLBACK or NT.
    case incompatibleHeaders
    /// HTTP 412 Precondition Failed: no CALLBACK, an NT other than `upnp:event`, no SID to unsubscribe, or
    /// a SID that is unknown or expired.
    case preconditionFailed
    /// HTTP 412 Precondition Failed: a CALLBACK URL the device will not send events to, and why
    /// (`GENACallback`, `GENACallbackPolicy`).
    case callbackRefused(String)
    /// HTTP 405 Method Not Allowed: a method other than SUBSCRIBE and UNSUBSCRIBE.
    case methodNotAllowed
    /// HTTP 503: the device holds as many subscriptions as it takes, none of them from a subscriber holding
    /// more than this one.
    case tooManySubscriptions
    /// HTTP 503: the subscriber holds as many of the device's subscriptions as one subscriber may.
    case subscriberLimit

    /// The HTTP status the refusal is answered with: 400, 412, 405 or 503.
    public var status: Int {
        switch self {
        case .incompatibleHeaders: 400
        case .preconditionFailed, .callbackRefused: 412
        case .methodNotAllowed: 405
        case .tooManySubscriptions, .subscriberLimit: 503
        }
    }

    /// Why, in a few words, for the event stream and a user reading it.
    public var reason: String {
        switch self {
        case .incompatibleHeaders: "SID together with CALLBACK or NT"
        case .preconditionFailed: "no CALLBACK, an NT other than upnp:event, or an unknown or expired SID"
        case .callbackRefused(let reason): reason
        case .methodNotAllowed: "not SUBSCRIBE or UNSUBSCRIBE"
        case .tooManySubscriptions: "the device holds \(EventSubscriptions.maximumCount) subscriptions"
        case .subscriberLimit:
            "the subscriber holds \(EventSubscriptions.maximumPerSubscriber) of the device's subscriptions"
        }
    }
}

/// A device's GENA subscriptions (UDA 1.1 §4.1): who is subscribed to which service, until when, and the
/// SEQ of each one's next event. Pure: time and the SID's randomness are arguments.
///
/// A SUBSCRIBE gets the timeout it asked for (1 s to a day; 1800 s, UDA 1.1's minimum recommendation, when
/// it asks for none or `infinite`), so a client's renewals can be tested in seconds. An expired or unknown
/// SID gets 412; a reboot forgets every subscription, so the next renewal gets 412 too, as on real devices.
///
/// The table is bounded and shared fairly. Its CALLBACKs follow the callback policy (by default, only back
/// to the subscriber). One subscriber (an address) holds at most `maximumPerSubscriber` of the device's
/// `maximumCount` subscriptions. When the table is full, a new subscription takes the slot of the
/// subscriber holding the most, if that one holds more than the newcomer: its subscription that lapses
/// first is dropped (its renewal then gets 412, and a well-behaved client subscribes again). So a client
/// that subscribed a thousand times for a day holds at most its share, and every other subscriber still
/// gets in.
public struct EventSubscriptions: Sendable {
    /// One control point's subscription to one service's events.
    public struct Subscription: Hashable, Sendable {
        /// The subscription identifier the device gave it, `uuid:…` (SID).
        public var sid: String
        /// The index of the service subscribed to, its place in `DeviceControl.services`.
        public var service: Int
        /// The address the SUBSCRIBE came from.
        public var subscriber: String
        /// The CALLBACK URLs in order, at most four; events go to the first.
        public var callbacks: [String]
        /// The seconds granted, within `timeoutRange` (the answer's TIMEOUT).
        public var timeout: Int
        /// When the subscription lapses unless it is renewed.
        public var expires: SSDPInstant
        /// The SEQ of the next event: 0 for the initial one, then +1, wrapping from 4294967295 to 1.
        public var nextSequence: UInt32 = 0
    }

    /// The most subscriptions one device holds; more get 503, never unbounded memory.
    public static let maximumCount = 64
    /// The most subscriptions of the device one subscriber holds: half the table, more than a control point
    /// subscribing to every service of a Sonos twice needs.
    public static let maximumPerSubscriber = 32
    /// The seconds granted to a subscription or renewal that asks for none or for `Second-infinite`.
    public static let defaultTimeout = 1_800
    /// The seconds a subscription may be granted; a request outside the range is clamped into it.
    public static let timeoutRange = 1...86_400

    /// The live subscriptions by SID; expired ones are removed at the next request or event.
    public private(set) var subscriptions: [String: Subscription] = [:]
    /// Where events may go.
    public var callbackPolicy: GENACallbackPolicy
    /// The stack whose headers and property sets the events are written in.
    public var stack = ControlStack.uda
    private var random: SSDPRandom

    /// No subscriptions yet; `random` draws the SIDs.
    public init(random: SSDPRandom, callbackPolicy: GENACallbackPolicy = .subscriber) {
        self.random = random
        self.callbackPolicy = callbackPolicy
    }

    /// What a request to service `service`'s event URL does.
    public enum Outcome: Hashable, Sendable {
        /// A new subscription: answer with SID and TIMEOUT, then send the initial event.
        case subscribed(Subscription)
        /// A renewal: answer with SID and the new TIMEOUT.
        case renewed(Subscription)
        /// The subscription `sid` was cancelled.
        case unsubscribed(sid: String)
        /// The request is refused: answer with the refusal's HTTP status.
        case refused(GENARefusal)
    }

    /// Applies `request`, from the address `subscriber`, to the event URL of service `service` at `now`,
    /// dropping expired subscriptions first. `device` is the device's own HTTP server as the request reached
    /// it, where no CALLBACK may point.
    public mutating func handle(
        _ request: GENARequest,
        service: Int,
        from subscriber: String,
        device: GENACallback? = nil,
        at now: SSDPInstant
    ) -> Outcome {
        removeExpired(at: now)
        switch request {
        case .subscribe(let callbacks, let timeout):
            for callback in callbacks {
                if let refusal = callbackPolicy.refusal(of: callback, subscriber: subscriber, device: device) {
                    return .refused(refusal)
                }
            }
            if let refusal = makeRoom(for: subscriber) { return .refused(refusal) }
            let seconds = Self.granted(timeout)
            let subscription = Subscription(
                sid: "uuid:" + random.uuid(),
                service: service,
                subscriber: subscriber,
                callbacks: callbacks.map(\.url),
                timeout: seconds,
                expires: now + .seconds(seconds)
            )
            subscriptions[subscription.sid] = subscription
            return .subscribed(subscription)
        case .renew(let sid, let timeout):
            guard var subscription = subscriptions[sid], subscription.service == service else {
                return .refused(.preconditionFailed)
            }
            subscription.timeout = Self.granted(timeout)
            subscription.expires = now + .seconds(subscription.timeout)
            subscriptions[sid] = subscription
            return .renewed(subscription)
        case .unsubscribe(let sid):
            guard subscriptions[sid]?.service == service else { return .refused(.preconditionFailed) }
            subscriptions[sid] = nil
            return .unsubscribed(sid: sid)
        }
    }

    /// One event for each live subscriber of `service` (or only `sid`, for the initial event), each with its
    /// next SEQ, which this counts up.
    public mutating func events(
        service: Int,
        properties: [SOAPArgument],
        only sid: String? = nil,
        at now: SSDPInstant
    ) -> [GENAEvent] {
        removeExpired(at: now)
        guard !properties.isEmpty else { return [] }
        let body = GENAEvent.propertySet(properties, stack: stack)
        var events: [GENAEvent] = []
        for key in subscriptions.keys.sorted()
        where subscriptions[key]!.service == service && (sid == nil || sid == key) {
            let subscription = subscriptions[key]!
            events.append(
                GENAEvent(
                    sid: key,
                    callback: subscription.callbacks[0],
                    sequence: subscription.nextSequence,
                    body: body,
                    stack: stack
                )
            )
            subscriptions[key]!.nextSequence =
                subscription.nextSequence == UInt32.max ? 1 : subscription.nextSequence + 1
        }
        return events
    }

    /// Room for one more subscription of `subscriber`, or why there is none: the subscriber is at its limit,
    /// or the table is full and nobody holds more than it does. When the table is full, the subscription
    /// that lapses first of whoever holds the most is dropped.
    private mutating func makeRoom(for subscriber: String) -> GENARefusal? {
        var held: [String: Int] = [:]
        for subscription in subscriptions.values { held[subscription.subscriber, default: 0] += 1 }
        let own = held[subscriber] ?? 0
        guard own < Self.maximumPerSubscriber else { return .subscriberLimit }
        guard subscriptions.count >= Self.maximumCount else { return nil }
        // The holder of the most, the first by address among equals, so that the choice is the seed's alone.
        guard let (largest, count) = held.max(by: { ($0.value, $1.key) < ($1.value, $0.key) }), count > own + 1
        else { return .tooManySubscriptions }
        let lapsesFirst = subscriptions.values.filter { $0.subscriber == largest }.min {
            ($0.expires, $0.sid) < ($1.expires, $1.sid)
        }
        if let lapsesFirst { subscriptions[lapsesFirst.sid] = nil }
        return nil
    }

    /// The device rebooted: every subscription is gone.
    public mutating func forgetAll() {
        subscriptions.removeAll()
    }

    private mutating func removeExpired(at now: SSDPInstant) {
        subscriptions = subscriptions.filter { $0.value.expires > now }
    }

    private static func granted(_ requested: Int?) -> Int {
        guard let requested else { return defaultTimeout }
        return min(max(requested, timeoutRange.lowerBound), timeoutRange.upperBound)
    }
}

/// One event message to deliver: NOTIFY to the subscriber's callback (UDA 1.1 §4.3.2).
public struct GENAEvent: Hashable, Sendable {
    /// The subscription's SID.
    public var sid: String
    /// The URL the NOTIFY goes to: the subscription's first CALLBACK URL.
    public var callback: String
    /// The event key (SEQ): 0 for the initial event, then counting up.
    public var sequence: UInt32
    /// The `e:propertyset` document.
    public var body: String
    /// The stack whose headers the NOTIFY carries.
    public var stack = ControlStack.uda

    /// An event with `body`, sent as `stack` sends it.
    public init(sid: String, callback: String, sequence: UInt32, body: String, stack: ControlStack = .uda) {
        self.sid = sid
        self.callback = callback
        self.sequence = sequence
        self.body = body
        self.stack = stack
    }

    /// The NOTIFY's headers for a callback at `host` (`192.168.1.5:49152`), as miniupnpd writes them
    /// (upnpevents.c's upnp_event_prepare), or libupnp (gena_device.c's notify_send_and_recv: upper case,
    /// no Connection or Cache-Control).
    public func headers(host: String) -> [SSDPHeaderField] {
        let fields = [
            SSDPHeaderField(name: "Host", value: host),
            SSDPHeaderField(name: "Content-Type", value: #"text/xml; charset="utf-8""#),
            SSDPHeaderField(name: "Content-Length", value: "\(body.utf8.count)"),
            SSDPHeaderField(name: "NT", value: "upnp:event"),
            SSDPHeaderField(name: "NTS", value: "upnp:propchange"),
            SSDPHeaderField(name: "SID", value: sid),
            SSDPHeaderField(name: "SEQ", value: "\(sequence)"),
        ]
        if stack == .gmrender {
            return fields.map { SSDPHeaderField(name: $0.name.uppercased(), value: $0.value) }
        }
        return fields + [
            SSDPHeaderField(name: "Connection", value: "close"),
            SSDPHeaderField(name: "Cache-Control", value: "no-cache"),
        ]
    }

    /// `<e:propertyset>` with one `<e:property>` per variable, values escaped; no XML declaration, as
    /// miniupnpd writes it on one line, or libupnp (GeneratePropertySet) an element per line.
    static func propertySet(_ properties: [SOAPArgument], stack: ControlStack = .uda) -> String {
        let newline = stack == .gmrender ? "\n" : ""
        var xml = #"<e:propertyset xmlns:e="urn:schemas-upnp-org:event-1-0">"# + newline
        for property in properties {
            xml +=
                "<e:property>\(newline)<\(property.name)>\(SSDPRootDevice.escaped(property.value))</\(property.name)>"
            xml += "\(newline)</e:property>\(newline)"
        }
        return xml + "</e:propertyset>" + (stack == .gmrender ? "\n\n\r\n" : "\r\n")
    }
}
