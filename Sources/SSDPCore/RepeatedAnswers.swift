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

/// What a search keeps to recognise an answer that repeats a reported service before decoding it: most
/// answers do, since a device sends the same bytes to every retry. A cache of the session's ingest, apart
/// from its transitions (which would be the same without it, only slower): an answer it recognises is the
/// duplicate that decoding it would have found. Its methods are inlined into the session's ingest, as the
/// code was before it had a type of its own: the ingest's instruction count is a benchmark's figure.
///
/// An answer whose `ResponseFingerprint` has a found service's four values byte for byte, in other bytes
/// elsewhere (another DATE, BOOTID or max-age), is a repeat: found by the fingerprint's hash among the
/// found services, which hash their values the same way.
struct RepeatedAnswers: Sendable {
    /// The datagrams that reported services, in `reportingDatagrams`, by a hash of their bytes (`mixHash`;
    /// the first, where two hashes collide).
    private var reportingByHash = HashIndex()
    /// The datagrams that reported services: the reported services' headers' own bytes, shared rather than
    /// copied.
    private var reportingDatagrams: [[UInt8]] = []

    /// Whether `buffer`, whose `mixHash` is `hash`, is byte for byte a datagram that reported a service.
    @inline(__always)
    func isReportingDatagram(_ buffer: UnsafeBufferPointer<UInt8>, hash: Int) -> Bool {
        guard let position = reportingByHash.position(of: hash) else { return false }
        return reportingDatagrams[position].withUnsafeBufferPointer { bytesEqual($0, buffer) }
    }

    /// The fingerprint of the response whose fields are at `spans` of `text` (`nil` when it lacks a field
    /// the fingerprint needs), and whether it repeats one of `found` byte for byte. `isASCII` says that every
    /// byte of the start line and header lines of `text` is ASCII.
    @inline(__always)
    func match(
        _ text: UnsafeBufferPointer<UInt8>,
        _ spans: UnsafeBufferPointer<SSDPHeaders.Span>,
        isASCII: Bool,
        found: FoundServices
    ) -> (ResponseFingerprint?, repeats: Bool) {
        guard let fingerprint = ResponseFingerprint(text: text, spans: spans, seed: found.seed, isASCII: isASCII) else {
            return (nil, false)
        }
        return (
            fingerprint, found.contains(hash: fingerprint.hash) { fingerprint.matches($0, text: text, spans: spans) }
        )
    }

    /// `match(_:_:isASCII:found:)` of the fields at `spans`.
    @inline(__always)
    func match(
        _ text: UnsafeBufferPointer<UInt8>,
        _ spans: [SSDPHeaders.Span],
        isASCII: Bool,
        found: FoundServices
    ) -> (ResponseFingerprint?, repeats: Bool) {
        spans.withUnsafeBufferPointer { match(text, $0, isASCII: isASCII, found: found) }
    }

    /// Keeps what recognises the repeats of a service found from `datagram` (its hash and bytes), the first
    /// of each hash: its fingerprint is found among the services themselves.
    @inline(__always)
    mutating func remember(datagram: (hash: Int, bytes: [UInt8])?) {
        if let (hash, bytes) = datagram, reportingByHash.insert(reportingDatagrams.count, for: hash) {
            reportingDatagrams.append(bytes)
        }
    }
}
