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

/// A UPnP error a device answers an action with (UDA §3.2.2): the code and its description, sent as a
/// SOAP fault with HTTP 500.
public struct UPnPError: Error, Hashable, Sendable {
    /// A UPnP error code: 401 Invalid Action, 402 Invalid Args, 501 Action Failed, 600–699 common to all
    /// actions, 700–799 the action's own (714 NoSuchEntryInArray).
    public var code: Int
    /// The errorDescription sent with the code, `Invalid Args`.
    public var description: String

    /// An error with a description of the caller's choosing.
    public init(code: Int, description: String) {
        self.code = code
        self.description = description
    }

    /// The description real devices send for `code` (miniupnpd's and MiniDLNA's names), or "Action Failed"
    /// style text for a code they do not name.
    public init(code: Int) {
        self.init(code: code, description: Self.names[code] ?? "Error \(code)")
    }

    /// 401 Invalid Action: the service has no action of that name.
    public static let invalidAction = UPnPError(code: 401)
    /// 402 Invalid Args: an in-argument is missing or not of its variable's type.
    public static let invalidArgs = UPnPError(code: 402)
    /// 501 ActionFailed (miniupnpd's spelling): the action could not be carried out.
    public static let actionFailed = UPnPError(code: 501)

    /// The names miniupnpd (`upnpsoap.c`, `upnperrors.c`) and MiniDLNA (`upnpsoap.c`) send, and the
    /// ContentDirectory ones SoCo lists (after-discovery.md §1.4, §3.5, §4.1).
    static let names: [Int: String] = [
        401: "Invalid Action", 402: "Invalid Args", 404: "Invalid Var", 501: "ActionFailed",
        600: "Argument Value Invalid", 601: "Argument Value Out of Range", 602: "Optional Action Not Implemented",
        603: "Out of Memory", 604: "Human Intervention Required", 605: "String Argument Too Long",
        606: "Action not authorized", 701: "No such object error", 708: "Unsupported or invalid search criteria",
        709: "Unsupported or invalid sort criteria", 710: "No such container",
        713: "SpecifiedArrayIndexInvalid", 714: "NoSuchEntryInArray", 715: "WildCardNotPermittedInSrcIP",
        716: "WildCardNotPermittedInExtPort", 718: "ConflictInMappingEntry", 724: "SamePortValuesRequired",
        725: "OnlyPermanentLeasesSupported", 726: "RemoteHostOnlySupportsWildcard",
        727: "ExternalPortOnlySupportsWildcard", 728: "NoPortMapsAvailable", 729: "ConflictWithOtherMechanisms",
        731: "ReadOnly", 733: "InconsistentParameter",
    ]
}

/// One argument of an action call or answer, in order.
public struct SOAPArgument: Hashable, Sendable {
    /// The argument's name, `NewExternalPort`.
    public var name: String
    /// The value as text, unescaped; the SOAP and GENA writers escape it.
    public var value: String

    /// An argument, name first: `SOAPArgument("NewExternalPort", "8080")`.
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

/// A control point's action call (UDA §3.2.1), read from the `SOAPACTION` header and the envelope.
public struct SOAPActionCall: Hashable, Sendable {
    /// The service type the call names, `urn:schemas-upnp-org:service:WANIPConnection:1`.
    public var serviceType: String
    /// The action called, `AddPortMapping`: the part of `SOAPACTION` after `#`.
    public var actionName: String
    /// The in-arguments as sent, in order; names are the elements' local names.
    public var arguments: [SOAPArgument]

    /// A call built directly rather than read from a request (`read(soapAction:body:)`).
    public init(serviceType: String, actionName: String, arguments: [SOAPArgument]) {
        self.serviceType = serviceType
        self.actionName = actionName
        self.arguments = arguments
    }

    /// The value of argument `name`, if sent.
    public func argument(_ name: String) -> String? {
        arguments.first { $0.name == name }?.value
    }

    /// The integer value of argument `name`, read as its data type check read it (spaces and a `+`
    /// allowed); `nil` when it is not sent or not an integer.
    package func integer(_ name: String) -> Int? {
        argument(name).flatMap { UPnPIntegerType.value(of: $0, in: Int.min...Int.max) }
    }

