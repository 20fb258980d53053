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

/// A CACHE-CONTROL value read the lenient way real control points read it.
///
/// Accepts `max-age=1800`, `max-age = 1800`, `MAX-AGE=1800` and `no-cache="Ext", max-age = 5000`
/// (the IETF draft's example, which crashed netdisco). Anything else in the value is kept as an
/// "other directive" so the parser can report it.
public struct SSDPCacheControl: Hashable, Sendable {
    /// The max-age in seconds, or `nil` when there is no readable `max-age=<digits>`.
    public var maxAge: Int?
    /// Whether the max-age directive has whitespace around its `=`.
    public var hasSpacesAroundEquals: Bool
    /// Directives other than max-age, trimmed, as written. A second max-age directive is ignored, not listed.
    public var otherDirectives: [String]

    /// Largest max-age accepted; longer values are clamped (UDA's BOOTID and friends are 31-bit too).
    public static let maximumMaxAge = Int(Int32.max)

    /// Reads a CACHE-CONTROL value. Never fails: without a readable max-age, `maxAge` is `nil`.
    public init(_ value: some StringProtocol) {
        maxAge = nil
        hasSpacesAroundEquals = false
        otherDirectives = []
        let plain = value.utf8.withContiguousStorageIfAvailable(Self.plainMaxAge) ?? Self.plainMaxAge(value.utf8)
        if let seconds = plain {
            maxAge = seconds
            return
        }
        for directive in value.split(separator: ",") {
            let trimmed = directive.trimmingSpacesAndTabs()
            if Self.isMaxAge(trimmed) {
                if maxAge == nil, let (seconds, spaced) = Self.readMaxAge(trimmed) {
                    maxAge = seconds
                    hasSpacesAroundEquals = spaced
                }
            } else if !trimmed.isEmpty {
                otherDirectives.append(String(trimmed))
            }
        }
    }

    /// The seconds of a value that is exactly `max-age=<1 to 10 digits>` in any case, the form nearly
    /// every device writes, read without splitting; `nil` sends any other value the general way.
    private static func plainMaxAge(_ utf8: some Collection<UInt8>) -> Int? {
        var index = utf8.startIndex
        for expected in "max-age=".utf8 {
            guard index != utf8.endIndex, asciiLowercased(utf8[index]) == expected else { return nil }
            utf8.formIndex(after: &index)
        }
        var seconds = 0
        var digits = 0
        while index != utf8.endIndex {
            let byte = utf8[index]
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), digits < 10 else { return nil }
            seconds = seconds * 10 + Int(byte - UInt8(ascii: "0"))
            digits += 1
            utf8.formIndex(after: &index)
        }
        return digits > 0 ? min(seconds, maximumMaxAge) : nil
    }

    /// Whether the directive is named max-age, whatever its value (`max-age=:1800` is a max-age directive
    /// whose value is unreadable, not another directive).
    private static func isMaxAge(_ directive: Substring) -> Bool {
        let name = directive.prefix { $0 != "=" }.trimmingSpacesAndTabs()
        return name.equalsIgnoringASCIICase("max-age")
    }

    private static func readMaxAge(_ directive: Substring) -> (Int, spaced: Bool)? {
        let afterName = directive.dropFirst("max-age".count)
        let beforeEquals = afterName.trimmingSpacesAndTabs()
        guard beforeEquals.first == "=" else { return nil }
        let digits = beforeEquals.dropFirst().trimmingSpacesAndTabs()
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return nil
        }
        let seconds = digits.count > 10 ? maximumMaxAge : min(Int(digits) ?? maximumMaxAge, maximumMaxAge)
        let spaced = afterName.count != beforeEquals.count || beforeEquals.count - 1 != digits.count
        return (seconds, spaced)
    }
}
