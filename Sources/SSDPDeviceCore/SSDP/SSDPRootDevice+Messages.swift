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

extension SSDPRootDevice {
    /// The multicast HOST value of IPv4 SSDP (UDA 1.1 §1.2.2).
    public static let multicastHost = "239.255.255.250:1900"

    /// The answer to a search for one advertisement, headers in the order of the UDA 1.1 §1.3.3 template.
    /// With `responseHeaders`, the device's own lines instead, placeholders filled in.
    public func searchResponse(for advertisement: SSDPAdvertisement) -> SSDPMessage {
        var headers = SSDPHeaders()
        searchResponseFields(for: advertisement) { headers.append(name: $0, value: $1) }
        return SSDPMessage(kind: .response, headers: headers)
    }

    /// `searchResponse(for:).serialized()`, written straight into bytes: a device makes each answer once,
    /// but a virtual run makes every device afresh.
    public func searchResponseBytes(for advertisement: SSDPAdvertisement) -> [UInt8] {
        var fields: [(name: String, value: String)] = []
        fields.reserveCapacity(8 + (responseHeaders?.count ?? extraHeaders.count))
        searchResponseFields(for: advertisement) { fields.append(($0, $1)) }
        return SSDPMessage.serialized(.response, fields: fields)
    }

    /// The fields of `searchResponse(for:)`, in order.
    private func searchResponseFields(for advertisement: SSDPAdvertisement, _ field: (String, String) -> Void) {
        if let responseHeaders {
            let values = placeholderValues(advertisement)
            for header in responseHeaders { field(header.name, Self.filling(header.value, with: values)) }
            return
        }
        field("CACHE-CONTROL", "max-age=\(maxAge)")
        field("EXT", "")
        field("LOCATION", location(of: advertisement))
        field("SERVER", server)
        field("ST", advertisement.target)
        field("USN", advertisement.usn)
        identityFields(advertisement, field)
    }

    /// `NOTIFY ssdp:alive` for one advertisement (UDA 1.1 §1.2.2).
    public func alive(_ advertisement: SSDPAdvertisement, host: String = multicastHost) -> SSDPMessage {
        if let template = notifyHeaders?.alive { return notify(template, advertisement, host: host) }
        var headers: SSDPHeaders = [
            "HOST": host,
            "CACHE-CONTROL": "max-age=\(maxAge)",
            "LOCATION": location(of: advertisement),
            "NT": advertisement.target,
            "NTS": "ssdp:alive",
            "SERVER": server,
            "USN": advertisement.usn,
        ]
        identityFields(advertisement) { headers.append(name: $0, value: $1) }
        return SSDPMessage(kind: .notify, headers: headers)
    }

    /// `NOTIFY ssdp:byebye` for one advertisement: no LOCATION, CACHE-CONTROL or SERVER (UDA 1.1 §1.2.3).
    public func byebye(_ advertisement: SSDPAdvertisement, host: String = multicastHost) -> SSDPMessage {
        if let template = notifyHeaders?.byebye { return notify(template, advertisement, host: host) }
        var headers: SSDPHeaders = [
            "HOST": host,
            "NT": advertisement.target,
            "NTS": "ssdp:byebye",
            "USN": advertisement.usn,
        ]
        headers.append(name: "BOOTID.UPNP.ORG", value: String(bootID))
        headers.append(name: "CONFIGID.UPNP.ORG", value: String(configID))
        return SSDPMessage(kind: .notify, headers: headers)
    }

    /// A NOTIFY laid out by the device's own `template` (`notifyHeaders`).
    private func notify(_ template: [SSDPHeaderField], _ advertisement: SSDPAdvertisement, host: String) -> SSDPMessage
    {
        var values = placeholderValues(advertisement)
        values["{nt}"] = advertisement.target
        values["{group}"] = host
        var headers = SSDPHeaders()
        for field in template { headers.append(name: field.name, value: Self.filling(field.value, with: values)) }
        return SSDPMessage(kind: .notify, headers: headers)
    }

    /// `NOTIFY ssdp:update` for one advertisement, announcing the BOOTID the device moves to (UDA 1.1 §1.2.4).
    public func update(
        _ advertisement: SSDPAdvertisement,
        nextBootID: Int,
        host: String = multicastHost
    )
        -> SSDPMessage
    {
        var headers: SSDPHeaders = [
            "HOST": host,
            "LOCATION": location(of: advertisement),
            "NT": advertisement.target,
            "NTS": "ssdp:update",
            "USN": advertisement.usn,
        ]
        headers.append(name: "BOOTID.UPNP.ORG", value: String(bootID))
        headers.append(name: "CONFIGID.UPNP.ORG", value: String(configID))
        headers.append(name: "NEXTBOOTID.UPNP.ORG", value: String(nextBootID))
        return SSDPMessage(kind: .notify, headers: headers)
    }

    /// The LOCATION of a message about `advertisement`: its own (a Roku's DIAL target) or the device's.
    private func location(of advertisement: SSDPAdvertisement) -> String {
        advertisement.location ?? location
    }

    /// The host of an `http://host:port/path` URL (`{host}` in a response template: a Sonos's
    /// SECURELOCATION names the same host as its LOCATION).
    package static func host(of url: String) -> String {
        let afterScheme = url.split(separator: "//", maxSplits: 1).last ?? Substring(url)
        let authority = afterScheme.prefix { $0 != "/" }
        if authority.hasPrefix("[") { return String(authority.prefix { $0 != "]" }) + "]" }
        return String(authority.prefix { $0 != ":" })
    }

    /// `template` with every `{placeholder}` of `values` (keyed with their braces) replaced, in one pass:
    /// a value is written as it is, never searched for placeholders itself. Text without a brace is
    /// returned as is. A description is filled on every GET, so this reads bytes, not characters.
    package static func filling(_ template: String, with values: [String: String]) -> String {
        let open = UInt8(ascii: "{")
        let close = UInt8(ascii: "}")
        guard template.utf8.contains(open) else { return template }
        let longest = values.keys.map(\.utf8.count).max() ?? 0
        let bytes = Array(template.utf8)
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count + 128)
        var index = 0
        while index < bytes.count {
            if bytes[index] == open,
                let end = bytes[index..<min(bytes.count, index + longest)].firstIndex(of: close),
                let value = values[String(decoding: bytes[index...end], as: UTF8.self)]
            {
                result += value.utf8
                index = end + 1
            } else {
                result.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// BOOTID, CONFIGID and the extra headers, their placeholders filled in.
    private func identityFields(_ advertisement: SSDPAdvertisement, _ field: (String, String) -> Void) {
        field("BOOTID.UPNP.ORG", String(bootID))
        field("CONFIGID.UPNP.ORG", String(configID))
        guard !extraHeaders.isEmpty else { return }
        let values = placeholderValues(advertisement)
        for header in extraHeaders { field(header.name, Self.filling(header.value, with: values)) }
    }

    /// What each placeholder of `responseHeaders` and `extraHeaders` stands for in the message about
    /// `advertisement`.
    private func placeholderValues(_ advertisement: SSDPAdvertisement) -> [String: String] {
        let location = location(of: advertisement)
        return [
            "{maxAge}": String(maxAge), "{st}": advertisement.target, "{usn}": advertisement.usn,
            "{location}": location, "{server}": server, "{bootId}": String(bootID), "{configId}": String(configID),
            "{host}": Self.host(of: location), "{date}": HTTPDate.epoch,
        ]
    }
}
