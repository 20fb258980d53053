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

/// Reads datagrams into `SSDPMessage`s the way a tolerant control point must.
///
/// Accepts CRLF or bare LF line ends, a missing final blank line, any case in header names, any
/// whitespace around the colon, duplicate headers and non-UTF-8 bytes (replaced with U+FFFD), and
/// records each of these as an `SSDPDiagnostic` (reference/ssdp-protocol-facts.md §3–4). Throws an
/// `SSDPParseError` only for what cannot be an SSDP message: an empty or oversized datagram, an
/// unknown start line, or a header line without a colon. It never traps, whatever the bytes.
public enum SSDPParser {
    /// The largest datagram accepted: 64 KiB, gssdp's and go-ssdp's read buffer.
    public static let maximumDatagramSize = 65_536

    /// Parses one datagram.
    public static func parse(_ bytes: some Collection<UInt8>) throws(SSDPParseError) -> SSDPParsedMessage {
        try parse(bytes, diagnosing: true)
    }

    /// Parses one datagram given as an array: as `parse(_:)` parses any bytes, the message's headers keeping
    /// the array itself rather than a copy of its bytes.
    public static func parse(_ bytes: [UInt8]) throws(SSDPParseError) -> SSDPParsedMessage {
        try bytes.withUnsafeBufferPointer { parse(buffer: $0, diagnosing: true, array: bytes) }.get()
    }

    /// Parses one datagram into its message alone: what `parse(_:)` returns as `message`, and the same
    /// errors, without looking for diagnostics. What a control point or a device needs, for about
    /// two thirds of the cost.
    public static func parseMessage(_ bytes: some Collection<UInt8>) throws(SSDPParseError) -> SSDPMessage {
        try parse(bytes, diagnosing: false).message
    }

    /// `parseMessage(_:)` of a datagram given as an array: the message's headers keep the array itself.
    public static func parseMessage(_ bytes: [UInt8]) throws(SSDPParseError) -> SSDPMessage {
        try bytes.withUnsafeBufferPointer { parse(buffer: $0, diagnosing: false, array: bytes) }.get().message
    }

    private static func parse(
        _ bytes: some Collection<UInt8>,
        diagnosing: Bool
    ) throws(SSDPParseError) -> SSDPParsedMessage {
        let result =
            bytes.withContiguousStorageIfAvailable { parse(buffer: $0, diagnosing: diagnosing, array: nil) }
            ?? Array(bytes).withUnsafeBufferPointer { parse(buffer: $0, diagnosing: diagnosing, array: nil) }
        return try result.get()
    }

    /// Reads the start line and header lines of the datagram in `buffer` without copying it: the kind of
    /// message, and each field's name and value as ranges of `buffer` in `spans` (what it held replaced, its
    /// capacity kept, so that a caller reading many datagrams allocates once; emptied when the datagram is
    /// read and fails, left as it was when it is empty or too large to be read). The same errors as `parseMessage(_:)`;
    /// `nil` when a name or value is not UTF-8, which only `parseMessage(_:)` decodes.
    ///
    /// The search session's ingest reads an answer this way, unless it repeats byte for byte one that reported
    /// a service, and copies the bytes into `SSDPHeaders` only for an answer it keeps: the answers that repeat
    /// a reported service's values with other bytes cost no allocation at all.
    static func readFields(
        of buffer: UnsafeBufferPointer<UInt8>,
        into spans: inout [SSDPHeaders.Span]
    ) throws(SSDPParseError) -> SSDPMessage.Kind? {
        var isASCII = false
        return try readFields(of: buffer, into: &spans, isASCII: &isASCII)
    }

