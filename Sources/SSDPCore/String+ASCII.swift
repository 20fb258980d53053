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
            other.utf8.withContiguousStorageIfAvailable { theirs in
                for index in 0..<mine.count where asciiLowercased(mine[index]) != asciiLowercased(theirs[index]) {
                    return false
                }
                return true
            }
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

@inline(__always)
package func asciiLowercased(_ byte: UInt8) -> UInt8 {
    (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) ? byte | 0x20 : byte
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
