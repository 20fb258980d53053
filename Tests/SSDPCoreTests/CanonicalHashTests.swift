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

/// `mixCanonicalHash`, which the search session's table of found services and each answer's fingerprint
/// hash values with: texts Swift's `==` calls equal must hash alike, however their bytes differ, or a
/// service written another way would be reported twice.
@Suite struct CanonicalHashTests {
    static func hash(_ text: String, seed: UInt64 = 0x1234) -> UInt64 {
        var hash = seed
        mixCanonicalHash(of: text, into: &hash)
        return hash
    }

    /// ASCII text hashes as `mixHash` hashes its bytes: what an ASCII datagram's fingerprint computes.
    @Test func asciiTextHashesAsItsBytes() {
        for text in ["", "K", "uuid:roku:ecp:YN00AA000001", String(repeating: "x:1/", count: 40)] {
            var bytesHash: UInt64 = 0x1234
            Array(text.utf8).withUnsafeBufferPointer { mixHash($0, into: &bytesHash) }
            #expect(Self.hash(text) == bytesHash)
        }
    }

    /// Each non-ASCII scalar whose text equals an ASCII character's (the three whose decomposition is ASCII)
    /// hashes as that character, alone and among other text.
    @Test func everyScalarEqualToAnASCIICharacterHashesAsIt() {
        var found = 0
        for value in UInt32(0x80)...0xFFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let text = String(Character(scalar))
            for ascii in UInt8(0x20)..<0x7F where String(UnicodeScalar(ascii)) == text {
                let character = String(UnicodeScalar(ascii))
                #expect(Self.hash(text) == Self.hash(character), "U+\(String(value, radix: 16))")
                #expect(Self.hash("a/\(text)/1") == Self.hash("a/\(character)/1"))
                found += 1
            }
        }
        #expect(found == 3)  // U+037E, U+1FEF, U+212A
    }

    /// A precomposed letter or symbol and the same as a base and a combining mark hash alike, beside ASCII
    /// text before and after (which the coarse hash of non-ASCII text must treat alike in both).
    @Test func precomposedAndDecomposedTextHashAlike() {
        let precomposed =
            (0xC0...0x24F).compactMap(Unicode.Scalar.init) + (0x1E00...0x1EFF).compactMap(Unicode.Scalar.init)
            + (0x2260...0x226F).compactMap(Unicode.Scalar.init)
        let bases = Array("ABCDEFGHIJKLMNOPRSTUVWXYZabcdefghijklmnoprstuvwxyz<=>")
        var pairs = 0
        for scalar in precomposed {
            let text = String(Character(scalar))
            for base in bases {
                for mark in UInt32(0x300)...0x338 {
                    let decomposed = String(base) + String(Character(Unicode.Scalar(mark)!))
                    guard decomposed == text else { continue }
                    #expect(Self.hash(text) == Self.hash(decomposed), "U+\(String(scalar.value, radix: 16))")
                    #expect(Self.hash("x1\(text)2;") == Self.hash("x1\(decomposed)2;"))
                    pairs += 1
                }
            }
        }
        #expect(pairs > 300)  // 377 pairs in these ranges with these marks
    }

    /// Texts that differ in what canonical equivalence keeps (ASCII text, or the digits and punctuation
    /// beside a non-ASCII letter) hash apart, with a seed of its own for each table.
    @Test func differentTextsAndSeedsHashApart() {
        #expect(Self.hash("uuid:1") != Self.hash("uuid:2"))
        #expect(Self.hash("caf\u{E9}/1") != Self.hash("caf\u{E9}/2"))
        #expect(Self.hash("uuid:1", seed: 1) != Self.hash("uuid:1", seed: 2))
    }
}
