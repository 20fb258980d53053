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

/// The parser's rules written the plain way: a line at a time, a `String` per name and value, a linear
/// search for every duplicate, no word tricks. Slow and obviously right, it is what `SSDPParser` is held to
/// (`ReferenceParserTests`): the fast parser may change how it reads, never what it reads.
enum ReferenceParser {
    static func parse(_ datagram: [UInt8]) throws(SSDPParseError) -> SSDPParsedMessage {
        guard !datagram.isEmpty else { throw SSDPParseError(.emptyDatagram) }
        guard datagram.count <= SSDPParser.maximumDatagramSize else { throw SSDPParseError(.datagramTooLarge) }
        var reader = Reader(bytes: datagram)
        return try reader.read()
    }

    private struct Reader {
        let bytes: [UInt8]
        var position = 0
        var lineNumber = 0
        var diagnostics: [SSDPDiagnostic] = []

        mutating func read() throws(SSDPParseError) -> SSDPParsedMessage {
            guard let startLine = nextLine() else { throw SSDPParseError(.unknownStartLine, line: 1) }
            let kind = try readStartLine(startLine)
            var headers = SSDPHeaders()
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
            } else if bytes[position...].contains(where: { !isSpaceOrTab($0) && $0 != 13 && $0 != 10 }) {
                note(.bodyPresent)
            }
            let message = SSDPMessage(kind: kind, headers: headers)
            return SSDPParsedMessage(
                message: message,
                diagnostics: diagnostics + ReferenceConformance.diagnostics(message)
            )
        }

        /// The next line without its line end (LF, or CRLF), or `nil` at the end of the datagram. The last
        /// line, without a line end, is taken as it is.
        mutating func nextLine() -> ArraySlice<UInt8>? {
            guard position < bytes.count else { return nil }
            lineNumber += 1
            let start = position
            guard let lineFeed = bytes[start...].firstIndex(of: 10) else {
                position = bytes.count
                return bytes[start...]
            }
            position = lineFeed + 1
            if lineFeed > start, bytes[lineFeed - 1] == 13 { return bytes[start..<lineFeed - 1] }
            note(.bareLineFeed)
            return bytes[start..<lineFeed]
        }

        mutating func readStartLine(_ line: ArraySlice<UInt8>) throws(SSDPParseError) -> SSDPMessage.Kind {
            for kind in [SSDPMessage.Kind.response, .notify, .search]
            where Array(line) == Array(SSDPMessage(kind: kind, headers: [:]).startLine.utf8) {
                return kind
            }
            let text = decode(line)
            // Tokens between spaces, upper-cased in ASCII only (as bytes: a letter outside ASCII stays as it is).
            let tokens = line.split(separator: 32).map { $0.map { (97...122).contains($0) ? $0 - 32 : $0 } }
            let kind: SSDPMessage.Kind
            if let first = tokens.first, first.starts(with: "HTTP/1.".utf8) {
                guard tokens.count >= 2, tokens[1] == Array("200".utf8) else { throw unknownStartLine(text) }
                kind = .response
            } else if tokens.count == 3, tokens[2].starts(with: "HTTP/1.".utf8) {
                switch String(decoding: tokens[0], as: UTF8.self) {
                case "M-SEARCH": kind = .search
                case "NOTIFY": kind = .notify
                default: throw unknownStartLine(text)
                }
            } else {
                throw unknownStartLine(text)
            }
            note(.nonStandardStartLine)
            return kind
        }

        func unknownStartLine(_ text: String) -> SSDPParseError {
            SSDPParseError(.unknownStartLine, line: lineNumber, text: excerpt(text))
        }

        mutating func readHeaderLine(
            _ line: ArraySlice<UInt8>,
            into headers: inout SSDPHeaders
        ) throws(SSDPParseError) {
            let text = String(decoding: line, as: UTF8.self)
            guard let colon = line.firstIndex(of: 58) else {
                throw SSDPParseError(.headerLineWithoutColon, line: lineNumber, text: excerpt(text))
            }
            let rawName = line[..<colon]
            let rawValue = line[(colon + 1)...]
            let nameBytes = withoutTrailingSpaceOrTab(rawName.drop(while: isSpaceOrTab))
            guard !nameBytes.isEmpty else {
                throw SSDPParseError(.emptyHeaderName, line: lineNumber, text: excerpt(text))
            }
            let leading = rawValue.prefix(while: isSpaceOrTab).count
            let valueBytes = withoutTrailingSpaceOrTab(rawValue.dropFirst(leading))
            let name = decode(nameBytes)
            let value = decode(valueBytes)

            let spaceAroundName = nameBytes.count != rawName.count
            if spaceAroundName || (leading > 0 && !(leading == 1 && rawValue.first == 32)) {
                note(.extraWhitespaceAroundColon, field: name)
            } else if leading == 0 && !valueBytes.isEmpty {
                note(.noSpaceAfterColon, field: name)
            }
            if nameBytes.contains(where: { (97...122).contains($0) }), !nameBytes.contains(46) {
                note(.lowercaseHeaderName, field: name)
            }
            if headers.contains(where: { asciiLowercased($0.name) == asciiLowercased(name) }) {
                note(.duplicateHeader, field: name)
            }
            headers.append(name: name, value: value)
        }

