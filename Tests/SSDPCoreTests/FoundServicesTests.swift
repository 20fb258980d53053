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
import Testing

/// The search session's list of reported services and the table that finds an equal one by hash value.
@Suite struct FoundServicesTests {
    static func service(_ usn: String, server: String = "Linux UPnP/1.0 x/1") -> SSDPService {
        SSDPService(
            cacheControl: .zero,
            maxAge: .seconds(1_800),
            location: "http://10.0.0.2:80/d.xml",
            server: server,
            searchTarget: "upnp:rootdevice",
            uniqueServiceName: usn
        )
    }

    /// Services that share a hash value (given here, as a collision would give it) are told apart by
    /// equality, whichever came first; one with another hash value is not found among them.
    @Test func servicesWithTheSameHashValueAreToldApartByEquality() {
        let (a, b, c) = (Self.service("uuid:a"), Self.service("uuid:b"), Self.service("uuid:c"))
        var found = FoundServices()
        found.append(a, hash: 7)
        found.append(b, hash: 9)
        found.append(c, hash: 7)
        #expect(found.services == [a, b, c])
        #expect(found.contains(a, hash: 7) && found.contains(c, hash: 7) && found.contains(b, hash: 9))
        #expect(!found.contains(b, hash: 7) && !found.contains(a, hash: 9) && !found.contains(a, hash: 8))
        #expect(!found.contains(Self.service("uuid:d"), hash: 7))
    }

    /// With the service's own hash value, equal services are found however their text is written: a
    /// server name precomposed or with a combining accent is the same server, as `SSDPService` says.
    @Test func equalServicesAreFoundByTheirHashValue() {
        var found = FoundServices()
        let precomposed = Self.service("uuid:a", server: "Caf\u{E9}/1 UPnP/1.0 x/1")
        let decomposed = Self.service("uuid:a", server: "Cafe\u{301}/1 UPnP/1.0 x/1")
        found.append(precomposed, hash: precomposed.hashValue)
        #expect(found.contains(decomposed, hash: decomposed.hashValue))
        for index in 0..<1_000 {
            let service = Self.service("uuid:\(index)")
            #expect(!found.contains(service, hash: service.hashValue))
            found.append(service, hash: service.hashValue)
        }
        #expect(
            (0..<1_000).allSatisfy {
                found.contains(Self.service("uuid:\($0)"), hash: Self.service("uuid:\($0)").hashValue)
            }
        )
        #expect(found.services.count == 1_001)
    }
}
