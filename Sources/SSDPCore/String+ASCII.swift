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

// Small ASCII helpers. The core has no Foundation, and SSDP names and tokens are ASCII by definition.

extension StringProtocol {
    /// Whether two strings are equal when ASCII letters are compared without case.
    package func equalsIgnoringASCIICase(_ other: some StringProtocol) -> Bool {
        // Header lookups call this for every field of every message: compare lengths first, then the
        // contiguous UTF-8 of native strings, and only walk the views for the rest.
        guard self.utf8.count == other.utf8.count else { return false }
        let fast = self.utf8.withContiguousStorageIfAvailable { mine in
            other.utf8.withContiguousStorageIfAvailable { SSDPCore.equalsIgnoringASCIICase(mine, $0) }
        }
        if let fast, let equal = fast { return equal }
        return self.utf8.elementsEqual(other.utf8) { asciiLowercased($0) == asciiLowercased($1) }
    }

    /// Whether the string starts with `prefix` when ASCII letters are compared without case.
    package func hasPrefixIgnoringASCIICase(_ prefix: some StringProtocol) -> Bool {
        var mine = self.utf8.makeIterator()
        for byte in prefix.utf8 {
            guard let own = mine.next(), asciiLowercased(own) == asciiLowercased(byte) else { return false }
        }
        return true
    }

    /// The string with ASCII spaces and horizontal tabs removed at both ends.
    package func trimmingSpacesAndTabs() -> Substring {
        let text = Substring(self)
        guard let first = text.firstIndex(where: { $0 != " " && $0 != "\t" }) else { return text[text.endIndex...] }
        let last = text.lastIndex(where: { $0 != " " && $0 != "\t" }) ?? first
        return text[first...last]
    }
}

/// Whether two byte strings are equal when ASCII letters are compared without case.
package func equalsIgnoringASCIICase(_ one: UnsafeBufferPointer<UInt8>, _ other: UnsafeBufferPointer<UInt8>) -> Bool {
    guard one.count == other.count else { return false }
    for index in 0..<one.count where one[index] != other[index] {
        guard asciiLowercased(one[index]) == asciiLowercased(other[index]) else { return false }
    }
    return true
}

/// `equalsIgnoringASCIICase(_:_:)` for a part of a buffer.
@inline(__always)
package func equalsIgnoringASCIICase(
    _ one: Slice<UnsafeBufferPointer<UInt8>>,
    _ other: UnsafeBufferPointer<UInt8>
) -> Bool {
    equalsIgnoringASCIICase(UnsafeBufferPointer(rebasing: one), other)
}

@inline(__always)
package func asciiLowercased(_ byte: UInt8) -> UInt8 {
    (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) ? byte | 0x20 : byte
}

/// `bytes` with every occurrence of `needle` (in lower case; matched in any ASCII case) that `stands` between
/// the bytes either side of it (`nil` at an end) replaced by `replacement`: an origin where a URL's
/// authority ends, a recorded value where a word does.
package func replacingIgnoringASCIICase(
    _ needle: [UInt8],
    with replacement: [UInt8],
    in bytes: [UInt8],
    where stands: (_ before: UInt8?, _ after: UInt8?) -> Bool
) -> [UInt8] {
    guard !needle.isEmpty, bytes.count >= needle.count else { return bytes }
    var result: [UInt8] = []
    result.reserveCapacity(bytes.count)
    var index = 0
    while index < bytes.count {
        let end = index + needle.count
        if end <= bytes.count, asciiLowercased(bytes[index]) == needle[0],
            zip(bytes[index..<end], needle).allSatisfy({ asciiLowercased($0) == $1 }),
            stands(index == 0 ? nil : bytes[index - 1], end == bytes.count ? nil : bytes[end])
        {
            result += replacement
            index = end
        } else {
            result.append(bytes[index])
            index += 1
        }
    }
    return result
}

@inline(__always)
package func isSpaceOrTab(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
}

extension StringProtocol {
    /// Whether the string ends with `suffix` when ASCII letters are compared without case.
    package func hasSuffixIgnoringASCIICase(_ suffix: some StringProtocol) -> Bool {
        let mine = Array(self.utf8)
        let theirs = Array(suffix.utf8)
        guard mine.count >= theirs.count else { return false }
        return zip(mine.suffix(theirs.count), theirs).allSatisfy { asciiLowercased($0) == asciiLowercased($1) }
    }
}

extension String {
    /// The string with ASCII letters in lower case.
    package func asciiLowercased() -> String {
        String(decoding: utf8.map(SSDPCore.asciiLowercased), as: UTF8.self)
    }

    /// The string with the first occurrence of `target` replaced, or unchanged when there is none.
    package func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let start = indices.first(where: { self[$0...].hasPrefix(target) }) else { return self }
        return String(self[..<start]) + replacement + self[index(start, offsetBy: target.count)...]
    }
}