    /// `readFields(of:into:)`, setting `isASCII` to whether every byte of the start line and header lines is
    /// ASCII (which the reader finds as it looks for line ends): then no name or value needs decoding.
    static func readFields(
        of buffer: UnsafeBufferPointer<UInt8>,
        into spans: inout [SSDPHeaders.Span],
        isASCII: inout Bool
    ) throws(SSDPParseError) -> SSDPMessage.Kind? {
        try checkSize(of: buffer)
        let result = withUnsafeTemporaryAllocation(
            of: SSDPHeaders.Span.self,
            capacity: fieldsOnTheStack
        ) {
            scratch -> Result<(SSDPMessage.Kind?, Bool), SSDPParseError> in
            var reader = Reader<WithoutDiagnostics>(buffer: buffer, scratch: scratch)
            do throws(SSDPParseError) {
                let kind = try reader.readFields()
                reader.moveSpans(to: &spans)
                return .success((reader.hasInvalidUTF8 ? nil : kind, reader.isASCII))
            } catch {
                spans.removeAll(keepingCapacity: true)
                return .failure(error)
            }
        }
        let (kind, ascii) = try result.get()
        isASCII = ascii
        return kind
    }

    /// How many fields a reader keeps on the stack before it moves them to an array: more than devices send
    /// (a Sonos player 13).
    static let fieldsOnTheStack = 32

    /// Throws for a datagram that is empty or larger than `maximumDatagramSize`.
    private static func checkSize(of buffer: UnsafeBufferPointer<UInt8>) throws(SSDPParseError) {
        guard !buffer.isEmpty else { throw SSDPParseError(.emptyDatagram) }
        guard buffer.count <= maximumDatagramSize else { throw SSDPParseError(.datagramTooLarge) }
    }

    /// Parses one datagram given as text (convenient in tests and tools; the text's UTF-8 is parsed).
    public static func parse(_ text: String) throws(SSDPParseError) -> SSDPParsedMessage {
        try parse(Array(text.utf8))
    }

    /// Parses the datagram in `buffer`; `array`, when given, is the array `buffer` is the storage of, which
    /// the headers then keep instead of a copy.
    private static func parse(
        buffer: UnsafeBufferPointer<UInt8>,
        diagnosing: Bool,
        array: [UInt8]?
    ) -> Result<SSDPParsedMessage, SSDPParseError> {
        do {
            try checkSize(of: buffer)
        } catch {
            return .failure(error)
        }
        return withUnsafeTemporaryAllocation(
            of: SSDPHeaders.Span.self,
            capacity: fieldsOnTheStack
        ) {
            scratch in
            do throws(SSDPParseError) {
                if diagnosing {
                    var reader = Reader<WithDiagnostics>(buffer: buffer, scratch: scratch)
                    return .success(try reader.read(keeping: array))
                }
                var reader = Reader<WithoutDiagnostics>(buffer: buffer, scratch: scratch)
                return .success(try reader.read(keeping: array))
            } catch {
                return .failure(error)
            }
        }
    }
}

// MARK: - Reader

extension SSDPParser {
    /// Whether `byte` is `upperCase` in either case; outside the generic reader, whose metatype its closures
    /// would otherwise capture.
    private static func equalIgnoringCase(_ byte: UInt8, _ upperCase: UInt8) -> Bool {
        byte == upperCase || asciiLowercased(byte) == asciiLowercased(upperCase)
    }

    /// Whether a reader looks for diagnostics (without, the message and the errors are the same): a type,
    /// so that each kind of reader is compiled on its own, and the one without carries none of their code.
    private protocol ReadingMode {
        static var diagnosing: Bool { get }
    }

    private enum WithDiagnostics: ReadingMode {
        static var diagnosing: Bool { true }
    }

    private enum WithoutDiagnostics: ReadingMode {
        static var diagnosing: Bool { false }
    }

    /// One pass over a datagram, collecting diagnostics as it goes (unless its `Mode` says not to). Lines,
    /// names and values are ranges of the datagram; the headers keep one copy of its header block and the
    /// ranges into it.
    private struct Reader<Mode: ReadingMode> {
        let buffer: UnsafeBufferPointer<UInt8>
        /// Whether to look for diagnostics.
        var diagnosing: Bool { Mode.diagnosing }
        var position = 0
        var lineNumber = 0
        var diagnostics: [SSDPDiagnostic] = []
        /// Each field's name and value, as ranges of `buffer`: the first `fieldsOnTheStack` in `scratch` (on the
        /// stack of the parse: no allocation and no check of an array's capacity per field), and, in a message
        /// with more fields, the earlier ones moved to `spilled` each time `scratch` fills. The headers get
        /// them in one array: of their exact size when they fit in `scratch`, else `spilled` grown by them.
        let scratch: UnsafeMutableBufferPointer<SSDPHeaders.Span>
        var scratchCount = 0
        var spilled: [SSDPHeaders.Span] = []
        /// Whether a name or value so far had bytes that are not UTF-8 (each becomes U+FFFD in the headers).
        var hasInvalidUTF8 = false
        /// One bit per name seen so far, chosen by its length and its first and last letter: a name whose bit
        /// is clear is not a duplicate, without comparing it to every earlier name.
        var nameBits: UInt64 = 0
        /// Where the first field of each name SSDP defines is (read while diagnosing): the conformance pass
        /// reads them here, and a repeated one is a duplicate without comparing names.
        var wellKnownPositions = SSDPHeaders.WellKnownPositions()

