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
import SSDPDevices
import Testing

@testable import SSDPDeviceCore

/// SOAP control and GENA eventing as pure machines: reading calls as the real control points send them,
/// the checks against the SCPD, the IGD's port-mapping table with miniupnpd's codes, and subscriptions.
struct SOAPReadingTests {
    private func envelope(_ action: String, _ arguments: String = "", prefix: String = "s") -> [UInt8] {
        let body = """
            <?xml version="1.0"?>
            <\(prefix):Envelope xmlns:\(prefix)="http://schemas.xmlsoap.org/soap/envelope/" \
            \(prefix):encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"><\(prefix):Body>\
            <u:\(action) xmlns:u="urn:schemas-upnp-org:service:WANIPConnection:1">\(arguments)</u:\(action)>\
            </\(prefix):Body></\(prefix):Envelope>
            """
        return Array(body.utf8)
    }

    @Test(arguments: [
        #""urn:schemas-upnp-org:service:WANIPConnection:1#AddPortMapping""#,  // async-upnp-client, miniupnpc
        "urn:schemas-upnp-org:service:WANIPConnection:1#AddPortMapping",  // SoCo: bare
        "'urn:schemas-upnp-org:service:WANIPConnection:1#AddPortMapping'",
    ])
    func aCallIsReadWithAnyQuotingOfSOAPAction(header: String) throws {
        let body = envelope(
            "AddPortMapping",
            "<NewExternalPort>8080</NewExternalPort><NewRemoteHost></NewRemoteHost>",
            prefix: "SOAP-ENV"
        )
        let call = try SOAPActionCall.read(soapAction: header, body: body).get()
        #expect(call.serviceType == "urn:schemas-upnp-org:service:WANIPConnection:1")
        #expect(call.actionName == "AddPortMapping")
        #expect(call.arguments == [SOAPArgument("NewExternalPort", "8080"), SOAPArgument("NewRemoteHost", "")])
    }

    @Test func aRequestThatIsNotACallIsRefused() {
        let action = "urn:schemas-upnp-org:service:WANIPConnection:1#GetExternalIPAddress"
        #expect(SOAPActionCall.read(soapAction: nil, body: envelope("GetExternalIPAddress")) == .failure(.noSOAPAction))
        #expect(
            SOAPActionCall.read(soapAction: "GetExternalIPAddress", body: envelope("GetExternalIPAddress"))
                == .failure(.noSOAPAction)
        )
        #expect(SOAPActionCall.read(soapAction: action, body: Array("not xml".utf8)) == .failure(.notAnEnvelope))
        #expect(SOAPActionCall.read(soapAction: action, body: envelope("AddPortMapping")) == .failure(.notAnEnvelope))
        #expect(
            SOAPActionCall.read(soapAction: action, body: Array(envelope("GetExternalIPAddress").dropLast(3)))
                == .failure(.notAnEnvelope)
        )
    }

    @Test func theReaderDecodesEntitiesAndCDATAAndRefusesBrokenOrDeepDocuments() throws {
        let element = try #require(
            SSDPXMLElement.parse(
                Array("<a x='1'><b>&lt;&#65;&#x42;&amp;</b><c><![CDATA[<d/>]]></c><!-- c --></a>".utf8)
            )
        )
        #expect(element.attributes["x"] == "1")
        #expect(element.child("b")?.text == "<AB&")
        #expect(element.child("c")?.text == "<d/>")
        #expect(SSDPXMLElement.parse(Array("<a><b></a>".utf8)) == nil)
        #expect(SSDPXMLElement.parse(Array("<a>&bogus;</a>".utf8)) == nil)
        #expect(SSDPXMLElement.parse(Array("<a/>trailing".utf8)) == nil)
        let deep = String(repeating: "<a>", count: 40) + String(repeating: "</a>", count: 40)
        #expect(SSDPXMLElement.parse(Array(deep.utf8)) == nil)
    }

    /// SOAPACTION's service type is the client's: a quote or markup in it stays inside the attribute, and a
    /// value with a character XML forbids cannot make the answer unreadable.
    @Test func whatTheClientSentIsEscapedInTheAnswer() throws {
        let response = SOAPEnvelope.response(
            serviceType: #"urn:x"><evil/><u:y a=""#,
            actionName: "GetVolume",
            arguments: [SOAPArgument("CurrentVolume", "1\u{01}2\u{1B}[2J<b>")]
        )
        let envelope = try #require(SSDPXMLElement.parse(Array(response.utf8)))
        let answer = try #require(envelope.child("Body")?.children.first)
        #expect(answer.attributes["xmlns:u"] == #"urn:x"><evil/><u:y a=""#)
        #expect(answer.children.map(\.name) == ["CurrentVolume"])
        #expect(answer.child("CurrentVolume")?.text == "1\u{FFFD}2\u{FFFD}[2J<b>")
        // A special character followed by a combining mark is one Character, and still escaped.
        let marked = "a&\u{301}b<\u{20D2}\"\u{301}"
        let combining = SOAPEnvelope.response(
            serviceType: "urn:x",
            actionName: "GetName",
            arguments: [SOAPArgument("Name", marked)]
        )
        let parsed = try #require(SSDPXMLElement.parse(Array(combining.utf8)))
        #expect(parsed.child("Body")?.children.first?.child("Name")?.text == marked)
        // No service type to answer in: not a call.
        #expect(
            SOAPActionCall.read(soapAction: "\"#GetVolume\"", body: self.envelope("GetVolume"))
                == .failure(.noSOAPAction)
        )
    }

    @Test func theResponseAndTheFaultAreMiniupnpdsEnvelopes() throws {
        let response = SOAPEnvelope.response(
            serviceType: "urn:schemas-upnp-org:service:WANIPConnection:1",
            actionName: "GetExternalIPAddress",
            arguments: [SOAPArgument("NewExternalIPAddress", "93.184.216.34")]
        )
        #expect(
            response.contains(
                #"<u:GetExternalIPAddressResponse xmlns:u="urn:schemas-upnp-org:service:WANIPConnection:1"><NewExternalIPAddress>93.184.216.34</NewExternalIPAddress></u:GetExternalIPAddressResponse>"#
            )
        )
        let fault = try #require(SSDPXMLElement.parse(Array(SOAPEnvelope.fault(UPnPError(code: 714)).utf8)))
        let detail = try #require(fault.child("Body")?.child("Fault")?.child("detail")?.child("UPnPError"))
        #expect(fault.child("Body")?.child("Fault")?.child("faultstring")?.text == "UPnPError")
        #expect(detail.attributes["xmlns"] == "urn:schemas-upnp-org:control-1-0")
        #expect(detail.child("errorCode")?.text == "714")
        #expect(detail.child("errorDescription")?.text == "NoSuchEntryInArray")
    }
}