/// Whether two byte strings are equal, compared 32 bytes at a time (four words, one branch), then eight at a
/// time (the last eight bytes overlapping the word before, rather than a few bytes one by one).
package func bytesEqual(_ one: UnsafeBufferPointer<UInt8>, _ other: UnsafeBufferPointer<UInt8>) -> Bool {
    guard one.count == other.count else { return false }
    guard one.count >= 8 else { return (0..<one.count).allSatisfy { one[$0] == other[$0] } }
    @inline(__always) func difference(at index: Int) -> UInt64 {
        loadWord(one, at: index) ^ loadWord(other, at: index)
    }
    let last = one.count &- 8
    var index = 0
    while index &+ 32 <= last {
        let differences =
            difference(at: index) | difference(at: index &+ 8) | difference(at: index &+ 16)
            | difference(at: index &+ 24)
        guard differences == 0 else { return false }
        index &+= 32
    }
    while index < last {
        guard difference(at: index) == 0 else { return false }
        index &+= 8
    }
    return difference(at: last) == 0
}

extension UnsafeBufferPointer<UInt8> {
    /// Whether the bytes are `text`'s, exactly: a comparison with a literal that makes no `String`.
    package func reads(_ text: StaticString) -> Bool {
        bytesEqual(self, UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }
}

/// Mixes `bytes` and their count into `hash`, sixteen bytes at a time: a quick hash for tables inside one
/// process. It is not seeded and not made to resist collisions that someone builds on purpose: every table
/// keyed by it must confirm a match by comparing the bytes themselves (so that a collision costs time,
/// never correctness), and choose its slots with a seed of its own (`HashIndex`, a `Dictionary`).
///
/// Two words at a time are multiplied into one, each first xored with a constant (and the first with the
/// hash so far), the 128-bit product folded onto itself: every bit of both words reaches the result. Two
/// lanes take 32 bytes at a time, each on its own so that their multiplications overlap; sixteen bytes
/// left over go into the first, and the last few with the block overlapping the one before; the lanes are
/// then mixed into one.
package func mixHash(_ bytes: UnsafeBufferPointer<UInt8>, into hash: inout UInt64) {
    @inline(__always) func mix(_ one: UInt64, _ other: UInt64) -> UInt64 {
        let product = (one ^ 0xA076_1D64_78BD_642F).multipliedFullWidth(by: other ^ 0xE703_7ED1_A0B4_28DB)
        return product.high ^ product.low
    }
    let count = bytes.count
    hash = mix(hash, UInt64(count))
    guard count >= 8 else {
        hash = mix(hash, partialWord(bytes))
        return
    }
    guard count >= 16 else {
        hash = mix(hash ^ loadWord(bytes, at: 0), loadWord(bytes, at: count &- 8))
        return
    }
    var (a, b) = (hash, hash ^ 0x8EBC_6AF0_9C88_C6E3)
    var index = 0
    while index &+ 32 <= count {
        a = mix(a ^ loadWord(bytes, at: index), loadWord(bytes, at: index &+ 8))
        b = mix(b ^ loadWord(bytes, at: index &+ 16), loadWord(bytes, at: index &+ 24))
        index &+= 32
    }
    if index &+ 16 <= count {
        a = mix(a ^ loadWord(bytes, at: index), loadWord(bytes, at: index &+ 8))
        index &+= 16
    }
    if index < count {
        b = mix(b ^ loadWord(bytes, at: count &- 16), loadWord(bytes, at: count &- 8))
    }
    hash = mix(a, b)
}

/// Mixes the text whose UTF-8 is `bytes` into `hash` so that texts Swift's `==` calls equal (canonically
/// equivalent: `é` written as one scalar or as `e` and a combining accent) mix alike: ASCII text (nearly all)
/// as `mixHash(_:into:)` mixes its bytes, the rest as `mixCanonicalHashSlowly`.
package func mixCanonicalHash(utf8 bytes: UnsafeBufferPointer<UInt8>, into hash: inout UInt64) {
    guard isAllASCII(bytes) else { return mixCanonicalHashSlowly(String(decoding: bytes, as: UTF8.self), into: &hash) }
    mixHash(bytes, into: &hash)
}

/// `mixCanonicalHash(utf8:into:)` of `text`'s UTF-8.
package func mixCanonicalHash(of text: String, into hash: inout UInt64) {
    withUTF8(of: text) { mixCanonicalHash(utf8: $0, into: &hash) }
}

/// `mixCanonicalHash` of text that is not all ASCII.
///
/// Text equivalent to ASCII text has only ASCII and the three scalars whose decomposition is ASCII (U+037E is
/// `;`, U+1FEF is `` ` ``, U+212A is `K`): it mixes as that ASCII text. Any other text is equivalent only to
/// texts that are not ASCII either, and mixes only its ASCII scalars that no decomposition contains (digits,
/// most punctuation, `Q` and `q`; not the other letters nor ``;<=>` ``), which canonical equivalence leaves in
/// place and in order: a coarse hash (`e\u{301}` and `é` both mix as nothing), which equality confirms.
private func mixCanonicalHashSlowly(_ text: String, into hash: inout UInt64) {
    var ascii: [UInt8] = []
    for scalar in text.unicodeScalars {
        switch scalar.value {
        case 0..<0x80: ascii.append(UInt8(truncatingIfNeeded: scalar.value))
        case 0x037E: ascii.append(UInt8(ascii: ";"))
        case 0x1FEF: ascii.append(UInt8(ascii: "`"))
        case 0x212A: ascii.append(UInt8(ascii: "K"))
        default:
            let kept = text.utf8.filter { $0 < 0x80 && !isInSomeDecomposition($0) }
            hash ^= 0x9E37_79B9_7F4A_7C15  // not ASCII text's hash, though equality would tell them apart anyway
            return kept.withUnsafeBufferPointer { mixHash($0, into: &hash) }
        }
    }
    ascii.withUnsafeBufferPointer { mixHash($0, into: &hash) }
}

/// Whether the ASCII `byte` is in the canonical decomposition of some scalar that is not ASCII: every letter
/// but `Q` and `q` (a base under an accent), and ``;<=>` `` (U+037E, U+2260 `≠`, …), as Unicode 14's data say.
private func isInSomeDecomposition(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "Q"), UInt8(ascii: "q"): false
    case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"): true
    case UInt8(ascii: ";"), UInt8(ascii: "<"), UInt8(ascii: "="), UInt8(ascii: ">"), UInt8(ascii: "`"): true
    default: false
    }
}

