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

/// Replaces what identifies a network in captured SSDP (`ssdp-sim import --anonymize`), consistently: the
/// same value gets the same replacement in every datagram, header and address, and different values get
/// different ones, so that a device still answers as one device and two devices stay two.
///
/// What is replaced, in the datagrams and in the addresses they were sent from and to:
/// - IPv4 addresses (not the SSDP group, 0.0.0.0 or 255.255.255.255) by documentation addresses (192.0.2.0/24,
///   then 198.51.100.0/24 and 203.0.113.0/24), IPv6 addresses by 2001:db8::/32;
/// - host names in URLs by `host-N.example`;
/// - UUIDs and MAC addresses (any separator), keeping their form and case;
/// - serial-like tokens: runs of letters and digits of 8 or more with both, and hexadecimal runs of 12 or
///   more (bridge ids, MACs without separators), keeping their length and which places are digits;
/// - every token of the value of a header whose name says it identifies (`HOUSEHOLD`, `BRIDGEID`,
///   `SERIAL`, `MAC`, `HHID`, `DEVICEID`, `X-USER`).
///
/// Datagrams are handled as bytes (each byte one character), so what is not an identifier, malformed
/// bytes included, stays byte for byte.
package struct CaptureAnonymizer {
    private enum Kind: Int, CaseIterable {
        case uuid, mac, ipv6, ipv4, host, identifyingHeader, hexRun, serial, name
    }

    /// The elements of descriptions and vendor documents whose text names the device or its owner (a
    /// friendly name, a room) or identifies it (a serial number, a Roku's device and advertising ids, the
    /// Wi-Fi network it is on).
    package static let identifyingElements: [(name: String, isName: Bool)] = [
        ("friendlyName", true), ("roomName", true), ("user-device-name", true), ("friendly-device-name", true),
        ("user-device-location", true), ("network-name", true), ("serialNumber", false), ("serial-number", false),
        ("device-id", false), ("advertising-id", false), ("keyed-developer-id", false), ("serialNum", false),
        ("UDN", false), ("CurrentZoneName", true), ("ZoneName", true), ("ZoneGroupName", true),
        ("CurrentZoneGroupName", true), ("SerialNumber", false),
    ]

    /// Names an owner gives a device or its parts where a vendor's answer says them outside an element of
    /// their own: a Sonos zone in ZoneGroupState (escaped in a SOAP answer, or not in an event), a Hue
    /// bridge's or light's `name` in its JSON. Searched in bodies first, so that no other pattern takes a
    /// part of one.
    private static let bodyNamePatternTexts: [(kind: Kind, pattern: String, group: Int)] = [
        (.name, #"ZoneName=&quot;((?:[^&<"]|&(?!quot;)[A-Za-z0-9#]+;)+)&quot;"#, 1),
        (.name, #"ZoneName="([^"<]+)""#, 1),
        (.name, #""name"[ \t]*:[ \t]*"([^"\\]+)""#, 1),
    ]

    /// What a recording's datagrams and heads are searched for (`anonymize(recorded:)`): only forms nothing
    /// else takes, so that a type (`Layer3Forwarding`), a namespace's host or a version (`1.26.1.7`) keeps
    /// its meaning. An IPv4 address only in a URL (elsewhere it may be a version, or an address a client
    /// needs: a router's external address); a header named for an identity token by token, so that one
    /// household id in two headers gets one replacement. A document's body is searched for the same but
    /// headers.
    private static let recordingPatternTexts: [(kind: Kind, pattern: String, group: Int)] = [
        patternTexts[0], patternTexts[1], patternTexts[2],
        (.ipv4, #"(?i)https?://((?:[0-9]{1,3}\.){3}[0-9]{1,3})(?![0-9])"#, 1),
        // A Sonos player's id, in its USN and in the ZoneGroupState of every player of its household.
        (.serial, #"RINCON_([0-9A-Fa-f]{12,})"#, 1),
        (
            .identifyingHeader,
            #"(?im)^[^:\r\n]*(?:HOUSEHOLD|BRIDGEID|SERIAL|HHID|DEVICEID|SMARTSPEAKER)[^:\r\n]*:[ \t]*([^\r\n]*)"#, 1
        ),
    ]

    private static let patternTexts: [(kind: Kind, pattern: String, group: Int)] = [
        // Swift's Regex has no lookbehind: a pattern matches the character before its token too (or the start)
        // and names the token as group 1.
        (.uuid, #"[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}"#, 0),
        (
            .mac,
            #"(?:^|[^0-9A-Fa-f:-])((?:[0-9A-Fa-f]{2}([:-]))(?:[0-9A-Fa-f]{2}\2){4}[0-9A-Fa-f]{2})(?![0-9A-Fa-f:-])"#, 1
        ),
        (.ipv6, #"\[([0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*)\]"#, 1),
        (.ipv6, #"(?i)(?:^|[^0-9a-z:])((?:[0-9a-f]{0,4}:){2,7}[0-9a-f]{0,4})(?![0-9a-z:])"#, 1),
        (.ipv4, #"(?:^|[^0-9.])((?:[0-9]{1,3}\.){3}[0-9]{1,3})(?![0-9]|\.[0-9])"#, 1),
        (.host, #"(?i)https?://([a-z][a-z0-9.-]*)"#, 1),
        (
            .identifyingHeader,
            #"(?im)^[^:\r\n]*(?:HOUSEHOLD|BRIDGEID|SERIAL|MAC|HHID|DEVICEID|X-USER)[^:\r\n]*:[ \t]*([^\r\n]*)"#, 1
        ),
        (.hexRun, #"(?:^|[^0-9A-Za-z])([0-9A-Fa-f]{12,})(?![0-9A-Za-z])"#, 1),
        (
            .serial,
            #"(?:^|[^0-9A-Za-z])((?=[0-9A-Za-z]*[0-9])(?=[0-9A-Za-z]*[A-Za-z])[0-9A-Za-z]{8,})(?![0-9A-Za-z])"#, 1
        ),
    ]

    private typealias Patterns = [(kind: Kind, regex: Regex<AnyRegexOutput>, group: Int)]

    /// The patterns, compiled once per anonymizer (a `Regex` is not `Sendable`, so it cannot be a shared constant).
    private let patterns = Self.compiled(Self.patternTexts)
    private let recordingPatterns = Self.compiled(Self.recordingPatternTexts)
    private let bodyPatterns = Self.compiled(
        Self.bodyNamePatternTexts + Self.recordingPatternTexts.filter { $0.kind != .identifyingHeader }
    )

    private static func compiled(_ texts: [(kind: Kind, pattern: String, group: Int)]) -> Patterns {
        // The patterns are constants of this file: one that does not compile is a programming error.
        texts.map { kind, pattern, group in (kind: kind, regex: try! Regex(pattern), group: group) }
    }
    private var replacements: [String: String] = [:]
    /// The originals replaced as names, which are replaced only where they are an element's whole text.
    private var names: Set<String> = []
    private var counters: [Kind: Int] = [:]

    /// `traffic` with every identifier replaced.
    package static func anonymize(_ traffic: SSDPTraffic) -> SSDPTraffic {
        var anonymizer = CaptureAnonymizer()
        var traffic = traffic
        for keyPath in [\SSDPTraffic.searches, \.notifications, \.answers] {
            traffic[keyPath: keyPath] = traffic[keyPath: keyPath].map { anonymizer.anonymize($0) }
        }
        return traffic
    }

    mutating func anonymize(_ datagram: PacketCapture.Datagram) -> PacketCapture.Datagram {
        var datagram = datagram
        datagram.source.address = address(datagram.source.address)
        datagram.destination.address = address(datagram.destination.address)
        datagram.payload = anonymize(bytes: datagram.payload)
        return datagram
    }

    /// An anonymizer whose replacements hold across everything it is given: one value, one replacement.
    package init() {}

    /// How many different values of each kind were replaced (`UUID: 2`), in a fixed order.
    package var replacedKinds: [(kind: String, count: Int)] {
        let names: [Kind: String] = [
            .uuid: "UUID", .mac: "MAC address", .ipv6: "IPv6 address", .ipv4: "IPv4 address", .host: "host name",
            .identifyingHeader: "identifying header value", .hexRun: "hexadecimal id", .serial: "serial number",
            .name: "name",
        ]
        return Kind.allCases.compactMap { kind in counters[kind].map { (names[kind] ?? "\(kind)", $0) } }
    }

    /// A datagram, an HTTP head or a value of a recorded device (its LOCATION, SERVER, a call's argument)
    /// with what identifies the device replaced: what `recordingPatternTexts` finds, then every value
    /// replaced so far but names, wherever it stands whole.
    package mutating func anonymize(recorded bytes: [UInt8]) -> [UInt8] {
        let text = replaced(in: Self.text(bytes), patterns: recordingPatterns, tokenwise: true)
        return replacingKnownValues(in: Self.bytes(text))
    }

    /// A recorded HTTP response with what identifies the device replaced: its head as `anonymize(recorded:)`
    /// replaces it; its body, a document that must still mean what it meant, in the text of the
    /// `identifyingElements` (a name becomes `Device N`), then as a head but for headers.
    /// `binaryBody`: the body is left as it is (an icon).
    package mutating func anonymize(response: [UInt8], headEnd: Int, binaryBody: Bool = false) -> [UInt8] {
        let head = anonymize(recorded: Array(response[..<headEnd]))
        let body = Array(response[headEnd...])
        guard !binaryBody, !body.isEmpty else { return head + body }
        let text = replaced(in: replacingElements(in: Self.text(body)), patterns: bodyPatterns, tokenwise: false)
        return head + replacingKnownValues(in: Self.bytes(text))
    }

    /// `text` with the text of each identifying element replaced. A UDN that is not a UUID
    /// (`uuid:RINCON_48A6B8126D0B01400`, which holds a MAC) is replaced after its `uuid:`.
    private mutating func replacingElements(in text: String) -> String {
        var text = text
        for (name, isName) in Self.identifyingElements {
            let regex = try! Regex("<\(name)>(?:uuid:)?([^<]+)</\(name)>")
            var result = ""
            var position = text.startIndex
            for match in text.matches(of: regex) {
                guard let range = match.output[1].range else { continue }
                result += text[position..<range.lowerBound]
                result += elementReplacement(String(text[range]), name: name, isName: isName)
                position = range.upperBound
            }
            text = result + text[position...]
        }
        return text
    }

    /// The replacement of an identifying element's text: a name becomes `Device N`; a UUID is left to its
    /// pattern; a MAC in it (Sonos's serialNum `48-A6-B8-12-6D-0B:1`) or twelve hex digits (a Hue bridge's
    /// serial, its MAC) are replaced as that MAC is everywhere, the rest kept; a UDN that is not a UUID id by
    /// id (`RINCON_48A6B8126D0B01400_MS`: its prefix and suffix kept, its id replaced as in every USN and
    /// ZoneGroupState); anything else becomes a token of its shape.
    private mutating func elementReplacement(_ original: String, name: String, isName: Bool) -> String {
        if isName { return replacement(for: original, kind: .name) }
        if original.wholeMatch(of: try! Regex(Self.patternTexts[0].pattern)) != nil { return original }
        if original.wholeMatch(of: #/[0-9A-Fa-f]{12}/#) != nil { return replacement(for: original, kind: .mac) }
        if let mac = original.firstMatch(of: #/[0-9A-Fa-f]{2}([:-])(?:[0-9A-Fa-f]{2}\1){4}[0-9A-Fa-f]{2}/#) {
            var replaced = original
            replaced.replaceSubrange(mac.range, with: replacement(for: String(original[mac.range]), kind: .mac))
            return replaced
        }
        guard name == "UDN" else { return replacement(for: original, kind: .serial) }
        var result = ""
        var position = original.startIndex
        for id in original.matches(of: #/[0-9A-Za-z]{8,}/#) where id.output.contains(where: \.isNumber) {
            result += original[position..<id.range.lowerBound]
            result += replacement(for: String(original[id.range]), kind: .serial)
            position = id.range.upperBound
        }
        return result + original[position...]
    }

    /// `bytes` with every value replaced so far, but names and values too plain to be told from others
    /// (shorter than 6, or one character repeated: an IGD's `00000000`), replaced where it stands whole (not
    /// inside a longer run of letters and digits), in any ASCII case.
    private func replacingKnownValues(in bytes: [UInt8]) -> [UInt8] {
        let isWord = { (byte: UInt8?) in
            byte.map { (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0) } ?? false
        }
        var bytes = bytes
        for (original, made) in replacements.sorted(by: { $0.key < $1.key })
        where original.count >= 6 && !names.contains(original) && Set(original).count > 1 && !original.hasPrefix("mac ")
        {
            bytes = replacingIgnoringASCIICase(
                Array(original.asciiLowercased().utf8),
                with: Array(Self.matchingCase(made, of: original).utf8),
                in: bytes
            ) { before, after in !isWord(before) && !isWord(after) }
        }
        return bytes
    }

    /// Bytes as text, each byte one character, and back.
    private static func text(_ bytes: [UInt8]) -> String { String(bytes.map { Character(Unicode.Scalar($0)) }) }
    private static func bytes(_ text: String) -> [UInt8] {
        text.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) }
    }

    /// An address of an endpoint, replaced as it is in the datagrams.
    mutating func address(_ address: String) -> String {
        let kind: Kind = address.contains(":") ? .ipv6 : .ipv4
        guard !Self.isKept(address, kind) else { return address }
        return replacement(for: address, kind: kind)
    }

    /// The bytes with every identifier replaced; other bytes as they were.
    mutating func anonymize(bytes: [UInt8]) -> [UInt8] {
        Self.bytes(replaced(in: Self.text(bytes), patterns: patterns, tokenwise: false))
    }

    /// `text` with every identifier `patterns` find replaced; with `tokenwise`, an identifying header's value
    /// run by run of letters, digits and `_` (4 or more), the rest kept.
    private mutating func replaced(in text: String, patterns: Patterns, tokenwise: Bool) -> String {
        var spans: [(range: Range<String.Index>, kind: Kind)] = []
        for (kind, regex, group) in patterns {
            for match in text.matches(of: regex) {
                guard let range = match.output[group].range, !range.isEmpty,
                    !spans.contains(where: { $0.range.overlaps(range) })
                else { continue }
                spans.append((range, kind))
            }
        }
        var result = ""
        var position = text.startIndex
        for (range, kind) in spans.sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) {
            result += text[position..<range.lowerBound]
            let original = String(text[range])
            if Self.isKept(original, kind) {
                result += original
            } else if tokenwise, kind == .identifyingHeader {
                result += tokenwiseReplacement(of: original)
            } else {
                result += replacement(for: original, kind: kind)
            }
            position = range.upperBound
        }
        result += text[position...]
        return result
    }

    /// `value` with each run of letters, digits and `_` of 4 or more replaced, the rest as it was.
    /// A token made of a MAC with `FFFE` in its middle (EUI-64, a Hue bridge's id `001788FFFE23BFC2`) is
    /// replaced as that MAC is, `FFFE` kept, so that it still names the bridge its MAC names.
    private mutating func tokenwiseReplacement(of value: String) -> String {
        var result = ""
        var position = value.startIndex
        for match in value.matches(of: #/[0-9A-Za-z_]{4,}/#) {
            result += value[position..<match.range.lowerBound]
            let token = String(value[match.range])
            if let eui = token.wholeMatch(of: #/([0-9A-Fa-f]{6})[Ff][Ff][Ff][Ee]([0-9A-Fa-f]{6})/#) {
                let mac = replacement(for: String(eui.output.1 + eui.output.2), kind: .mac)
                let made = Self.matchingCase(String(mac.prefix(6)) + "fffe" + String(mac.dropFirst(6)), of: token)
                replacements[token] = made
                result += made
            } else {
                result += replacement(for: token, kind: .identifyingHeader)
            }
            position = match.range.upperBound
        }
        return result + value[position...]
    }

    /// Values that identify nothing: the SSDP groups, the unspecified and broadcast addresses.
    private static func isKept(_ value: String, _ kind: Kind) -> Bool {
        switch kind {
        case .ipv4:
            let octets = value.split(separator: ".").compactMap { Int($0) }
            guard octets.count == 4, octets.allSatisfy({ $0 <= 255 }) else { return true }
            return value == "239.255.255.250" || value == "0.0.0.0" || value == "255.255.255.255"
        case .ipv6:
            let lower = value.lowercased()
            return ["ff02::c", "ff05::c", "ff08::c", "ff0e::c", "::"].contains(lower)
                || !lower.contains("::")
                    && lower.filter({ $0 == ":" }).count < 7
        default:
            return false
        }
    }

    private mutating func replacement(for original: String, kind: Kind) -> String {
        // A MAC is the same MAC whatever its separators (a Roku's WAKEUP has dashes, its device-info colons,
        // a Hue's serial none), and is written with the original's.
        let key =
            kind == .mac
            ? "mac " + original.lowercased().filter { $0 != ":" && $0 != "-" }
            : kind == .ipv6 || kind == .uuid || kind == .hexRun ? original.lowercased() : original
        if var known = replacements[key] {
            if kind == .mac {
                let separator = original.first { $0 == ":" || $0 == "-" }
                known = String(known.compactMap { $0 == ":" ? separator : $0 })
            }
            return kind == .name ? known : Self.matchingCase(known, of: original)
        }
        let number = counters[kind, default: 0] + 1
        counters[kind] = number
        let made: String
        switch kind {
        case .ipv4:
            let block = ["192.0.2", "198.51.100", "203.0.113"][min((number - 1) / 254, 2)]
            made = "\(block).\((number - 1) % 254 + 1)"
        case .ipv6:
            made = "2001:db8::\(String(number, radix: 16))"
        case .host:
            made = "host-\(number).example"
        case .uuid:
            made = "5a5a5a5a-0000-4000-8000-" + Self.hex(number, width: 12)
        case .mac:
            // Kept with colons; written with the original's separators below.
            made = (["02", "00", "5e"] + Self.hex(number, width: 6).chunked(2)).joined(separator: ":")
        case .hexRun:
            made = Self.hex(number, width: original.count)
        case .serial, .identifyingHeader:
            made = Self.shaped(like: original, number: number)
        case .name:
            made = "Device \(number)"
            names.insert(original)
        }
        replacements[key] = made
        if kind == .mac { return replacement(for: original, kind: .mac) }
        return kind == .name ? made : Self.matchingCase(made, of: original)
    }

    /// `number` in hexadecimal, `width` digits (more when it does not fit).
    private static func hex(_ number: Int, width: Int) -> String {
        let digits = String(number, radix: 16)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// A token of the same length whose digits are digits and letters letters (upper or lower as they
    /// were), numbered from the end, so that two tokens of one shape differ.
    private static func shaped(like original: String, number: Int) -> String {
        var number = number
        var characters = Array(original)
        for index in characters.indices.reversed() {
            let character = characters[index]
            let place = number % 10
            number /= 10
            if character.isNumber {
                characters[index] = Character(String(place))
            } else if character.isLetter {
                let letter = Character(Unicode.Scalar(UInt8(ascii: "a") + UInt8(place)))
                characters[index] = character.isUppercase ? Character(letter.uppercased()) : letter
            }
        }
        return String(characters)
    }

    /// `made` in upper case when `original`'s letters are all upper case.
    private static func matchingCase(_ made: String, of original: String) -> String {
        let letters = original.filter(\.isLetter)
        return !letters.isEmpty && letters.allSatisfy(\.isUppercase) ? made.uppercased() : made
    }
}

extension String {
    fileprivate func chunked(_ size: Int) -> [String] {
        stride(from: 0, to: count, by: size).map { start in
            let from = index(startIndex, offsetBy: start)
            return String(self[from..<(index(from, offsetBy: size, limitedBy: endIndex) ?? endIndex)])
        }
    }
}
