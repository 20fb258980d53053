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
        let result =
            bytes.withContiguousStorageIfAvailable { parse(buffer: $0) }
            ?? Array(bytes).withUnsafeBufferPointer { parse(buffer: $0) }
        return try result.get()
    }

    /// Parses one datagram given as text (convenient in tests and tools; the text's UTF-8 is parsed).
    public static func parse(_ text: String) throws(SSDPParseError) -> SSDPParsedMessage {
        try parse(Array(text.utf8))
    }

    private static func parse(buffer: UnsafeBufferPointer<UInt8>) -> Result<SSDPParsedMessage, SSDPParseError> {
        guard !buffer.isEmpty else { return .failure(SSDPParseError(.emptyDatagram)) }
        guard buffer.count <= maximumDatagramSize else { return .failure(SSDPParseError(.datagramTooLarge)) }
        var reader = Reader(buffer: buffer)
        do {
            return .success(try reader.read())
        } catch {
            return .failure(error)
        }
    }
}

// MARK: - Reader

extension SSDPParser {
    /// One pass over a datagram, collecting diagnostics as it goes.
    private struct Reader {
        let buffer: UnsafeBufferPointer<UInt8>
        var position = 0
        var lineNumber = 0
        var diagnostics: [SSDPDiagnostic] = []

        init(buffer: UnsafeBufferPointer<UInt8>) {
            self.buffer = buffer
        }

        mutating func read() throws(SSDPParseError) -> SSDPParsedMessage {
            guard let startLine = nextLine() else { throw SSDPParseError(.unknownStartLine, line: 1) }
            let kind = try readStartLine(startLine)
            var headers = SSDPHeaders(reservingCapacity: 12)  // more than most devices send: one allocation
            var sawBlankLine = false
            while let line = nextLine() {
                if line.isEmpty {
                    sawBlankLine = true
                    break
                }
                try readHeaderLine(line, into: &headers)
            }
            if !sawBlankLine {
                note(.missingFinalBlankLine)
            } else if buffer[position...].contains(where: { !isWhitespace($0) }) {
                note(.bodyPresent)
            }
            let message = SSDPMessage(kind: kind, headers: headers)
            diagnostics += SSDPConformance.diagnostics(for: message)
            return SSDPParsedMessage(message: message, diagnostics: diagnostics)
        }

        /// The next line without its line end, or `nil` at the end of the datagram.
        mutating func nextLine() -> Slice<UnsafeBufferPointer<UInt8>>? {
            guard position < buffer.endIndex else { return nil }
            lineNumber += 1
            let start = position
            guard let lineFeed = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) else {
                position = buffer.endIndex
                return buffer[start..<buffer.endIndex]
            }
            position = lineFeed + 1
            if lineFeed > start, buffer[lineFeed - 1] == UInt8(ascii: "\r") {
                return buffer[start..<(lineFeed - 1)]
            }
            note(.bareLineFeed)
            return buffer[start..<lineFeed]
        }

        // MARK: Start line

        mutating func readStartLine(
            _ line: Slice<UnsafeBufferPointer<UInt8>>
        ) throws(SSDPParseError) -> SSDPMessage.Kind {
            // Nearly every start line is one of the three canonical ones, byte for byte.
            if line.elementsEqual(Self.responseLine) { return .response }
            if line.elementsEqual(Self.notifyLine) { return .notify }
            if line.elementsEqual(Self.searchLine) { return .search }
            let text = decode(line)
            let tokens = text.split(separator: " ", omittingEmptySubsequences: true)
            let canonical: String
            let kind: SSDPMessage.Kind
            if let first = tokens.first, first.hasPrefixIgnoringASCIICase("HTTP/1.") {
                guard tokens.count >= 2, tokens[1] == "200" else { throw unknownStartLine(text) }
                kind = .response
            } else if tokens.count == 3, tokens[2].hasPrefixIgnoringASCIICase("HTTP/1.") {
                if tokens[0].equalsIgnoringASCIICase("M-SEARCH") {
                    kind = .search
                } else if tokens[0].equalsIgnoringASCIICase("NOTIFY") {
                    kind = .notify
                } else {
                    throw unknownStartLine(text)
                }
            } else {
                throw unknownStartLine(text)
            }
            canonical = SSDPMessage(kind: kind, headers: [:]).startLine
            if text != canonical { note(.nonStandardStartLine) }
            return kind
        }

