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

/// What a recorded device (`ssdp-sim record`) answers over HTTP: each response as it arrived, status line,
/// headers in order and body bytes, found by the method and target asked.
///
/// Played back, a response is sent byte for byte but for three things: the recorded origin
/// (`http://host:port`) becomes the playing device's wherever it appears (LOCATION-like headers such as
/// Application-URL, a description's URLBase and absolute URLs), a Content-Length that the new origin makes
/// wrong is corrected, and a Date is written anew. A request the recording has no answer for gets:
/// - a HEAD: the recorded GET's head;
/// - a GET of a path the device does not have: what it answered to one (`notFound`);
/// - the methods UPnP's control and eventing use (POST, SUBSCRIBE, UNSUBSCRIBE): nothing here, so that the
///   device's family (its profile) answers;
/// - any other method: what it answered to one it does not take (`unsupportedMethod`).
public struct HTTPRecording: Hashable, Sendable {
    /// One recorded exchange.
    public struct Exchange: Hashable, Sendable {
        /// The method asked (`GET`).
        public var method: String
        /// The path and query asked, as sent (`/rootDesc.xml`).
        public var target: String
        /// The response as it arrived: status line, headers and body.
        public var response: [UInt8]

        /// The response to `method target`.
        public init(method: String, target: String, response: [UInt8]) {
            self.method = method
            self.target = target
            self.response = response
        }
    }

    /// A response as played: its bytes and its status code (0 when its status line has none).
    public struct Played: Hashable, Sendable {
        /// What goes on the wire.
        public var bytes: [UInt8]
        /// The status code, for the journal.
        public var status: Int
    }

    /// The recorded device's `http://host:port`, in lower case.
    public var origin: String
    /// The exchanges, each `method target` once.
    public var exchanges: [Exchange]
    /// The answer to a GET of a path the device does not have.
    public var notFound: [UInt8]?
    /// The answer to a method the device does not take.
    public var unsupportedMethod: [UInt8]?

    /// The methods a device's family answers when the recording does not: control and eventing.
    public static let familyMethods: Set<String> = ["POST", "SUBSCRIBE", "UNSUBSCRIBE"]

    /// A recording of a device at `origin`.
    public init(origin: String, exchanges: [Exchange], notFound: [UInt8]? = nil, unsupportedMethod: [UInt8]? = nil) {
        self.origin = origin.asciiLowercased()
        self.exchanges = exchanges
        self.notFound = notFound
        self.unsupportedMethod = unsupportedMethod
    }

    /// The recorded response to `method target` for a device now at `origin`, at `secondsSince1970`; `nil`
    /// when the recording leaves it to the device's family.
    public func response(method: String, target: String, origin: String, secondsSince1970: Int) -> Played? {
        let recorded: [UInt8]
        var headOnly = method == "HEAD"
        if let exchange = exchanges.first(where: { $0.method == method && $0.target == target }) {
            recorded = exchange.response
            headOnly = false  // a recorded HEAD is sent as it came
        } else if method == "HEAD", let get = exchanges.first(where: { $0.method == "GET" && $0.target == target }) {
            recorded = get.response
        } else if method == "GET" || method == "HEAD", let notFound {
            recorded = notFound
        } else if !Self.familyMethods.contains(method), let unsupportedMethod {
            recorded = unsupportedMethod
        } else {
            return nil
        }
        let bytes = Self.played(recorded, from: self.origin, to: origin, secondsSince1970: secondsSince1970)
        return Played(
            bytes: headOnly ? Array(bytes[..<(Self.headEnd(bytes) ?? bytes.count)]) : bytes,
            status: Self.status(of: bytes)
        )
    }

