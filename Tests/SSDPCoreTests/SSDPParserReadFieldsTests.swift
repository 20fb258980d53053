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

/// `SSDPParser.readFields(of:into:)`, the search session's way in: it must read every datagram as
/// `parseMessage(_:)` does, or say that it cannot (bytes that are not UTF-8).
@Suite struct SSDPParserReadFieldsTests {
    /// What reading one datagram came to, counted so that the test shows it saw every outcome.
    enum Outcome: Hashable {
        case sameError, sameFields, notUTF8
    }

    /// The corpus, then fuzzed datagrams, read into one array of fields reused throughout, as the session
    /// reuses its own: whatever the earlier datagrams left in it, each datagram's fields are its own.
    @Test func readsEveryDatagramAsParseMessageDoes() throws {
        let corpus = try CorpusFixture.all().map { try $0.bytes() }
        var fuzzer = DatagramFuzzer(seed: 20, corpus: corpus)
        var spans: [SSDPHeaders.Span] = []
        var outcomes: [Outcome: Int] = [:]
        for datagram in corpus + (0..<20_000).map({ _ in fuzzer.next() }) {
            let outcome = try #require(Self.compare(datagram, spans: &spans), "bytes \(datagram.prefix(512))")
            outcomes[outcome, default: 0] += 1
        }
        #expect(outcomes[.sameError, default: 0] > 1_000)
        #expect(outcomes[.sameFields, default: 0] > 1_000)
        #expect(outcomes[.notUTF8, default: 0] > 10)
    }

    /// A message with more fields than the reader keeps on its stack (32) is read whole into the session's
    /// array, whose capacity is kept from one datagram to the next, however many fields each has.
    @Test func readsMoreFieldsThanTheReaderKeepsOnTheStack() throws {
        let many = (1...100).map { "X-VENDOR-\($0): value \($0)\r\n" }.joined()
        let long = Array("HTTP/1.1 200 OK\r\nEXT:\r\n\(many)\r\n".utf8)
        let short = Array("M-SEARCH * HTTP/1.1\r\nST: ssdp:all\r\n\r\n".utf8)
        var spans: [SSDPHeaders.Span] = []
        for (datagram, fields) in [(long, 101), (short, 1), (long, 101)] {
            #expect(Self.compare(datagram, spans: &spans) == .sameFields)
            #expect(spans.count == fields)
            #expect(spans.capacity >= 101)
        }
    }

    /// Around the room on the stack (32 fields) and its second filling: every field read in order, and a
    /// repeat of the first field (moved to the array by then) and of the last (still on the stack) found.
    @Test(arguments: [31, 32, 33, 63, 64, 65])
    func readsEveryFieldAroundTheRoomOnTheStack(vendorFields: Int) throws {
        let names = (1...vendorFields).map { "X-V-\($0)" }
        let lines = ["NOTIFY * HTTP/1.1"] + names.map { "\($0): v" } + ["X-V-1: again", "\(names.last!): again"]
        let datagram = Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
        let parsed = try SSDPParser.parse(datagram)
        #expect(parsed.message.headers.fields.map(\.name) == names + ["X-V-1", names.last!])
        let duplicates = parsed.diagnostics.filter { $0.code == .duplicateHeader }.map(\.field)
        #expect(duplicates == ["X-V-1", names.last!])
        var spans: [SSDPHeaders.Span] = []
        #expect(Self.compare(datagram, spans: &spans) == .sameFields)
    }

    /// How `readFields` agreed with `parseMessage` on `datagram`, or `nil` (and an issue) where it did not.
    static func compare(_ datagram: [UInt8], spans: inout [SSDPHeaders.Span]) -> Outcome? {
        let parsed = Result { () throws(SSDPParseError) in try SSDPParser.parseMessage(datagram) }
        let read = datagram.withUnsafeBufferPointer { buffer in
            Result { () throws(SSDPParseError) in try SSDPParser.readFields(of: buffer, into: &spans) }
        }
        switch (parsed, read) {
        case (.failure(let expected), .failure(let error)):
            #expect(error == expected)
            return error == expected ? .sameError : nil
        case (.success(let message), .success(let kind?)):
            let headers = datagram.withUnsafeBufferPointer { SSDPHeaders(copying: $0, spans: spans) }
            #expect(kind == message.kind)
            #expect(headers == message.headers)
            return kind == message.kind && headers == message.headers ? .sameFields : nil
        case (.success, .success(nil)):
            let notUTF8 = (try? SSDPParser.parse(datagram).diagnostics.contains { $0.code == .invalidUTF8 }) == true
            #expect(notUTF8, "readFields gave up on a datagram that is UTF-8")
            return notUTF8 ? .notUTF8 : nil
        default:
            Issue.record("parseMessage: \(parsed), readFields: \(read)")
            return nil
        }
    }
}
