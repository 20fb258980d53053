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
    case subscribe(callbacks: [String], timeout: Int?)
    /// SUBSCRIBE with SID: a renewal.
    case renew(sid: String, timeout: Int?)
    /// UNSUBSCRIBE with SID.
    case unsubscribe(sid: String)

    /// The request, or the HTTP status that refuses it (after-discovery.md §2.1, as miniupnpd and MiniDLNA
    /// answer): 400 for SID together with CALLBACK or NT, 412 for a subscription without a usable
    /// `http://` CALLBACK or with another NT, or a request with neither; 405 for another method.
    /// `headers` are keyed by lower-case name.
    public static func read(method: String, headers: [String: String]) -> Result<GENARequest, GENARefusal> {
        let sid = headers["sid"]?.trimmingASCIIWhitespace
        let callback = headers["callback"]
        let nt = headers["nt"]?.trimmingASCIIWhitespace
        let timeout = headers["timeout"].flatMap(Self.seconds)
        switch method {
        case "SUBSCRIBE":
            if let sid {
                guard callback == nil, nt == nil else { return .failure(.incompatibleHeaders) }
                return .success(.renew(sid: sid, timeout: timeout))
            }
            guard let callback, nt == "upnp:event" else { return .failure(.preconditionFailed) }
            let urls = Self.callbackURLs(callback)
            guard !urls.isEmpty else { return .failure(.preconditionFailed) }
            return .success(.subscribe(callbacks: urls, timeout: timeout))
        case "UNSUBSCRIBE":
            guard let sid else { return .failure(.preconditionFailed) }
            guard callback == nil, nt == nil else { return .failure(.incompatibleHeaders) }
            return .success(.unsubscribe(sid: sid))
        default:
            return .failure(.methodNotAllowed)
        }
    }

    /// The `http://` URLs of a CALLBACK header, `<http://a/cb><http://b/cb>`, at most four.
    static func callbackURLs(_ header: String) -> [String] {
        header.split(separator: "<").compactMap { part in
            guard let end = part.firstIndex(of: ">") else { return nil }
            let url = String(part[..<end])
            return url.hasPrefix("http://") && url.count > 7 ? url : nil
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

/// Why an event URL refuses a request, with the HTTP status it answers.
public enum GENARefusal: Error, Hashable, Sendable {
    /// HTTP 400 Bad Request: SID together with CALLBACK or NT.
    case incompatibleHeaders
    /// HTTP 412 Precondition Failed: no usable `http://` CALLBACK, an NT other than `upnp:event`, no SID to
    /// unsubscribe, or a SID that is unknown or expired.
    case preconditionFailed
    /// HTTP 405 Method Not Allowed: a method other than SUBSCRIBE and UNSUBSCRIBE.
    case methodNotAllowed
    /// The device holds as many subscriptions as it takes.
    case tooManySubscriptions

    /// The HTTP status the refusal is answered with: 400, 412, 405 or 503.
    public var status: Int {
        switch self {
        case .incompatibleHeaders: 400
        case .preconditionFailed: 412
        case .methodNotAllowed: 405
        case .tooManySubscriptions: 503
        }
    }
}

/// A device's GENA subscriptions (UDA 1.1 §4.1): who is subscribed to which service, until when, and the
/// SEQ of each one's next event. Pure: time and the SID's randomness are arguments.
///
/// A SUBSCRIBE gets the timeout it asked for (1 s to a day; 1800 s, UDA 1.1's minimum recommendation, when
/// it asks for none or `infinite`), so a client's renewals can be tested in seconds. An expired or unknown
/// SID gets 412; a reboot forgets every subscription, so the next renewal gets 412 too, as on real devices.
public struct EventSubscriptions: Sendable {
    /// One control point's subscription to one service's events.
    public struct Subscription: Hashable, Sendable {
        /// The subscription identifier the device gave it, `uuid:…` (SID).
        public var sid: String
        /// The index of the service subscribed to, its place in `DeviceControl.services`.
        public var service: Int
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
    /// The seconds granted to a subscription or renewal that asks for none or for `Second-infinite`.
    public static let defaultTimeout = 1_800
    /// The seconds a subscription may be granted; a request outside the range is clamped into it.
    public static let timeoutRange = 1...86_400

    /// The live subscriptions by SID; expired ones are removed at the next request or event.
    public private(set) var subscriptions: [String: Subscription] = [:]
    private var random: SSDPRandom

    /// No subscriptions yet; `random` draws the SIDs.
    public init(random: SSDPRandom) {
        self.random = random
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

    /// Applies `request` to the event URL of service `service` at `now`, dropping expired subscriptions first.
    public mutating func handle(_ request: GENARequest, service: Int, at now: SSDPInstant) -> Outcome {
        removeExpired(at: now)
        switch request {
        case .subscribe(let callbacks, let timeout):
            guard subscriptions.count < Self.maximumCount else { return .refused(.tooManySubscriptions) }
            let seconds = Self.granted(timeout)
            let subscription = Subscription(
                sid: "uuid:" + random.uuid(),
                service: service,
                callbacks: callbacks,
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
        let body = GENAEvent.propertySet(properties)
        var events: [GENAEvent] = []
        for key in subscriptions.keys.sorted()
        where subscriptions[key]!.service == service && (sid == nil || sid == key) {
            let subscription = subscriptions[key]!
            events.append(
                GENAEvent(
                    sid: key,
                    callback: subscription.callbacks[0],
                    sequence: subscription.nextSequence,
                    body: body
                )
            )
            subscriptions[key]!.nextSequence =
                subscription.nextSequence == UInt32.max ? 1 : subscription.nextSequence + 1
        }
        return events
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

    /// The headers besides HOST and CONTENT-LENGTH, as miniupnpd sends them.
    public var headers: [SSDPHeaderField] {
        [
            SSDPHeaderField(name: "CONTENT-TYPE", value: #"text/xml; charset="utf-8""#),
            SSDPHeaderField(name: "NT", value: "upnp:event"),
            SSDPHeaderField(name: "NTS", value: "upnp:propchange"),
            SSDPHeaderField(name: "SID", value: sid),
            SSDPHeaderField(name: "SEQ", value: "\(sequence)"),
            SSDPHeaderField(name: "Connection", value: "close"),
            SSDPHeaderField(name: "Cache-Control", value: "no-cache"),
        ]
    }

    /// `<e:propertyset>` with one `<e:property>` per variable, values escaped.
    static func propertySet(_ properties: [SOAPArgument]) -> String {
        var xml = #"<?xml version="1.0"?>"# + "\r\n" + #"<e:propertyset xmlns:e="urn:schemas-upnp-org:event-1-0">"#
        for property in properties {
            xml +=
                "<e:property><\(property.name)>\(SSDPRootDevice.escaped(property.value))</\(property.name)></e:property>"
        }
        return xml + "</e:propertyset>\r\n"
    }
}
