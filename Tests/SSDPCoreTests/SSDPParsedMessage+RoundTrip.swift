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

extension SSDPParsedMessage {
    /// What a re-parse of the canonical serialization must report: every diagnostic except those about how
    /// the bytes were written, which the serializer never reproduces.
    var diagnosticsSurvivingSerialization: [SSDPDiagnostic] {
        diagnostics.filter { !$0.isAboutWireFormat }
    }
}

extension SSDPDiagnostic {
    /// Whether the diagnostic is about line ends, spacing, the start line's spelling, the empty line, a body
    /// or undecodable bytes rather than about the message's content.
    var isAboutWireFormat: Bool {
        Self.wireFormatCodes.contains(code)
    }

    private static let wireFormatCodes: Set<Code> = [
        .bareLineFeed, .missingFinalBlankLine, .bodyPresent, .nonStandardStartLine, .invalidUTF8,
        .noSpaceAfterColon, .extraWhitespaceAroundColon,
    ]
}

extension SSDPMessage {
    /// Whether `serialized()` promises to parse back into this message: no CR or LF in any name or value, no
    /// colon in a name, and no space or tab at either end of one (see `SSDPMessage.serialized()`).
    ///
    /// Read from the headers' bytes, which are their names' and values' UTF-8, with index loops: the fuzz
    /// tests ask it of a million messages in a debug build, where a `String` per field and generic
    /// algorithms over its UTF-8 view cost most of the check.
    var hasOnlyRoundTrippableFields: Bool {
        (0..<headers.count).allSatisfy { position in
            headers.withBytes(at: position) { name, value in
                isRoundTrippable(name, colonAllowed: false) && isRoundTrippable(value, colonAllowed: true)
            }
        }
    }
}

private func isRoundTrippable(_ text: UnsafeBufferPointer<UInt8>, colonAllowed: Bool) -> Bool {
    func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
    if let first = text.first, isBlank(first) { return false }
    if let last = text.last, isBlank(last) { return false }
    var index = 0
    while index < text.count {
        let byte = text[index]
        if byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\n") || (!colonAllowed && byte == UInt8(ascii: ":")) {
            return false
        }
        index += 1
    }
    return true
}
