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

/// Makes the datagrams the robustness test feeds the parser, deterministically from a seed.
///
/// A mix of three kinds: purely random bytes (mostly short, a few up to 2,000 bytes, a very few past the
/// 64 KiB limit, a few empty); random lines built from SSDP tokens and troublesome bytes under a real start
/// line; and, most often, real datagrams of the fixture corpus mutated one to four times (bit flips, byte
/// insertion and deletion, truncation, duplicated and deleted lines, splices, CR / LF / colon / space / tab /
/// 0x00 / 0xFF / 0x80 injection, appended bodies). To keep a million parses cheap in a debug build, most
/// corpus datagrams are excerpts: the start line and one to three consecutive lines that follow it.
struct DatagramFuzzer {
    private var random: SplitMix64
    private let corpus: [[UInt8]]
    private let excerpts: [[UInt8]]

    init(seed: UInt64, corpus: [[UInt8]]) {
        precondition(!corpus.isEmpty, "the fuzzer mutates corpus datagrams")
        random = SplitMix64(seed: seed)
        self.corpus = corpus
        excerpts = corpus.flatMap(Self.excerpts(of:))
    }

    mutating func next() -> [UInt8] {
        switch random.below(100) {
        case 0..<10: randomBytes()
        case 10..<25: randomLines()
        default: mutatedCorpusDatagram()
        }
    }

    // MARK: - Random bytes

    private mutating func randomBytes() -> [UInt8] {
        let roll = random.below(10_000)
        let count =
            switch roll {
            case 0: random.within(65_537...70_000)
            case 1..<10: 0
            case 10..<100: random.within(0...2_000)
            default: random.within(0...64)
            }
        return bytes(count: count)
    }

    private mutating func bytes(count: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count + 8)
        while bytes.count < count {
            withUnsafeBytes(of: random.next()) { bytes += $0 }
        }
        return Array(bytes.prefix(count))
    }

    // MARK: - Random lines

    private static let startLines = [
        "M-SEARCH * HTTP/1.1", "NOTIFY * HTTP/1.1", "HTTP/1.1 200 OK", "HTTP/1.0 200 OK", "m-search * http/1.1",
        "NOTIFY /event HTTP/1.1", "HTTP/1.1 404 Not Found", "BT-SEARCH * HTTP/1.1",
    ]

    private static let tokens: [[UInt8]] =
        [
            "HOST", "MAN", "MX", "ST", "NT", "NTS", "USN", "CACHE-CONTROL", "LOCATION", "SERVER", "EXT", "Location",
            "BOOTID.UPNP.ORG", "CONFIGID.UPNP.ORG", "NEXTBOOTID.UPNP.ORG", ":", ": ", " ", "\t", "=", ",", "max-age",
            "max-age=1800", "max-age = 1800", "no-cache=\"Ext\"", "\"ssdp:discover\"", "ssdp:discover", "ssdp:alive",
            "ssdp:byebye", "ssdp:update", "ssdp:all", "upnp:rootdevice", "uuid:", "urn:schemas-upnp-org:device:Basic:1",
            "239.255.255.250:1900", "[FF02::C]:1900", "0", "1", "5", "6", "-1", "UPnP/1.0", "UPnP/1.1", "é",
        ].map { Array($0.utf8) } + [[0x0D], [0x0A], [0x0D, 0x0A], [0x00], [0xFF], [0x80], [0xC3], [0xA0]]

    private mutating func randomLines() -> [UInt8] {
        let lineEnd: [UInt8] = random.below(4) == 0 ? [0x0A] : [0x0D, 0x0A]
        var bytes = Array(random.pick(Self.startLines).utf8) + lineEnd
        for _ in 0..<random.within(0...8) {
            for _ in 0..<random.within(1...6) { bytes += random.pick(Self.tokens) }
            bytes += lineEnd
        }
        if random.below(4) != 0 { bytes += lineEnd }
        return bytes
    }

    // MARK: - Mutated corpus datagrams

    private static let troublesomeBytes: [UInt8] = [0x0D, 0x0A, 0x3A, 0x20, 0x09, 0x00, 0xFF, 0x80, 0x3D, 0x2C]

    private mutating func mutatedCorpusDatagram() -> [UInt8] {
        var bytes = random.below(10) == 0 ? random.pick(corpus) : random.pick(excerpts)
        for _ in 0..<random.within(1...4) {
            mutate(&bytes)
        }
        return bytes
    }

    private mutating func mutate(_ bytes: inout [UInt8]) {
        guard !bytes.isEmpty else {
            bytes = random.pick(corpus)
            return
        }
        switch random.below(10) {
        case 0: bytes[random.below(bytes.count)] ^= 1 << random.below(8)
        case 1: bytes.insert(random.pick(Self.troublesomeBytes), at: random.below(bytes.count + 1))
        case 2: bytes[random.below(bytes.count)] = random.pick(Self.troublesomeBytes)
        case 3: bytes.insert(UInt8(truncatingIfNeeded: random.next()), at: random.below(bytes.count + 1))
        case 4: bytes.removeSubrange(randomRange(in: bytes.count, maximumLength: 4))
        case 5: bytes.removeLast(random.below(bytes.count + 1))
        case 6: duplicateLine(in: &bytes)
        case 7: bytes.removeSubrange(randomLine(in: bytes))
        case 8:
            bytes = Array(bytes.prefix(random.below(bytes.count + 1)) + random.pick(corpus).dropFirst(random.below(64)))
        default: bytes += random.below(2) == 0 ? random.pick(corpus) : self.bytes(count: random.within(1...64))
        }
    }

    private mutating func duplicateLine(in bytes: inout [UInt8]) {
        let line = randomLine(in: bytes)
        bytes.insert(contentsOf: bytes[line], at: line.upperBound)
    }

    private mutating func randomLine(in bytes: [UInt8]) -> Range<Int> {
        random.pick(Self.lineRanges(of: bytes))
    }

    /// The start line of `datagram` followed by each run of one to three of its other lines, and the empty line.
    private static func excerpts(of datagram: [UInt8]) -> [[UInt8]] {
        let lines = lineRanges(of: datagram).map { datagram[$0] }
        guard let startLine = lines.first else { return [] }
        return (1..<lines.count).flatMap { first in
            (first..<min(first + 3, lines.count)).map { last in
                Array(startLine + lines[first...last].joined()) + [0x0D, 0x0A]
            }
        }
    }

    /// The ranges of the lines of `bytes`, each with its line feed.
    private static func lineRanges(of bytes: [UInt8]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var start = 0
        while start < bytes.count {
            var end = start  // an index loop: a million datagrams in a debug build
            while end < bytes.count, bytes[end] != 0x0A { end += 1 }
            end = min(end + 1, bytes.count)
            ranges.append(start..<end)
            start = end
        }
        return ranges
    }

    private mutating func randomRange(in count: Int, maximumLength: Int) -> Range<Int> {
        let start = random.below(count)
        return start..<min(count, start + random.within(1...maximumLength))
    }
}
