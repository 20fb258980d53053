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

/// One HTTP/1.1 message read whole: what a device answered, or what it sent to the checker's event
/// listener. Header names keep the sender's spelling; `header(_:)` finds one whatever its case.
struct HTTPMessage: Sendable, Hashable {
    /// The first line without its line end: `HTTP/1.1 200 OK`, or `NOTIFY /event HTTP/1.1`.
    var startLine: String
    /// The header fields in the order sent.
    var headers: [(name: String, value: String)]
    /// The body, de-chunked.
    var body: [UInt8]
    /// The message as it arrived, head, framing and all, when it came over a connection (`HTTPFetch`):
    /// what a recording keeps. Bytes after the length a Content-Length gives are not the message's.
    var raw: [UInt8] = []

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.startLine == rhs.startLine && lhs.body == rhs.body
            && lhs.headers.elementsEqual(rhs.headers) { $0.name == $1.name && $0.value == $1.value }
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(startLine)
        hasher.combine(body)
    }

    /// The value of the first header called `name`, compared without case.
    func header(_ name: String) -> String? {
        headers.first { $0.name.equalsIgnoringASCIICase(name) }?.value
    }

    /// The status code of a response (`nil` for a request or a broken status line).
    var status: Int? {
        let parts = startLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/") else { return nil }
        return Int(parts[1])
    }

    /// The body as text (bytes that are not UTF-8 shown as U+FFFD).
    var text: String { String(decoding: body, as: UTF8.self) }
}

/// Reads one HTTP/1.1 message from bytes as they arrive, bounded: a head over `maximumHeadSize` or a
/// body over `maximumBodySize` is refused rather than kept.
///
/// The body is delimited as RFC 9112 §6.3 says: chunked, else Content-Length, else (a response) the
/// connection's end. A response to a request that has no body (`bodyless`) ends with its head.
struct HTTPMessageReader: Sendable {
    /// What the bytes so far amount to.
    enum Progress: Sendable, Hashable {
        /// More bytes are needed.
        case incomplete
        /// The message is whole.
        case complete(HTTPMessage)
        /// The bytes are not an HTTP message, or not one within bounds; the reason says which.
        case invalid(String)
    }

    /// The largest head (start line and headers) read.
    static let maximumHeadSize = 16 * 1024

    /// The largest body read.
    let maximumBodySize: Int
    /// Whether a message without a length ends when the connection does (a response), or has no body
    /// (a request, RFC 9112 §6.3 rule 6).
    let endsAtClose: Bool
    /// Whether the message ends only when the connection does, whatever its head says: the answer to a
    /// HEAD, whose Content-Length is the GET's, and after which a server may send a page anyway (miniupnpd's
    /// 501): all of it is kept, within `maximumBodySize`.
    var untilClose = false