        /// A line without its line end, and whether all its bytes are ASCII (nearly always: nothing to check).
        /// `false` may be wrong, never `true`: the bytes looked at after its line end count too (`lineFeed`).
        struct Line {
            var range: Range<Int>
            var isASCII: Bool
        }

        /// Whether every line read so far is ASCII (each line says so too: `Line.isASCII`).
        var isASCII = true

        /// Whether the header lines ended with a blank line (`readFields()` sets it).
        var sawBlankLine = false

        /// A reader of `buffer` whose fields go to `scratch`, which must hold `fieldsOnTheStack` spans.
        init(buffer: UnsafeBufferPointer<UInt8>, scratch: UnsafeMutableBufferPointer<SSDPHeaders.Span>) {
            self.buffer = buffer
            self.scratch = scratch
        }

        /// The number of fields read so far.
        var fieldCount: Int { spilled.count &+ scratchCount }

        /// The fields read so far, in `scratch`, after those in `spilled`.
        var scratchSpans: UnsafeBufferPointer<SSDPHeaders.Span> {
            UnsafeBufferPointer(rebasing: scratch[..<scratchCount])
        }

        /// Adds a field's `span`, moving `scratch`'s to `spilled` when it is full.
        @inline(__always)  // one call per header line
        mutating func append(_ span: SSDPHeaders.Span) {
            if scratchCount == scratch.count {
                spilled.append(contentsOf: scratch)
                scratchCount = 0
            }
            scratch[scratchCount] = span
            scratchCount &+= 1
        }

        /// The fields read, in one array: of their exact size when they fit in `scratch`.
        mutating func takeSpans() -> [SSDPHeaders.Span] {
            guard !spilled.isEmpty else { return Array(scratchSpans) }
            var spans: [SSDPHeaders.Span] = []
            swap(&spans, &spilled)
            spans.append(contentsOf: scratchSpans)
            return spans
        }

        /// Puts the fields read in `spans`, in place of what it held, keeping its capacity.
        func moveSpans(to spans: inout [SSDPHeaders.Span]) {
            spans.removeAll(keepingCapacity: true)
            if !spilled.isEmpty { spans.append(contentsOf: spilled) }
            spans.append(contentsOf: scratchSpans)
        }

        /// Reads the datagram; the headers keep `array` (`buffer`'s own storage), when given, as their text.
        mutating func read(keeping array: [UInt8]?) throws(SSDPParseError) -> SSDPParsedMessage {
            let kind = try readFields()
            let message = SSDPMessage(kind: kind, headers: headers(keeping: array))
            guard diagnosing else { return SSDPParsedMessage(message: message, diagnostics: []) }
            if !sawBlankLine {
                note(.missingFinalBlankLine)
            } else if buffer[position...].contains(where: { !isWhitespace($0) }) {
                note(.bodyPresent)
            }
            SSDPConformance.diagnose(message, positions: wellKnownPositions, into: &diagnostics)
            var found: [SSDPDiagnostic] = []
            swap(&found, &diagnostics)  // moved out, not copied: the reader's end releases nothing
            return SSDPParsedMessage(message: message, diagnostics: found)
        }

        /// Reads the start line and the header lines, up to the blank line or the end of the datagram.
        mutating func readFields() throws(SSDPParseError) -> SSDPMessage.Kind {
            guard let startLine = nextLine() else { throw SSDPParseError(.unknownStartLine, line: 1) }
            let kind = try readStartLine(startLine)
            while let line = nextLine() {
                if line.range.isEmpty {
                    sawBlankLine = true
                    break
                }
                try readHeaderLine(line)
            }
            return kind
        }

