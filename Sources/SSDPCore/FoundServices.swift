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

/// The services a search reported, in order, and a table that finds one equal to a given service by a hash
/// of the four values equality compares.
///
/// What a `Set<SSDPService>` beside the list did, without its cost: a set stores a copy of each service and,
/// each time it grows, hashes the four strings of every service again; this table stores positions and, when
/// it grows, moves integers. Equality is the service's own (LOCATION, SERVER, ST and USN as strings).
package struct FoundServices: Sendable {
    /// The services, in the order added.
    package private(set) var services: [SSDPService] = []
    /// The position of the first service with a hash.
    private var firstByHash = HashIndex()
    /// For each service, the position of the next one with the same hash (-1 for none).
    private var nextWithSameHash: [Int] = []
    /// What each hash starts from, drawn at random: which services share a hash differs from one search to
    /// the next, so that a device cannot choose answers that all share one.
    package let seed = UInt64.random(in: .min ... .max)

    /// No services.
    package init() {}

    /// The hash `contains` and `append` take: of the values equality compares, LOCATION, SERVER, ST and USN
    /// (`mixCanonicalHash`, from `seed`), so that equal services hash alike. A response's
    /// `ResponseFingerprint` hashes its values' bytes the same way, before any service is made of them.
    package func hash(of service: SSDPService) -> Int {
        var hash = seed
        mixCanonicalHash(of: service.location, into: &hash)
        mixCanonicalHash(of: service.server, into: &hash)
        mixCanonicalHash(of: service.searchTarget, into: &hash)
        mixCanonicalHash(of: service.uniqueServiceName, into: &hash)
        return Int(truncatingIfNeeded: hash)
    }

    /// Whether a service equal to `service`, whose `hash(of:)` is `hash`, is here.
    package func contains(_ service: SSDPService, hash: Int) -> Bool {
        contains(hash: hash) { $0 == service }
    }

    /// Whether a service whose `hash(of:)` is `hash` is `wanted`.
    func contains(hash: Int, where wanted: (SSDPService) -> Bool) -> Bool {
        var position = firstByHash.position(of: hash) ?? -1
        while position >= 0 {
            if wanted(services[position]) { return true }
            position = nextWithSameHash[position]
        }
        return false
    }

    /// Adds `service`, whose `hash(of:)` is `hash`, at the end (whether or not an equal one is here).
    package mutating func append(_ service: SSDPService, hash: Int) {
        let position = services.count
        services.append(service)
        nextWithSameHash.append(-1)
        if !firstByHash.insert(position, for: hash), var last = firstByHash.position(of: hash) {
            while nextWithSameHash[last] >= 0 { last = nextWithSameHash[last] }
            nextWithSameHash[last] = position
        }
    }
}
