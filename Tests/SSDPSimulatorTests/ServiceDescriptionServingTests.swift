import Foundation
import SSDPCore
import SSDPDeviceCore
import Testing

@testable import SSDPSimulator

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Every SCPD every profile serves, fetched from the device's own HTTP side and parsed as a control point
/// parses it: no stubs. Every service the real device implements over SOAP lists its actions, and a
/// standard service lists every action its template requires.
@Suite struct ServiceDescriptionServingTests {
    /// Services whose real devices have no SOAP actions (Roku's ECP and DIAL are REST).
    static let restServices: Set = ["urn:roku-com:service:ecp:1", "urn:dial-multiscreen-org:service:dial:1"]

    @Test(arguments: SimulatorProfile.all.map(\.name))
    func everyServedSCPDListsTheRealActions(profile: String) throws {
        let device = try SimulatorProfile.named(profile).device(number: 1, seed: 4)
        let site = DeviceSite(device: device)
        let services = device.serviceDescriptions(prefix: "")
        #expect(!services.isEmpty || profile == "hue", "\(profile) serves no SCPD")
        for (path, serviceType) in services {
            let response = site.respond(to: .init(method: "GET", target: path, origin: ""))
            #expect(response.status == 200, "\(profile) \(path)")
            let actions = try SCPDActions.parse(response.body)
            if Self.restServices.contains(serviceType) {
                #expect(actions.isEmpty, "\(serviceType) has no SOAP actions on the real device")
                continue
            }
            #expect(!actions.isEmpty, "\(profile) \(path) (\(serviceType)) lists no action")
            let required = Set(SSDPServiceDescriptionTestsTable.required[serviceType] ?? [])
            #expect(required.subtracting(actions).isEmpty, "\(serviceType) lacks \(required.subtracting(actions).sorted())")
        }
    }
}

/// The template tables of `SSDPServiceDescriptionTests`, restated for the served documents (a test target
/// cannot import another's).
enum SSDPServiceDescriptionTestsTable {
    static let required: [String: [String]] = [
        "urn:schemas-upnp-org:service:WANIPConnection:1": [
            "GetConnectionTypeInfo", "GetStatusInfo", "GetGenericPortMappingEntry", "GetSpecificPortMappingEntry",
            "AddPortMapping", "DeletePortMapping", "GetExternalIPAddress",
        ],
        "urn:schemas-upnp-org:service:WANCommonInterfaceConfig:1": ["GetCommonLinkProperties"],
        "urn:schemas-upnp-org:service:ContentDirectory:1": ["GetSearchCapabilities", "GetSortCapabilities", "GetSystemUpdateID", "Browse"],
        "urn:schemas-upnp-org:service:ConnectionManager:1": ["GetProtocolInfo", "GetCurrentConnectionIDs", "GetCurrentConnectionInfo"],
        "urn:schemas-upnp-org:service:RenderingControl:1": ["ListPresets", "SelectPreset", "GetVolume", "SetVolume"],
        "urn:schemas-upnp-org:service:AVTransport:1": ["GetTransportInfo", "GetPositionInfo", "Play", "Pause", "Stop"],
        "urn:schemas-upnp-org:service:DeviceProperties:1": ["GetHouseholdID", "GetZoneAttributes", "GetZoneInfo"],
        "urn:schemas-upnp-org:service:ZoneGroupTopology:1": ["GetZoneGroupState"],
    ]
}

/// The action names of an SCPD, read with Foundation's XML parser the way a control point reads them.
private final class SCPDActions: NSObject, XMLParserDelegate {
    private var path: [String] = []
    private var text = ""
    private var names: [String] = []

    static func parse(_ xml: String) throws -> [String] {
        let parser = XMLParser(data: Data(xml.utf8))
        let collector = SCPDActions()
        parser.delegate = collector
        try #require(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
        return collector.names
    }

    func parser(
        _ parser: XMLParser,
        didStartElement name: String,
        namespaceURI: String?,
        qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        path.append(name)
        text = ""
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        text += string
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if path.suffix(3) == ["actionList", "action", "name"] { names.append(text) }
        path.removeLast()
    }
}