        /// The headers read, which take the spans: over `array`, the datagram's own array, when given; else
        /// over a copy of the datagram's bytes up to the last value; or, where some were not UTF-8, the decoded
        /// names and values (U+FFFD in place of what could not be read).
        mutating func headers(keeping array: [UInt8]?) -> SSDPHeaders {
            let fields = takeSpans()
            if !hasInvalidUTF8, let array { return SSDPHeaders(text: array, spans: fields) }
            guard hasInvalidUTF8 else { return SSDPHeaders(copying: buffer, spans: fields) }
            // One text for every name and value: those that are UTF-8 (nearly all) copied as they are, the
            // others decoded, with U+FFFD in place of what could not be read.
            var text: [UInt8] = []
            text.reserveCapacity((fields.last?.value.upperBound ?? 0) + 16)
            var decoded: [SSDPHeaders.Span] = []
            decoded.reserveCapacity(fields.count)
            for field in fields {
                let name = appendDecoding(field.name, to: &text)
                decoded.append(SSDPHeaders.Span(name: name, value: appendDecoding(field.value, to: &text)))
            }
            return SSDPHeaders(text: text, spans: decoded)
        }

        /// Appends the bytes at `range` to `text`, decoded: as they are when they are UTF-8, else with U+FFFD
        /// in place of what could not be read. Returns where they are in `text`.
        func appendDecoding(_ range: Range<Int>, to text: inout [UInt8]) -> Range<Int> {
            let start = text.count
            let bytes = UnsafeBufferPointer(rebasing: buffer[range])
            if isValidUTF8(bytes) {
                text.append(contentsOf: bytes)
            } else {
                text.append(contentsOf: String(decoding: bytes, as: UTF8.self).utf8)
            }
            return start..<text.count
        }

        /// The next line without its line end, or `nil` at the end of the datagram.
        @inline(__always)  // one call per line
        mutating func nextLine() -> Line? {
            guard position < buffer.endIndex else { return nil }
            lineNumber &+= 1  // at most one per byte of a datagram of at most 64 KiB
            let start = position
            let (end, isASCII) = lineFeed(from: start)
            if !isASCII { self.isASCII = false }
            guard end < buffer.endIndex else {
                position = end
                return Line(range: start..<end, isASCII: isASCII)
            }
            position = end &+ 1
            if end > start, buffer[end &- 1] == UInt8(ascii: "\r") {
                return Line(range: start..<(end &- 1), isASCII: isASCII)
            }
            note(.bareLineFeed)
            return Line(range: start..<end, isASCII: isASCII)
        }

        /// The index of the first LF at or after `start` (the end of `buffer` when there is none), and
        /// whether every byte before it is ASCII (nearly always: then its bytes need no checking).
        ///
        /// Sixteen bytes at a time (`firstIndex(of:inSixteen:)`), then eight; the last few bytes go one by
        /// one. The bytes looked at are or-ed together as they go, which says whether they are ASCII: those
        /// after the LF in its sixteen too, so that a line may be taken for one that is not, never the other
        /// way. Offsets wrap rather than trap: a datagram is at most 64 KiB.
        @inline(__always)
        func lineFeed(from start: Int) -> (Int, isASCII: Bool) {
            let count = buffer.count
            var index = start
            var seen: UInt64 = 0  // the bytes looked at, or-ed by eight: a high bit is a byte that is not ASCII
            var seenLast: UInt64 = 0  // the same for the last fifteen bytes or fewer
            search: if let base = UnsafeRawPointer(buffer.baseAddress) {
                while index &+ 16 <= count {
                    let chunk = sixteenBytes(at: index, of: base)
                    seen |= chunk.low | chunk.high
                    if let offset = firstIndex(of: UInt8(ascii: "\n"), inSixteen: chunk) {
                        index &+= offset
                        break search
                    }
                    index &+= 16
                }
                if index &+ 8 <= count {
                    let word = loadWord(buffer, at: index)
                    seenLast = word
                    let marks = bytesEqual(to: UInt8(ascii: "\n"), in: word)
                    if marks != 0 {
                        index &+= marks.trailingZeroBitCount &>> 3
                        break search
                    }
                    index &+= 8
                }
                while index < count, buffer[index] != UInt8(ascii: "\n") {
                    seenLast |= UInt64(buffer[index])
                    index &+= 1
                }
            }
            return (index, (seen | seenLast) & 0x8080_8080_8080_8080 == 0)
        }

