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

extension SSDPMessage {
    /// The message as it goes on the wire: the start line, each field as `NAME: value`, every line ended
    /// by CRLF, and the empty line that ends the header block (UDA 1.1 §1.1).
    ///
    /// Names and values are written exactly as held (an empty value gives `EXT:`), so
    /// `SSDPParser.parse(m.serialized()).message == m` for any message whose names and values hold no CR
    /// or LF, no colon in a name, and no spaces or tabs at either end.
    public func serialized() -> [UInt8] {
        serialized(lineEnding: [UInt8(ascii: "\r"), UInt8(ascii: "\n")], spaceAfterColon: true, finalBlankLine: true)
    }

    /// The wire form with the layout choices a sloppy sender makes (see `SSDPMalformation`).
    ///
    /// The size is counted first and the bytes copied into an array of exactly that size: a device's
    /// answers are made this way once each, and appending piece by piece cost twice as much.
    package func serialized(lineEnding: [UInt8], spaceAfterColon: Bool, finalBlankLine: Bool) -> [UInt8] {
        Self.serialized(
            startLine: startLine,
            lineEnding: lineEnding,
            spaceAfterColon: spaceAfterColon,
            finalBlankLine: finalBlankLine
        ) { field in headers.forEachField(field) }
    }

    /// The wire form with the fields named in `unspaced` written `NAME:value`, without the space after the
    /// colon, and the others as `serialized()` writes them: a device that spells its headers so (MiniDLNA's
    /// NOTIFY, `SSDPNotifyHeaders.unspacedNames`).
    package func serialized(unspaced: Set<String>) -> [UInt8] {
        Self.serialized(
            startLine: startLine,
            lineEnding: [UInt8(ascii: "\r"), UInt8(ascii: "\n")],
            spaceAfterColon: true,
            unspaced: unspaced,
            finalBlankLine: true
        ) { field in headers.forEachField(field) }
    }

    /// A message of `kind` and `fields` as `serialized()` writes it, without `SSDPHeaders` in between: for a
    /// sender that holds its fields as strings (a device making its answers).
    package static func serialized(_ kind: Kind, fields: [(name: String, value: String)]) -> [UInt8] {
        serialized(
            startLine: SSDPMessage(kind: kind, headers: SSDPHeaders()).startLine,
            lineEnding: [UInt8(ascii: "\r"), UInt8(ascii: "\n")],
            spaceAfterColon: true,
            finalBlankLine: true
        ) { field in
            for (name, value) in fields {
                withUTF8(of: name) { name in withUTF8(of: value) { value in field(name, value) } }
            }
        }
    }

    /// The start line and the fields that `forEachField` hands over, each as `NAME: value` (`NAME:value`
    /// without `spaceAfterColon`, or for a name in `unspaced`); called twice, to count the bytes and to
    /// write them.
    private static func serialized(
        startLine: String,
        lineEnding: [UInt8],
        spaceAfterColon: Bool,
        unspaced: Set<String> = [],
        finalBlankLine: Bool,
        fields forEachField: ((_ name: UnsafeBufferPointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>) -> Void) -> Void
    ) -> [UInt8] {
        var start = startLine
        return start.withUTF8 { start in
            lineEnding.withUnsafeBufferPointer { lineEnding in
                var size = start.count + lineEnding.count * (finalBlankLine ? 2 : 1)
                // Whether a field with a value gets its space after the colon (names are looked up only
                // for a device that leaves some out).
                let checksNames = !unspaced.isEmpty
                func spaced(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
                    spaceAfterColon && !(checksNames && unspaced.contains(String(decoding: name, as: UTF8.self)))
                }
                forEachField { name, value in
                    size += name.count + 1 + lineEnding.count
                    if !value.isEmpty { size += (spaced(name) ? 1 : 0) + value.count }
                }
                return [UInt8](unsafeUninitializedCapacity: size) { bytes, count in
                    func write(_ part: UnsafeBufferPointer<UInt8>) {
                        guard let source = part.baseAddress, let target = bytes.baseAddress else { return }
                        (target + count).initialize(from: source, count: part.count)  // `size` makes room
                        count += part.count
                    }
                    func write(_ byte: UInt8) {
                        bytes.initializeElement(at: count, to: byte)
                        count += 1
                    }
                    write(start)
                    write(lineEnding)
                    forEachField { name, value in
                        write(name)
                        write(UInt8(ascii: ":"))
                        if !value.isEmpty {
                            if spaced(name) { write(UInt8(ascii: " ")) }
                            write(value)
                        }
                        write(lineEnding)
                    }
                    if finalBlankLine { write(lineEnding) }
                }
            }
        }
    }

    /// `serialized()` as text, for logs and tools.
    public var serializedText: String {
        String(decoding: serialized(), as: UTF8.self)
    }
}
