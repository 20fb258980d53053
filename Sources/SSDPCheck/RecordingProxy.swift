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
/// the client's callback itself). What `record` kept stays, ahead of the session: played back, it answers
/// until the first change played, as it did when recorded.
///
/// Bounded as `record` is: each exchange within the timeout, each response kept within 1 MiB, at most
/// `HTTPRecording.maximumCalls` calls and `HTTPRecording.maximumTotalSize` bytes (responses, targets and
/// bodies) in all; past a bound, requests are still forwarded (an answer up to 8 MiB), and counted as not
/// kept. So is a request a device file cannot hold: a method not in capitals, a target that is not a path, a
/// POST with a SOAPACTION that is no call, a body that is not UTF-8.
package final class RecordingProxy: Sendable {
    /// The device as `record` met it when the proxy started.
    package let device: RecordedDevice
    private let fetch: HTTPFetch
    private let session = Mutex(Session())

    private struct Session {
        /// Requests sent to the device and not yet answered.
        var inFlight = 0
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
    package struct Summary: Sendable, Hashable {
        /// Requests forwarded to the device.
        package var forwarded: Int
        /// Action calls kept.
        package var calls: Int
        /// Other requests kept.
        package var requests: Int
        /// Requests answered but not kept, past a bound.
        package var notKept: Int
        /// Requests the device gave no answer to.
        package var failed: Int
    }

    /// A proxy for `device`, each forwarded exchange within `timeout`.
    package init(device: RecordedDevice, timeout: Duration = .seconds(5)) {
        self.device = device
        // An answer larger than a recording keeps is still forwarded, up to the most a recording holds in all.
        fetch = HTTPFetch(
            timeout: timeout,
            maximumBodySize: HTTPRecording.maximumTotalSize,
            trailingBytesWait: DeviceRecorder.trailingBytesWait
        )
        let recorded = device.exchanges + device.calls + [device.notFound, device.unsupportedMethod].compactMap(\.self)
        session.withLock { $0.size = recorded.map(\.response.count).reduce(0, +) }
    }

    /// Sends `method target` with `headers` (names in any case; the hop's own, such as Host and Connection,
    /// are left out) and `body` to the device, keeps the exchange, and gives the answer as it arrived (a
    /// chunked one de-chunked), or why there was none.
    package func forward(
        method: String,
        target: String,
        headers: [String: String],
        body: [UInt8]
    ) async -> Result<[UInt8], DeviceRecordError> {
        session.withLock {
            $0.forwarded += 1
            $0.inFlight += 1
        }
        defer { session.withLock { $0.inFlight -= 1 } }
        let origin = DeviceResponder.schemeAndAuthority(of: device.location.absoluteString)
        guard let url = URL(string: origin + target) else {
            return .failure(DeviceRecordError("\(method) \(target): not a target the device can be asked"))
        }
        // The hop's own headers are the hop's; and the answer is asked for uncompressed, so that the
        // device's origin in it can be replaced by the stand-in's.
        let hop: Set = [
            "host", "connection", "content-length", "transfer-encoding", "keep-alive", "te", "upgrade", "trailer",
            "expect", "proxy-connection", "accept-encoding",
        ]
        let sent = headers.filter { !hop.contains($0.key.lowercased()) }.sorted { $0.key < $1.key }
        let exchange = await fetch.exchange(method, url, headers: sent.map { ($0.key, $0.value) }, body: body)
        guard case .success(let message) = exchange.response else {
            session.withLock { $0.failed += 1 }
            let reason = exchange.statusText
            return .failure(DeviceRecordError("\(method) \(url.absoluteString): \(reason)"))
        }
        let response = DeviceRecorder.asRecorded(message)
        keep(
            RecordedDevice.Exchange(method: method, target: target, soap: nil, response: response),
            headers: headers,
            body: body
        )
        return .success(response)
    }

    /// Waits, up to `timeout`, for the requests sent to the device to be answered, so that what the device
    /// did is in the recording.
    package func settle(timeout: Duration) async {
        let deadline = ContinuousClock.now + timeout
        while session.withLock({ $0.inFlight }) > 0, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Keeps `exchange` as part of the session, where it is one to keep and within the bounds.
    private func keep(_ exchange: RecordedDevice.Exchange, headers: [String: String], body: [UInt8]) {
        var exchange = exchange
        exchange.proxied = true
        let isDocument =
            HTTPRecording.isRead(exchange.method)
            && device.exchanges.contains { !$0.readsState && $0.method == "GET" && $0.target == exchange.target }
        guard !isDocument, exchange.method != "SUBSCRIBE", exchange.method != "UNSUBSCRIBE" else { return }
        let soapAction = headers.first { $0.key.lowercased() == "soapaction" }?.value
        var keepable =
            !exchange.method.isEmpty && exchange.method.utf8.allSatisfy { (65...90).contains($0) }
            && exchange.target.hasPrefix("/") && exchange.response.count <= HTTPRecording.maximumResponseSize
        if exchange.method == "POST", soapAction != nil {
            // A call, or nothing: a POST that is no call would answer every later call to that URL.
            if case .success(let call) = SOAPActionCall.read(soapAction: soapAction, body: body) {
                exchange.soap = ("\(call.serviceType)#\(call.actionName)", call.arguments.map { ($0.name, $0.value) })
            } else {
                keepable = false
            }
        } else if !body.isEmpty {
            exchange.requestBody = String(validating: body, as: UTF8.self)
            keepable = keepable && exchange.requestBody != nil
        }
        let size = exchange.response.count + exchange.target.utf8.count + body.count
        session.withLock { session in
            guard keepable, session.size + size <= HTTPRecording.maximumTotalSize,
                exchange.soap == nil || session.calls.count < HTTPRecording.maximumCalls
            else {
                session.notKept += 1
                return
            }
            session.size += size
            if exchange.soap != nil {
                session.calls.append(exchange)
            } else {
                session.exchanges.append(exchange)
            }
        }
    }

    /// What the session came to so far.
    package var summary: Summary {
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

    /// The device as recorded at the start, with the session so far after what `record` kept (which a
    /// playback answers first, before any change), within `HTTPRecording.maximumCalls`.
    package var recorded: RecordedDevice {
        let session = self.session.withLock { $0 }
        var device = self.device
        device.calls = device.calls.prefix(HTTPRecording.maximumCalls - session.calls.count) + session.calls
        device.exchanges += session.exchanges
        if session.notKept > 0 {
            device.leftOut.append(
                "\(session.notKept) requests made through the proxy: answered, but past the bounds of a recording"
            )
        }
        return device
    }
}
