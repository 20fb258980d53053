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

/// A root device as it appears on the network: its device tree plus what SSDP messages carry about it.
public struct SSDPRootDevice: Hashable, Sendable {
    /// The root device's tree: itself, its services and its embedded devices.
    public var device: SSDPDevice
    /// The absolute URL of the description (LOCATION).
    public var location: String
    /// `OS/version UPnP/1.1 product/version` (SERVER).
    public var server: String
    /// Seconds an advertisement stays valid (CACHE-CONTROL max-age).
    public var maxAge: Int
    /// BOOTID.UPNP.ORG: grows with every start of the device (UDA 1.1 §1.2.2), within `bootIDs`.
    public var bootID: Int
    /// CONFIGID.UPNP.ORG: changes with the description (UDA 1.1 §1.2.2), within `configIDs`.
    public var configID: Int
    /// The values a BOOTID.UPNP.ORG takes: 31 bits (UDA 1.1 §1.2.2).
    public static let bootIDs = 0...Int(Int32.max)
    /// The values a CONFIGID.UPNP.ORG takes: 0...16777215 (UDA 1.1 §1.2.2).
    public static let configIDs = 0...16_777_215
    /// Targets answered besides the UPnP ones (`roku:ecp`, `urn:dial-multiscreen-org:service:dial:1`).
    public var extraTargets: [SSDPExtraTarget]
    /// Headers added, in order, after the standard ones of every alive message, and of every response
    /// unless `responseHeaders` lays it out; their values may hold the same placeholders.
    public var extraHeaders: [SSDPHeaderField]
    /// The header lines of a search response as a real device writes them, in its order and spelling, or
    /// `nil` for the UDA 1.1 §1.3.3 template. Values may hold the placeholders `{maxAge}`, `{st}`, `{usn}`,
    /// `{location}`, `{server}`, `{bootId}`, `{configId}` and `{host}` (LOCATION's host), filled in for
    /// each answer, and `{date}`, the moment it leaves (`ScheduledAnswer.dated(secondsSince1970:)`).
    public var responseHeaders: [SSDPHeaderField]?
    /// The header lines of its alive and byebye NOTIFYs as a real device writes them, or `nil` for the UDA
    /// 1.1 §1.2 ones; the same placeholders, and `{nt}` and `{group}` (the HOST the NOTIFY goes to).
    public var notifyHeaders: SSDPNotifyHeaders?
    /// The type SSDP advertises for a device or service type of the description, where they differ: a
    /// miniupnpd built for IGD v2 but describing itself as v1 (`force_igd_desc_v1`, OpenWrt's default)
    /// still advertises and answers as `InternetGatewayDevice:2`.
    public var advertisedTypes: [String: String] = [:]
    /// How its description is written: UDA 1.1's layout, or a real stack's (`SSDPDescriptionLayout`).
    public var descriptionLayout = SSDPDescriptionLayout.uda11

    /// Whether it is a UPnP 1.0 device, as its description says: no `ssdp:update`, no BOOTID.
    public var isUPnP10: Bool {
        descriptionLayout.specVersion == (1, 0)
    }

    /// A root device whose description is at `location`; by default on its first boot (BOOTID and CONFIGID 1),
    /// with advertisements valid for 1800 s and the UDA 1.1 response template.
    public init(
        device: SSDPDevice,
        location: String,
        server: String = SSDPRootDevice.defaultServer,
        maxAge: Int = 1800,
        bootID: Int = 1,
        configID: Int = 1,
        extraTargets: [SSDPExtraTarget] = [],
        extraHeaders: [SSDPHeaderField] = [],
        responseHeaders: [SSDPHeaderField]? = nil
    ) {
        self.device = device
        self.location = location
        self.server = server
        self.maxAge = maxAge
        self.bootID = bootID
        self.configID = configID
        self.extraTargets = extraTargets
        self.extraHeaders = extraHeaders
        self.responseHeaders = responseHeaders
    }

    /// The full advertisement set, in the order UDA 1.1 §1.2.2 lists it: the root's three, then two for each
    /// embedded device, then one per service type of each device, then the extra targets.
    public var advertisements: [SSDPAdvertisement] {
        let root = device
        let rootType = advertised(root.deviceType)
        var result = [
            SSDPAdvertisement(target: "upnp:rootdevice", usn: "\(root.udn)::upnp:rootdevice"),
            SSDPAdvertisement(target: root.udn, usn: root.udn),
            SSDPAdvertisement(target: rootType, usn: "\(root.udn)::\(rootType)"),
        ]
        for embedded in root.allDevices.dropFirst() {
            let type = advertised(embedded.deviceType)
            result.append(SSDPAdvertisement(target: embedded.udn, usn: embedded.udn))
            result.append(SSDPAdvertisement(target: type, usn: "\(embedded.udn)::\(type)"))
        }
        for device in root.allDevices {
            for serviceType in device.distinctServiceTypes.map(advertised) {
                result.append(SSDPAdvertisement(target: serviceType, usn: "\(device.udn)::\(serviceType)"))
            }
        }
        for extra in extraTargets {
            result.append(extra.advertisement(rootUDN: root.udn, target: extra.target))
        }
        return result
    }

    /// The type SSDP says for `type` of the description (`advertisedTypes`).
    private func advertised(_ type: String) -> String {
        advertisedTypes[type] ?? type
    }