    /// `response` as a device at `new` sends it at `secondsSince1970`: `old` replaced by `new` in its head
    /// and body, its Content-Length corrected when that changed the body's length, its Date written anew.
    static func played(_ response: [UInt8], from old: String, to new: String, secondsSince1970: Int) -> [UInt8] {
        let end = headEnd(response) ?? response.count
        var head = Array(response[..<end])
        var body = Array(response[end...])
        let bodyLength = body.count
        if old != new.asciiLowercased() {
            head = replacing(old, with: new, in: head)
            body = replacing(old, with: new, in: body)
        }
        if body.count != bodyLength, let range = headerValueRange("content-length", in: head),
            String(decoding: head[range], as: UTF8.self) == "\(bodyLength)"
        {
            head.replaceSubrange(range, with: Array("\(body.count)".utf8))
        }
        if let range = dateValueRange(in: head) {
            head.replaceSubrange(range, with: Array(HTTPDate.string(secondsSince1970: secondsSince1970).utf8))
        }
        return head + body
    }

    /// Where the body starts: after the first empty line (CR LF CR LF, or LF LF from a sloppy server).
    package static func headEnd(_ bytes: [UInt8]) -> Int? {
        for index in bytes.indices.dropFirst() where bytes[index] == UInt8(ascii: "\n") {
            if bytes[index - 1] == UInt8(ascii: "\n") { return index + 1 }
            if index >= 3, bytes[index - 1] == UInt8(ascii: "\r"), bytes[index - 2] == UInt8(ascii: "\n") {
                return index + 1
            }
        }
        return nil
    }

    /// The status code of a status line (`HTTP/1.1 404 Not Found` → 404), 0 when there is none.
    static func status(of response: [UInt8]) -> Int {
        let line = response.prefix { $0 != UInt8(ascii: "\r") && $0 != UInt8(ascii: "\n") }
        let parts = line.split(separator: UInt8(ascii: " "), maxSplits: 2)
        guard parts.count >= 2, let code = Int(String(decoding: parts[1], as: UTF8.self)) else { return 0 }
        return code
    }

    /// Where the value of a DATE header in an IMF-fixdate (`Sat, 28 Nov 2026 22:28:10 GMT`) is, in a head:
    /// a date written anew keeps the message's length.
    public static func dateValueRange(in head: [UInt8]) -> Range<Int>? {
        guard let range = headerValueRange("date", in: head),
            range.count == HTTPDate.epoch.utf8.count, head[range].suffix(3).elementsEqual("GMT".utf8)
        else { return nil }
        return range
    }

    /// Where the value of the first header `name` (lower case) is in `head`, without the spaces around it.
    static func headerValueRange(_ name: String, in head: [UInt8]) -> Range<Int>? {
        let name = Array(name.utf8)
        var lineStart = 0
        while lineStart < head.count {
            let lineEnd = head[lineStart...].firstIndex(of: UInt8(ascii: "\n")) ?? head.count
            var valueEnd = lineEnd
            if valueEnd > lineStart, head[valueEnd - 1] == UInt8(ascii: "\r") { valueEnd -= 1 }
            if valueEnd == lineStart { return nil }  // the empty line: the head is over
            let line = head[lineStart..<valueEnd]
            if line.count > name.count, line[lineStart + name.count] == UInt8(ascii: ":"),
                zip(line, name).allSatisfy({ asciiLowercased($0) == $1 })
            {
                var start = lineStart + name.count + 1
                while start < valueEnd, head[start] == UInt8(ascii: " ") || head[start] == UInt8(ascii: "\t") {
                    start += 1
                }
                var end = valueEnd
                while end > start, head[end - 1] == UInt8(ascii: " ") || head[end - 1] == UInt8(ascii: "\t") {
                    end -= 1
                }
                return start..<end
            }
            lineStart = lineEnd + 1
        }
        return nil
    }

    /// `bytes` with every occurrence of `old` (in any ASCII case) replaced by `new`.
    static func replacing(_ old: String, with new: String, in bytes: [UInt8]) -> [UInt8] {
        let needle = Array(old.utf8)
        let replacement = Array(new.utf8)
        guard !needle.isEmpty, bytes.count >= needle.count else { return bytes }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if index + needle.count <= bytes.count,
                asciiLowercased(bytes[index]) == needle[0],
                zip(bytes[index..<index + needle.count], needle).allSatisfy({ asciiLowercased($0) == $1 })
            {
                result += replacement
                index += needle.count
            } else {
                result.append(bytes[index])
                index += 1
            }
        }
        return result
    }
}
