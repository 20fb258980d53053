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
import Testing

@testable import SSDPDevices
@testable import SSDPSimulator

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Every SCPD every profile serves, found as a control point finds it (the SCPDURLs of the served device
/// description) and parsed as SoCo reads it: no stubs. Each path serves the description of the service
/// whose SCPDURL it is; every service the real device implements over SOAP lists its actions, and a
/// standard one every action its template requires.
@Suite struct ServiceDescriptionServingTests {
    /// Services whose real devices have no SOAP actions (Roku's ECP and DIAL are REST).
    static let restServices: Set = ["urn:roku-com:service:ecp:1", "urn:dial-multiscreen-org:service:dial:1"]

    /// The actions the UPnP templates require (restated from `SSDPServiceDescriptionTests`: a test target
    /// cannot import another).
    static let requiredActions: [String: Set<String>] = [
        "urn:schemas-upnp-org:service:WANIPConnection:1": [
            "SetConnectionType", "GetConnectionTypeInfo", "RequestConnection", "ForceTermination", "GetStatusInfo",
            "GetNATRSIPStatus", "GetGenericPortMappingEntry", "GetSpecificPortMappingEntry", "AddPortMapping",
            "DeletePortMapping", "GetExternalIPAddress",
        ],
        "urn:schemas-upnp-org:service:WANCommonInterfaceConfig:1": ["GetCommonLinkProperties"],
        "urn:schemas-upnp-org:service:Layer3Forwarding:1": [
            "SetDefaultConnectionService", "GetDefaultConnectionService",
        ],
        "urn:schemas-upnp-org:service:ContentDirectory:1": [
            "GetSearchCapabilities", "GetSortCapabilities", "GetSystemUpdateID", "Browse",
        ],
        "urn:schemas-upnp-org:service:ConnectionManager:1": [
            "GetProtocolInfo", "GetCurrentConnectionIDs", "GetCurrentConnectionInfo",
        ],
        "urn:schemas-upnp-org:service:RenderingControl:1": ["ListPresets", "SelectPreset"],
        "urn:schemas-upnp-org:service:AVTransport:1": [
            "SetAVTransportURI", "GetMediaInfo", "GetTransportInfo", "GetPositionInfo", "GetDeviceCapabilities",
            "GetTransportSettings", "Stop", "Play", "Seek", "Next", "Previous",
        ],
    ]

    /// Template actions a real device lacks: a Sonos's RenderingControl has no presets; gmrender-resurrect
    /// 0.1 has no SelectPreset, Next or Previous (upnp_control.c and upnp_transport.c leave them out).
    static let missingOnTheRealDevice: [String: Set<String>] = [
        "sonos urn:schemas-upnp-org:service:RenderingControl:1": ["ListPresets", "SelectPreset"],
        "renderer urn:schemas-upnp-org:service:RenderingControl:1": ["SelectPreset"],
        "renderer urn:schemas-upnp-org:service:AVTransport:1": ["Next", "Previous"],
    ]

    @Test(arguments: SimulatorProfile.all.map(\.name))
    func everySCPDURLServesTheRealDevicesActions(profile: String) throws {
        let device = try SimulatorProfile.named(profile).device(number: 1, seed: 4)
        let services = try Self.services(of: device)
        #expect(!services.isEmpty || profile == "hue", "\(profile) lists no service")
        for (serviceType, path) in services {
            let response = Self.site(of: device).respond(to: .init(method: "GET", target: path, origin: ""))
            #expect(response.status == 200, "\(profile) \(path)")
            let scpd = try SCPD.parse(response.body)
            #expect(scpd.namespace == "urn:schemas-upnp-org:service-1-0", "\(profile) \(path)")
            #expect(scpd.unknownVariables.isEmpty, "\(profile) \(path): \(scpd.unknownVariables)")
            // The description of the service whose SCPDURL this is, the profile's own if it has one.
            let served = device.web.serviceDescription(for: serviceType)
            #expect(scpd.actions == served.actions.map(\.name), "\(profile) \(path) serves another description")
            #expect(scpd.variables == served.stateVariables.map(\.name), "\(profile) \(path)")
            if Self.restServices.contains(serviceType) {
                #expect(scpd.actions.isEmpty, "\(serviceType) has no SOAP actions on the real device")
                continue
            }
            #expect(!scpd.actions.isEmpty, "\(profile) \(path) (\(serviceType)) lists no action")
            let lacking = Self.missingOnTheRealDevice["\(profile) \(serviceType)"] ?? []
            let missing = (Self.requiredActions[serviceType] ?? []).subtracting(lacking).subtracting(scpd.actions)
            #expect(missing.isEmpty, "\(profile) \(serviceType) lacks \(missing.sorted())")
        }
    }

    @Test func eachProfileServesItsOwnDeviceDescriptionsWhereTheyDifferFromTheStandard() throws {
        let sonos = SimulatorProfile.sonos.device(number: 1, seed: 4)
        let renderingControl = "urn:schemas-upnp-org:service:RenderingControl:1"
        #expect(sonos.web.serviceDescription(for: renderingControl) == .sonosRenderingControl1)
        #expect(
            SimulatorProfile.generic.device(number: 1, seed: 4).web.serviceDescription(for: renderingControl)
                == .renderingControl1
        )
        let request = DeviceHTTPRequest(method: "GET", target: "/xml/RenderingControl1.xml", origin: "")
        let scpd = try SCPD.parse(DeviceSite(device: sonos).respond(to: request).body)
        #expect(scpd.actions.contains("GetBass") && !scpd.actions.contains("ListPresets"))
    }

    @Test func aServiceTypeOfTheUsersOwnIsServedADescriptionWithoutActions() throws {
        let device = SimulatedDevice(
            device: SSDPDevice(
                udn: "uuid:00000000-0000-0000-0000-000000000001",
                deviceType: "urn:example-com:device:Thing:1",
                friendlyName: "Thing",
                manufacturer: "Example",
                modelName: "Thing",
                services: [SSDPDeviceService(serviceType: "urn:example-com:service:Thing:1")]
            )
        )
        let documents = DescriptionDocuments(devices: [device])
        let scpd = try SCPD.parse(try #require(documents.document(at: "/device/0/service/0/scpd.xml")))
        #expect(scpd.actions.isEmpty && !scpd.hasActionList && !scpd.variables.isEmpty)
    }

    // MARK: - Fetching

    /// The HTTP side a client reaches the device on: its own server, or the shared one at `/device/0`.
    static func site(of device: SimulatedDevice) -> any HTTPSite {
        device.web.realPort == nil ? DescriptionDocuments(devices: [device]) : DeviceSite(device: device)
    }

    /// Each service of the served device description, with the server path its SCPDURL resolves to.
    static func services(of device: SimulatedDevice) throws -> [(type: String, path: String)] {
        let descriptionPath = device.web.realPort == nil ? "/device/0/description.xml" : device.web.descriptionPath
        let response = site(of: device).respond(to: .init(method: "GET", target: descriptionPath, origin: ""))
        let elements = try XMLElements.parse(response.body)
        let types = elements.filter { $0.0 == "serviceType" }.map(\.1)
        let urls = elements.filter { $0.0 == "SCPDURL" }.map(\.1)
        try #require(types.count == urls.count, "a service without an SCPDURL")
        let base = try #require(URL(string: "http://device" + descriptionPath))
        return try zip(types, urls).map { type, url in
            (type, try #require(URL(string: url, relativeTo: base)).path)
        }
    }
}

/// An SCPD as SoCo reads it (`services.py` `iter_actions`): the root's namespace, the action names in
/// order, the state variables, and every relatedStateVariable that names none.
private struct SCPD {
    var namespace: String?
    var hasActionList = false
    var actions: [String] = []
    var variables: [String] = []
    var unknownVariables: [String] = []

    static func parse(_ xml: String) throws -> SCPD {
        let parser = XMLParser(data: Data(xml.utf8))
        parser.shouldProcessNamespaces = true
        let collector = Collector()
        parser.delegate = collector
        try #require(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
        var scpd = collector.scpd
        scpd.unknownVariables = collector.related.filter { !scpd.variables.contains($0) }
        return scpd
    }

    private final class Collector: NSObject, XMLParserDelegate {
        var scpd = SCPD()
        var related: [String] = []
        private var path: [String] = []
        private var text = ""

        func parser(
            _ parser: XMLParser,
            didStartElement name: String,
            namespaceURI: String?,
            qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            if path.isEmpty { scpd.namespace = namespaceURI }
            if name == "actionList" { scpd.hasActionList = true }
            path.append(name)
            text = ""
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            text += string
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            switch Array(path.suffix(3)) {
            case ["actionList", "action", "name"]: scpd.actions.append(text)
            case ["serviceStateTable", "stateVariable", "name"]: scpd.variables.append(text)
            case ["argumentList", "argument", "relatedStateVariable"]: related.append(text)
            default: break
            }
            path.removeLast()
            text = ""
        }
    }
}