    /// The answers a search for `target` gets, each with the ST it carries (UDA 1.1 §1.3.3).
    ///
    /// `ssdp:all` gets the whole advertisement set. Every other target gets one answer per matching
    /// device or (device, service type) pair, carrying the ST exactly as the search spelled it, so a
    /// `:2` device found by a `:1` search answers with `:1` (§1.3.2).
    public func answers(to target: SSDPSearchTarget) -> [SSDPAdvertisement] {
        let requested = target.rawValue
        let devices: [SSDPDevice]
        switch target {
        case .all:
            return advertisements
        case .rootDevice:
            return [SSDPAdvertisement(target: requested, usn: "\(device.udn)::upnp:rootdevice")]
        case .uuid:
            return device.allDevices.filter { $0.udn == requested }.map {
                SSDPAdvertisement(target: requested, usn: $0.udn)
            }
        case .deviceType:
            devices = device.allDevices.filter {
                target.matches(advertised: advertised($0.deviceType), requested: requested)
            }
        case .serviceType:
            devices = device.allDevices.filter { device in
                device.services.contains {
                    target.matches(advertised: advertised($0.serviceType), requested: requested)
                }
            }
        case .other:
            devices = []
        }
        let answers = devices.map { SSDPAdvertisement(target: requested, usn: "\($0.udn)::\(requested)") }
        let extra = extraTargets.filter { target.matches(advertised: $0.target, requested: requested) }
        return answers + extra.map { $0.advertisement(rootUDN: device.udn, target: requested) }
    }
}

/// A target a root device answers besides those of its device tree (`roku:ecp`, DIAL's
/// `urn:dial-multiscreen-org:service:dial:1`), with the USN and LOCATION the real device gives it.
public struct SSDPExtraTarget: Hashable, Sendable, ExpressibleByStringLiteral {
    /// The target as advertised and searched for, `roku:ecp`.
    public var target: String
    /// The USN, or `nil` for `<UDN>::<target>`; a Roku answers `roku:ecp` with `uuid:roku:ecp:<serial>`.
    public var usn: String?
    /// Where answers for this target point, or `nil` for the device's LOCATION; a Roku points DIAL searches
    /// at `/dial/dd.xml`. In a `SimulatedDevice` this is a path on the device's HTTP server.
    public var location: String?

    /// A target, with the USN and LOCATION the real device gives it where they differ from the defaults.
    public init(_ target: String, usn: String? = nil, location: String? = nil) {
        self.target = target
        self.usn = usn
        self.location = location
    }

    /// A target with the default USN and LOCATION, written as a string: `"roku:ecp"`.
    public init(stringLiteral target: String) {
        self.init(target)
    }

    /// The advertisement of this target, carrying the ST `target` (as a search spelled it).
    func advertisement(rootUDN: String, target: String) -> SSDPAdvertisement {
        SSDPAdvertisement(target: target, usn: usn ?? "\(rootUDN)::\(self.target)", location: location)
    }
}

extension SSDPDevice {
    /// The service types of this device, each once, in the order first listed.
    var distinctServiceTypes: [String] {
        var seen = Set<String>()
        return services.map(\.serviceType).filter { seen.insert($0).inserted }
    }
}

extension SSDPSearchTarget {
    /// `matches(advertised:)` for an advertised target as written, comparing the text first: a search for
    /// exactly what a device advertises (the usual case) then costs no parsing.
    fileprivate func matches(advertised: String, requested: String) -> Bool {
        advertised == requested || matches(advertised: SSDPSearchTarget(advertised))
    }
}

/// A device's NOTIFY lines, in its order and spelling, and how it sends them (`SSDPRootDevice.notifyHeaders`).
public struct SSDPNotifyHeaders: Hashable, Sendable {
    /// The lines of `NOTIFY ssdp:alive`.
    public var alive: [SSDPHeaderField]
    /// The lines of `NOTIFY ssdp:byebye`.
    public var byebye: [SSDPHeaderField]
    /// How many times the byebye set goes out when the device leaves (MiniDLNA: twice).
    public var byebyeCopies = 1
    /// Whether the device says byebye for everything before its first alive set, in case an earlier run of
    /// it left without saying so (MiniDLNA at start).
    public var byebyeAtStart = false
    /// How many times the byebye set goes out at start, where that is not `byebyeCopies` (GSSDP: once at
    /// start, three times when it leaves, as a recording heard it).
    public var byebyeCopiesAtStart: Int?
    /// The headers it writes `NAME:value`, with no space after the colon (MiniDLNA's HOST, CACHE-CONTROL,
    /// LOCATION, NT, USN and NTS; its SERVER has one). A client that splits each line on ": " fails on them.
    public var unspacedNames: Set<String> = []
    /// How many times each round sends the alive set, where the device's own number is known (a recording's;
    /// else the simulator's `--notify-copies`).
    public var aliveCopies: Int?
    /// The IP TTL its NOTIFYs leave with, where the device's own is known (a recording's; else the
    /// simulator's `--ttl`). Played where the NOTIFYs leave from a port of the device's own.
    public var ttl: Int?
    /// Whether it multicasts from a port of its own rather than from 1900 (libupnp, MiniDLNA, miniupnpd).
    public var sentFromOwnPort = false

    /// The lines of a device's alive and byebye NOTIFYs; one byebye set when it leaves, none at start.
    public init(alive: [SSDPHeaderField], byebye: [SSDPHeaderField]) {
        self.alive = alive
        self.byebye = byebye
    }
}
