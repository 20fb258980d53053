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

import Foundation
import SSDPCore
import SSDPDeviceCore
import SSDPDevices
import SSDPSimulator
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Each profile's search response against the real device's, as captured in ssdp-protocol-facts.md §2.
///
/// Every header line must match the capture in name (spelling included), order and count. Values match
/// the capture byte for byte, except where the capture holds something one device has and another has
/// not (its serial, MAC, UUID, household): there the test gives the shape the value must have. The device
/// is put at the capture's address and port, so LOCATION is compared byte for byte too.
@Suite struct ProfileCaptureTests {
    struct Capture: Sendable, CustomTestStringConvertible {
        var profile: String
        /// The search the capture answers.
        var st: String
        /// Where the captured device served its description: the simulated one is put there.
        var baseURL: String
        var bootID: Int = 1
        var configID: Int = 1
        /// The captured response, lines as the device sent them.
        var response: String
        /// Header name → the shape (a regular expression) of a value that differs from device to device.
        var variable: [String: String] = [:]

        var testDescription: String { profile }
    }

    /// Roku OS 9.2's answer to roku:ecp (§2.1), and the shapes of its values that differ per device.
    static let rokuAnswer = """
        HTTP/1.1 200 OK
        Cache-Control: max-age=3600
        ST: roku:ecp
        USN: uuid:roku:ecp:YN00XF7876856
        Ext:
        Server: Roku/9.2.0 UPnP/1.0 Roku/9.2.0
        LOCATION: http://192.168.1.134:8060/
        device-group.roku.com: DD45456B11E45456E51
        WAKEUP: MAC=e6-48-b0-c7-42-5c;Timeout=10
        """
    static let rokuVariable = [
        "USN": "uuid:roku:ecp:[0-9A-Z]{12,13}", "device-group.roku.com": "[0-9A-F]{19,20}",
        "WAKEUP": "MAC=([0-9a-f]{2}-){5}[0-9a-f]{2};Timeout=10",
    ]

