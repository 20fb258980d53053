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

/// One way a parsed message deviates from UDA 1.1, for linting devices and clients.
///
/// The parser accepts what real devices send and records each deviation here instead of failing.
/// `code` is stable; `field` names the header concerned, where there is one.
public struct SSDPDiagnostic: Hashable, Sendable, CustomStringConvertible {
    /// What kind of deviation it is.
    public var code: Code
    /// The header the deviation concerns, with the sender's spelling, or `nil`.
    public var field: String?

    /// A deviation of kind `code`, concerning the header `field` when there is one.
    public init(_ code: Code, field: String? = nil) {
        self.code = code
        self.field = field
    }

    /// `code`, or `code(field)` when a field is named: the form the fixture corpus and reports use.
    public var description: String {
        field.map { "\(code)(\($0))" } ?? "\(code)"
    }

    /// A stable diagnostic code. New codes may be added; switch over `description` or compare with `==`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Value: String, Hashable, Sendable {
            case bareLineFeed
            case missingFinalBlankLine
            case bodyPresent
            case nonStandardStartLine
            case invalidUTF8
            case lowercaseHeaderName
            case noSpaceAfterColon
            case extraWhitespaceAroundColon
            case duplicateHeader
            case missingHeader
            case spacedMaxAge
            case extraCacheControlDirective
            case invalidCacheControl
            case malformedMAN
            case invalidMX
            case mxAboveFive
            case unknownNotificationSubtype
        }

        private let value: Value
        private init(_ value: Value) { self.value = value }

        /// The code's name, as the fixture corpus and reports write it: `bareLineFeed`, `duplicateHeader`, …
        public var description: String { value.rawValue }

        /// A line ends in LF alone, not CRLF.
        public static let bareLineFeed = Code(.bareLineFeed)
        /// The header block does not end with an empty line.
        public static let missingFinalBlankLine = Code(.missingFinalBlankLine)
        /// Bytes follow the empty line; SSDP messages have no body.
        public static let bodyPresent = Code(.bodyPresent)
        /// The start line was understood but is not written exactly as UDA 1.1 §1.1.1 gives it.
        public static let nonStandardStartLine = Code(.nonStandardStartLine)
        /// Some bytes are not valid UTF-8; they were replaced with U+FFFD.
        public static let invalidUTF8 = Code(.invalidUTF8)
        /// A header name has lower-case letters (`Location`, `hue-bridgeid`); UDA writes them upper-case.
        /// Vendor names of the form `token.domain` are exempt: UDA 1.1 §1.1.3's own example is `myheader.philips.com`.
        public static let lowercaseHeaderName = Code(.lowercaseHeaderName)
        /// No space between the colon and a non-empty value (`HOST:239.255.255.250:1900`).
        public static let noSpaceAfterColon = Code(.noSpaceAfterColon)
        /// Whitespace before or after the header name, or anything but one space after the colon.
        public static let extraWhitespaceAroundColon = Code(.extraWhitespaceAroundColon)
        /// The same header name appears more than once.
        public static let duplicateHeader = Code(.duplicateHeader)
        /// A header UDA 1.1 requires for this kind of message is absent.
        public static let missingHeader = Code(.missingHeader)
        /// `max-age = 1800`, with spaces around `=`.
        public static let spacedMaxAge = Code(.spacedMaxAge)
        /// CACHE-CONTROL carries a directive other than max-age (`no-cache="Ext"`).
        public static let extraCacheControlDirective = Code(.extraCacheControlDirective)
        /// CACHE-CONTROL has no readable `max-age=<seconds>`.
        public static let invalidCacheControl = Code(.invalidCacheControl)
        /// MAN is not exactly `"ssdp:discover"` with its quotes.
        public static let malformedMAN = Code(.malformedMAN)
        /// MX is not a whole number of at least 1.
        public static let invalidMX = Code(.invalidMX)
        /// MX is above 5; UDA 1.1 devices treat it as 5.
        public static let mxAboveFive = Code(.mxAboveFive)
        /// NTS is none of `ssdp:alive`, `ssdp:update`, `ssdp:byebye`.
        public static let unknownNotificationSubtype = Code(.unknownNotificationSubtype)
    }
}

/// Why a datagram could not be read as an SSDP message at all.
///
/// The parser throws this only for what no real device could have meant; everything merely sloppy becomes
/// an `SSDPDiagnostic` instead. `code` is stable; `line` and `text` point at the offending line.
public struct SSDPParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of parse failure it is.
    public var code: Code
    /// The 1-based line number of the offending line, if there is one.
    public var line: Int?
    /// The offending line, cut to at most 80 characters, if there is one.
    public var text: String?

    /// A parse failure of kind `code`, at 1-based line `line` with its `text`, when known.
    public init(_ code: Code, line: Int? = nil, text: String? = nil) {
        self.code = code
        self.line = line
        self.text = text
    }

    /// The text form: `<code> at line <line>: <text>`, leaving out what is unknown.
    public var description: String {
        var result = "\(code)"
        if let line { result += " at line \(line)" }
        if let text { result += ": \(text)" }
        return result
    }

    /// A stable parse-error code.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Value: String, Hashable, Sendable {
            case emptyDatagram
            case datagramTooLarge
            case unknownStartLine
            case headerLineWithoutColon
            case emptyHeaderName
        }

        private let value: Value
        private init(_ value: Value) { self.value = value }

        /// The code's name: `emptyDatagram`, `unknownStartLine`, …
        public var description: String { value.rawValue }

        /// The datagram has no bytes.
        public static let emptyDatagram = Code(.emptyDatagram)
        /// The datagram is larger than `SSDPParser.maximumDatagramSize`.
        public static let datagramTooLarge = Code(.datagramTooLarge)
        /// The first line is not an M-SEARCH, NOTIFY or `HTTP/1.x 200` line.
        public static let unknownStartLine = Code(.unknownStartLine)
        /// A header line has no colon (what the Dell 1815dn's folded SERVER value produces).
        public static let headerLineWithoutColon = Code(.headerLineWithoutColon)
        /// A header line starts with its colon.
        public static let emptyHeaderName = Code(.emptyHeaderName)
    }
}
