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

/// One URL of a SUBSCRIBE's CALLBACK header (UDA 1.1 §4.1.2), read and checked before the device sends
/// anything to it: an `http://` URL of at most `maximumLength` bytes, with a host, a port that exists,
/// and a path of the characters RFC 3986 allows there. The path goes into the NOTIFY's request line, so a
/// space, a tab or a line break in it would let a subscriber write the device's request for it.
public struct GENACallback: Hashable, Sendable {
    /// The URL as the subscriber wrote it.
    public var url: String
    /// The host, without the brackets of an IPv6 literal.
    public var host: String
    /// The port, 80 when the URL gives none.
    public var port: Int
    /// The path with its query, `/` when the URL has none.
    public var path: String

    /// The longest callback URL taken (gupnp refuses longer ones too); a subscriber's own is a few dozen
    /// bytes.
    public static let maximumLength = 256

    /// The URL's parts, or why it is not a URL an event can go to.
    public static func read(_ url: String) -> Result<GENACallback, GENARefusal> {
        let bytes = Array(url.utf8)
        guard bytes.count <= maximumLength else {
            return .failure(.callbackRefused("the CALLBACK URL has \(bytes.count) bytes, more than \(maximumLength)"))
        }
        let scheme = Array("http://".utf8)
        guard bytes.count > scheme.count, bytes.prefix(scheme.count).map(asciiLowercased) == scheme else {
            return .failure(.callbackRefused("the CALLBACK is not an http:// URL"))
        }
        let rest = bytes[scheme.count...]
        let pathStart = rest.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") } ?? rest.endIndex
        guard let (host, port) = authority(rest[..<pathStart]) else {
            return .failure(.callbackRefused("the CALLBACK URL has no host and port a connection can go to"))
        }
        let path = rest[pathStart...]
        guard path.allSatisfy(isPathCharacter) else {
            return .failure(
                .callbackRefused("the CALLBACK URL's path has a character a URL path cannot hold (RFC 3986)")
            )
        }
        let pathText = path.isEmpty ? "/" : String(decoding: path, as: UTF8.self)
        return .success(GENACallback(url: url, host: host, port: port, path: pathText))
    }

    /// The host and port of `host[:port]` or `[v6][:port]`; `nil` for user information, an empty or
    /// illegal host, or a port that is not 1...65535.
    private static func authority(_ bytes: ArraySlice<UInt8>) -> (host: String, port: Int)? {
        var hostBytes = bytes
        var portBytes: ArraySlice<UInt8> = []
        if bytes.first == UInt8(ascii: "["), let close = bytes.firstIndex(of: UInt8(ascii: "]")) {
            hostBytes = bytes[(bytes.startIndex + 1)..<close]
            let after = bytes[(close + 1)...]
            guard after.isEmpty || after.first == UInt8(ascii: ":") else { return nil }
            portBytes = after.dropFirst()
            // An IPv6 literal, with its zone when it has one (`fe80::1%25eth0`).
            guard hostBytes.allSatisfy({ isLetterOrDigit($0) || Array(":.%".utf8).contains($0) }) else { return nil }
        } else {
            if let colon = bytes.firstIndex(of: UInt8(ascii: ":")) {
                hostBytes = bytes[..<colon]
                portBytes = bytes[(colon + 1)...]
            }
            guard hostBytes.allSatisfy({ isLetterOrDigit($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") })
            else { return nil }
        }
        guard !hostBytes.isEmpty else { return nil }
        var port = 80
        if bytes.last == UInt8(ascii: ":") || !portBytes.isEmpty {
            guard (1...5).contains(portBytes.count), portBytes.allSatisfy(isDigit),
                let number = Int(String(decoding: portBytes, as: UTF8.self)), (1...65_535).contains(number)
            else { return nil }
            port = number
        }
        return (String(decoding: hostBytes, as: UTF8.self), port)
    }

    /// RFC 3986's `pchar`, `/` and `?`: unreserved, sub-delims, `:`, `@` and percent escapes (whose
    /// digits are unreserved too). No space, control character, quote, `<`, `>`, `#` or non-ASCII byte.
    private static func isPathCharacter(_ byte: UInt8) -> Bool {
        isLetterOrDigit(byte) || Array("-._~!$&'()*+,;=:@/?%".utf8).contains(byte)
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    private static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(asciiLowercased(byte))
    }

    private static func asciiLowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
    }
}

/// Where a device sends the events of a subscription (UDA 1.1 leaves it open; CallStranger, CVE-2020-12695,
/// is what follows): by default only back to the subscriber, as miniupnpd, pupnp and gupnp do since 2020.
public enum GENACallbackPolicy: String, Hashable, Sendable, CaseIterable {
    /// A CALLBACK must name the address the SUBSCRIBE came from: a subscriber cannot aim a device's NOTIFYs
    /// at another host.
    case subscriber
    /// A CALLBACK may name any host, for a lab whose event receiver runs on another host than its
    /// subscriber. Never the device's own HTTP server.
    case any

    /// Why the device at `device` may not send events to `callback` for a subscriber at `subscriber`, or
    /// `nil` when it may. Addresses are compared as written, without brackets, zone or IPv4-mapped prefix.
    public func refusal(of callback: GENACallback, subscriber: String, device: GENACallback?) -> GENARefusal? {
        let host = Self.address(callback.host)
        if let device, host == Self.address(device.host), callback.port == device.port {
            return .callbackRefused("the CALLBACK names the device's own HTTP server")
        }
        if self == .subscriber, host != Self.address(subscriber) {
            return .callbackRefused(
                "the CALLBACK names \(callback.host), not \(subscriber), the address the SUBSCRIBE came from"
            )
        }
        return nil
    }

    /// `address` as compared: lower case, without `[`…`]`, a `%zone`, or the `::ffff:` of an IPv4 address
    /// that an IPv6 socket reports.
    static func address(_ address: String) -> String {
        var text = address.lowercased()
        if text.hasPrefix("["), text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
        if let percent = text.firstIndex(of: "%") { text = String(text[..<percent]) }
        return SSDPEndpoint.unmapped(text)
    }
}