    static let captures: [Capture] = [
        // Roku OS 9.2, answer to roku:ecp (§2.1).
        Capture(
            profile: "roku",
            st: "roku:ecp",
            baseURL: "http://192.168.1.134:8060",
            response: rokuAnswer,
            variable: rokuVariable
        ),
        // A Roku TV: the same answer (no capture of a TV's answer is on record), its version in Server.
        Capture(
            profile: "roku-tv",
            st: "roku:ecp",
            baseURL: "http://192.168.1.134:8060",
            response: rokuAnswer.replacing("Roku/9.2.0 UPnP/1.0 Roku/9.2.0", with: "Roku/11.5.0 UPnP/1.0 Roku/11.5.0"),
            variable: rokuVariable
        ),
        // Netflix dial-reference quick_ssdp.c (§2.2); its format strings hold the UUID and MAC.
        Capture(
            profile: "dial-tv",
            st: "urn:dial-multiscreen-org:service:dial:1",
            baseURL: "http://192.168.1.50:56789",
            response: """
                HTTP/1.1 200 OK
                LOCATION: http://192.168.1.50:56789/dd.xml
                CACHE-CONTROL: max-age=1800
                EXT:
                BOOTID.UPNP.ORG: 1
                SERVER: Linux/2.6 UPnP/1.1 quick_ssdp/1.1
                ST: urn:dial-multiscreen-org:service:dial:1
                USN: uuid:%s::urn:dial-multiscreen-org:service:dial:1
                WAKEUP: MAC=%s;Timeout=10
                """,
            variable: [
                "USN": "uuid:[0-9a-f-]{36}::urn:dial-multiscreen-org:service:dial:1",
                "WAKEUP": "MAC=([0-9a-f]{2}:){5}[0-9a-f]{2};Timeout=10",
            ]
        ),
        // Hue bridge, as documented by Philips and the deCONZ wiki (§2.7).
        Capture(
            profile: "hue",
            st: "upnp:rootdevice",
            baseURL: "http://192.168.1.2:80",
            response: """
                HTTP/1.1 200 OK
                HOST: 239.255.255.250:1900
                EXT:
                CACHE-CONTROL: max-age=100
                LOCATION: http://192.168.1.2:80/description.xml
                SERVER: Linux/3.14.0 UPnP/1.0 IpBridge/1.17.0
                hue-bridgeid: 001788FFFExxxxxx
                ST: upnp:rootdevice
                USN: uuid:2f402f80-da50-11e1-9b23-001788xxxxxx::upnp:rootdevice
                """,
            variable: [
                "hue-bridgeid": "001788FFFE[0-9A-F]{6}",
                "USN": "uuid:2f402f80-da50-11e1-9b23-001788[0-9a-f]{6}::upnp:rootdevice",
            ]
        ),
        // Sonos, newer firmware (§2.6).
        Capture(
            profile: "sonos",
            st: "urn:schemas-upnp-org:device:ZonePlayer:1",
            baseURL: "http://192.168.86.31:1400",
            bootID: 253,
            response: """
                HTTP/1.1 200 OK
                CACHE-CONTROL: max-age = 1800
                EXT:
                LOCATION: http://192.168.86.31:1400/xml/device_description.xml
                SERVER: Linux UPnP/1.0 Sonos/96.1-79270 (ZPS14)
                ST: urn:schemas-upnp-org:device:ZonePlayer:1
                USN: uuid:RINCON_48A6B8332C2E01400::urn:schemas-upnp-org:device:ZonePlayer:1
                X-RINCON-HOUSEHOLD: Sonos_BgzkDDCeWajFguqqdHEXzFKe3x
                X-RINCON-BOOTSEQ: 253
                BOOTID.UPNP.ORG: 253
                X-RINCON-VARIANT: 2
                HOUSEHOLD.SMARTSPEAKER.AUDIO: Sonos_BgzkDDCeWajFguqqdHEXzFKe3x.Zv1xanSF--vUn91aMpBs
                LOCATION.SMARTSPEAKER.AUDIO: lc_bd39b75a013d4656a07c4bcbb5ca6506
                SECURELOCATION.UPNP.ORG: https://192.168.86.31:1443/xml/device_description.xml
                """,
            variable: [
                "USN": "uuid:RINCON_48A6B8[0-9A-F]{6}01400::urn:schemas-upnp-org:device:ZonePlayer:1",
                "X-RINCON-HOUSEHOLD": "Sonos_[0-9A-Za-z]{26}",
                "HOUSEHOLD.SMARTSPEAKER.AUDIO": "Sonos_[0-9A-Za-z]{26}\\.[0-9A-Za-z-]{20}",
                "LOCATION.SMARTSPEAKER.AUDIO": "lc_[0-9a-f]{32}",
            ]
        ),
        // miniupnpd minissdp.c, in the order it writes (§2.8; built without ENABLE_HTTP_DATE and
        // ENABLE_HTTPS, so no DATE and no SECURELOCATION), as OpenWrt 22.03's 2.3.3 answers: max-age=120
        // (hard-coded before 2.3.5, as the OpenWrt capture has it) and CONFIGID 1337; the ST as searched.
        // Debian's miniupnpd 2.3.1 beside the profile answers the same (scripts/fidelity igd).
        Capture(
            profile: "igd",
            st: "urn:schemas-upnp-org:device:InternetGatewayDevice:1",
            baseURL: "http://192.168.1.1:5000",
            bootID: 1_700_000_000,
            configID: 1337,
            response: """
                HTTP/1.1 200 OK
                CACHE-CONTROL: max-age=120
                ST: urn:schemas-upnp-org:device:InternetGatewayDevice:1
                USN: uuid:<uuid>::urn:schemas-upnp-org:device:InternetGatewayDevice:1
                EXT:
                SERVER: OpenWrt/5.10.176 UPnP/1.1 MiniUPnPd/2.3.3
                LOCATION: http://192.168.1.1:5000/rootDesc.xml
                OPT: "http://schemas.upnp.org/upnp/1/0/"; ns=01
                01-NLS: 1700000000
                BOOTID.UPNP.ORG: 1700000000
                CONFIGID.UPNP.ORG: 1337
                """,
            variable: ["USN": "uuid:[0-9a-f-]{36}::urn:schemas-upnp-org:device:InternetGatewayDevice:1"]
        ),
        // Debian's MiniDLNA 1.3.0 (minissdp.c), recorded beside the profile by scripts/fidelity dlna-server.
        Capture(
            profile: "dlna-server",
            st: "urn:schemas-upnp-org:service:ContentDirectory:1",
            baseURL: "http://192.168.77.1:8200",
            response: """
                HTTP/1.1 200 OK
                CACHE-CONTROL: max-age=1800
                DATE: Thu, 26 Nov 2026 15:32:59 GMT
                ST: urn:schemas-upnp-org:service:ContentDirectory:1
                USN: uuid:<uuid>::urn:schemas-upnp-org:service:ContentDirectory:1
                EXT:
                SERVER: Debian DLNADOC/1.50 UPnP/1.0 MiniDLNA/1.3.0
                LOCATION: http://192.168.77.1:8200/rootDesc.xml
                Content-Length: 0
                """,
            variable: [
                "DATE": "[A-Z][a-z]{2}, [0-9]{2} [A-Z][a-z]{2} [0-9]{4} [0-9]{2}:[0-9]{2}:[0-9]{2} GMT",
                "USN": "uuid:[0-9a-f-]{36}::urn:schemas-upnp-org:service:ContentDirectory:1",
            ]
        ),
        // Debian's gmediarender 0.1-1 (libupnp 1.8.4) beside the profile in scripts/fidelity renderer; SERVER
        // names the kernel it runs on.
        Capture(
            profile: "renderer",
            st: "upnp:rootdevice",
            baseURL: "http://192.168.77.1:49152",
            response: """
                HTTP/1.1 200 OK
                CACHE-CONTROL: max-age=100
                DATE: Thu, 26 Nov 2026 16:05:01 GMT
                EXT:
                LOCATION: http://192.168.77.1:49152/description.xml
                OPT: "http://schemas.upnp.org/upnp/1/0/"; ns=01
                01-NLS: <uuid>
                SERVER: Linux/6.18.44-fc-v595, UPnP/1.0, Portable SDK for UPnP devices/1.8.4
                X-User-Agent: redsonic
                ST: upnp:rootdevice
                USN: uuid:<uuid>::upnp:rootdevice
                """,
            variable: [
                "DATE": "[A-Z][a-z]{2}, [0-9]{2} [A-Z][a-z]{2} [0-9]{4} [0-9]{2}:[0-9]{2}:[0-9]{2} GMT",
                "01-NLS": "[0-9a-f-]{36}", "SERVER": "Linux/[^,]+, UPnP/1.0, Portable SDK for UPnP devices/1.8.4",
                "USN": "uuid:[0-9a-f-]{36}::upnp:rootdevice",
            ]
        ),
        // A Google device, home-assistant/core#57243 (§2.3).
        Capture(
            profile: "chromecast-legacy",
            st: "urn:dial-multiscreen-org:device:dial:1",
            baseURL: "http://192.168.0.15:8008",
            bootID: 208,
            configID: 212,
            response: """
                HTTP/1.1 200 OK
                CACHE-CONTROL: max-age=1800
                EXT:
                LOCATION: http://192.168.0.15:8008/ssdp/device-desc.xml
                OPT: "http://schemas.upnp.org/upnp/1/0/"; ns=01
                01-NLS: <uuid-like>
                SERVER: Linux/4.9.113, UPnP/1.0, Portable SDK for UPnP devices/1.6.18
                X-User-Agent: redsonic
                ST: urn:dial-multiscreen-org:device:dial:1
                USN: uuid:<uuid>::urn:dial-multiscreen-org:device:dial:1
                BOOTID.UPNP.ORG: 208
                CONFIGID.UPNP.ORG: 212
                """,
            variable: [
                "01-NLS": "[0-9a-f]{32}", "USN": "uuid:[0-9a-f-]{36}::urn:dial-multiscreen-org:device:dial:1",
            ]
        ),
        // The UDA 1.1 §1.3.3 template.
        Capture(
            profile: "generic",
            st: "upnp:rootdevice",
            baseURL: "http://192.168.1.30:8080/device/0",
            response: """
                HTTP/1.1 200 OK
                CACHE-CONTROL: max-age=1800
                EXT:
                LOCATION: http://192.168.1.30:8080/device/0/description.xml
                SERVER: Linux/6.1 UPnP/1.1 ssdp-sim/\(ToolVersion.current)
                ST: upnp:rootdevice
                USN: uuid:<uuid>::upnp:rootdevice
                BOOTID.UPNP.ORG: 1
                CONFIGID.UPNP.ORG: 1
                """,
            variable: ["USN": "uuid:[0-9a-f-]{36}::upnp:rootdevice"]
        ),
    ]