        static let responseLine = Array(SSDPMessage(kind: .response, headers: [:]).startLine.utf8)
        static let notifyLine = Array(SSDPMessage(kind: .notify, headers: [:]).startLine.utf8)
        static let searchLine = Array(SSDPMessage(kind: .search, headers: [:]).startLine.utf8)

        func unknownStartLine(_ text: String) -> SSDPParseError {
            SSDPParseError(.unknownStartLine, line: lineNumber, text: excerpt(text))
        }

        // MARK: Header lines

        mutating func readHeaderLine(
            _ line: Slice<UnsafeBufferPointer<UInt8>>,
            into headers: inout SSDPHeaders
        ) throws(SSDPParseError) {
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
                throw SSDPParseError(.headerLineWithoutColon, line: lineNumber, text: excerpt(decode(line)))
            }
            let rawName = line[line.startIndex..<colon]
            let nameEnd = rawName.lastIndex(where: { !isSpaceOrTab($0) }).map { $0 + 1 } ?? rawName.startIndex
            let nameStart = rawName.firstIndex(where: { !isSpaceOrTab($0) }) ?? nameEnd
            guard nameStart < nameEnd else {
                throw SSDPParseError(.emptyHeaderName, line: lineNumber, text: excerpt(decode(line)))
            }
            let name = decode(line[nameStart..<nameEnd])

            let rawValue = line[(colon + 1)...]
            let valueStart = rawValue.firstIndex(where: { !isSpaceOrTab($0) }) ?? rawValue.endIndex
            let valueEnd = rawValue.lastIndex(where: { !isSpaceOrTab($0) }).map { $0 + 1 } ?? valueStart
            let value = decode(line[valueStart..<valueEnd])

            let leadingWhitespace = valueStart - rawValue.startIndex
            let spaceAroundName = nameStart != line.startIndex || nameEnd != colon
            let oneSpaceAfterColon = leadingWhitespace == 1 && rawValue.first == UInt8(ascii: " ")
            if spaceAroundName || (leadingWhitespace > 0 && !oneSpaceAfterColon) {
                note(.extraWhitespaceAroundColon, field: name)
            } else if leadingWhitespace == 0 && valueStart < valueEnd {
                note(.noSpaceAfterColon, field: name)
            }
            let nameBytes = line[nameStart..<nameEnd]
            let isVendorName = nameBytes.contains(UInt8(ascii: "."))  // `token.domain`, UDA 1.1 §1.1.3
            if !isVendorName, nameBytes.contains(where: { $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") }) {
                note(.lowercaseHeaderName, field: name)
            }
            if headers.contains(name) {
                note(.duplicateHeader, field: name)
            }
            headers.append(name: name, value: value)
        }

        // MARK: Helpers

        mutating func decode(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> String {
            // ASCII, nearly always: one pass to check, and a copy without validation.
            if bytes.allSatisfy({ $0 < 0x80 }) {
                return String(decoding: UnsafeBufferPointer(rebasing: bytes), as: UTF8.self)
            }
            if let text = String(validating: bytes, as: UTF8.self) { return text }
            note(.invalidUTF8)
            return String(decoding: bytes, as: UTF8.self)
        }

        mutating func note(_ code: SSDPDiagnostic.Code, field: String? = nil) {
            let diagnostic = SSDPDiagnostic(code, field: field)
            if !diagnostics.contains(diagnostic) { diagnostics.append(diagnostic) }
        }

        func excerpt(_ text: String) -> String {
            text.count > 80 ? String(text.prefix(80)) + "…" : text
        }

        func isWhitespace(_ byte: UInt8) -> Bool {
            isSpaceOrTab(byte) || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\n")
        }
    }
}
