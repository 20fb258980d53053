extension SSDPRootDevice {
    /// The multicast HOST value of IPv4 SSDP (UDA 1.1 §1.2.2).
    public static let multicastHost = "239.255.255.250:1900"

    /// The answer to a search for one advertisement, headers in the order of the UDA 1.1 §1.3.3 template.
    public func searchResponse(for advertisement: SSDPAdvertisement) -> SSDPMessage {
        var headers: SSDPHeaders = [
            "CACHE-CONTROL": "max-age=\(maxAge)",
            "EXT": "",
            "LOCATION": location,
            "SERVER": server,
            "ST": advertisement.target,
            "USN": advertisement.usn,
        ]
        appendIdentity(to: &headers)
        return SSDPMessage(kind: .response, headers: headers)
    }

    /// `NOTIFY ssdp:alive` for one advertisement (UDA 1.1 §1.2.2).
    public func alive(_ advertisement: SSDPAdvertisement, host: String = multicastHost) -> SSDPMessage {
        var headers: SSDPHeaders = [
            "HOST": host,
            "CACHE-CONTROL": "max-age=\(maxAge)",
            "LOCATION": location,
            "NT": advertisement.target,
            "NTS": "ssdp:alive",
            "SERVER": server,
            "USN": advertisement.usn,
        ]
        appendIdentity(to: &headers)
        return SSDPMessage(kind: .notify, headers: headers)
    }

    /// `NOTIFY ssdp:byebye` for one advertisement: no LOCATION, CACHE-CONTROL or SERVER (UDA 1.1 §1.2.3).
    public func byebye(_ advertisement: SSDPAdvertisement, host: String = multicastHost) -> SSDPMessage {
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
            "LOCATION": location,
            "NT": advertisement.target,
            "NTS": "ssdp:update",
            "USN": advertisement.usn,
        ]
        headers.append(name: "BOOTID.UPNP.ORG", value: String(bootID))
        headers.append(name: "CONFIGID.UPNP.ORG", value: String(configID))
        headers.append(name: "NEXTBOOTID.UPNP.ORG", value: String(nextBootID))
        return SSDPMessage(kind: .notify, headers: headers)
    }

    private func appendIdentity(to headers: inout SSDPHeaders) {
        headers.append(name: "BOOTID.UPNP.ORG", value: String(bootID))
        headers.append(name: "CONFIGID.UPNP.ORG", value: String(configID))
        for field in extraHeaders {
            headers.append(name: field.name, value: field.value)
        }
    }
}
