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
import SSDPDeviceCore

/// One root device a simulator runs: its device tree, what its SSDP messages carry, and how it misbehaves.
///
/// LOCATION and BOOTID are not part of it: the simulator fills them in when it starts (LOCATION from the
/// interface and HTTP port it serves on and the description path of `web`, BOOTID from the start time).
public struct SimulatedDevice: Hashable, Sendable {
    /// The device tree: the root device's UDN, type, names and services, and its embedded devices.
    public var device: SSDPDevice
    /// The SERVER header of answers and NOTIFYs (`OS/version UPnP/1.1 product/version`).
    public var server: String
    /// Seconds an advertisement stays valid (CACHE-CONTROL max-age).
    public var maxAge: Int
    /// A fixed BOOTID.UPNP.ORG, or `nil` for the simulator's start time in seconds, which grows with every start.
    public var bootID: Int?
    /// CONFIGID.UPNP.ORG, 0...16777215: changes when the description does.
    public var configID: Int
    /// Extra targets; their `location`s are paths on the device's HTTP server.
    public var extraTargets: [SSDPExtraTarget]
    /// Headers added, in order, after the standard ones of every alive NOTIFY, and of every answer unless
    /// `responseHeaders` lays it out.
    public var extraHeaders: [SSDPHeaderField]
    /// The search response as the real device writes it (see `SSDPRootDevice.responseHeaders`).
    public var responseHeaders: [SSDPHeaderField]?
    /// Its NOTIFYs as the real device writes them (see `SSDPRootDevice.notifyHeaders`).
    public var notifyHeaders: SSDPNotifyHeaders?
    /// The types SSDP advertises instead of the description's (see `SSDPRootDevice.advertisedTypes`).
    public var advertisedTypes: [String: String] = [:]
    /// How its description is laid out (see `SSDPRootDevice.descriptionLayout`).
    public var descriptionLayout = SSDPDescriptionLayout.uda11
    /// How the device misbehaves on SSDP: answer delay, loss, duplicates, chatter, malformed answers, silent windows.
    public var behaviour: SSDPDeviceBehaviour
    /// What the device serves over HTTP.
    public var web: DeviceWeb
    /// The IPv4 address the device lives at, instead of the one the simulator's `addressing` gives it.
    public var address: String?
    /// The built-in profile the device was made from (`roku`), when it was.
    public var profile: String?

    /// A device that behaves well, with max-age 1800, CONFIGID 1 and its description at `/description.xml` unless told
    /// otherwise.
    public init(
        device: SSDPDevice,
        server: String = SSDPRootDevice.defaultServer,
        maxAge: Int = 1800,
        bootID: Int? = nil,
        configID: Int = 1,
        extraTargets: [SSDPExtraTarget] = [],
        extraHeaders: [SSDPHeaderField] = [],
        responseHeaders: [SSDPHeaderField]? = nil,
        behaviour: SSDPDeviceBehaviour = .init(),
        web: DeviceWeb = .init()
    ) {
        self.device = device
        self.server = server
        self.maxAge = maxAge
        self.bootID = bootID
        self.configID = configID
        self.extraTargets = extraTargets
        self.extraHeaders = extraHeaders
        self.responseHeaders = responseHeaders
        self.behaviour = behaviour
        self.web = web
    }

    /// The root device as it appears on the network when its HTTP paths start at `baseURL`
    /// (`http://192.168.1.20:8060`, or `http://192.168.1.20:49152/device/3` on a shared server) and,
    /// unless fixed, with BOOTID `defaultBootID`.
    public func rootDevice(baseURL: String, defaultBootID: Int) -> SSDPRootDevice {
        var root = SSDPRootDevice(
            device: device,
            location: baseURL + web.descriptionPath,
            server: server,
            maxAge: maxAge,
            bootID: bootID ?? defaultBootID,
            configID: configID,
            extraTargets: extraTargets.map { extra in
                var extra = extra
                extra.location = extra.location.map { baseURL + $0 }
                return extra
            },
            extraHeaders: extraHeaders,
            responseHeaders: responseHeaders
        )
        root.notifyHeaders = notifyHeaders
        root.advertisedTypes = advertisedTypes
        root.descriptionLayout = descriptionLayout
        return root
    }

    /// Checks the values a user gave; the error names the field.
    public func validate() throws(SSDPConfigurationError) {
        guard (1...Int(Int32.max)).contains(maxAge) else {
            throw SSDPConfigurationError(field: "maxAge", value: "\(maxAge)", reason: "must be 1 or more seconds")
        }
        if let bootID, !SSDPRootDevice.bootIDs.contains(bootID) {
            throw SSDPConfigurationError(
                field: "bootId",
                value: "\(bootID)",
                reason: "must be 0...2147483647 (31 bits)"
            )
        }
        guard SSDPRootDevice.configIDs.contains(configID) else {
            throw SSDPConfigurationError(
                field: "configId",
                value: "\(configID)",
                reason: "must be 0...16777215 (UDA 1.1 §1.2.2)"
            )
        }
        for device in device.allDevices {
            guard device.udn.hasPrefix("uuid:"), device.udn.utf8.count > 5 else {
                throw SSDPConfigurationError(field: "udn", value: device.udn, reason: "must start with uuid:")
            }
            guard case .deviceType = SSDPSearchTarget(device.deviceType) else {
                throw SSDPConfigurationError(
                    field: "deviceType",
                    value: device.deviceType,
                    reason: "must look like urn:schemas-upnp-org:device:NAME:VERSION"
                )
            }
            for service in device.services {
                guard case .serviceType = SSDPSearchTarget(service.serviceType) else {
                    throw SSDPConfigurationError(
                        field: "services",
                        value: service.serviceType,
                        reason: "must look like urn:schemas-upnp-org:service:NAME:VERSION"
                    )
                }
            }
        }
        let udns = device.allDevices.map(\.udn)
        if let repeated = udns.first(where: { udn in udns.filter { $0 == udn }.count > 1 }) {
            throw SSDPConfigurationError(
                field: "udn",
                value: repeated,
                reason: "every device in a tree needs its own UDN"
            )
        }
        if let address, IPv4(address) == nil {
            throw SSDPConfigurationError(field: "address", value: address, reason: "not an IPv4 address")
        }
        for field in extraHeaders where field.name.isEmpty || field.name.contains(":") || field.name.contains(" ") {
            throw SSDPConfigurationError(field: "headers", value: field.name, reason: "not a header name")
        }
        do throws(SSDPConfigurationError) {
            try behaviour.validate()
        } catch {
            throw SSDPConfigurationError(field: "behaviour.\(error.field)", value: error.value, reason: error.reason)
        }
    }
}