    /// Why a request is not an action call at all (answered with a plain HTTP status, as miniupnpd does).
    public enum ReadError: Error, Hashable, Sendable {
        /// No `SOAPACTION` header, or one without `#` or without a service type before it: HTTP 400.
        case noSOAPAction
        /// The body is not a SOAP envelope with a body holding one element: HTTP 400.
        case notAnEnvelope
    }

    /// Reads a call. `SOAPACTION` may be quoted with `"` or `'` (async-upnp-client, miniupnpc) or bare
    /// (SoCo); the action is the header's, and the envelope's body element must carry the same name.
    public static func read(soapAction: String?, body: [UInt8]) -> Result<SOAPActionCall, ReadError> {
        guard var header = soapAction?.trimmingASCIIWhitespace, !header.isEmpty else { return .failure(.noSOAPAction) }
        if let first = header.first, first == "\"" || first == "'", header.count >= 2, header.last == first {
            header = String(header.dropFirst().dropLast())
        }
        // A service type is needed: the answer's namespace is the call's, and an empty one cannot be bound.
        guard let hash = header.lastIndex(of: "#"), hash != header.startIndex else { return .failure(.noSOAPAction) }
        let serviceType = String(header[..<hash])
        let actionName = String(header[header.index(after: hash)...])
        guard let envelope = SSDPXMLElement.parse(body), envelope.name == "Envelope",
            let soapBody = envelope.child("Body"), let element = soapBody.children.first, element.name == actionName
        else { return .failure(.notAnEnvelope) }
        let arguments = element.children.map { SOAPArgument($0.name, $0.text) }
        return .success(SOAPActionCall(serviceType: serviceType, actionName: actionName, arguments: arguments))
    }
}

/// The envelopes a device answers with, byte for byte as its stack writes them: miniupnpd's (after-discovery.md
/// §1.2, §1.3; the `uda` stack) or libupnp's (soap_device.c; `gmrender`). The response element is in the
/// namespace of the service type the call named.
public enum SOAPEnvelope {
    private static let envelope =
        #"<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/" s:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/">"#

    /// A successful answer: `<u:ActionResponse>` with each out-argument, values escaped. The service type is
    /// the client's own (from SOAPACTION), so it is escaped too: a quote in it cannot end the attribute.
    /// libupnp writes the action's element on lines of its own (CRLF) between its envelope's (LF), without an
    /// XML declaration.
    public static func response(
        serviceType: String,
        actionName: String,
        arguments: [SOAPArgument],
        stack: ControlStack = .uda
    ) -> String {
        let libupnp = stack == .gmrender
        var xml = libupnp ? envelope + "<s:Body>\n" : #"<?xml version="1.0"?>"# + "\r\n" + envelope + "<s:Body>"
        xml += #"<u:\#(actionName)Response xmlns:u="\#(SSDPRootDevice.escaped(serviceType))">"#
        if libupnp, !arguments.isEmpty { xml += "\r\n" }
        for argument in arguments {
            xml +=
                "<\(argument.name)>\(SSDPRootDevice.escaped(argument.value))</\(argument.name)>"
                + (libupnp ? "\r\n" : "")
        }
        xml += "</u:\(actionName)Response>"
        return xml + (libupnp ? "\r\n</s:Body> </s:Envelope>" : "</s:Body></s:Envelope>\r\n")
    }

    /// A fault: `s:Client`, `UPnPError`, and the code and description in `urn:schemas-upnp-org:control-1-0`;
    /// without the XML declaration and the line end a successful answer has (upnpsoap.c's SoapError), or, as
    /// libupnp writes it, an element per line ending in LF.
    public static func fault(_ error: UPnPError, stack: ControlStack = .uda) -> String {
        let lines = [
            envelope, "<s:Body>", "<s:Fault>", "<faultcode>s:Client</faultcode>",
            "<faultstring>UPnPError</faultstring>",
            "<detail>", #"<UPnPError xmlns="urn:schemas-upnp-org:control-1-0">"#,
            "<errorCode>\(error.code)</errorCode>",
            "<errorDescription>\(SSDPRootDevice.escaped(error.description))</errorDescription>", "</UPnPError>",
            "</detail>", "</s:Fault>", "</s:Body>", "</s:Envelope>",
        ]
        return stack == .gmrender ? lines.map { $0 + "\n" }.joined() : lines.joined()
    }
}

extension String {
    /// The text without leading and trailing spaces, tabs, CRs and LFs.
    package var trimmingASCIIWhitespace: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" || $0 == "\r\n" }
        return String(drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }
}