/// `bytes` hashed by `mixHash(_:into:)` from zero: the same bytes give the same hash in every process.
package func mixHash(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
    var hash: UInt64 = 0
    mixHash(bytes, into: &hash)
    return Int(truncatingIfNeeded: hash)
}

// MARK: - Eight bytes at a time

/// The bytes of `word` equal to `byte`, marked by their high bit: the lowest marked byte is the first equal
/// one (bytes after it may be marked wrongly, never bytes before). `word` holds bytes in little-endian order.
@inline(__always)
package func bytesEqual(to byte: UInt8, in word: UInt64) -> UInt64 {
    let x = word ^ (0x0101_0101_0101_0101 &* UInt64(byte))
    return (x &- 0x0101_0101_0101_0101) & ~x & 0x8080_8080_8080_8080
}

/// The index of the first byte equal to `byte` in `buffer` at or after `start`, or `nil`: eight bytes at a time,
/// the last few one by one.
package func firstIndex(of byte: UInt8, in buffer: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
    var index = Swift.max(start, 0)
    while index &+ 8 <= buffer.count {
        let marks = bytesEqual(to: byte, in: loadWord(buffer, at: index))
        if marks != 0 { return index &+ marks.trailingZeroBitCount / 8 }
        index &+= 8
    }
    while index < buffer.count {
        if buffer[index] == byte { return index }
        index &+= 1
    }
    return nil
}

/// The bytes of `buffer`, at most eight, as a word: the first in the lowest byte, zeros after the last.
@inline(__always)
package func partialWord(_ buffer: UnsafeBufferPointer<UInt8>) -> UInt64 {
    var word: UInt64 = 0
    for index in buffer.indices.reversed() { word = word << 8 | UInt64(buffer[index]) }
    return word
}

/// The lower-case ASCII letters of `word` marked by their high bit, exactly: every byte of `word` must be
/// ASCII (then no sum below carries into the next byte).
@inline(__always)
package func lowercaseLetters(in word: UInt64) -> UInt64 {
    let fromA = word &+ 0x1F1F_1F1F_1F1F_1F1F  // the high bit set from "a" (0x61) on
    let afterZ = word &+ 0x0505_0505_0505_0505  // and from after "z" (0x7A) on
    return fromA & ~afterZ & 0x8080_8080_8080_8080
}

/// `word`, all of whose bytes are ASCII, with its capital letters in lower case.
@inline(__always)
package func lowercasedASCII(_ word: UInt64) -> UInt64 {
    // No sum carries into the next byte: the high bit of a byte of the first is set from "A" (0x41) on, of the
    // second after "Z" (0x5A).
    let fromA = word &+ 0x3F3F_3F3F_3F3F_3F3F
    let afterZ = word &+ 0x2525_2525_2525_2525
    return word | (fromA & ~afterZ & 0x8080_8080_8080_8080) >> 2  // 0x80 >> 2 is 0x20, the case bit
}

