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

/// One element of a small XML document read whole: what a SOAP request body or a GENA event carries.
///
/// Names are kept as written (`s:Body`) and by their local part (`Body`); namespaces are not resolved,
/// because the control points differ in prefixes but not in local names (after-discovery.md §1.1, as
/// miniupnpd and MiniDLNA read them). Text is the element's own character data, entities decoded, CDATA
/// kept as is.
public struct SSDPXMLElement: Hashable, Sendable {
    /// The name as written, with its prefix.
    public var qualifiedName: String
    /// The attributes by name as written (prefix included), values with entities decoded.
    public var attributes: [String: String]
    /// The child elements in document order.
    public var children: [SSDPXMLElement]
    /// The element's own character data, whitespace kept; its children's text is not included.
    public var text: String

    /// The name without its prefix.
    public var name: String {
        guard let colon = qualifiedName.lastIndex(of: ":") else { return qualifiedName }
        return String(qualifiedName[qualifiedName.index(after: colon)...])
    }

    /// The first child whose local name is `name`.
    public func child(_ name: String) -> SSDPXMLElement? {
        children.first { $0.name == name }
    }

    /// The deepest nesting a document may have; a deeper one is refused rather than followed.
    public static let maximumDepth = 32

    /// The root element of `bytes`, or `nil` when they are not one well-formed element (an unclosed or
    /// mismatched tag, text outside the root, a broken entity, nesting deeper than `maximumDepth`).
    public static func parse(_ bytes: [UInt8]) -> SSDPXMLElement? {
        var reader = XMLReader(bytes: bytes)
        return reader.document()
    }
}

/// The reader behind `SSDPXMLElement.parse`: one pass over the bytes, no recursion beyond the nesting.
private struct XMLReader {
    let bytes: [UInt8]
    var index = 0

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    mutating func document() -> SSDPXMLElement? {
        skipMisc()
        guard peek(UInt8(ascii: "<")), let root = element(depth: 0) else { return nil }
        skipMisc()
        return index == bytes.count ? root : nil
    }

    /// Whitespace, the XML declaration, processing instructions, comments and a DOCTYPE between elements.
    private mutating func skipMisc() {
        while true {
            skipWhitespace()
            if starts(with: "<?") {
                guard skip(past: "?>") else { return }
            } else if starts(with: "<!--") {
                guard skip(past: "-->") else { return }
            } else if starts(with: "<!DOCTYPE") {
                guard skip(past: ">") else { return }
            } else {
                return
            }
        }
    }

    private mutating func element(depth: Int) -> SSDPXMLElement? {
        guard depth < SSDPXMLElement.maximumDepth, consume(UInt8(ascii: "<")), let name = name() else { return nil }
        var element = SSDPXMLElement(qualifiedName: name, attributes: [:], children: [], text: "")
        // attributes
        while true {
            skipWhitespace()
            if consume(UInt8(ascii: "/")) {
                return consume(UInt8(ascii: ">")) ? element : nil
            }
            if consume(UInt8(ascii: ">")) { break }
            guard let attribute = self.name() else { return nil }
            skipWhitespace()
            guard consume(UInt8(ascii: "=")) else { return nil }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else {
                return nil
            }
            let quote = bytes[index]
            index += 1
            guard let end = bytes[index...].firstIndex(of: quote), let value = Self.decoded(bytes[index..<end]) else {
                return nil
            }
            element.attributes[attribute] = value
            index = end + 1
        }
        // content
        var text: [UInt8] = []
        while index < bytes.count {
            if starts(with: "</") {
                index += 2
                guard self.name() == name else { return nil }
                skipWhitespace()
                guard consume(UInt8(ascii: ">")), let decoded = Self.decoded(text[...]) else { return nil }
                element.text = decoded
                return element
            } else if starts(with: "<![CDATA[") {
                let start = index + 9
                guard skip(past: "]]>") else { return nil }
                // kept escaped so that decoding the collected text gives it back as written
                text += Array(Self.escaped(bytes[start..<(index - 3)]).utf8)
            } else if starts(with: "<!--") {
                guard skip(past: "-->") else { return nil }
            } else if starts(with: "<?") {
                guard skip(past: "?>") else { return nil }
            } else if peek(UInt8(ascii: "<")) {
                guard let child = self.element(depth: depth + 1) else { return nil }
                element.children.append(child)
            } else {
                text.append(bytes[index])
                index += 1
            }
        }
        return nil
    }

    private mutating func name() -> String? {
        let start = index
        while index < bytes.count, Self.isNameByte(bytes[index]) { index += 1 }
        guard index > start else { return nil }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: ":"), UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."):
            true
        default:
            byte >= 0x80
        }
    }

    private mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    private func peek(_ byte: UInt8) -> Bool {
        index < bytes.count && bytes[index] == byte
    }

    private mutating func consume(_ byte: UInt8) -> Bool {
        guard peek(byte) else { return false }
        index += 1
        return true
    }

    private func starts(with text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        return text.withUTF8Buffer { $0.elementsEqual(bytes[index..<(index + count)]) }
    }

    /// Moves past the next `terminator`; false when there is none.
    private mutating func skip(past terminator: StaticString) -> Bool {
        let pattern = terminator.withUTF8Buffer { Array($0) }
        var position = index
        while position + pattern.count <= bytes.count {
            if bytes[position] == pattern[0], bytes[position..<(position + pattern.count)].elementsEqual(pattern) {
                index = position + pattern.count
                return true
            }
            position += 1
        }
        return false
    }

    /// Character data with its five named entities and numeric references decoded; `nil` for a broken one.
    static func decoded(_ text: ArraySlice<UInt8>) -> String? {
        guard text.contains(UInt8(ascii: "&")) else { return String(validating: text, as: UTF8.self) }
        var result: [UInt8] = []
        var position = text.startIndex
        while position < text.endIndex {
            guard text[position] == UInt8(ascii: "&") else {
                result.append(text[position])
                position += 1
                continue
            }
            guard let end = text[position...].prefix(12).firstIndex(of: UInt8(ascii: ";")) else { return nil }
            let entity = String(decoding: text[(position + 1)..<end], as: UTF8.self)
            switch entity {
            case "lt": result.append(UInt8(ascii: "<"))
            case "gt": result.append(UInt8(ascii: ">"))
            case "amp": result.append(UInt8(ascii: "&"))
            case "quot": result.append(UInt8(ascii: "\""))
            case "apos": result.append(UInt8(ascii: "'"))
            default:
                let scalar: UInt32?
                if entity.hasPrefix("#x") {
                    scalar = UInt32(entity.dropFirst(2), radix: 16)
                } else if entity.hasPrefix("#") {
                    scalar = UInt32(entity.dropFirst(), radix: 10)
                } else {
                    scalar = nil
                }
                guard let scalar, let character = Unicode.Scalar(scalar) else { return nil }
                result += Array(String(Character(character)).utf8)
            }
            position = end + 1
        }
        return String(validating: result, as: UTF8.self)
    }

    private static func escaped(_ text: ArraySlice<UInt8>) -> String {
        SSDPRootDevice.escaped(String(decoding: text, as: UTF8.self))
    }
}