struct InternetGatewayControlTests {
    private static let wanIP = "urn:schemas-upnp-org:service:WANIPConnection:1"

    private func gateway(responses: [ActionResponse] = []) -> DeviceControl {
        DeviceControl(
            services: [
                ControlledService(
                    serviceType: Self.wanIP,
                    serviceID: "urn:upnp-org:serviceId:WANIPConn1",
                    controlPath: "/ctl/IPConn",
                    eventPath: "/evt/IPConn",
                    description: .wanIPConnection1
                ),
                ControlledService(
                    serviceType: "urn:schemas-upnp-org:service:WANCommonInterfaceConfig:1",
                    serviceID: "urn:upnp-org:serviceId:WANCommonIFC1",
                    controlPath: "/ctl/CmnIfCfg",
                    eventPath: "/evt/CmnIfCfg",
                    description: .wanCommonInterfaceConfig1
                ),
            ],
            responses: responses,
            registry: .builtIn,
            startedAt: .zero
        )
    }

    @Test func theExternalAddressAndStatusChangeByHandAndGetExternalIPAddressSaysSo() throws {
        var control = gateway()
        let changes = try control.set("ExternalIPAddress", to: "198.51.100.7").get()
        #expect(changes.map(\.service) == [0] && changes.first?.changed == ["ExternalIPAddress"])
        let answer = control.call("GetExternalIPAddress")
        #expect(try answer.outcome.get() == [SOAPArgument("NewExternalIPAddress", "198.51.100.7")])
        #expect(
            control.eventProperties(service: 0, changed: ["ExternalIPAddress"]).contains {
                $0.name == "ExternalIPAddress" && $0.value == "198.51.100.7"
            }
        )
        #expect(try control.set("ExternalIPAddress", to: "198.51.100.7").get().isEmpty, "no change, no event")
        #expect(try control.set("ConnectionStatus", to: "Disconnected").get().count == 1)
    }

    @Test(arguments: [
        ("ConnectionStatus", "Broken", "\"Broken\": not one of its allowed values"),
        ("PortMappingNumberOfEntries", "many", "\"many\": not a value of its type, ui2"),
        ("Volume", "3", "no service of the device has this state variable (they have: "),
    ])
    func aValueTheVariableCannotTakeIsRefusedWithWhy(name: String, value: String, reason: String) {
        var control = gateway()
        let before = control.services.map(\.values)
        guard case .failure(let error) = control.set(name, to: value) else {
            Issue.record("\(name)=\(value) was taken")
            return
        }
        #expect(error.reason.hasPrefix(reason), "\(error.reason)")
        #expect(control.services.map(\.values) == before)
    }

    private func add(
        _ control: inout DeviceControl,
        port: String,
        client: String = "192.168.1.50",
        lease: String = "0"
    ) -> ActionResult {
        control.call(
            "AddPortMapping",
            [
                ("NewRemoteHost", ""), ("NewExternalPort", port), ("NewProtocol", "TCP"), ("NewInternalPort", "22"),
                ("NewInternalClient", client), ("NewEnabled", "1"), ("NewPortMappingDescription", "ssh"),
                ("NewLeaseDuration", lease),
            ]
        )
    }

    private func code(_ result: ActionResult) -> Int? {
        if case .failure(let error) = result.outcome { error.code } else { nil }
    }

    private func values(_ result: ActionResult) -> [String: String] {
        guard case .success(let arguments) = result.outcome else { return [:] }
        return Dictionary(arguments.map { ($0.name, $0.value) }) { $1 }
    }

    @Test func theRouterIsConnectedWithAPublicLookingAddressAndCountsItsUptime() {
        var control = gateway()
        #expect(
            values(control.call("GetStatusInfo", at: 42)) == [
                "NewConnectionStatus": "Connected", "NewLastConnectionError": "ERROR_NONE", "NewUptime": "42",
            ]
        )
        #expect(values(control.call("GetExternalIPAddress"))["NewExternalIPAddress"] == "93.184.216.34")
        #expect(values(control.call("GetTotalBytesSent", service: 1, at: 2))["NewTotalBytesSent"] == "2048")
        #expect(values(control.call("GetCommonLinkProperties", service: 1))["NewPhysicalLinkStatus"] == "Up")
    }

    @Test func theSCPDDecidesWhatIsACall() {
        var control = gateway()
        #expect(code(control.call("GetExternalIPAddres")) == 401)
        // No NewRemoteHost.
        #expect(code(control.call("DeletePortMapping", [("NewExternalPort", "80"), ("NewProtocol", "TCP")])) == 402)
        #expect(
            code(
                control.call(
                    "DeletePortMapping",
                    [("NewRemoteHost", ""), ("NewExternalPort", "eighty"), ("NewProtocol", "TCP")]
                )
            ) == 402
        )
        // miniupnpd checks no allowed lists or ranges: deleting an SCTP mapping is done (there is none, and
        // the nftables back end says so for any delete), and a lease past the SCPD's range is taken.
        #expect(
            code(
                control.call(
                    "DeletePortMapping",
                    [("NewRemoteHost", ""), ("NewExternalPort", "80"), ("NewProtocol", "SCTP")]
                )
            ) == nil
        )
        #expect(code(add(&control, port: "8080", lease: "700000")) == nil)
        #expect(code(control.call("SetConnectionType", [("NewConnectionType", "IP_Routed")])) == 731)
        #expect(code(control.call("ForceTermination")) == 606)
    }

    @Test func mappingsAreAddedListedReplacedAndDeletedWithMiniupnpdsCodes() {
        var control = gateway()
        #expect(code(add(&control, port: "8080")) == nil)
        #expect(control.services[0].value(of: "PortMappingNumberOfEntries") == "1")
        #expect(code(add(&control, port: "8080", client: "192.168.1.51")) == 718)  // another client's port
        #expect(code(add(&control, port: "8080")) == nil)  // the same client replaces its own
        #expect(code(add(&control, port: "0")) == 716)
        #expect(
            values(control.call("GetGenericPortMappingEntry", [("NewPortMappingIndex", "0")]))["NewExternalPort"]
                == "8080"
        )
        #expect(code(control.call("GetGenericPortMappingEntry", [("NewPortMappingIndex", "1")])) == 713)
        let specific = [("NewRemoteHost", ""), ("NewExternalPort", "8080"), ("NewProtocol", "TCP")]
        #expect(
            values(control.call("GetSpecificPortMappingEntry", specific)) == [
                "NewInternalPort": "22", "NewInternalClient": "192.168.1.50", "NewEnabled": "1",
                "NewPortMappingDescription": "ssh", "NewLeaseDuration": "604800",  // lease 0: a week (IGD v2 build)
            ]
        )
        #expect(code(control.call("DeletePortMapping", specific)) == nil)
        #expect(code(control.call("DeletePortMapping", specific)) == nil)  // gone already: 200 (nftables)
        #expect(code(control.call("GetSpecificPortMappingEntry", specific)) == 714)
        #expect(control.services[0].value(of: "PortMappingNumberOfEntries") == "0")
    }

    /// A number outside its argument's data type is Invalid Args, never stored: a ui2 port of 2^63 - 1 was
    /// taken and read back as it was, and with AddAnyPortMapping it could reach arithmetic on it.
    @Test func valuesOutsideTheirDataTypeAre402() {
        var control = gateway()
        let largest = "9223372036854775807"
        for (port, lease) in [(largest, "0"), ("65536", "0"), ("-1", "0"), ("8080", largest), ("8080", "4294967296")] {
            #expect(code(add(&control, port: port, lease: lease)) == 402, "port \(port), lease \(lease)")
        }
        #expect(code(control.call("GetGenericPortMappingEntry", [("NewPortMappingIndex", largest)])) == 402)
        #expect(control.portMappings.isEmpty)
        for spelling in ["++8080", "+-8080", "8080x", "0x50", "", "+"] {
            #expect(code(add(&control, port: spelling)) == 402, "\(spelling)")
        }
        #expect(code(add(&control, port: "65535", lease: "4294967295")) == nil)
        #expect(code(add(&control, port: " +8080 ", lease: "0")) == nil)
        #expect(control.portMappings.map(\.externalPort) == [65535, 8080])
    }

    /// Without NewInternalClient miniupnpd maps to the caller's address as it logs it, port and all, which
    /// is no address: 501. A lease runs out in its time.
    @Test func anEmptyInternalClientIs501AndALeaseRunsOut() {
        var control = gateway()
        #expect(code(add(&control, port: "9000", client: "", lease: "60")) == 501)
        #expect(control.portMappings.isEmpty)
        #expect(code(add(&control, port: "9000", lease: "60")) == nil)
        let entry = values(control.call("GetGenericPortMappingEntry", [("NewPortMappingIndex", "0")], at: 40))
        #expect(entry["NewInternalClient"] == "192.168.1.50")
        #expect(entry["NewLeaseDuration"] == "30")  // added at 10 s for 60 s, read at 40 s
        #expect(code(control.call("GetGenericPortMappingEntry", [("NewPortMappingIndex", "0")], at: 71)) == 713)
    }

    @Test func aMappingChangeIsEventedWithTheWholeEventedSet() {
        var control = gateway()
        let result = add(&control, port: "8080")
        #expect(result.changedVariables == ["PortMappingNumberOfEntries"])
        let properties = control.eventProperties(service: 0, changed: result.changedVariables)
        #expect(
            properties.map(\.name) == [
                "PossibleConnectionTypes", "ConnectionStatus", "ExternalIPAddress", "PortMappingNumberOfEntries",
            ]
        )
        #expect(properties.last?.value == "1")
        let read = control.call("GetStatusInfo")
        #expect(read.changedVariables.isEmpty)
        #expect(control.eventProperties(service: 0, changed: read.changedVariables).isEmpty)
    }

    @Test func aUsersResponseOrFaultComesBeforeTheDevicesOwn() {
        var control = gateway(responses: [
            ActionResponse(
                action: "GetExternalIPAddress",
                service: "WANIPConnection",
                outcome: .success([SOAPArgument("NewExternalIPAddress", "")])
            ),
            ActionResponse(action: "AddPortMapping", outcome: .failure(UPnPError(code: 725))),
        ])
        #expect(values(control.call("GetExternalIPAddress"))["NewExternalIPAddress"] == "")
        #expect(code(add(&control, port: "8080")) == 725)
        #expect(control.portMappings.isEmpty)
        #expect(code(control.call("NoSuchAction")) == 401)  // the SCPD still decides first
    }
}