    @Test func everyProfileHasACapture() {
        #expect(Set(Self.captures.map(\.profile)) == Set(SimulatorProfile.all.map(\.name)))
    }

    /// What a device sends (`searchResponseBytes`, written straight into bytes) is the serialized message
    /// that the captures hold, for every profile and every advertisement.
    @Test(arguments: SimulatorProfile.all.map(\.name))
    func theAnswerSentIsTheSearchResponseSerialized(_ profile: String) throws {
        for number in 1...3 {
            let root = try SimulatorProfile.named(profile).device(number: number, seed: UInt64(number))
                .rootDevice(baseURL: "http://10.0.0.\(number):8080/device/0", defaultBootID: number)
            for advertisement in root.advertisements {
                let sent = root.searchResponseBytes(for: advertisement)
                #expect(sent == root.searchResponse(for: advertisement).serialized(), "\(advertisement.usn)")
            }
        }
    }

    /// The alive and byebye header names, in order, of the real stacks recorded beside their profiles in a
    /// namespace: Debian's miniupnpd 2.3.1 (scripts/fidelity igd runs the whole comparison) and Debian's
    /// MiniDLNA 1.3.0, a UPnP 1.0 device with no BOOTID or CONFIGID (which writes `HOST:…` without a space:
    /// `DeviceAdvertiserTests`).
    @Test(arguments: [
        (
            "igd",
            "HOST CACHE-CONTROL LOCATION SERVER NT USN NTS OPT 01-NLS BOOTID.UPNP.ORG CONFIGID.UPNP.ORG",
            "HOST NT USN NTS OPT 01-NLS BOOTID.UPNP.ORG CONFIGID.UPNP.ORG"
        ),
        ("dlna-server", "HOST CACHE-CONTROL LOCATION SERVER NT USN NTS", "HOST NT USN NTS"),
        (
            "renderer",
            "HOST CACHE-CONTROL LOCATION OPT 01-NLS NT NTS SERVER X-User-Agent USN",
            "HOST CACHE-CONTROL LOCATION OPT 01-NLS NT NTS SERVER X-User-Agent USN"
        ),
    ])
    func theNotifyMessagesHaveTheRealStacksHeaders(profile: String, alive: String, byebye: String) throws {
        let root = try SimulatorProfile.named(profile).device(number: 1, seed: 1)
            .rootDevice(baseURL: "http://192.168.77.1:8200", defaultBootID: 7)
        let names = { (message: SSDPMessage) in
            String(decoding: message.serialized(), as: UTF8.self).split(separator: "\r\n").dropFirst()
                .map { String($0.prefix { $0 != ":" }) }.joined(separator: " ")
        }
        for advertisement in root.advertisements {
            #expect(names(root.alive(advertisement)) == alive, "\(advertisement.usn)")
            #expect(names(root.byebye(advertisement)) == byebye, "\(advertisement.usn)")
            let sent = String(decoding: root.alive(advertisement).serialized(), as: UTF8.self)
            // minissdp.c writes USN right after NT; libupnp writes NTS, SERVER and X-User-Agent between them.
            let between =
                profile == "renderer" ? "NTS: ssdp:alive\r\nSERVER: \(root.server)\r\nX-User-Agent: redsonic\r\n" : ""
            #expect(sent.contains("\r\nNT: \(advertisement.target)\r\n\(between)USN: \(advertisement.usn)\r\n"))
        }
    }

