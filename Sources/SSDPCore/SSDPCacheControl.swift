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
    ///
    /// The value is read as bytes: directives end at each comma byte, and spaces and tabs around them are
    /// dropped, as HTTP reads a header.
    public init(_ value: some StringProtocol) {
        self =
            value.utf8.withContiguousStorageIfAvailable(Self.init(utf8:))
            ?? Array(value.utf8).withUnsafeBufferPointer(Self.init(utf8:))
    }

    /// Reads a CACHE-CONTROL value given as UTF-8, as `init(_:)` reads text.
    package init(utf8 value: UnsafeBufferPointer<UInt8>) {
        maxAge = nil
        hasSpacesAroundEquals = false
        otherDirectives = []
        if let seconds = Self.plainMaxAge(value) {
            maxAge = seconds
            return
        }
        var start = value.startIndex
        while start <= value.endIndex {
            let end = value[start...].firstIndex(of: UInt8(ascii: ",")) ?? value.endIndex
            let directive = trimmed(value[start..<end])
            start = end + 1
            if Self.isMaxAge(directive) {
                if maxAge == nil, let (seconds, spaced) = Self.readMaxAge(directive) {
                    maxAge = seconds
                    hasSpacesAroundEquals = spaced
                }
            } else if !directive.isEmpty {
                otherDirectives.append(String(decoding: directive, as: UTF8.self))
            }
        }
    }

    /// The seconds of a value that is exactly `max-age=<1 to 10 digits>` in any case, the form nearly
    /// every device writes, read without splitting; `nil` sends any other value the general way.
    static func plainMaxAge(_ utf8: UnsafeBufferPointer<UInt8>) -> Int? {
        // "max-age=" is eight bytes: one word, compared in lower case.
        guard utf8.count > 8, asciiLowercased(word: loadWord(utf8, at: 0)) == maxAgeWord else { return nil }
        var seconds = 0
        var digits = 0
        for index in 8..<utf8.count {
            let byte = utf8[index]
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), digits < 10 else { return nil }
            seconds = seconds * 10 + Int(byte - UInt8(ascii: "0"))
            digits += 1
        }
        return min(seconds, maximumMaxAge)
    }

    /// The bytes of `max-age=` as `loadWord` reads them.
    private static let maxAgeWord = Array("max-age=".utf8).withUnsafeBufferPointer { loadWord($0, at: 0) }

    /// Whether the directive is named max-age, whatever its value (`max-age=:1800` is a max-age directive
    /// whose value is unreadable, not another directive).
    private static func isMaxAge(_ directive: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        let name = trimmed(directive.prefix { $0 != UInt8(ascii: "=") })
        return name.elementsEqual("max-age".utf8) { asciiLowercased($0) == $1 }
    }

    private static func readMaxAge(_ directive: Slice<UnsafeBufferPointer<UInt8>>) -> (Int, spaced: Bool)? {
        let afterName = directive.dropFirst("max-age".utf8.count)
        let beforeEquals = trimmed(afterName)
        guard beforeEquals.first == UInt8(ascii: "=") else { return nil }
        let digits = trimmed(beforeEquals.dropFirst())
        guard !digits.isEmpty, digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return nil
        }
        let seconds =
            digits.count > 10
            ? maximumMaxAge : min(digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }, maximumMaxAge)
        let spaced = afterName.count != beforeEquals.count || beforeEquals.count - 1 != digits.count
        return (seconds, spaced)
    }
}

/// `bytes` without spaces and tabs at either end.
private func trimmed(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Slice<UnsafeBufferPointer<UInt8>> {
    let start = bytes.firstIndex { !isSpaceOrTab($0) } ?? bytes.endIndex
    let end = bytes[start...].lastIndex { !isSpaceOrTab($0) }.map { $0 + 1 } ?? start
    return bytes[start..<end]
}