    /// What `bytes` (everything received so far) amount to; `closed` when the peer has closed.
    func read(_ bytes: [UInt8], closed: Bool) -> Progress {
        guard let headEnd = Self.headEnd(bytes) else {
            if bytes.count > Self.maximumHeadSize {
                return .invalid("the head is longer than \(Self.maximumHeadSize) bytes")
            }
            return closed
                ? .invalid(bytes.isEmpty ? "the connection closed without an answer" : "the head is cut off")
                : .incomplete
        }
        guard headEnd.start <= Self.maximumHeadSize else {
            return .invalid("the head is longer than \(Self.maximumHeadSize) bytes")
        }
        // Split as bytes: in a String, CR LF is one Character and would not split at "\n".
        let lines = bytes[..<headEnd.start].split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            .map { String(decoding: $0.last == UInt8(ascii: "\r") ? $0.dropLast() : $0, as: UTF8.self) }
        guard let first = lines.first, !first.isEmpty else { return .invalid("the start line is empty") }
        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":"), colon > line.startIndex else {
                return .invalid("a header line without a name and a colon: \(line.prefix(80))")
            }
            headers.append(
                (String(line[..<colon]), String(line[line.index(after: colon)...].trimmingSpacesAndTabs()))
            )
        }
        var message = HTTPMessage(startLine: String(first), headers: headers, body: [])
        let body = bytes[headEnd.end...]
        if untilClose {
            guard body.count <= maximumBodySize else {
                return .invalid("the body is more than the \(maximumBodySize) bytes read")
            }
            guard closed else { return .incomplete }
            message.body = Array(body)
            return .complete(message)
        }
        if message.header("Transfer-Encoding")?.lowercased().contains("chunked") == true {
            // The chunk lines and their line ends, beside the body itself: a little slack, no more.
            guard body.count <= maximumBodySize + Self.maximumHeadSize else {
                return .invalid("the chunked body is more than the \(maximumBodySize) bytes read")
            }
            switch dechunked(body) {
            case .complete(let decoded):
                message.body = decoded.body
                return .complete(message)
            case .invalid(let reason): return .invalid(reason)
            case .incomplete: return closed ? .invalid("the chunked body is cut off") : .incomplete
            }
        }
        if let length = message.header("Content-Length") {
            guard let count = Int(length.trimmingSpacesAndTabs()), count >= 0 else {
                return .invalid("Content-Length is not a number: \(length)")
            }
            guard count <= maximumBodySize else {
                return .invalid("the body is \(count) bytes, more than the \(maximumBodySize) read")
            }
            guard body.count >= count else {
                return closed ? .invalid("the body is cut off at \(body.count) of \(count) bytes") : .incomplete
            }
            message.body = Array(body.prefix(count))
            // What came after the length the head gives is not the message's (libupnp's extra CR LF CR LF).
            message.raw = Array(bytes[..<(headEnd.end + count)])
            return .complete(message)
        }
        guard endsAtClose else { return .complete(message) }
        guard body.count <= maximumBodySize else {
            return .invalid("the body is more than the \(maximumBodySize) bytes read")
        }
        guard closed else { return .incomplete }
        message.body = Array(body)
        return .complete(message)
    }

    /// Where the blank line after the head starts and where the body starts (CRLF CRLF, or bare LFs).
    private static func headEnd(_ bytes: [UInt8]) -> (start: Int, end: Int)? {
        var index = 0
        while let lineFeed = bytes[index...].firstIndex(of: UInt8(ascii: "\n")) {
            let next = lineFeed + 1
            if next < bytes.count, bytes[next] == UInt8(ascii: "\n") { return (lineFeed, next + 1) }
            if next + 1 < bytes.count, bytes[next] == UInt8(ascii: "\r"), bytes[next + 1] == UInt8(ascii: "\n") {
                return (lineFeed, next + 2)
            }
            index = next
        }
        return nil
    }

    /// A chunked body decoded, as a `Progress` of a message that has only a body.
    private func dechunked(_ bytes: ArraySlice<UInt8>) -> Progress {
        var decoded: [UInt8] = []
        var index = bytes.startIndex
        while true {
            guard let lineFeed = bytes[index...].firstIndex(of: UInt8(ascii: "\n")) else {
                return bytes.endIndex - index > 1_024 ? .invalid("a chunk line is longer than 1 KiB") : .incomplete
            }
            let line = bytes[index..<lineFeed]
            let sizeText =
                String(decoding: line.last == UInt8(ascii: "\r") ? line.dropLast() : line, as: UTF8.self)
                .split(separator: ";").first.map { String($0.trimmingSpacesAndTabs()) } ?? ""
            guard let size = Int(sizeText, radix: 16), size >= 0 else {
                return .invalid("a chunk size is not hexadecimal: \(sizeText.prefix(20))")
            }
            guard size <= maximumBodySize - decoded.count else {
                return .invalid("the body is more than the \(maximumBodySize) bytes read")
            }
            let start = lineFeed + 1
            // The last chunk; trailers are not read.
            if size == 0 { return .complete(HTTPMessage(startLine: "", headers: [], body: decoded)) }
            guard bytes.endIndex - start >= size + 1 else { return .incomplete }
            decoded += bytes[start..<(start + size)]
            index = start + size
            // the chunk's CRLF (or LF)
            if index < bytes.endIndex, bytes[index] == UInt8(ascii: "\r") { index += 1 }
            guard index < bytes.endIndex else { return .incomplete }
            guard bytes[index] == UInt8(ascii: "\n") else { return .invalid("a chunk does not end with a line end") }
            index += 1
        }
    }
}
