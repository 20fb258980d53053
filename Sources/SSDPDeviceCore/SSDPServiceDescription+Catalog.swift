extension SSDPServiceDescription {
    /// The description a real device serves for `serviceType`, or `nil` for a service type the catalog
    /// does not know (a user's own, in a device file).
    public static func builtIn(for serviceType: String) -> SSDPServiceDescription? {
        catalog[serviceType]
    }

    /// Every service type the catalog describes.
    public static var builtInServiceTypes: [String] {
        catalog.keys.sorted()
    }

    /// A description without actions, for services whose real devices have no SOAP actions (a Roku's ECP
    /// is REST on port 8060; DIAL is REST at the Application-URL, DIAL 2.2 §5, and the reference server
    /// points every service URL at `/ssdp/notfound`), and for service types the catalog does not know.
    public static let withoutActions = SSDPServiceDescription(
        actions: [],
        stateVariables: [StateVariable(name: "A_ARG_TYPE_Unused", dataType: "string")]
    )

    private static let catalog: [String: SSDPServiceDescription] = {
        let upnp = "urn:schemas-upnp-org:service:"
        return [
            upnp + "WANIPConnection:1": wanIPConnection1,
            upnp + "WANCommonInterfaceConfig:1": wanCommonInterfaceConfig1,
            upnp + "Layer3Forwarding:1": layer3Forwarding1,
            upnp + "ContentDirectory:1": contentDirectory1,
            upnp + "ConnectionManager:1": connectionManager1,
            "urn:microsoft.com:service:X_MS_MediaReceiverRegistrar:1": mediaReceiverRegistrar1,
            upnp + "RenderingControl:1": renderingControl1,
            upnp + "AVTransport:1": avTransport1,
            upnp + "DeviceProperties:1": sonosDeviceProperties1,
            upnp + "ZoneGroupTopology:1": sonosZoneGroupTopology1,
            upnp + "AlarmClock:1": sonosAlarmClock1,
            upnp + "MusicServices:1": sonosMusicServices1,
            upnp + "SystemProperties:1": sonosSystemProperties1,
            upnp + "GroupManagement:1": sonosGroupManagement1,
            "urn:schemas-sonos-com:service:Queue:1": sonosQueue1,
            upnp + "GroupRenderingControl:1": sonosGroupRenderingControl1,
            "urn:roku-com:service:ecp:1": withoutActions,
            "urn:dial-multiscreen-org:service:dial:1": withoutActions,
        ]
    }()
}
