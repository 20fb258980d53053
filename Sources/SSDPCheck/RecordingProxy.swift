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

import Foundation
import SSDPCore
import SSDPDeviceCore
import Synchronization

/// The recording proxy (`serve --record-from`): a stand-in for a real device, recorded as `record` records
/// it, forwards every HTTP request a client makes of it to the real device and keeps each exchange, so that
/// the recording then holds exactly the calls the client made and what the device answered.
///
/// What is kept of a client's session (`RecordedDevice.Exchange.proxied`): each action call, with its
/// arguments, whatever it does (a SetVolume as well as a GetVolume), and each other request (a Roku's
/// keypress, a read of `/query/active-app`), in the order they came, the same request as often as it was
/// made. Not kept, only forwarded: a GET or HEAD of a document the recording already holds (the
/// description, an SCPD, an icon), and eventing (SUBSCRIBE, UNSUBSCRIBE: the real device sends its events to
/// the client's callback itself). A session's call or request replaces what `record` kept of the same one.
///
/// Bounded as `record` is: each exchange within the timeout, each response within 1 MiB, at most
/// `HTTPRecording.maximumCalls` calls and `HTTPRecording.maximumTotalSize` bytes of responses in all; past
/// a bound, requests are still forwarded, and counted as not kept.
public final class RecordingProxy: Sendable {
    /// The device as `record` met it when the proxy started.
    public let device: RecordedDevice
    private let fetch: HTTPFetch
    private let session = Mutex(Session())

    private struct Session {
        var calls: [RecordedDevice.Exchange] = []
        var exchanges: [RecordedDevice.Exchange] = []
        /// The bytes of responses kept so far, `record`'s included.
        var size = 0
        /// Requests forwarded, answered or not.
        var forwarded = 0
        /// Requests answered but not kept, past a bound.
        var notKept = 0
        /// Requests the device gave no answer to.
        var failed = 0
    }

    /// What a client's session came to so far.
    public struct Summary: Sendable, Hashable {
        /// Requests forwarded to the device.
        public var forwarded: Int
        /// Action calls kept.
        public var calls: Int
        /// Other requests kept.
        public var requests: Int
        /// Requests answered but not kept, past a bound.
        public var notKept: Int
        /// Requests the device gave no answer to.
        public var failed: Int
    }

    /// A proxy for `device`, each forwarded exchange within `timeout`.
    public init(device: RecordedDevice, timeout: Duration = .seconds(5)) {
        self.device = device
        fetch = HTTPFetch(timeout: timeout, maximumBodySize: HTTPRecording.maximumResponseSize)
        let recorded = device.exchanges + device.calls + [device.notFound, device.unsupportedMethod].compactMap(\.self)
        session.withLock { $0.size = recorded.map(\.response.count).reduce(0, +) }
    }

    /// Sends `method target` with `headers` (names in any case; the hop's own, such as Host and Connection,
    /// are left out) and `body` to the device, keeps the exchange, and gives the answer as it arrived (a
    /// chunked one de-chunked), or why there was none.
    public func forward(
        method: String,
        target: String,
        headers: [String: String],
        body: [UInt8]
    ) async -> Result<[UInt8], DeviceRecordError> {
        session.withLock { $0.forwarded += 1 }
        let origin =
            "\(device.location.scheme ?? "http")://\(device.location.host.map(Self.bracketed) ?? "")"
            + (device.location.port.map { ":\($0)" } ?? "")
        guard let url = URL(string: origin + target) else {
            return .failure(DeviceRecordError("\(method) \(target): not a target the device can be asked"))
        }
        let hop: Set = ["host", "connection", "content-length", "transfer-encoding", "keep-alive", "te", "upgrade"]
        let sent = headers.filter { !hop.contains($0.key.lowercased()) }.sorted { $0.key < $1.key }
        let exchange = await fetch.exchange(method, url, headers: sent.map { ($0.key, $0.value) }, body: body)
        let recorded: RecordedDevice.Exchange
        do throws(DeviceRecordError) {
            if case .failure(let error) = exchange.response {
                throw DeviceRecordError("\(method) \(url.absoluteString): \(error.reason)")
            }
            recorded = try DeviceRecorder.recorded(exchange, method, url)
        } catch {
            session.withLock { $0.failed += 1 }
            return .failure(error)
        }
        keep(recorded, headers: headers, body: body)
        return .success(recorded.response)
    }

    /// Keeps `exchange` as part of the session, where it is one to keep and within the bounds.
    private func keep(_ exchange: RecordedDevice.Exchange, headers: [String: String], body: [UInt8]) {
        var exchange = exchange
        exchange.proxied = true
        let soapAction = headers.first { $0.key.lowercased() == "soapaction" }?.value
        if exchange.method == "POST", case .success(let call) = SOAPActionCall.read(soapAction: soapAction, body: body)
        {
            exchange.soap = ("\(call.serviceType)#\(call.actionName)", call.arguments.map { ($0.name, $0.value) })
        }
        let isDocument =
            (exchange.method == "GET" || exchange.method == "HEAD")
            && device.exchanges.contains {
                !$0.readsState && $0.method == exchange.method && $0.target == exchange.target
            }
        guard !isDocument, exchange.method != "SUBSCRIBE", exchange.method != "UNSUBSCRIBE" else { return }
        session.withLock { session in
            guard session.size + exchange.response.count <= HTTPRecording.maximumTotalSize,
                exchange.soap == nil || session.calls.count < HTTPRecording.maximumCalls
            else {
                session.notKept += 1
                return
            }
            session.size += exchange.response.count
            if exchange.soap != nil {
                session.calls.append(exchange)
            } else {
                session.exchanges.append(exchange)
            }
        }
    }

    /// What the session came to so far.
    public var summary: Summary {
        session.withLock {
            Summary(
                forwarded: $0.forwarded,
                calls: $0.calls.count,
                requests: $0.exchanges.count,
                notKept: $0.notKept,
                failed: $0.failed
            )
        }
    }

    /// The device as recorded at the start, with the session so far: its calls and requests after what
    /// `record` kept of others (what it kept of the same ones gives way), within `HTTPRecording.maximumCalls`.
    public var recorded: RecordedDevice {
        let session = self.session.withLock { $0 }
        let calls = Set(session.calls.map(Self.key))
        let requests = Set(session.exchanges.map(Self.key))
        var device = self.device
        let kept = device.calls.filter { !calls.contains(Self.key($0)) }
        device.calls = kept.prefix(HTTPRecording.maximumCalls - session.calls.count) + session.calls
        device.exchanges = device.exchanges.filter { !requests.contains(Self.key($0)) } + session.exchanges
        if session.notKept > 0 {
            device.leftOut.append(
                "\(session.notKept) requests made through the proxy: answered, but past the bounds of a recording"
            )
        }
        return device
    }

    /// What makes two exchanges the same request: method, target, and a call's action and arguments.
    private static func key(_ exchange: RecordedDevice.Exchange) -> String {
        var key = "\(exchange.method) \(exchange.target)"
        if let soap = exchange.soap {
            key += " \(soap.action) " + soap.arguments.map { "\($0.0)=\($0.1)" }.sorted().joined(separator: "&")
        }
        return key
    }

    private static func bracketed(_ host: String) -> String { host.contains(":") ? "[\(host)]" : host }
}
