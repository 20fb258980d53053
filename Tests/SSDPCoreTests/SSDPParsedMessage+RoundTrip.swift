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
    var hasOnlyRoundTrippableFields: Bool {
        headers.fields.allSatisfy { field in
            isRoundTrippable(field.name.utf8, colonAllowed: false)
                && isRoundTrippable(field.value.utf8, colonAllowed: true)
        }
    }
}

private func isRoundTrippable(_ text: String.UTF8View, colonAllowed: Bool) -> Bool {
    let blank: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
    let forbidden: (UInt8) -> Bool = {
        $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\n") || (!colonAllowed && $0 == UInt8(ascii: ":"))
    }
    return !text.contains(where: forbidden) && !(text.first.map(blank) ?? false) && !(text.last.map(blank) ?? false)
}