struct EventSubscriptionTests {
    private let at = { (seconds: Int) in SSDPInstant(offset: .seconds(seconds)) }
    /// The subscriber of most tests, and a callback of its own.
    private let subscriber = "192.168.1.50"
    private let ownCallback = "http://192.168.1.50:8080/cb"

    private func read(_ method: String, _ headers: [String: String]) -> Result<GENARequest, GENARefusal> {
        GENARequest.read(method: method, headers: headers)
    }

    private func callbacks(_ urls: String...) throws -> [GENACallback] {
        try urls.map { try GENACallback.read($0).get() }
    }

    /// A subscription of `subscriber` (this test's by default) to service `service`.
    private func subscribe(
        _ table: inout EventSubscriptions,
        from subscriber: String? = nil,
        callback: String? = nil,
        service: Int = 0,
        timeout: Int? = nil,
        at seconds: Int = 0
    ) throws -> EventSubscriptions.Outcome {
        let subscriber = subscriber ?? self.subscriber
        let request = GENARequest.subscribe(
            callbacks: try callbacks(callback ?? "http://\(subscriber):8080/cb"),
            timeout: timeout
        )
        return table.handle(request, service: service, from: subscriber, at: at(seconds))
    }

    @Test func requestsAreReadAsMiniupnpdAndMiniDLNAReadThem() throws {
        #expect(
            read(
                "SUBSCRIBE",
                ["callback": "<\(ownCallback)><http://x/y>", "nt": "upnp:event", "timeout": "Second-300"]
            ) == .success(.subscribe(callbacks: try callbacks(ownCallback, "http://x/y"), timeout: 300))
        )
        #expect(
            read("SUBSCRIBE", ["sid": "uuid:1", "timeout": "Second-1800.0"])
                == .success(.renew(sid: "uuid:1", timeout: 1800))
        )
        #expect(
            read("SUBSCRIBE", ["callback": "<http://a/cb>", "nt": "upnp:event", "timeout": "Second-infinite"])
                == .success(.subscribe(callbacks: try callbacks("http://a/cb"), timeout: nil))
        )
        #expect(read("SUBSCRIBE", ["sid": "uuid:1", "nt": "upnp:event"]) == .failure(.incompatibleHeaders))
        #expect(
            read("SUBSCRIBE", ["callback": "<http://a/cb>", "nt": "upnp:propchange"]) == .failure(.preconditionFailed)
        )
        #expect(read("SUBSCRIBE", ["callback": "http://a/cb", "nt": "upnp:event"]) == .failure(.preconditionFailed))
        #expect(read("SUBSCRIBE", [:]) == .failure(.preconditionFailed))
        #expect(read("UNSUBSCRIBE", [:]) == .failure(.preconditionFailed))
        #expect(read("GET", [:]) == .failure(.methodNotAllowed))
    }

    /// MiniDLNA 1.3.0's upnphttp.c (check_event and its SUBSCRIBE handler), as Debian's answered beside the
    /// profile in `scripts/fidelity dlna-server`.
    @Test func requestsAreReadAsMiniDLNAReadsThem() throws {
        let read = { (headers: [String: String]) in
            GENARequest.read(method: "SUBSCRIBE", headers: headers, rules: .miniDLNA)
        }
        // A CALLBACK without NT is a bad request (UDA: 412).
        #expect(read(["callback": "<\(ownCallback)>"]) == .failure(.incompatibleHeaders))
        #expect(
            GENARequest.read(method: "SUBSCRIBE", headers: ["callback": "<\(ownCallback)>"])
                == .failure(.preconditionFailed)
        )
        // What a subscription asks for it gets; one that asks for nothing gets 300 s.
        #expect(
            read(["callback": "<\(ownCallback)>", "nt": "upnp:event", "timeout": "Second-1800"])
                == .success(.subscribe(callbacks: try callbacks(ownCallback), timeout: 1800))
        )
        #expect(
            read(["callback": "<\(ownCallback)>", "nt": "upnp:event"])
                == .success(.subscribe(callbacks: try callbacks(ownCallback), timeout: 300))
        )
        // A renewal gets 300 s whatever it asks for, or when it asks for nothing.
        #expect(read(["sid": "uuid:1", "timeout": "Second-1800"]) == .success(.renew(sid: "uuid:1", timeout: 300)))
        #expect(read(["sid": "uuid:1"]) == .success(.renew(sid: "uuid:1", timeout: 300)))
        // The rest as UDA reads it.
        #expect(
            read(["sid": "uuid:1", "callback": "<\(ownCallback)>", "nt": "upnp:event"])
                == .failure(.incompatibleHeaders)
        )
        #expect(read(["nt": "upnp:event"]) == .failure(.preconditionFailed))
    }

    /// The CallStranger checks of form (CVE-2020-12695): the path goes into the NOTIFY's request line, so
    /// nothing but a URL path's characters; a bounded length; a host and a real port.
    @Test(arguments: [
        "https://192.168.1.50/cb", "ftp://192.168.1.50/cb", "http://", "http:///cb", "http://:80/cb",
        "http://192.168.1.50:0/cb", "http://192.168.1.50:65536/cb", "http://192.168.1.50:/cb",
        "http://192.168.1.50:8o/cb", "http://user@192.168.1.50/cb", "http://192.168.1.50/a b",
        "http://192.168.1.50/a\tX-Injected: yes", "http://192.168.1.50/a\r\nX-Injected: yes",
        "http://192.168.1.50/a\"b", "http://192.168.1.50/a<b>", "http://192.168.1.50/a#b", "http://192.168.1.50/é",
        "http://[::1/cb", "http://[::1]x/cb", "http://192.168.1.50/" + String(repeating: "a", count: 237),
    ])
    func callbackURLsThatCannotBeAnEventsAreRefusedWith412(url: String) {
        let result = read("SUBSCRIBE", ["callback": "<\(url)>", "nt": "upnp:event"])
        guard case .failure(let refusal) = result, case .callbackRefused = refusal else {
            Issue.record("\(url.debugDescription) was read as \(result)")
            return
        }
        #expect(refusal.status == 412)
    }

    @Test func callbackURLsAreReadIntoHostPortAndPath() throws {
        let plain = try GENACallback.read("HTTP://192.168.1.50:49152/upnp/event?x=1&y=%20").get()
        #expect(plain.host == "192.168.1.50" && plain.port == 49152 && plain.path == "/upnp/event?x=1&y=%20")
        let bare = try GENACallback.read("http://[fe80::1%25eth0]").get()
        #expect(bare.host == "fe80::1%25eth0" && bare.port == 80 && bare.path == "/")
        let longest = "http://192.168.1.50/" + String(repeating: "a", count: GENACallback.maximumLength - 20)
        #expect(try GENACallback.read(longest).get().url == longest)
    }

    @Test func aCallbackMustNameTheSubscriberUnlessThePolicyIsAny() throws {
        var table = EventSubscriptions(random: SSDPRandom(seed: 4))
        let elsewhere = try subscribe(&table, callback: "http://192.168.1.99:8080/cb")
        #expect(elsewhere.refusal?.status == 412)
        #expect(elsewhere.refusal?.reason.contains("192.168.1.99") == true)
        // The second of two URLs is checked too: a device would try it when the first fails.
        let second = GENARequest.subscribe(callbacks: try callbacks(ownCallback, "http://10.0.0.7/x"), timeout: nil)
        #expect(table.handle(second, service: 0, from: subscriber, at: at(0)).refusal?.status == 412)
        // An IPv4 subscriber on an IPv6 socket, and an IPv6 one in brackets, name themselves.
        #expect(try subscribe(&table, from: "::ffff:192.168.1.50", callback: ownCallback).refusal == nil)
        #expect(try subscribe(&table, from: "fe80::2", callback: "http://[FE80::2]:9/cb").refusal == nil)
        #expect(table.subscriptions.count == 2)

        table.callbackPolicy = .any
        #expect(try subscribe(&table, callback: "http://192.168.1.99:8080/cb").refusal == nil)
    }

    @Test func aCallbackNeverNamesTheDeviceItself() throws {
        let device = try GENACallback.read("http://192.168.1.50:1400").get()
        for policy in GENACallbackPolicy.allCases {
            var table = EventSubscriptions(random: SSDPRandom(seed: 5), callbackPolicy: policy)
            let request = GENARequest.subscribe(callbacks: try callbacks("http://192.168.1.50:1400/cb"), timeout: nil)
            let refused = table.handle(request, service: 0, from: subscriber, device: device, at: at(0))
            #expect(refused.refusal?.reason == "the CALLBACK names the device's own HTTP server", "\(policy)")
            let otherPort = GENARequest.subscribe(callbacks: try callbacks(ownCallback), timeout: nil)
            #expect(table.handle(otherPort, service: 0, from: subscriber, device: device, at: at(0)).refusal == nil)
        }
    }

    @Test func aSubscriptionGetsItsTimeoutRenewsExpiresAndIsForgottenOnReboot() throws {
        var table = EventSubscriptions(random: SSDPRandom(seed: 1))
        guard case .subscribed(let subscription) = try subscribe(&table, timeout: 10) else {
            Issue.record("not subscribed")
            return
        }
        #expect(subscription.sid.hasPrefix("uuid:") && subscription.timeout == 10)
        #expect(subscription.subscriber == subscriber && subscription.callbacks == [ownCallback])
        guard
            case .renewed(let renewed) = table.handle(
                .renew(sid: subscription.sid, timeout: nil),
                service: 0,
                from: subscriber,
                at: at(9)
            )
        else {
            Issue.record("not renewed")
            return
        }
        #expect(renewed.timeout == EventSubscriptions.defaultTimeout)
        #expect(
            table.handle(.renew(sid: subscription.sid, timeout: nil), service: 1, from: subscriber, at: at(10))
                == .refused(.preconditionFailed)
        )
        #expect(
            table.handle(.renew(sid: subscription.sid, timeout: 5), service: 0, from: subscriber, at: at(10 + 1_800))
                == .refused(.preconditionFailed)
        )

        guard case .subscribed(let second) = try subscribe(&table) else {
            Issue.record("not subscribed")
            return
        }
        table.forgetAll()
        #expect(
            table.handle(.renew(sid: second.sid, timeout: nil), service: 0, from: subscriber, at: at(1))
                == .refused(.preconditionFailed)
        )
        #expect(
            table.handle(.unsubscribe(sid: second.sid), service: 0, from: subscriber, at: at(1))
                == .refused(.preconditionFailed)
        )
    }

    @Test func eventsCountTheirSEQPerSubscriberFromZero() throws {
        var table = EventSubscriptions(random: SSDPRandom(seed: 2))
        guard case .subscribed(let first) = try subscribe(&table),
            case .subscribed(let other) = try subscribe(&table, from: "192.168.1.51", service: 1)
        else {
            Issue.record("not subscribed")
            return
        }
        let property = [SOAPArgument("Volume", "3 < 4")]
        let initial = table.events(service: 0, properties: property, only: first.sid, at: at(1))
        #expect(initial.map(\.sequence) == [0])
        #expect(initial[0].body.contains("<e:property><Volume>3 &lt; 4</Volume></e:property>"))
        // miniupnpd's NOTIFY: Host, then the body's type and length, then GENA's; no XML declaration.
        #expect(
            initial[0].headers(host: "192.168.1.50:8080").map(\.name) == [
                "Host", "Content-Type", "Content-Length", "NT", "NTS", "SID", "SEQ", "Connection", "Cache-Control",
            ]
        )
        #expect(initial[0].headers(host: "h").contains(SSDPHeaderField(name: "SEQ", value: "0")))
        #expect(
            initial[0].headers(host: "h").contains(
                SSDPHeaderField(name: "Content-Length", value: "\(initial[0].body.utf8.count)")
            )
        )
        #expect(initial[0].body.hasPrefix("<e:propertyset ") && initial[0].body.hasSuffix("</e:propertyset>\r\n"))
        #expect(table.events(service: 0, properties: property, at: at(2)).map(\.sequence) == [1])
        #expect(table.events(service: 0, properties: [], at: at(2)).isEmpty)
        #expect(table.events(service: 1, properties: property, at: at(2)).map(\.sid) == [other.sid])
        #expect(
            table.handle(.unsubscribe(sid: first.sid), service: 0, from: subscriber, at: at(3))
                == .unsubscribed(sid: first.sid)
        )
        #expect(table.events(service: 0, properties: property, at: at(3)).isEmpty)
    }

    /// One client subscribing a thousand times for a day holds its share; every other client still gets in,
    /// and when the table is full a newcomer takes a slot of whoever holds the most.
    @Test func theTableIsBoundedAndSharedFairly() throws {
        var table = EventSubscriptions(random: SSDPRandom(seed: 3))
        var refusals: [GENARefusal] = []
        for _ in 0..<1_000 {
            if case .refused(let refusal) = try subscribe(&table, timeout: 86_400) { refusals.append(refusal) }
        }
        #expect(table.subscriptions.count == EventSubscriptions.maximumPerSubscriber)
        #expect(refusals.count == 1_000 - EventSubscriptions.maximumPerSubscriber)
        #expect(refusals.allSatisfy { $0 == .subscriberLimit && $0.status == 503 })

        // A second heavy client fills the rest of the table.
        for _ in 0..<1_000 { _ = try subscribe(&table, from: "192.168.1.66", timeout: 86_400) }
        #expect(table.subscriptions.count == EventSubscriptions.maximumCount)
        let heavy = Set(table.subscriptions.keys)

        // Newcomers still get in, each by taking a slot of a heavy client, until the shares are even.
        var newcomerHolds = 0
        for _ in 0..<40 {
            if case .subscribed = try subscribe(&table, from: "192.168.1.77") { newcomerHolds += 1 }
        }
        let held = Dictionary(grouping: table.subscriptions.values, by: \.subscriber).mapValues(\.count)
        #expect(table.subscriptions.count == EventSubscriptions.maximumCount)
        #expect(newcomerHolds == 21 && held["192.168.1.77"] == 21)
        #expect(held.values.max()! - held.values.min()! <= 1, "\(held)")
        #expect(try subscribe(&table, from: "192.168.1.77") == .refused(.tooManySubscriptions))
        // Who lost a slot finds out at its renewal, as after a reboot.
        let lost = try #require(heavy.subtracting(table.subscriptions.keys).min())
        #expect(
            table.handle(.renew(sid: lost, timeout: nil), service: 0, from: subscriber, at: at(1))
                == .refused(.preconditionFailed)
        )
    }
}