    /// Debian's MiniDLNA 1.3.0's description as it served it beside the profile (`scripts/fidelity
    /// dlna-server`, the real one configured with the profile's names), its UDN left out.
    static let miniDLNADescription =
        "<?xml version=\"1.0\"?>\r\n"
        + #"<root xmlns="urn:schemas-upnp-org:device-1-0"><specVersion><major>1</major><minor>0</minor>"#
        + #"</specVersion><device><deviceType>urn:schemas-upnp-org:device:MediaServer:1</deviceType>"#
        + #"<friendlyName>media-1: minidlna</friendlyName><manufacturer>Justin Maggard</manufacturer>"#
        + #"<manufacturerURL>http://www.netgear.com/</manufacturerURL><modelDescription>MiniDLNA on Linux"#
        + #"</modelDescription><modelName>Windows Media Connect compatible (MiniDLNA)</modelName>"#
        + #"<modelNumber>1.3.0</modelNumber><modelURL>http://www.netgear.com</modelURL>"#
        + #"<serialNumber>00000000</serialNumber><UDN>uuid:<uuid></UDN>"#
        + #"<dlna:X_DLNADOC xmlns:dlna="urn:schemas-dlna-org:device-1-0">DMS-1.50</dlna:X_DLNADOC>"#
        + #"<presentationURL>/</presentationURL><iconList><icon><mimetype>image/png</mimetype><width>48"#
        + #"</width><height>48</height><depth>24</depth><url>/icons/sm.png</url></icon><icon>"#
        + #"<mimetype>image/png</mimetype><width>120</width><height>120</height><depth>24</depth>"#
        + #"<url>/icons/lrg.png</url></icon><icon><mimetype>image/jpeg</mimetype><width>48</width><height>48"#
        + #"</height><depth>24</depth><url>/icons/sm.jpg</url></icon><icon><mimetype>image/jpeg</mimetype>"#
        + #"<width>120</width><height>120</height><depth>24</depth><url>/icons/lrg.jpg</url></icon>"#
        + #"</iconList><serviceList><service><serviceType>urn:schemas-upnp-org:service:ContentDirectory:1"#
        + #"</serviceType><serviceId>urn:upnp-org:serviceId:ContentDirectory</serviceId>"#
        + #"<controlURL>/ctl/ContentDir</controlURL><eventSubURL>/evt/ContentDir</eventSubURL>"#
        + #"<SCPDURL>/ContentDir.xml</SCPDURL></service><service>"#
        + #"<serviceType>urn:schemas-upnp-org:service:ConnectionManager:1</serviceType>"#
        + #"<serviceId>urn:upnp-org:serviceId:ConnectionManager</serviceId><controlURL>/ctl/ConnectionMgr"#
        + #"</controlURL><eventSubURL>/evt/ConnectionMgr</eventSubURL><SCPDURL>/ConnectionMgr.xml</SCPDURL>"#
        + #"</service><service><serviceType>urn:microsoft.com:service:X_MS_MediaReceiverRegistrar:1"#
        + #"</serviceType><serviceId>urn:microsoft.com:serviceId:X_MS_MediaReceiverRegistrar</serviceId>"#
        + #"<controlURL>/ctl/X_MS_MediaReceiverRegistrar</controlURL>"#
        + #"<eventSubURL>/evt/X_MS_MediaReceiverRegistrar</eventSubURL>"#
        + #"<SCPDURL>/X_MS_MediaReceiverRegistrar.xml</SCPDURL></service></serviceList></device></root>"#

