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

/// One port mapping of the IGD (WANIPConnection:1 §2.2.20): traffic to ExternalPort/Protocol goes to
/// InternalClient:InternalPort.
public struct PortMapping: Hashable, Sendable {
    /// The host whose traffic the mapping forwards (NewRemoteHost); empty for any host, the wildcard.
    public var remoteHost: String
    /// The port on the IGD's external address that the traffic arrives at (NewExternalPort).
    public var externalPort: Int
    /// `TCP` or `UDP` (NewProtocol).
    public var `protocol`: String
    /// The port on the internal client that the traffic goes to (NewInternalPort).
    public var internalPort: Int
    /// The LAN address the traffic goes to (NewInternalClient): the caller's own, in secure mode.
    public var internalClient: String
    /// Whether the mapping forwards (NewEnabled); a mapping added here is always enabled.
    public var enabled: Bool
    /// The control point's label for the mapping (NewPortMappingDescription).
    public var description: String
    /// When the lease ends; `nil` for a permanent mapping (lease 0).
    public var expires: SSDPInstant?

    /// The seconds left of the lease at `now`, 0 for a permanent mapping (what miniupnpd reads back).
    func remainingLease(at now: SSDPInstant) -> Int {
        guard let expires else { return 0 }
        // Whole seconds, as miniupnpd counts them: a lease read back within its first second is all there.
        let left = (expires - now).components
        return max(0, Int(left.seconds) + (left.attoseconds > 0 ? 1 : 0))
    }
}

extension ControlEnvironment {
    /// The IGD's address on the internet side. It must look public: miniupnpc (`UPNP_GetValidIGD`) takes an
    /// IGD whose external address is in a reserved range, the documentation ones included, for one that is
    /// not connected, and `upnpc` then refuses to work. So the default is example.com's, which IANA holds for
    /// examples; the simulator only names it in answers and never sends anything to it.
    public var externalIPAddress: String {
        get { self[ExternalIPAddressKey.self] }
        set { self[ExternalIPAddressKey.self] = newValue }
    }

    private enum ExternalIPAddressKey: ControlEnvironmentKey {
        static let defaultValue = "93.184.216.34"
    }
}

extension DeviceControl {
    /// The IGD's port mappings, in the order they were added (its connection service's table).
    public var portMappings: [PortMapping] {
        services.flatMap { ($0.behaviour as? InternetGatewayConnection)?.portMappings ?? [] }
    }
}

/// The IGD as miniupnpd's `upnpsoap.c` and `upnpredirect.c` behave (after-discovery.md §3): a connected
/// link with an external address and traffic counters, and a real port-mapping table with miniupnpd's
/// error codes. Its handlers read each argument themselves: no allowed lists or ranges are checked.
enum InternetGateway {
    /// The link as miniupnpd starts: connected, routed, a cable link that is up, at `externalIPAddress`.
    static func initialValues(externalIPAddress: String) -> [String: String] {
        [
            "ConnectionType": "IP_Routed", "PossibleConnectionTypes": "IP_Routed", "ConnectionStatus": "Connected",
            "ExternalIPAddress": externalIPAddress, "PortMappingNumberOfEntries": "0",
            "SystemUpdateID": "1", "WANAccessType": "Cable", "Layer1UpstreamMaxBitRate": "10000000",
            "Layer1DownstreamMaxBitRate": "100000000", "PhysicalLinkStatus": "Up",
        ]
    }
}

/// A service of miniupnpd's with no behaviour beyond its variables (Layer3Forwarding): the link's initial
/// values do not concern it, and no allowed lists or ranges are checked.
struct MiniUPnPdService: ServiceBehaviour {
    var argumentCheck: ArgumentCheck { .typesOnly }
}

/// WANIPConnection (and WANPPPConnection) as miniupnpd runs it: the connection's status and external address,
/// and the port-mapping table, which this service owns.
public struct InternetGatewayConnection: ServiceBehaviour {
    /// The most mappings the table holds; one more is refused with 728 NoPortMapsAvailable.
    public static let maximumPortMappings = 1_024

    /// The port mappings, in the order they were added (expired ones go at the next call).
    public private(set) var portMappings: [PortMapping] = []

    /// miniupnpd checks types only.
    public var argumentCheck: ArgumentCheck { .typesOnly }