extension EventSubscriptions.Outcome {
    /// The refusal, when the outcome is one.
    var refusal: GENARefusal? {
        if case .refused(let refusal) = self { return refusal }
        return nil
    }
}

struct HTTPFaultTests {
    @Test func faultsAreReadAsTheFlagsWriteThem() throws {
        #expect(try HTTPFaults.document("503:2", field: "f") == .unavailable(first: 2))
        #expect(try HTTPFaults.document("delay:1.5", field: "f") == .delayed(.milliseconds(1_500)))
        #expect(try HTTPFaults.document("hang", field: "f") == .hanging)
        #expect(try HTTPFaults.document("malformed", field: "f") == .malformed)
        for bad in ["503:0", "503", "delay:-1", "delay:601", "late", ""] {
            #expect(throws: SSDPConfigurationError.self, "\(bad)") { try HTTPFaults.document(bad, field: "f") }
        }
    }

    @Test func theFirstFetchesGet503ThenTheDocumentComesLate() {
        var machine = HTTPFaultMachine(
            faults: HTTPFaults(description: [.unavailable(first: 2), .delayed(.seconds(1))]),
            random: SSDPRandom(seed: 1)
        )
        let decisions = (0..<3).map { _ in machine.fetch(.description) }
        #expect(decisions.map(\.unavailable) == [true, true, false])
        #expect(decisions.allSatisfy { $0.delay == .seconds(1) })
        #expect(machine.fetch(.serviceDescription) == .serve)  // counted apart, and not faulted
    }

