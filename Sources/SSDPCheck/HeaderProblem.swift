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

/// One way an SSDP message a device sent departs from UDA 1.1, in the words a device maker reads, with the
/// section of UDA that says how it should be: "no EXT header (UDA 1.1 §1.3.3)". A warning is a spelling the
/// specs allow but clients that match bytes miss.
struct HeaderProblem: Hashable, Sendable, CustomStringConvertible {
    /// What is wrong, in words.
    var words: String
    /// Where UDA 1.1 says how it should be.
    var section: String
    /// Whether the specs allow it (a warning), rather than forbid it (a failure).
    var isWarning = false

    /// `no EXT header (UDA 1.1 §1.3.3)`.
    var description: String { "\(words) (UDA 1.1 \(section))" }

    /// `diagnostic` of a message whose template is `template`: §1.3.3 for a search answer, §1.2.2 for a
    /// NOTIFY. The parser's codes (`missingHeader(EXT)`) stay the parser's; these are a reader's.
    init(_ diagnostic: SSDPDiagnostic, template: String) {
        let field = diagnostic.field ?? "a header"
        switch diagnostic.code {
        case .bareLineFeed: (words, section) = ("lines end in LF alone, where UDA's messages end them in CR LF", "§1.1")
        case .missingFinalBlankLine: (words, section) = ("no blank line after the last header", "§1.1")
        case .bodyPresent: (words, section) = ("bytes after the headers, where an SSDP message has no body", "§1.1")
        case .nonStandardStartLine: (words, section) = ("a start line not written as UDA writes it", "§1.1.1")
        case .invalidUTF8: (words, section) = ("bytes that are not UTF-8", "§1.1")
        case .lowercaseHeaderName:
            (words, section, isWarning) = ("\(field) not in capitals, as UDA writes it", "§1.1.2", true)
        case .noSpaceAfterColon: (words, section, isWarning) = ("no space after the colon of \(field)", template, true)
        case .extraWhitespaceAroundColon: (words, section) = ("spaces around the colon of \(field)", template)
        case .duplicateHeader: (words, section) = ("\(field) more than once", template)
        case .missingHeader: (words, section) = ("no \(field) header, which UDA requires here", template)
        case .spacedMaxAge:
            (words, section, isWarning) = ("CACHE-CONTROL written `max-age = N`, with spaces around =", template, true)
        case .extraCacheControlDirective:
            (words, section, isWarning) = ("CACHE-CONTROL with a directive besides max-age", template, true)
        case .invalidCacheControl: (words, section) = ("CACHE-CONTROL without a readable max-age=SECONDS", template)
        case .malformedMAN: (words, section) = ("MAN not exactly \"ssdp:discover\", quotes and all", "§1.3.2")
        case .invalidMX: (words, section) = ("MX not a whole number of at least 1", "§1.3.2")
        case .mxAboveFive: (words, section) = ("MX above 5", "§1.3.2")
        case .unknownNotificationSubtype:
            (words, section) = ("NTS none of ssdp:alive, ssdp:byebye, ssdp:update", "§1.2.2")
        default: (words, section) = ("\(diagnostic)", template)
        }
    }

    private init(words: String, section: String) {
        self.words = words
        self.section = section
    }

    /// A datagram larger than one Ethernet frame carries: fragmented, and lost or cut by clients that read
    /// into 1,500 to 8,192-byte buffers. The specs allow it.
    static func oversized(_ count: Int, limit: Int) -> HeaderProblem {
        var problem = HeaderProblem(
            words: "\(count) bytes, more than one Ethernet frame carries (\(limit))",
            section: "§1.2.2"
        )
        problem.isWarning = true
        return problem
    }

    /// BOOTID.UPNP.ORG and CONFIGID.UPNP.ORG outside the numbers UDA 1.1 §1.2.2 allows them (0 to 2^31 − 1,
    /// and 0 to 16777215).
    static func numbers(_ headers: SSDPHeaders) -> [HeaderProblem] {
        [("BOOTID.UPNP.ORG", 2_147_483_647), ("CONFIGID.UPNP.ORG", 16_777_215)].compactMap { name, maximum in
            guard let value = headers[name] else { return nil }
            guard let number = Int(value), (0...maximum).contains(number) else {
                return HeaderProblem(words: "\(name) \(value) is not a number 0…\(maximum)", section: "§1.2.2")
            }
            return nil
        }
    }
}
