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

/// Answers as real devices send them (reference/ssdp-protocol-facts.md §2, each one's source beside it),
/// replayed by the demo to every search for `upnp:rootdevice`: four devices, with the duplicates, chatty
/// answers for other targets, an incomplete answer, an unparseable one and a stray NOTIFY that a real LAN
/// produces.
package enum DemoAnswers {
    /// The services a correct search session finds in `all`: one each from Roku, Hue, Sonos and the router.
    package static let expectedUniqueServiceNames = [
        "uuid:28000000-0000-1000-8000-dc72235f4b69::upnp:rootdevice",
        "uuid:2f402f80-da50-11e1-9b23-001788a1b2c3::upnp:rootdevice",
        "uuid:c4248768-d6b6-4232-a273-5b1701524493::upnp:rootdevice",
        "uuid:6f2e1c3a-52e9-4bd6-9b4e-0090a2777777::upnp:rootdevice",
    ]

    /// The datagrams, in the order they are sent after each search.
    package static let all: [[UInt8]] = [
        roku, roku,
        hueRoot, hueRoot, hueUUID, hueUUID, hueBasic, hueBasic,
        sonosZonePlayer, sonosRoot,
        router,
        dialReference,
        missingLocation,
        dellPrinter,
        sonosNotify,
    ].map { Array($0.utf8) }

    /// Roku Ultra answering a root device search (fHDHR/fHDHR#276).
    static let roku = """
        HTTP/1.1 200 OK\r
        Cache-Control: max-age=3600\r
        ST: upnp:rootdevice\r
        USN: uuid:28000000-0000-1000-8000-dc72235f4b69::upnp:rootdevice\r
        Ext: \r
        Server: Roku/10.5.0 UPnP/1.0 Roku/10.5.0\r
        LOCATION: http://192.168.2.185:8060/\r
        WAKEUP: MAC=34:51:80:77:a0:f2;Timeout=10\r
        \r

        """

    /// Philips Hue bridge: three answers whatever the search, each sent twice (deCONZ wiki, §2.7).
    static let hueRoot = hue(st: "upnp:rootdevice", usnSuffix: "::upnp:rootdevice")
    static let hueUUID = hue(st: "uuid:2f402f80-da50-11e1-9b23-001788a1b2c3", usnSuffix: "")
    static let hueBasic = hue(st: "urn:schemas-upnp-org:device:basic:1", usnSuffix: "")

    private static func hue(st: String, usnSuffix: String) -> String {
        """
        HTTP/1.1 200 OK\r
        HOST: 239.255.255.250:1900\r
        EXT:\r
        CACHE-CONTROL: max-age=100\r
        LOCATION: http://192.168.1.50:80/description.xml\r
        SERVER: Linux/3.14.0 UPnP/1.0 IpBridge/1.17.0\r
        hue-bridgeid: 001788FFFEA1B2C3\r
        ST: \(st)\r
        USN: uuid:2f402f80-da50-11e1-9b23-001788a1b2c3\(usnSuffix)\r
        \r

        """
    }

    /// Sonos answering with its ZonePlayer type although a root device was searched (§2.6).
    static let sonosZonePlayer = """
        HTTP/1.1 200 OK\r
        CACHE-CONTROL: max-age = 1800\r
        EXT:\r
        LOCATION: http://192.168.86.31:1400/xml/device_description.xml\r
        SERVER: Linux UPnP/1.0 Sonos/96.1-79270 (ZPS14)\r
        ST: urn:schemas-upnp-org:device:ZonePlayer:1\r
        USN: uuid:RINCON_48A6B8332C2E01400::urn:schemas-upnp-org:device:ZonePlayer:1\r
        X-RINCON-HOUSEHOLD: Sonos_BgzkDDCeWajFguqqdHEXzFKe3x\r
        X-RINCON-BOOTSEQ: 253\r
        BOOTID.UPNP.ORG: 253\r
        \r

        """

    /// Sonos answering a root device search (§2.6, the ZPS29 fixture).
    static let sonosRoot = """
        HTTP/1.1 200 OK\r
        CACHE-CONTROL: max-age = 1800\r
        DATE: Sat, 21 Nov 2026 10:00:00 GMT\r
        EXT:\r
        LOCATION: http://192.168.86.32:1400/xml/device_description.xml\r
        SERVER: Linux UPnP/1.0 Sonos/85.0-64200 (ZPS29)\r
        ST: upnp:rootdevice\r
        USN: uuid:c4248768-d6b6-4232-a273-5b1701524493::upnp:rootdevice\r
        X-RINCON-WIFIMODE: 1\r
        \r

        """

    /// miniupnpd on an OpenWrt router (§2.8), with its libupnp-compatible OPT/01-NLS headers.
    static let router = """
        HTTP/1.1 200 OK\r
        CACHE-CONTROL: max-age=1800\r
        ST: upnp:rootdevice\r
        USN: uuid:6f2e1c3a-52e9-4bd6-9b4e-0090a2777777::upnp:rootdevice\r
        EXT:\r
        SERVER: OpenWrt/19.07-SNAPSHOT UPnP/1.1 MiniUPnPd/2.2.0\r
        LOCATION: http://192.168.1.1:5000/rootDesc.xml\r
        OPT: "http://schemas.upnp.org/upnp/1/0/"; ns=01\r
        01-NLS: 1700000000\r
        BOOTID.UPNP.ORG: 1700000000\r
        CONFIGID.UPNP.ORG: 1337\r
        \r

        """

    /// The Netflix DIAL reference server, which answers any datagram that mentions its target (§2.2).
    static let dialReference = """
        HTTP/1.1 200 OK\r
        LOCATION: http://192.168.1.60:56790/dd.xml\r
        CACHE-CONTROL: max-age=1800\r
        EXT:\r
        BOOTID.UPNP.ORG: 1\r
        SERVER: Linux/2.6 UPnP/1.1 quick_ssdp/1.1\r
        ST: urn:dial-multiscreen-org:service:dial:1\r
        USN: uuid:deadbeef-dead-beef-dead-beefdeadbeef::urn:dial-multiscreen-org:service:dial:1\r
        \r

        """

    /// A device that forgot LOCATION (claycollier/pydial#1 forgot `max-age=`; same outcome).
    static let missingLocation = """
        HTTP/1.1 200 OK\r
        CACHE-CONTROL: max-age=1800\r
        EXT:\r
        SERVER: Linux/4.4 UPnP/1.0 pydial/0.1\r
        ST: upnp:rootdevice\r
        USN: uuid:0e4b0a4f-8d3c-4c7a-9c55-1f0e2d3c4b5a::upnp:rootdevice\r
        \r

        """

    /// Dell 1815dn printer: a bare LF inside SERVER leaves a line without a colon (async_upnp_client#116).
    static let dellPrinter = """
        HTTP/1.1 200 OK\r
        CACHE-CONTROL: max-age = 60\r
        EXT:\r
        LOCATION: http://192.168.1.77:80/UPnP/Printer.xml\r
        SERVER: Network Printer Server UPnP/1.0 OS 1.03.03.08
        10-30-2006\r
        ST: upnp:rootdevice\r
        USN: uuid:Dell-Printer-1_0-Dell-1815dn::upnp:rootdevice\r
        \r

        """

    /// A Sonos NOTIFY heard on the search socket (n8henrie/fauxmo#7): not an answer at all.
    static let sonosNotify = """
        NOTIFY * HTTP/1.1\r
        HOST: 239.255.255.250:1900\r
        CACHE-CONTROL: max-age = 1800\r
        LOCATION: http://192.168.27.212:1400/xml/device_description.xml\r
        NT: urn:schemas-upnp-org:device:ZonePlayer:1\r
        NTS: ssdp:alive\r
        SERVER: Linux UPnP/1.0 Sonos/31.9-26010 (BR100)\r
        USN: uuid:RINCON_000E581C64B201400::urn:schemas-upnp-org:device:ZonePlayer:1\r
        \r

        """
}
