import SSDPDeviceCore
import Testing

/// The catalog of service descriptions: each one consistent, and each standard service with every action
/// its UPnP service template requires.
@Suite struct SSDPServiceDescriptionTests {
    /// The actions the UPnP templates require (IGD:1, AV:1) and the ones the devices' own clients call.
    static let requiredActions: [String: [String]] = [
        "urn:schemas-upnp-org:service:WANIPConnection:1": [
            "SetConnectionType", "GetConnectionTypeInfo", "RequestConnection", "ForceTermination", "GetStatusInfo",
            "GetNATRSIPStatus", "GetGenericPortMappingEntry", "GetSpecificPortMappingEntry", "AddPortMapping",
            "DeletePortMapping", "GetExternalIPAddress",
        ],
        "urn:schemas-upnp-org:service:WANCommonInterfaceConfig:1": [
            "GetCommonLinkProperties", "GetTotalBytesSent", "GetTotalBytesReceived", "GetTotalPacketsSent",
            "GetTotalPacketsReceived",
        ],
        "urn:schemas-upnp-org:service:Layer3Forwarding:1": ["SetDefaultConnectionService", "GetDefaultConnectionService"],
        "urn:schemas-upnp-org:service:ContentDirectory:1": [
            "GetSearchCapabilities", "GetSortCapabilities", "GetSystemUpdateID", "Browse",
        ],
        "urn:schemas-upnp-org:service:ConnectionManager:1": [
            "GetProtocolInfo", "GetCurrentConnectionIDs", "GetCurrentConnectionInfo",
        ],
        "urn:schemas-upnp-org:service:RenderingControl:1": [
            "ListPresets", "SelectPreset", "GetVolume", "SetVolume", "GetMute", "SetMute",
        ],
        "urn:schemas-upnp-org:service:AVTransport:1": [
            "SetAVTransportURI", "GetMediaInfo", "GetTransportInfo", "GetPositionInfo", "GetDeviceCapabilities",
            "GetTransportSettings", "Stop", "Play", "Seek", "Next", "Previous",
        ],
        "urn:microsoft.com:service:X_MS_MediaReceiverRegistrar:1": ["IsAuthorized", "RegisterDevice", "IsValidated"],
        "urn:schemas-upnp-org:service:DeviceProperties:1": ["GetHouseholdID", "GetZoneAttributes", "GetZoneInfo"],
        "urn:schemas-upnp-org:service:ZoneGroupTopology:1": ["GetZoneGroupState", "GetZoneGroupAttributes"],
    ]

    @Test(arguments: SSDPServiceDescription.builtInServiceTypes)
    func everyDescriptionIsConsistent(serviceType: String) throws {
        let description = try #require(SSDPServiceDescription.builtIn(for: serviceType))
        let variables = Set(description.stateVariables.map(\.name))
        #expect(variables.count == description.stateVariables.count, "a state variable twice")
        #expect(Set(description.actions.map(\.name)).count == description.actions.count, "an action twice")
        for action in description.actions {
            #expect(Set(action.arguments.map(\.name)).count == action.arguments.count, "\(action.name): an argument twice")
            for argument in action.arguments {
                #expect(variables.contains(argument.relatedStateVariable), "\(action.name).\(argument.name)")
            }
            // SoCo cannot see an action without an argument list (after-discovery.md §5.1); the UPnP
            // templates' argument-free actions (RequestConnection, ForceTermination) are the exception.
            if serviceType.contains("sonos") || serviceType.hasSuffix(":DeviceProperties:1") {
                #expect(!action.arguments.isEmpty, "\(action.name)")
            }
            // In-arguments come before out-arguments (UDA 1.1 §2.5).
            let directions = action.arguments.map(\.direction)
            #expect(directions == directions.sorted { $0 == .in && $1 == .out }, "\(action.name)")
        }
        for variable in description.stateVariables {
            if let value = variable.defaultValue, !variable.allowedValues.isEmpty {
                #expect(variable.allowedValues.contains(value), "\(variable.name)'s default is not allowed")
            }
        }
    }

    @Test(arguments: requiredActions.keys.sorted())
    func everyStandardServiceHasItsTemplatesRequiredActions(serviceType: String) throws {
        let description = try #require(SSDPServiceDescription.builtIn(for: serviceType))
        let names = Set(description.actions.map(\.name))
        let missing = Set(Self.requiredActions[serviceType] ?? []).subtracting(names)
        #expect(missing.isEmpty, "\(serviceType) lacks \(missing.sorted())")
    }

    @Test func theIGDsEventedVariablesAreMiniupnpds() {
        #expect(
            SSDPServiceDescription.wanIPConnection1.eventedVariables.map(\.name)
                == ["PossibleConnectionTypes", "ConnectionStatus", "ExternalIPAddress", "PortMappingNumberOfEntries"]
        )
        #expect(SSDPServiceDescription.wanCommonInterfaceConfig1.eventedVariables.map(\.name) == ["PhysicalLinkStatus"])
    }

    @Test func theWriterListsArgumentsInOrderAndEscapesText() {
        let description = SSDPServiceDescription(
            actions: [
                .init(
                    name: "Get",
                    arguments: [
                        .init(name: "In", direction: .in, relatedStateVariable: "A<B"),
                        .init(name: "Out", direction: .out, relatedStateVariable: "A<B"),
                    ]
                )
            ],
            stateVariables: [.init(name: "A<B", dataType: "string", sendEvents: true, defaultValue: "x&y", allowedValues: ["x&y"])]
        )
        let xml = description.xml
        #expect(xml.contains("<scpd xmlns=\"urn:schemas-upnp-org:service-1-0\">"))
        #expect(xml.contains("<name>In</name>\n          <direction>in</direction>\n          <relatedStateVariable>A&lt;B</relatedStateVariable>"))
        #expect(xml.firstRange(of: "<name>In</name>")!.lowerBound < xml.firstRange(of: "<name>Out</name>")!.lowerBound)
        #expect(xml.contains("<stateVariable sendEvents=\"yes\">"))
        #expect(xml.contains("<defaultValue>x&amp;y</defaultValue>"))
        #expect(xml.contains("<allowedValue>x&amp;y</allowedValue>"))
    }

    @Test func aServiceWithoutActionsLeavesTheActionListOut() {
        let xml = SSDPServiceDescription.withoutActions.xml
        #expect(!xml.contains("actionList"))
        #expect(xml.contains("<serviceStateTable>"))
    }

    @Test func theVolumeHasItsRange() throws {
        let volume = try #require(SSDPServiceDescription.renderingControl1.stateVariable(named: "Volume"))
        #expect(volume.dataType == "ui2" && volume.allowedRange == 0...100)
        #expect(SSDPServiceDescription.renderingControl1.xml.contains("<minimum>0</minimum>\n        <maximum>100</maximum>"))
    }
}