    /// miniupnpd reads NewInternalClient itself, and goes on without it (`addPortMapping`).
    public var optionalInArguments: Set<String> { ["NewInternalClient"] }

    /// The link as miniupnpd starts.
    public func initialValues(of service: ControlledService, in device: DeviceControl) -> [String: String] {
        InternetGateway.initialValues(externalIPAddress: device.environment.externalIPAddress)
    }

    /// GetExternalIPAddress answers what the variable was set to.
    public func valueWasSet(_ name: String, to value: String, in environment: inout ControlEnvironment) {
        if name == "ExternalIPAddress" { environment.externalIPAddress = value }
    }

    /// miniupnpd's answers: connection types and requests refused, the uptime and external address, and the
    /// port-mapping actions on the table.
    public mutating func answer(
        _ call: SOAPActionCall,
        service: inout ControlledService,
        context: ActionContext
    ) -> Result<[SOAPArgument], UPnPError>? {
        let now = context.now
        let client = context.client
        let environment = context.environment
        portMappings.removeAll { $0.expires.map { $0 <= now } ?? false }
        defer { service.values["PortMappingNumberOfEntries"] = "\(portMappings.count)" }
        guard let action = service.description.action(named: call.actionName) else { return nil }
        switch call.actionName {
        case "SetConnectionType":
            return .failure(UPnPError(code: 731))
        case "RequestConnection", "ForceTermination":
            return .failure(UPnPError(code: 606))
        case "GetStatusInfo":
            return .success(service.outArguments(of: action, ["NewUptime": "\(context.uptime)"]))
        case "GetExternalIPAddress":
            return .success(service.outArguments(of: action, ["NewExternalIPAddress": environment.externalIPAddress]))
        case "AddPortMapping", "AddAnyPortMapping":
            return addPortMapping(call, any: call.actionName == "AddAnyPortMapping", client: client, at: now).map {
                port in
                call.actionName == "AddAnyPortMapping" ? [SOAPArgument("NewReservedPort", "\(port)")] : []
            }
        case "DeletePortMapping":
            // The nftables back end (OpenWrt's since 22.03) reports every delete done, so a mapping that is
            // not there is 200 too, never 714 (netfilter_nft/nftnlrdr.c's delete_redirect_and_filter_rules).
            if let found = mappingIndex(call) { portMappings.remove(at: found) }
            return .success([])
        case "GetSpecificPortMappingEntry":
            guard let found = mappingIndex(call) else { return .failure(UPnPError(code: 714)) }
            return .success(
                Self.entry(portMappings[found], at: now).filter { argument in
                    action.arguments.contains { $0.direction == .out && $0.name == argument.name }
                }
            )
        case "GetGenericPortMappingEntry":
            guard let position = call.integer("NewPortMappingIndex") else { return .failure(.invalidArgs) }
            guard portMappings.indices.contains(position) else { return .failure(UPnPError(code: 713)) }
            return .success(Self.entry(portMappings[position], at: now))
        default:
            return nil
        }
    }

    /// Adds or, for the same client, replaces a mapping (miniupnpd `upnp_redirect`); AddAnyPortMapping takes
    /// the nearest free port instead of refusing a taken one. Answers the external port used.
    private mutating func addPortMapping(
        _ call: SOAPActionCall,
        any: Bool,
        client: String,
        at now: SSDPInstant
    ) -> Result<Int, UPnPError> {
        let remoteHost = call.argument("NewRemoteHost") ?? ""
        let proto = call.argument("NewProtocol") ?? ""
        // miniupnpd checks no allowed list, but a mapping needs a protocol it can forward.
        guard ["TCP", "UDP"].contains(proto), let internalPort = call.integer("NewInternalPort"),
            let requestedLease = call.integer("NewLeaseDuration")
        else { return .failure(.invalidArgs) }
        let requested = call.integer("NewExternalPort") ?? 0
        // Without NewInternalClient, miniupnpd takes the caller's address as it logs it, with its port, which
        // is no IPv4 address to map to: 501 (upnpsoap.c, upnp_redirect's inet_aton).
        let internalClient = call.argument("NewInternalClient") ?? ""
        guard !internalClient.isEmpty else { return .failure(UPnPError(code: 501)) }
        // Secure mode (on by default): a client maps ports to itself only.
        guard internalClient == client else { return .failure(UPnPError(code: 718)) }
        // Built for IGD v2, it gives a lease of 0 (permanent) or over a week a week (upnpsoap.c).
        let lease = requestedLease == 0 || requestedLease > 604_800 ? 604_800 : requestedLease
        var externalPort = requested
        if any {
            guard let free = freePort(near: requested == 0 ? 1_024 : requested, protocol: proto, for: internalClient)
            else {
                return .failure(UPnPError(code: 728))
            }
            externalPort = free
        } else if requested == 0 {
            return .failure(UPnPError(code: 716))
        }
        let mapping = PortMapping(
            remoteHost: remoteHost,
            externalPort: externalPort,
            protocol: proto,
            internalPort: internalPort,
            internalClient: internalClient,
            enabled: true,
            description: call.argument("NewPortMappingDescription") ?? "",
            expires: now + .seconds(lease)
        )
        if let existing = portMappings.firstIndex(where: { $0.externalPort == externalPort && $0.protocol == proto }) {
            guard portMappings[existing].internalClient == internalClient else { return .failure(UPnPError(code: 718)) }
            portMappings[existing] = mapping
        } else {
            guard portMappings.count < Self.maximumPortMappings else { return .failure(UPnPError(code: 728)) }
            portMappings.append(mapping)
        }
        return .success(externalPort)
    }

