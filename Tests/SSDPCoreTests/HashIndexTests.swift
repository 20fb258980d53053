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

import Testing

@testable import SSDPCore

/// `HashIndex` finds what a `Dictionary` keeping each key's first value finds, through its growth and
/// whatever the keys' bits.
@Suite struct HashIndexTests {
    @Test(arguments: [
        "random", "equal low bits", "equal high bits", "small and negative",
    ])
    func findsWhatADictionaryFinds(keys kind: String) {
        var random = SplitMix64(seed: 0x4A5)
        let keys: [Int] = (0..<5_000).map { index in
            let bits = random.next()
            switch kind {
            case "equal low bits": return Int(truncatingIfNeeded: bits << 20)  // the low 20 bits all zero
            case "equal high bits": return Int(truncatingIfNeeded: bits >> 44)
            case "small and negative": return index % 2 == 0 ? index / 2 : -(index / 2) - 1
            default: return Int(truncatingIfNeeded: bits)
            }
        }
        var index = HashIndex()
        var expected: [Int: Int] = [:]
        for (position, key) in keys.enumerated() {
            // Half the keys come twice: the first position stays.
            for repeated in [key, keys[position / 2]] {
                #expect(index.insert(position, for: repeated) == (expected[repeated] == nil))
                if expected[repeated] == nil { expected[repeated] = position }
            }
            if position % 250 == 0 {
                #expect(expected.allSatisfy { index.position(of: $0.key) == $0.value })
            }
        }
        #expect(index.count == expected.count)
        #expect(expected.allSatisfy { index.position(of: $0.key) == $0.value })
        // Keys never stored are not found.
        for _ in 0..<5_000 {
            let key = Int(truncatingIfNeeded: random.next())
            #expect(index.position(of: key) == expected[key])
        }
    }

    @Test func anEmptyIndexFindsNothing() {
        let index = HashIndex()
        #expect(index.position(of: 0) == nil && index.position(of: -1) == nil && index.count == 0)
    }
}