        // MARK: Start line

        mutating func readStartLine(_ line: Line) throws(SSDPParseError) -> SSDPMessage.Kind {
            // Nearly every start line is one of the three canonical ones, byte for byte.
            let text = UnsafeBufferPointer(rebasing: buffer[line.range])
            switch text.first {  // compared with literals, `SSDPMessage.startLine`'s (a test holds them equal)
            case UInt8(ascii: "H") where text.reads("HTTP/1.1 200 OK"): return .response
            case UInt8(ascii: "N") where text.reads("NOTIFY * HTTP/1.1"): return .notify
            case UInt8(ascii: "M") where text.reads("M-SEARCH * HTTP/1.1"): return .search
            default: break
            }
            if !line.isASCII { checkUTF8(line.range) }
            // The words between spaces: the first three, and how many there are (up to four; more are not read).
            var words = (first: 0..<0, second: 0..<0, third: 0..<0)
            var count = 0
            var start = line.range.lowerBound
            while count < 4 {
                while start < line.range.upperBound, buffer[start] == UInt8(ascii: " ") { start &+= 1 }
                guard start < line.range.upperBound else { break }
                var end = start
                while end < line.range.upperBound, buffer[end] != UInt8(ascii: " ") { end &+= 1 }
                switch count {
                case 0: words.first = start..<end
                case 1: words.second = start..<end
                case 2: words.third = start..<end
                default: break
                }
                count &+= 1
                start = end
            }
            let (first, second, third) = (buffer[words.first], buffer[words.second], buffer[words.third])
            let kind: SSDPMessage.Kind
            if count >= 1, first.starts(with: "HTTP/1.".utf8, by: SSDPParser.equalIgnoringCase) {
                guard count >= 2, second.elementsEqual("200".utf8) else { throw unknownStartLine(line) }
                kind = .response
            } else if count == 3, third.starts(with: "HTTP/1.".utf8, by: SSDPParser.equalIgnoringCase) {
                if first.elementsEqual("M-SEARCH".utf8, by: SSDPParser.equalIgnoringCase) {
                    kind = .search
                } else if first.elementsEqual("NOTIFY".utf8, by: SSDPParser.equalIgnoringCase) {
                    kind = .notify
                } else {
                    throw unknownStartLine(line)
                }
            } else {
                throw unknownStartLine(line)
            }
            note(.nonStandardStartLine)  // understood, but none of the three lines above
            return kind
        }

        func unknownStartLine(_ line: Line) -> SSDPParseError {
            SSDPParseError(.unknownStartLine, line: lineNumber, text: excerpt(string(line.range)))
        }

        // MARK: Header lines

        /// Reads one header line into the fields read, noting what is irregular about it.
        @inline(__always)  // one call per line
        mutating func readHeaderLine(_ line: Line) throws(SSDPParseError) {
            guard let (name, colon, value) = split(line) else { throw malformedHeaderLine(line) }
            if !line.isASCII {
                checkUTF8(name)
                checkUTF8(value)
            }
            // Most lines of most devices are written as UDA writes them: nothing to note, unless the name repeats.
            if diagnosing
                && !(Self.isWrittenAsUDAWritesIt(name: name, colon: colon, value: value, line: line.range, in: buffer)
                    && Self.nameAsUDAWritesIt(name, in: buffer).map({ wellKnownPositions.note($0, at: fieldCount) })
                        == true)
            {
                diagnose(name: name, value: value, colon: colon, line: line)
            }
            append(SSDPHeaders.Span(name: name, value: value))
        }