    /// The free external port nearest `port` (then +1, -1, +2, …), or one `client` already holds there.
    private func freePort(near port: Int, protocol proto: String, for client: String) -> Int? {
        for distance in 0..<65_535 {
            for candidate in [port + distance, port - distance] where (1_024...65_535).contains(candidate) {
                let holder = portMappings.first { $0.externalPort == candidate && $0.protocol == proto }
                if holder == nil || holder?.internalClient == client { return candidate }
            }
        }
        return nil
    }

    /// The mapping a call's NewExternalPort and NewProtocol name (the remote host is a wildcard, as miniupnpd
    /// keys it).
    private func mappingIndex(_ call: SOAPActionCall) -> Int? {
        guard let port = call.integer("NewExternalPort"), let proto = call.argument("NewProtocol") else {
            return nil
        }
        return portMappings.firstIndex { $0.externalPort == port && $0.protocol == proto }
    }

    /// A mapping as GetGenericPortMappingEntry's out-arguments give it (GetSpecificPortMappingEntry's are the
    /// last five).
    private static func entry(_ mapping: PortMapping, at now: SSDPInstant) -> [SOAPArgument] {
        [
            SOAPArgument("NewRemoteHost", mapping.remoteHost),
            SOAPArgument("NewExternalPort", "\(mapping.externalPort)"),
            SOAPArgument("NewProtocol", mapping.protocol),
            SOAPArgument("NewInternalPort", "\(mapping.internalPort)"),
            SOAPArgument("NewInternalClient", mapping.internalClient),
            SOAPArgument("NewEnabled", mapping.enabled ? "1" : "0"),
            SOAPArgument("NewPortMappingDescription", mapping.description),
            SOAPArgument("NewLeaseDuration", "\(mapping.remainingLease(at: now))"),
        ]
    }
}

/// WANCommonInterfaceConfig as miniupnpd runs it: GetCommonLinkProperties from the link's variables, and
/// traffic counters that grow with the uptime (a kilobyte and ten packets a second each way), as 32-bit
/// counters wrap.
struct InternetGatewayInterfaceConfig: ServiceBehaviour {
    var argumentCheck: ArgumentCheck { .typesOnly }

    func initialValues(of service: ControlledService, in device: DeviceControl) -> [String: String] {
        InternetGateway.initialValues(externalIPAddress: device.environment.externalIPAddress)
    }

    mutating func answer(
        _ call: SOAPActionCall,
        service: inout ControlledService,
        context: ActionContext
    ) -> Result<[SOAPArgument], UPnPError>? {
        let seconds = context.uptime
        let counters = [
            "GetTotalBytesSent": ("NewTotalBytesSent", seconds * 1_024),
            "GetTotalBytesReceived": ("NewTotalBytesReceived", seconds * 8_192),
            "GetTotalPacketsSent": ("NewTotalPacketsSent", seconds * 10),
            "GetTotalPacketsReceived": ("NewTotalPacketsReceived", seconds * 12),
        ]
        guard let (name, value) = counters[call.actionName] else { return nil }
        return .success([SOAPArgument(name, "\(UInt32(truncatingIfNeeded: value))")])
    }
}
