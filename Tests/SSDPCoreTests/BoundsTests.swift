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

#if canImport(Glibc)
import Glibc
#endif

/// The parser, the session and the word helpers read sixteen and eight bytes at a time, and must never read
/// a byte outside the datagram, whatever its length and content. An array's spare capacity would hide such a
/// read, so here each datagram lies against an unreadable page: at the very end of a readable one (a read
/// past its last byte faults) and at the very start of one (a read before its first byte faults). A fault
/// ends the test process, and the test run fails.
@Suite struct BoundsTests {
    /// Pages around a readable region of at least `capacity` bytes, the pages either side unreadable.
    final class GuardedRegion {
        private let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        private let base: UnsafeMutableRawPointer
        private let readable: Int
        private let total: Int

        init(capacity: Int) {
            readable = (capacity + pageSize - 1) / pageSize * pageSize
            total = readable + 2 * pageSize
            base = mmap(nil, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
            precondition(base != MAP_FAILED, "mmap failed")
            precondition(mprotect(base, pageSize, PROT_NONE) == 0, "mprotect failed")
            precondition(mprotect(base + pageSize + readable, pageSize, PROT_NONE) == 0, "mprotect failed")
        }

        deinit { munmap(base, total) }

        /// Calls `body` with `bytes` copied against the end of the readable region, then against its start.
        func withBytes(_ bytes: [UInt8], _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
            precondition(bytes.count <= readable)
            for start in [pageSize + readable - bytes.count, pageSize] {
                let pointer = (base + start).assumingMemoryBound(to: UInt8.self)
                bytes.withUnsafeBufferPointer { pointer.update(from: $0.baseAddress!, count: bytes.count) }
                body(UnsafeBufferPointer(start: bytes.isEmpty ? nil : pointer, count: bytes.count))
            }
        }
    }

    /// Every length from 0 to 64 bytes, and the corpus and 50,000 fuzzed datagrams: parsed with and without
    /// diagnostics, read by the session's reader, and received by a session twice (the second time from
    /// the bytes it reported, when it reported a service).
    @Test func theParserAndTheSessionReadNothingOutsideTheDatagram() async throws {
        let corpus = try CorpusFixture.all().map { try $0.bytes() }
        let lengths = (0...64).map {
            Array("HTTP/1.1 200 OK\r\nST: upnp:rootdevice\r\nUSN: uuid:1\r\nLOCATION: x\r\n".utf8.prefix($0))
        }
        let configuration = try SSDPSearchSessionConfiguration.createMulticastConfiguration(
            forSearchTarget: "ssdp:all",
            maximumWaitResponseTime: 5
        )
        let (read, reported) = await LowPriority.run { () -> (Int, Int) in
            let region = GuardedRegion(capacity: 70_000)
            var fuzzer = DatagramFuzzer(seed: ParserFuzzTests.seed &+ 0xB0, corpus: corpus.filter { $0.count <= 4_096 })
            var session = SearchSessionStateMachine(configuration: configuration)
            _ = session.start(at: .zero)
            var spans: [SSDPHeaders.Span] = []
            var read = 0
            for datagram in lengths + corpus + (0..<50_000).map({ _ in fuzzer.next() }) {
                region.withBytes(datagram) { buffer in
                    _ = try? SSDPParser.parse(buffer)
                    _ = try? SSDPParser.parseMessage(buffer)
                    _ = try? SSDPParser.readFields(of: buffer, into: &spans)
                    _ = session.received(buffer, at: .zero)
                    _ = session.received(buffer, at: .zero)
                    read += 1
                }
            }
            return (read, session.statistics.servicesReported)
        }
        #expect(read == 2 * (lengths.count + corpus.count + 50_000))
        #expect(reported > 100)
    }

    /// `isAllASCII` and `firstIndex(of:inSixteenAt:of:)` against their byte-by-byte forms, with the odd byte
    /// at every position: `isAllASCII` at every length from 0 to 144 (its 64-byte loop twice, then its
    /// sixteen-byte one and its last sixteen), the sixteen-byte search at every offset of lengths up to 48.
    @Test func theSixteenByteHelpersAgreeWithTheirByteByByteForms() {
        let region = GuardedRegion(capacity: 160)
        for count in 0...144 {
            for position in -1..<count {
                var bytes = (0..<count).map { UInt8(ascii: "a") &+ UInt8($0 % 26) }
                if position >= 0 { bytes[position] = position % 2 == 0 ? 0xC3 : UInt8(ascii: ":") }
                region.withBytes(bytes) { buffer in
                    #expect(isAllASCII(buffer) == !bytes.contains { $0 >= 0x80 }, "\(bytes)")
                    guard count <= 48, let base = UnsafeRawPointer(buffer.baseAddress) else { return }
                    for offset in stride(from: 0, through: count - 16, by: 1) {
                        let expected = bytes[offset..<offset + 16].firstIndex(of: UInt8(ascii: ":")).map { $0 - offset }
                        #expect(firstIndex(of: UInt8(ascii: ":"), inSixteenAt: offset, of: base) == expected)
                    }
                }
            }
        }
    }
}