        /// Whether a line's name begins it, its colon follows the name, and one space follows the colon (or none,
        /// when the value is empty): the spacing UDA writes, where `diagnose` notes nothing.
        @inline(__always)
        static func isWrittenAsUDAWritesIt(
            name: Range<Int>,
            colon: Int,
            value: Range<Int>,
            line: Range<Int>,
            in buffer: UnsafeBufferPointer<UInt8>
        ) -> Bool {
            guard name.lowerBound == line.lowerBound, name.upperBound == colon else { return false }
            let afterColon = colon &+ 1
            return value.lowerBound == afterColon &+ 1
                ? buffer[afterColon] == UInt8(ascii: " ") : value.lowerBound == afterColon && value.isEmpty
        }

        /// The name SSDP defines that the bytes at `range` of `buffer` spell as UDA writes it, in upper case, or
        /// `nil` (for any other name, another spelling, or one `classifyASCII` would read byte by byte). Two
        /// words, as `WellKnownName.spelling` holds a name of up to sixteen bytes; longer ones are left to
        /// `diagnose`.
        @inline(__always)
        static func nameAsUDAWritesIt(
            _ range: Range<Int>,
            in buffer: UnsafeBufferPointer<UInt8>
        ) -> SSDPHeaders.WellKnownName? {
            let count = range.count
            guard count <= 16, range.lowerBound &+ 8 <= buffer.count else { return nil }
            var first = loadWord(buffer, at: range.lowerBound)
            if count < 8 { first &= ~0 &>> (64 &- 8 &* count) }
            let last = count < 8 ? 0 : loadWord(buffer, at: range.upperBound &- 8)
            let words = SSDPHeaders.WellKnownName.Words(first, 0, last)
            return SSDPHeaders.WellKnownName.named(count: count, words: words, asUDAWritesIt: true)
        }

        /// The name, the colon and the value of a header line, the name and value without the spaces and
        /// tabs around them; `nil` for a line without a colon or without a name (`malformedHeaderLine`).
        /// Not throwing, so that it is inlined into the loop over the lines.
        @inline(__always)  // one call per line
        func split(_ line: Line) -> (name: Range<Int>, colon: Int, value: Range<Int>)? {
            // Index loops over the buffer itself: a slice would check every subscript, even in release builds.
            let (start, end) = (line.range.lowerBound, line.range.upperBound)
            let colon = Self.colon(in: buffer, from: start, to: end)
            guard colon < end else { return nil }
            var nameStart = start
            while nameStart < colon, isSpaceOrTab(buffer[nameStart]) { nameStart &+= 1 }
            var nameEnd = colon
            while nameEnd > nameStart, isSpaceOrTab(buffer[nameEnd &- 1]) { nameEnd &-= 1 }
            guard nameStart < nameEnd else { return nil }
            var valueStart = colon &+ 1
            while valueStart < end, isSpaceOrTab(buffer[valueStart]) { valueStart &+= 1 }
            var valueEnd = end
            while valueEnd > valueStart, isSpaceOrTab(buffer[valueEnd &- 1]) { valueEnd &-= 1 }
            return (nameStart..<nameEnd, colon, valueStart..<valueEnd)
        }

        /// Why `split` could not read `line`: it has no colon, or no name before it.
        func malformedHeaderLine(_ line: Line) -> SSDPParseError {
            let colon = Self.colon(in: buffer, from: line.range.lowerBound, to: line.range.upperBound)
            let code: SSDPParseError.Code = colon < line.range.upperBound ? .emptyHeaderName : .headerLineWithoutColon
            return SSDPParseError(code, line: lineNumber, text: excerpt(string(line.range)))
        }

