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
    /// The positions of LOCATION, SERVER, ST and USN among the fields (the first of each name).
    let location: Int
    let server: Int
    let searchTarget: Int
    let uniqueServiceName: Int
    /// The max-age the first CACHE-CONTROL gives, in seconds.
    let maxAge: Int
    /// One bit per field among the first 64, set for each that `isServiceField` (duplicates included): the
    /// fields a service's `otherHeaders` leave out, found in the same pass.
    let serviceFields: UInt64
    /// The four values' hash from `seed` (each mixed with its length by `mixCanonicalHash`): what
    /// `FoundServices.hash(of:)` says of the service they read as.
    let hash: Int

    /// The fingerprint of a response that `SSDPService(response:receivedAt:)` accepts, or `nil` for one it
    /// rejects (no readable max-age, an empty or missing LOCATION, no SERVER, ST or USN). `spans` are the
    /// fields' ranges of `text`, as `SSDPParser.readFields(of:into:)` reads them; `seed` is the found
    /// services' (`FoundServices.seed`); `isASCII` says that every byte of the start line and header lines of `text` is ASCII,
    /// as `readFields(of:into:isASCII:)` finds (then the values
    /// are hashed as they are, which `mixCanonicalHash` would find out value by value).
    init?(text: UnsafeBufferPointer<UInt8>, spans: UnsafeBufferPointer<SSDPHeaders.Span>, seed: UInt64, isASCII: Bool) {
        func value(_ position: Int) -> UnsafeBufferPointer<UInt8> {
            UnsafeBufferPointer(rebasing: text[spans[position].value])
        }
        // One pass over the fields, each name compared only with the one name of its length (the first
        // field of a name counts, as in a lookup).
        var (cacheControl, location, server, searchTarget, uniqueServiceName) = (-1, -1, -1, -1, -1)
        var serviceFields: UInt64 = 0
        for position in spans.indices {
            // Whether the field spells `name`; if so, marked, and `found` set unless an earlier field was it.
            func spells(_ name: SSDPHeaders.WellKnownName, _ found: inout Int) {
                guard name.isSpelled(by: UnsafeBufferPointer(rebasing: text[spans[position].name])) else { return }
                if position < 64 { serviceFields |= 1 &<< UInt64(position) }
                if found < 0 { found = position }
            }
            switch spans[position].nameLength {  // `isServiceField`'s names
            case 2: spells(.st, &searchTarget)
            case 3: spells(.usn, &uniqueServiceName)
            case 6: spells(.server, &server)
            case 8: spells(.location, &location)
            case 13: spells(.cacheControl, &cacheControl)
            default: break
            }
        }
        guard cacheControl >= 0, let maxAge = SSDPCacheControl(utf8: value(cacheControl)).maxAge,
            location >= 0, !value(location).isEmpty, server >= 0, searchTarget >= 0, uniqueServiceName >= 0
        else { return nil }
        (self.location, self.server, self.searchTarget, self.uniqueServiceName, self.maxAge) =
            (location, server, searchTarget, uniqueServiceName, maxAge)
        self.serviceFields = serviceFields
        var hash = seed
        func mix(_ position: Int) {
            if isASCII {
                mixHash(value(position), into: &hash)
            } else {
                mixCanonicalHash(utf8: value(position), into: &hash)
            }
        }
        mix(location)  // in `FoundServices.hash(of:)`'s order
        mix(server)
        mix(searchTarget)
        mix(uniqueServiceName)
        self.hash = Int(truncatingIfNeeded: hash)
    }

    /// Whether the field at `position` (among `text`'s `spans`, as given to `init`) is one a service is read
    /// from: CACHE-CONTROL, LOCATION, SERVER, ST or USN, in any case.
    func isServiceField(
        at position: Int,
        text: UnsafeBufferPointer<UInt8>,
        spans: UnsafeBufferPointer<SSDPHeaders.Span>
    ) -> Bool {
        guard position < 64 else {
            return Self.isServiceField(UnsafeBufferPointer(rebasing: text[spans[position].name]))
        }
        return serviceFields & (1 &<< UInt64(position)) != 0
    }

    /// Whether `name` is one of the fields a service is read from (CACHE-CONTROL, LOCATION, SERVER, ST, USN),
    /// in any case: the fields its `otherHeaders` leave out.
    static func isServiceField(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        switch name.count {
        case 2: SSDPHeaders.WellKnownName.st.isSpelled(by: name)
        case 3: SSDPHeaders.WellKnownName.usn.isSpelled(by: name)
        case 6: SSDPHeaders.WellKnownName.server.isSpelled(by: name)
        case 8: SSDPHeaders.WellKnownName.location.isSpelled(by: name)
        case 13: SSDPHeaders.WellKnownName.cacheControl.isSpelled(by: name)
        default: false
        }
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