    @Test func aDamagedDocumentIsNoLongerWellFormed() {
        let document =
            #"<?xml version="1.0"?><root xmlns="urn:schemas-upnp-org:device-1-0"><device><UDN>uuid:1</UDN></device></root>"#
        #expect(SSDPXMLElement.parse(Array(document.utf8)) != nil)
        for fault in [HTTPFaults.DocumentFault.truncated, .empty, .malformed] {
            #expect(SSDPXMLElement.parse(Array(HTTPFaultMachine.damage(document, fault).utf8)) == nil, "\(fault)")
        }
        #expect(HTTPFaultMachine.damage(document, .malformed).hasSuffix("</xroot>"))
    }

    @Test func eventsAreLostAsOftenAsAskedAndReplayFromTheSeed() {
        let faults = HTTPFaults(eventLoss: 0.5, eventDelay: .seconds(2))
        var first = HTTPFaultMachine(faults: faults, random: SSDPRandom(seed: 9))
        var second = HTTPFaultMachine(faults: faults, random: SSDPRandom(seed: 9))
        let draws = (0..<1_000).map { _ in first.event() }
        #expect(draws == (0..<1_000).map { _ in second.event() })
        #expect((400...600).contains(draws.filter { $0 == nil }.count))
        #expect(draws.compactMap { $0 }.allSatisfy { $0 == .seconds(2) })
    }
}