/// `word` with its ASCII capital letters in lower case, or `nil` when a byte is not ASCII.
@inline(__always)
package func asciiLowercased(word: UInt64) -> UInt64? {
    word & 0x8080_8080_8080_8080 == 0 ? lowercasedASCII(word) : nil
}

/// The eight bytes of `buffer` at `offset`, the first in the lowest byte whatever the machine's order. The
/// caller makes sure they are there (`offset + 8 <= buffer.count`): nothing here checks.
@inline(__always)
package func loadWord(_ buffer: UnsafeBufferPointer<UInt8>, at offset: Int) -> UInt64 {
    UInt64(littleEndian: UnsafeRawPointer(buffer.baseAddress!).loadUnaligned(fromByteOffset: offset, as: UInt64.self))
}

// MARK: - Sixteen bytes at a time

/// The offset of the first byte equal to `byte` among the sixteen at `offset` from `base`, or `nil` when
/// none is. The caller makes sure the sixteen bytes are there: nothing here checks.
@inline(__always)
package func firstIndex(of byte: UInt8, inSixteenAt offset: Int, of base: UnsafeRawPointer) -> Int? {
    firstIndex(of: byte, inSixteen: sixteenBytes(at: offset, of: base))
}

/// The sixteen bytes at `offset` from `base` as two words, the first eight in `low`, each in little-endian
/// order. The caller makes sure they are there: nothing here checks.
///
/// Two words rather than a `SIMD16<UInt8>`: an optimised build makes nearly the same instructions of both,
/// but without optimisation (debug builds, where the suite runs) each `SIMD16` operation is a generic call
/// per lane, and the parser spent 44 % of its time in one comparison of sixteen bytes.
@inline(__always)
package func sixteenBytes(at offset: Int, of base: UnsafeRawPointer) -> (low: UInt64, high: UInt64) {
    (
        UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)),
        UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset &+ 8, as: UInt64.self))
    )
}

/// The offset of the first byte equal to `byte` among sixteen bytes held as two words (`sixteenBytes`), or
/// `nil` when none is.
@inline(__always)
package func firstIndex(of byte: UInt8, inSixteen words: (low: UInt64, high: UInt64)) -> Int? {
    let low = bytesEqual(to: byte, in: words.low)
    if low != 0 { return low.trailingZeroBitCount &>> 3 }
    let high = bytesEqual(to: byte, in: words.high)
    return high != 0 ? 8 &+ high.trailingZeroBitCount &>> 3 : nil
}

/// Whether `buffer` is well-formed UTF-8 (Unicode's table 3-7: no overlong forms, no surrogates, nothing
/// above U+10FFFF), as `String(validating:as:)` decides, without making a `String`. ASCII goes eight bytes
/// at a time.
package func isValidUTF8(_ buffer: UnsafeBufferPointer<UInt8>) -> Bool {
    var index = 0
    let count = buffer.count
    while index < count {
        if index &+ 8 <= count, loadWord(buffer, at: index) & 0x8080_8080_8080_8080 == 0 {
            index &+= 8
            continue
        }
        let lead = buffer[index]
        guard lead >= 0x80 else {
            index &+= 1
            continue
        }
        // The sequence's length, and the range its second byte must be in (the others: 80–BF).
        let length: Int
        var second: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: (length, second) = (3, 0xA0...0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: (length, second) = (3, 0x80...0x9F)
        case 0xF0: (length, second) = (4, 0x90...0xBF)
        case 0xF1...0xF3: length = 4
        case 0xF4: (length, second) = (4, 0x80...0x8F)
        default: return false
        }
        guard index &+ length <= count, second.contains(buffer[index &+ 1]) else { return false }
        for offset in 2..<length where buffer[index &+ offset] & 0xC0 != 0x80 { return false }
        index &+= length
    }
    return true
}

/// Whether every byte of `buffer` is ASCII: 64 bytes at a time, then sixteen, the last sixteen overlapping
/// those before (a buffer shorter than sixteen bytes goes one by one), in words (see `sixteenBytes`).
package func isAllASCII(_ buffer: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let base = UnsafeRawPointer(buffer.baseAddress), buffer.count >= 16 else {
        return !buffer.contains { $0 >= 0x80 }
    }
    func word(_ offset: Int) -> UInt64 { base.loadUnaligned(fromByteOffset: offset, as: UInt64.self) }
    var seen = word(buffer.count - 16) | word(buffer.count - 8)
    var index = 0
    while index + 64 <= buffer.count {
        seen |= word(index) | word(index + 8) | word(index + 16) | word(index + 24)
        seen |= word(index + 32) | word(index + 40) | word(index + 48) | word(index + 56)
        index += 64
    }
    while index + 16 <= buffer.count {
        seen |= word(index) | word(index + 8)
        index += 16
    }
    return seen & 0x8080_8080_8080_8080 == 0
}