    @Test func dlnaServersDescriptionIsDebiansMiniDLNAsByteForByte() throws {
        let device = try SimulatorProfile.named("dlna-server").device(number: 1, seed: 1)
        let root = device.rootDevice(baseURL: "http://192.168.77.1:8200", defaultBootID: 1)
        let description = root.descriptionXML(basePath: "").replacing(device.device.udn, with: "uuid:<uuid>")
        #expect(description == Self.miniDLNADescription)
    }

    /// What Debian's gmediarender 0.1 served beside the renderer profile (Fixtures/gmediarender), byte for
    /// byte: the description (its UDN and URLBase's address left out) and the three SCPDs.
    @Test func renderersDocumentsAreDebiansGMediaRendersByteForByte() throws {
        let fixture = { (name: String) throws in
            let url = try #require(
                Bundle.module.url(forResource: name, withExtension: "xml", subdirectory: "Fixtures/gmediarender")
            )
            return String(decoding: try Data(contentsOf: url), as: UTF8.self)
        }
        let device = try SimulatorProfile.named("renderer").device(number: 1, seed: 1)
        let description = device.rootDevice(baseURL: "http://192.168.77.1:49152", defaultBootID: 1)
            .descriptionXML(basePath: "").replacing(device.device.udn, with: "uuid:<uuid>")
            .replacing(SSDPRootDevice.originPlaceholder, with: "http://<origin>")
        #expect(description == (try fixture("description")))
        for (file, type) in [
            ("rendertransportSCPD", "AVTransport"), ("rendercontrolSCPD", "RenderingControl"),
            ("renderconnmgrSCPD", "ConnectionManager"),
        ] {
            let scpd = device.web.serviceDescription(for: "urn:schemas-upnp-org:service:\(type):1").xml
            #expect(scpd == (try fixture(file)), "\(file)")
        }
    }

    /// A Hue bridge's description, as the apps and emulators that must pass for one copy it (the same bytes
    /// in Home Assistant's emulated_hue and others; a JavaScript client finds a bridge by its
    /// `hue_logo_0.png`): its friendly name, serial and UDN left out.
    static let hueDescription = """
        <?xml version="1.0" encoding="UTF-8" ?>
        <root xmlns="urn:schemas-upnp-org:device-1-0">
        <specVersion>
        <major>1</major>
        <minor>0</minor>
        </specVersion>
        <URLBase>http://192.168.1.2:80/</URLBase>
        <device>
        <deviceType>urn:schemas-upnp-org:device:Basic:1</deviceType>
        <friendlyName><name></friendlyName>
        <manufacturer>Royal Philips Electronics</manufacturer>
        <manufacturerURL>http://www.philips.com</manufacturerURL>
        <modelDescription>Philips hue Personal Wireless Lighting</modelDescription>
        <modelName>Philips hue bridge 2015</modelName>
        <modelNumber>BSB002</modelNumber>
        <modelURL>http://www.meethue.com</modelURL>
        <serialNumber><serial></serialNumber>
        <UDN>uuid:2f402f80-da50-11e1-9b23-<serial></UDN>
        <presentationURL>index.html</presentationURL>
        <iconList>
        <icon>
        <mimetype>image/png</mimetype>
        <height>48</height>
        <width>48</width>
        <depth>24</depth>
        <url>hue_logo_0.png</url>
        </icon>
        <icon>
        <mimetype>image/png</mimetype>
        <height>120</height>
        <width>120</width>
        <depth>24</depth>
        <url>hue_logo_3.png</url>
        </icon>
        </iconList>
        </device>
        </root>

        """

    /// The Hue's description is laid out as a bridge's; the bridge id its answers carry is the one its API
    /// reports (aiohue refuses a bridge where they differ), and SERVER names the API version it reports.
    @Test func theHueBridgeDescribesItselfAsABridgeDoesAndItsAPIAgrees() throws {
        let device = try SimulatorProfile.named("hue").device(number: 1, seed: 3)
        let serial = try #require(device.device.properties.first { $0.name == "serialNumber" }?.value)
        let description = device.rootDevice(baseURL: "", defaultBootID: 1)
            .descriptionXML(basePath: "", origin: "http://192.168.1.2:80")
            .replacing(device.device.friendlyName, with: "<name>").replacing(serial, with: "<serial>")
        #expect(description == Self.hueDescription)
        let api = try #require(device.web.hue)
        let header = device.extraHeaders.first { $0.name == "hue-bridgeid" }?.value
        #expect(
            header == api.bridgeID
                && api.bridgeID == serial.prefix(6).uppercased() + "FFFE" + serial.suffix(6).uppercased()
        )
        #expect(api.mac.replacing(":", with: "") == serial)
        #expect(device.server == "Linux/3.14.0 UPnP/1.0 IpBridge/\(api.apiVersion)")
        for path in ["/hue_logo_0.png", "/hue_logo_3.png"] {
            #expect(device.web.files[path]?.bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) == true, "\(path)")
        }
    }

    /// The order of a Sonos player's description, as SoCo's recording of one (a Play:5, in its
    /// `test_core.py`) has it: the root's fields, an embedded device's, a service's. The profile writes the
    /// fields SoCo reads and those that carry them; each in the recording's order.
    @Test func theSonosDescriptionIsInTheOrderOfSoCosRecording() throws {
        let root = """
            deviceType friendlyName manufacturer manufacturerURL modelNumber modelDescription modelName modelURL \
            softwareVersion hardwareVersion serialNum UDN iconList minCompatibleVersion legacyCompatibleVersion \
            apiVersion minApiVersion displayVersion extraVersion roomName displayName zoneType feature1 feature2 \
            feature3 seriesid variant internalSpeakerSize bassExtension satGainOffset memory flash \
            flashRepartitioned ampOnTime retailMode serviceList deviceList
            """.split(separator: " ").map(String.init)
        let embedded = """
            deviceType friendlyName manufacturer manufacturerURL modelNumber modelDescription modelName modelURL UDN \
            serviceList
            """.split(separator: " ").map(String.init)
        let service = ["serviceType", "serviceId", "controlURL", "eventSubURL", "SCPDURL"]
        // Newer players write swGen after softwareVersion and MACAddress after serialNum.
        let newer = ["swGen": "softwareVersion", "MACAddress": "serialNum"]
        let device = try SimulatorProfile.named("sonos").device(number: 1, seed: 1)
        let xml = device.rootDevice(baseURL: "", defaultBootID: 1).descriptionXML(basePath: "")
        let document = try XMLDocument(xmlString: xml)
        let children = { (path: String) throws -> [[String]] in
            try document.nodes(forXPath: path).map { ($0.children ?? []).compactMap(\.name) }
        }
        let inOrder = { (names: [String], order: [String]) -> Bool in
            let known = names.filter { newer[$0] == nil }
            let positions = known.compactMap { order.firstIndex(of: $0) }
            return positions.count == known.count && positions == positions.sorted()
        }
        let rootFields = try #require(try children("/*[local-name()='root']/*[local-name()='device']").first)
        #expect(inOrder(rootFields, root), "\(rootFields)")
        #expect(rootFields.contains("iconList") && rootFields.last == "deviceList")
        for (name, after) in newer {
            #expect(rootFields.firstIndex(of: name) == rootFields.firstIndex(of: after).map { $0 + 1 }, "\(name)")
        }
        let embeddedFields = try children("//*[local-name()='deviceList']/*[local-name()='device']")
        #expect(embeddedFields.count == 2 && embeddedFields.allSatisfy { $0 == embedded }, "\(embeddedFields)")
        let services = try children("//*[local-name()='service']")
        #expect(!services.isEmpty && services.allSatisfy { $0 == service })
        #expect(
            try document.nodes(forXPath: "//*[local-name()='specVersion']/*[local-name()='minor']").first?.stringValue
                == "0"
        )
        #expect(device.web.files["/img/icon-S18.png"]?.bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) == true)
    }

    @Test(arguments: captures)
    func theSearchResponseMatchesTheCapture(_ capture: Capture) throws {
        for number in 1...3 {  // the variable values differ from device to device, the rest does not
            var simulated = try SimulatorProfile.named(capture.profile).device(number: number, seed: UInt64(number))
            simulated.configID = capture.configID
            let root = simulated.rootDevice(baseURL: capture.baseURL, defaultBootID: capture.bootID)
            let answer = try #require(root.answers(to: SSDPSearchTarget(capture.st)).first)
            let sent = String(decoding: root.searchResponse(for: answer).serialized(), as: UTF8.self)
            #expect(sent.hasSuffix("\r\n\r\n"))
            let sentLines = sent.split(separator: "\r\n").map(String.init)
            let capturedLines = capture.response.split(separator: "\n").map(String.init)
            #expect(sentLines.first == capturedLines.first)
            #expect(
                sentLines.dropFirst().map { $0.prefix { $0 != ":" } }
                    == capturedLines.dropFirst().map { $0.prefix { $0 != ":" } },
                "header names, spelling and order"
            )
            for (sentLine, capturedLine) in zip(sentLines, capturedLines).dropFirst() {
                let name = String(capturedLine.prefix { $0 != ":" })
                if let shape = capture.variable[name] {
                    let value = sentLine.dropFirst(name.count + 1).drop { $0 == " " }
                    #expect(try Regex(shape).wholeMatch(in: value) != nil, "\(sentLine) against \(shape)")
                    #expect(
                        sentLine.hasPrefix(name + (capturedLine.dropFirst(name.count + 1).first == " " ? ": " : ":"))
                    )
                } else {
                    #expect(sentLine == capturedLine)
                }
            }
        }
    }
}
