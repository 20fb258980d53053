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

/// The services a search reported, in order, and a table that finds one equal to a given service by its
/// hash value.
///
/// What a `Set<SSDPService>` beside the list did, without its cost: a set stores a copy of each service and,
/// each time it grows, hashes the four strings of every service again; this table stores positions and, when
/// it grows, rehashes integers. Equality is the service's own (LOCATION, SERVER, ST and USN as strings).
package struct FoundServices: Sendable {
    /// The services, in the order added.
    package private(set) var services: [SSDPService] = []
    /// The position of the last service with a hash value.
    private var lastByHash: [Int: Int] = [:]
    /// For each service, the position of the one before it with the same hash value (-1 for none).
    private var previousWithSameHash: [Int] = []

    /// No services.
    package init() {}

    /// Whether a service equal to `service`, whose hash value is `hash`, is here.
    package func contains(_ service: SSDPService, hash: Int) -> Bool {
        var position = lastByHash[hash] ?? -1
        while position >= 0 {
            if services[position] == service { return true }
            position = previousWithSameHash[position]
        }
        return false
    }

    /// Adds `service`, whose hash value is `hash`, at the end (whether or not an equal one is here).
    package mutating func append(_ service: SSDPService, hash: Int) {
        previousWithSameHash.append(lastByHash[hash] ?? -1)
        lastByHash[hash] = services.count
        services.append(service)
    }
}