        /// The index of the first colon in `start..<end` of `buffer`, or `end` when there is none: the first
        /// sixteen bytes at once (a name is nearly always shorter), then eight at a time, the last few one by one.
        @inline(__always)  // one call per line
        static func colon(in buffer: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int {
            var index = start
            if start &+ 16 <= buffer.count, let base = UnsafeRawPointer(buffer.baseAddress) {
                if let offset = firstIndex(of: UInt8(ascii: ":"), inSixteenAt: start, of: base) {
                    return Swift.min(start &+ offset, end)  // one after the line's end is not in the line
                }
                index &+= 16
            }
            while index &+ 8 <= end {
                let colons = bytesEqual(to: UInt8(ascii: ":"), in: loadWord(buffer, at: index))
                if colons != 0 { return index &+ colons.trailingZeroBitCount &>> 3 }
                index &+= 8
            }
            while index < end, buffer[index] != UInt8(ascii: ":") { index &+= 1 }
            return Swift.min(index, end)
        }

        /// Notes what is irregular about a header line: `name` and `value` are at these ranges of `line`,
        /// around the colon at `colon`.
        @inline(__always)  // one call per header line
        mutating func diagnose(name: Range<Int>, value: Range<Int>, colon: Int, line: Line) {
            let (known, hasLowercase, hasDot) =
                line.isASCII ? Self.classifyASCII(name, in: buffer) : Self.classify(name, in: buffer)
            // A name SSDP defines is a duplicate when an earlier field had it; any other is compared with the
            // earlier names (which cannot be one SSDP defines). Only a duplicate's diagnostics can repeat.
            let repeated = known.map { !wellKnownPositions.note($0, at: fieldCount) } ?? isDuplicate(name)
            let leadingWhitespace = value.lowerBound - (colon + 1)
            let spaceAroundName = name.lowerBound != line.range.lowerBound || name.upperBound != colon
            let oneSpaceAfterColon = leadingWhitespace == 1 && buffer[colon + 1] == UInt8(ascii: " ")
            if spaceAroundName || (leadingWhitespace > 0 && !oneSpaceAfterColon) {
                note(
                    .extraWhitespaceAroundColon,
                    field: name,
                    known: known,
                    lowercase: hasLowercase,
                    repeated: repeated
                )
            } else if leadingWhitespace == 0 && !value.isEmpty {
                note(.noSpaceAfterColon, field: name, known: known, lowercase: hasLowercase, repeated: repeated)
            }
            // A lower-case letter, unless the name is a `token.domain` one, which is exempt (UDA 1.1 §1.1.3).
            if hasLowercase && !hasDot {
                note(.lowercaseHeaderName, field: name, known: known, lowercase: hasLowercase, repeated: repeated)
            }
            if repeated {
                note(.duplicateHeader, field: name, known: known, lowercase: hasLowercase)
            }
        }

        /// Which name SSDP defines the name at `range` of `buffer` is, if any, whether it has a lower-case
        /// letter, and whether it has a dot.
        static func classify(
            _ range: Range<Int>,
            in buffer: UnsafeBufferPointer<UInt8>
        ) -> (SSDPHeaders.WellKnownName?, lowercase: Bool, dot: Bool) {
            let bytes = buffer[range]
            return (
                SSDPHeaders.WellKnownName(spelledBy: UnsafeBufferPointer(rebasing: bytes)),
                bytes.contains { $0 &- UInt8(ascii: "a") < 26 }, bytes.contains(UInt8(ascii: "."))
            )
        }

        /// `classify(_:in:)` of an ASCII name, from the words `WellKnownName.spelling` compares: the first eight
        /// bytes (a name is followed by its colon, so they are in the buffer; those past the name masked off),
        /// the eight after them, and the last eight, which together cover a name of up to 24 bytes. A longer
        /// one, or one among the datagram's last eight bytes, goes byte by byte.
        @inline(__always)
        static func classifyASCII(
            _ range: Range<Int>,
            in buffer: UnsafeBufferPointer<UInt8>
        ) -> (SSDPHeaders.WellKnownName?, lowercase: Bool, dot: Bool) {
            let count = range.count
            guard count <= 24, range.lowerBound &+ 8 <= buffer.count else { return classify(range, in: buffer) }
            let dot = UInt8(ascii: ".")
            var first = loadWord(buffer, at: range.lowerBound)
            guard count > 8 else {  // most names: one word
                if count < 8 { first &= ~0 &>> (64 &- 8 &* count) }  // zeros: neither letters nor dots
                let lowered = lowercasedASCII(first)
                let words = SSDPHeaders.WellKnownName.Words(lowered, 0, count == 8 ? lowered : 0)
                let (lowercase, dots) = (lowercaseLetters(in: first), bytesEqual(to: dot, in: first))
                return (SSDPHeaders.WellKnownName.named(count: count, words: words), lowercase != 0, dots != 0)
            }
            let middle = count > 16 ? loadWord(buffer, at: range.lowerBound &+ 8) : 0
            let last = loadWord(buffer, at: range.upperBound &- 8)
            let lowercase = lowercaseLetters(in: first) | lowercaseLetters(in: middle) | lowercaseLetters(in: last)
            // A byte after a dot may be marked wrongly, never one before: any mark means a dot.
            let dots = bytesEqual(to: dot, in: first) | bytesEqual(to: dot, in: middle) | bytesEqual(to: dot, in: last)
            let words = SSDPHeaders.WellKnownName.Words(
                lowercasedASCII(first),
                lowercasedASCII(middle),
                lowercasedASCII(last)
            )
            return (SSDPHeaders.WellKnownName.named(count: count, words: words), lowercase != 0, dots != 0)
        }

        /// Whether an earlier field has the name at `name`, ignoring case. Once bytes that are not UTF-8
        /// were seen, names are compared as decoded, where different such bytes read alike (U+FFFD).
        mutating func isDuplicate(_ name: Range<Int>) -> Bool {
            let first = UInt64(asciiLowercased(buffer[name.lowerBound]))
            let last = UInt64(asciiLowercased(buffer[name.upperBound - 1]))
            let bit: UInt64 = 1 << ((UInt64(name.count) &* 7 &+ first &* 3 &+ last) % 64)
            defer { nameBits |= bit }
            guard nameBits & bit != 0 || hasInvalidUTF8 else { return false }
            guard !hasInvalidUTF8 else {
                let decoded = string(name)
                return containsField { string($0.name).equalsIgnoringASCIICase(decoded) }
            }
            let bytes = UnsafeBufferPointer(rebasing: buffer[name])
            return containsField { equalsIgnoringASCIICase(buffer[$0.name], bytes) }
        }

        /// Whether a field read so far is one that `matches`.
        func containsField(where matches: (SSDPHeaders.Span) -> Bool) -> Bool {
            spilled.contains(where: matches) || scratchSpans.contains(where: matches)
        }

        // MARK: Helpers

        /// Notes `invalidUTF8` when the bytes at `range` are not UTF-8.
        mutating func checkUTF8(_ range: Range<Int>) {
            guard !isValidUTF8(UnsafeBufferPointer(rebasing: buffer[range])) else { return }
            hasInvalidUTF8 = true
            note(.invalidUTF8)
        }

        /// The text at `range`, with U+FFFD for bytes that are not UTF-8.
        func string(_ range: Range<Int>) -> String {
            String(decoding: UnsafeBufferPointer(rebasing: buffer[range]), as: UTF8.self)
        }

        /// Notes a diagnostic of `code` about the field whose name is at `field`, if any, once: `known`, when
        /// that name is one SSDP defines (with a `lowercase` letter or not), names it without making a `String`
        /// where it is spelled as UDA spells it or capitalised.
        /// `repeated` says whether an earlier field may have had the same name: only then, or for a name that
        /// is not ASCII (whose other forms compare equal) or no field, can an equal one have been noted.
        mutating func note(
            _ code: SSDPDiagnostic.Code,
            field: Range<Int>? = nil,
            known: SSDPHeaders.WellKnownName? = nil,
            lowercase: Bool = true,
            repeated: Bool = true
        ) {
            guard diagnosing else { return }
            let name = field.map { field in
                known.map { $0.text(spelledAs: UnsafeBufferPointer(rebasing: buffer[field]), lowercase: lowercase) }
                    ?? string(field)
            }
            let diagnostic = SSDPDiagnostic(code, field: name)
            // By index, the code first: a field's text is compared only with a field of the same code.
            if repeated || !isASCII || field == nil {
                for index in diagnostics.indices where diagnostics[index].code == code {
                    if diagnostics[index].field == diagnostic.field { return }
                }
            }
            if diagnostics.isEmpty { diagnostics.reserveCapacity(8) }  // one allocation for what most messages have
            diagnostics.append(diagnostic)
        }

        func excerpt(_ text: String) -> String {
            text.count > 80 ? String(text.prefix(80)) + "…" : text
        }

        func isWhitespace(_ byte: UInt8) -> Bool {
            isSpaceOrTab(byte) || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\n")
        }
    }
}
