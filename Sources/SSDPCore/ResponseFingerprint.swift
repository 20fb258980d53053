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

/// What de-duplication compares of a search response (LOCATION, SERVER, ST and USN), read from the
/// datagram's bytes before any `SSDPHeaders` or `SSDPService` is made of it.
///
/// Most answers a session receives repeat one it has reported (every retry brings each device's answers
/// again). A response whose four values equal a reported service's byte for byte is that service (the
/// service's strings were decoded from such bytes), so the session drops it without copying or decoding
/// anything.
struct ResponseFingerprint {
    /// The positions of LOCATION, SERVER, ST and USN among the fields.
    private let location: Int
    private let server: Int
    private let searchTarget: Int
    private let uniqueServiceName: Int
    /// A hash of the four values' bytes, each with its length (`mixHash`).
    let hash: Int

    /// The fingerprint of a response that `SSDPService(response:receivedAt:)` accepts, or `nil` for one it
    /// rejects (no readable max-age, an empty or missing LOCATION, no SERVER, ST or USN). `spans` are the
    /// fields' ranges of `text`, as `SSDPParser.readFields(of:into:)` reads them.
    init?(text: UnsafeBufferPointer<UInt8>, spans: UnsafeBufferPointer<SSDPHeaders.Span>) {
        func value(_ position: Int) -> UnsafeBufferPointer<UInt8> {
            UnsafeBufferPointer(rebasing: text[spans[position].value])
        }
        // One pass over the fields, each name compared only with the one name of its length (the first
        // field of a name counts, as in a lookup).
        var (cacheControl, location, server, searchTarget, uniqueServiceName) = (-1, -1, -1, -1, -1)
        for position in spans.indices {
            func spells(_ name: SSDPHeaders.WellKnownName, _ found: Int) -> Bool {
                found < 0 && name.isSpelled(by: UnsafeBufferPointer(rebasing: text[spans[position].name]))
            }
            switch spans[position].nameLength {
            case 2: if spells(.st, searchTarget) { searchTarget = position }
            case 3: if spells(.usn, uniqueServiceName) { uniqueServiceName = position }
            case 6: if spells(.server, server) { server = position }
            case 8: if spells(.location, location) { location = position }
            case 13: if spells(.cacheControl, cacheControl) { cacheControl = position }
            default: break
            }
        }
        guard cacheControl >= 0, SSDPCacheControl(utf8: value(cacheControl)).maxAge != nil,
            location >= 0, !value(location).isEmpty, server >= 0, searchTarget >= 0, uniqueServiceName >= 0
        else { return nil }
        (self.location, self.server, self.searchTarget, self.uniqueServiceName) =
            (location, server, searchTarget, uniqueServiceName)
        var hash: UInt64 = 0
        mixHash(value(location), into: &hash)
        mixHash(value(server), into: &hash)
        mixHash(value(searchTarget), into: &hash)
        mixHash(value(uniqueServiceName), into: &hash)
        self.hash = Int(truncatingIfNeeded: hash)
    }

    /// Whether `service` has this response's four values, byte for byte (`text` and `spans` as given to
    /// `init`).
    func matches(
        _ service: SSDPService,
        text: UnsafeBufferPointer<UInt8>,
        spans: UnsafeBufferPointer<SSDPHeaders.Span>
    ) -> Bool {
        func equal(_ position: Int, _ string: String) -> Bool {
            let value = UnsafeBufferPointer(rebasing: text[spans[position].value])
            return string.utf8.withContiguousStorageIfAvailable { bytesEqual(value, $0) }
                ?? value.elementsEqual(string.utf8)
        }
        return equal(location, service.location) && equal(server, service.server)
            && equal(searchTarget, service.searchTarget) && equal(uniqueServiceName, service.uniqueServiceName)
    }
}