        /// The text of `bytes`, noting `invalidUTF8` when they are not UTF-8 (each bad byte becomes U+FFFD).
        mutating func decode(_ bytes: ArraySlice<UInt8>) -> String {
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

        /// `text`'s UTF-8 with ASCII capitals in lower case, and nothing else changed.
        func asciiLowercased(_ text: String) -> [UInt8] {
            text.utf8.map { (65...90).contains($0) ? $0 + 32 : $0 }
        }

        /// `bytes` without the spaces and tabs at their end.
        func withoutTrailingSpaceOrTab(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
            var bytes = bytes
            while let last = bytes.last, isSpaceOrTab(last) { bytes.removeLast() }
            return bytes
        }

        func isSpaceOrTab(_ byte: UInt8) -> Bool {
            byte == 32 || byte == 9
        }
    }
}

/// UDA 1.1's header rules, as `SSDPConformance` checks them, written the plain way: each header looked up by
/// its name as a `String`, each rule on its own. The reference parser's conformance pass, so that the fast
/// one (names classified once, as the parser reads them) is held to something it shares no code with.
enum ReferenceConformance {
    static func diagnostics(_ message: SSDPMessage) -> [SSDPDiagnostic] {
        let headers = message.headers
        let subtype = message.kind == .notify ? headers["NTS"].map(SSDPNotificationSubtype.init(rawValue:)) : nil
        let versions = ["BOOTID.UPNP.ORG", "CONFIGID.UPNP.ORG"]
        let (required, versioned): ([String], [String])
        switch (message.kind, subtype) {
        case (.search, _):
            let multicast = SSDPConformance.isMulticastHost(headers["HOST"])
            (required, versioned) = (multicast ? ["HOST", "MAN", "MX", "ST"] : ["HOST", "MAN", "ST"], [])
        case (.response, _):
            (required, versioned) = (["CACHE-CONTROL", "EXT", "LOCATION", "SERVER", "ST", "USN"], versions)
        case (.notify, .alive?):
            (required, versioned) = (["HOST", "CACHE-CONTROL", "LOCATION", "NT", "NTS", "SERVER", "USN"], versions)
        case (.notify, .byebye?):
            (required, versioned) = (["HOST", "NT", "NTS", "USN"], versions)
        case (.notify, .update?):
            (required, versioned) = (["HOST", "LOCATION", "NT", "NTS", "USN"] + versions + ["NEXTBOOTID.UPNP.ORG"], [])
        case (.notify, _):
            (required, versioned) = (["HOST", "NT", "NTS", "USN"], [])
        }
        var diagnostics: [SSDPDiagnostic] = []
        let names = required + (claimsUPnP11OrLater(headers["SERVER"]) ? versioned : [])
        for name in names where headers[name] == nil {
            diagnostics.append(SSDPDiagnostic(.missingHeader, field: name))
        }
        if let field = headers.first(where: { $0.name.equalsIgnoringASCIICase("CACHE-CONTROL") }) {
            let cacheControl = SSDPCacheControl(field.value)
            if cacheControl.maxAge == nil {
                diagnostics.append(SSDPDiagnostic(.invalidCacheControl, field: field.name))
            }
            if cacheControl.hasSpacesAroundEquals {
                diagnostics.append(SSDPDiagnostic(.spacedMaxAge, field: field.name))
            }
            if !cacheControl.otherDirectives.isEmpty {
                diagnostics.append(SSDPDiagnostic(.extraCacheControlDirective, field: field.name))
            }
        }
        if message.kind == .search {
            if let man = headers["MAN"], man != "\"ssdp:discover\"" {
                diagnostics.append(SSDPDiagnostic(.malformedMAN, field: "MAN"))
            }
            if let mx = headers["MX"] {
                if let seconds = Int(mx), seconds >= 1 {
                    if seconds > 5 { diagnostics.append(SSDPDiagnostic(.mxAboveFive, field: "MX")) }
                } else {
                    diagnostics.append(SSDPDiagnostic(.invalidMX, field: "MX"))
                }
            }
        }
        if case .other? = subtype {
            diagnostics.append(SSDPDiagnostic(.unknownNotificationSubtype, field: "NTS"))
        }
        return diagnostics
    }

    /// Whether a SERVER value has a token `UPnP/major.minor` (any case; tokens between spaces and commas) whose
    /// major reads as a number, the first such deciding: 1.1 and later claim UPnP/1.1.
    static func claimsUPnP11OrLater(_ server: String?) -> Bool {
        let tokens = (server ?? "").utf8.split { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: ",") }
        for token in tokens where String(decoding: token.prefix(5), as: UTF8.self).equalsIgnoringASCIICase("upnp/") {
            let parts = String(decoding: token.dropFirst(5), as: UTF8.self).split(separator: ".")
            guard let major = parts.first.flatMap({ Int($0) }) else { continue }
            let minor = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
            return major > 1 || (major == 1 && minor >= 1)
        }
        return false
    }
}
