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
/// response's bytes before any `SSDPService` is made of it.
///
/// Most answers a session receives repeat one it has reported (every retry brings each device's answers
/// again). A response whose four values equal a reported service's byte for byte is that service (the
/// service's strings were decoded from such bytes), so the session drops it without decoding anything.
struct ResponseFingerprint {
    /// The positions of LOCATION, SERVER, ST and USN among the headers.
    private let location: Int
    private let server: Int
    private let searchTarget: Int
    private let uniqueServiceName: Int
    /// A hash of the four values' bytes, each with its length (`mixHash`).
    let hash: Int

    /// The fingerprint of a response that `SSDPService(response:receivedAt:)` accepts, or `nil` for one it
    /// rejects (no readable max-age, an empty or missing LOCATION, no SERVER, ST or USN).
    init?(_ headers: SSDPHeaders) {
        let maxAge = headers.withValueBytes(of: .cacheControl) { SSDPCacheControl(utf8: $0).maxAge } ?? nil
        guard maxAge != nil,
            let location = headers.firstIndex(of: .location),
            headers.withBytes(at: location, { !$1.isEmpty }),
            let server = headers.firstIndex(of: .server),
            let searchTarget = headers.firstIndex(of: .st),
            let uniqueServiceName = headers.firstIndex(of: .usn)
        else { return nil }
        (self.location, self.server, self.searchTarget, self.uniqueServiceName) =
            (location, server, searchTarget, uniqueServiceName)
        var hash: UInt64 = 0
        headers.withBytes(at: location) { mixHash($1, into: &hash) }
        headers.withBytes(at: server) { mixHash($1, into: &hash) }
        headers.withBytes(at: searchTarget) { mixHash($1, into: &hash) }
        headers.withBytes(at: uniqueServiceName) { mixHash($1, into: &hash) }
        self.hash = Int(truncatingIfNeeded: hash)
    }

    /// Whether `service` has this response's four values, byte for byte.
    func matches(_ service: SSDPService, in headers: SSDPHeaders) -> Bool {
        Self.equal(headers, location, service.location) && Self.equal(headers, server, service.server)
            && Self.equal(headers, searchTarget, service.searchTarget)
            && Self.equal(headers, uniqueServiceName, service.uniqueServiceName)
    }

    private static func equal(_ headers: SSDPHeaders, _ position: Int, _ text: String) -> Bool {
        headers.withBytes(at: position) { _, value in
            text.utf8.withContiguousStorageIfAvailable { bytesEqual(value, $0) } ?? value.elementsEqual(text.utf8)
        }
    }
}
