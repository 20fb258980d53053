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

/// What a simulated device serves over HTTP: its description at the path the real device uses, and the
/// device's own API where a profile has one (Roku's ECP, a Hue bridge's REST API, a DIAL server).
public struct DeviceWeb: Hashable, Sendable {
    /// The port the real device serves on (a Roku's 8060). A device with one, or with an address of its own,
    /// gets an HTTP server of its own with its paths at the root, as on the real device, on this port unless
    /// `--http-port` says otherwise (`HTTPPorts`). A device with neither (`generic` devices sharing an
    /// address) is served on the simulator's shared HTTP server under `/device/N`.
    public var realPort: Int?
    /// The path of the description that LOCATION points at.
    public var descriptionPath: String
    /// The Roku External Control Protocol, for a Roku.
    public var roku: RokuConfiguration?
    /// A Hue bridge's REST API (`/api`), for a Hue bridge.
    public var hue: HueBridgeConfiguration?
    /// A DIAL server, for a TV or a streaming stick.
    public var dial: DIALConfiguration?
    /// APIs of families ssdp-sim does not build in (a library user's, a test's), asked after the built-in
    /// ones (`apis`).
    public var otherAPIs: [AnyDeviceAPIConfiguration] = []
    /// The real device's service descriptions (SCPDs), by service type. A service whose type is not here
    /// is served the standard description of its type (`SSDPServiceDescription.standard(for:)`).
    public var serviceDescriptions: [String: SSDPServiceDescription]
    /// The user's answers for chosen SOAP actions (a response or a fault), before the device's own.
    public var actionResponses: [ActionResponse]
    /// How the device's HTTP side misbehaves: documents late, never, 503 or broken; events lost or late.
    public var httpFaults = HTTPFaults()
    /// Where the device sends its GENA events: only back to the subscriber (the default), or to any host a
    /// CALLBACK names, for a lab that needs it (a device file's `callbackPolicy`).
    public var callbackPolicy = GENACallbackPolicy.subscriber
    /// A media server's content, when a device file gives its own; `nil` for the built-in tree.
    public var mediaLibrary: MediaLibrary?
    /// The headers of every answer, in the order and spelling the real server writes them (miniupnpd's
    /// `Content-Type`, `Connection`, `Content-Length`, `Server`, `Ext`); `nil` for the simulator's own. A
    /// value `{Name}` stands for the answer's header of that name (left out when the answer has none),
    /// `{length}` for the body's length, `{date}` for the moment it answers (an HTTP date) and `{server}` for the
    /// device's SERVER; the answer's other headers follow.
    public var httpHeaders: [SSDPHeaderField]?
    /// How strictly its event URLs read a SUBSCRIBE (miniupnpd takes one without NT).
    public var genaRules = GENARules.uda
    /// How its server answers what it will not serve, where the real one has pages of its own.
    public var errorPages: HTTPErrorPages?
    /// Files it serves as they are, by path (a media server's icons, which its description lists).
    public var files: [String: ServedFile] = [:]
    /// How it sends its GENA events: as UDA says, or with MiniDLNA 1.3.0's stuck first event.
    public var eventDelivery = GENAEventDelivery.uda
    /// The stack its control and eventing are written by: ssdp-sim's own, or gmrender-resurrect's on libupnp
    /// (its envelopes, events and service behaviour).
    public var controlStack = ControlStack.uda
    /// The Content-Type its service descriptions are served with (gmrender's `text/xml`).
    public var serviceDescriptionContentType = #"text/xml; charset="utf-8""#
    /// The headers of its answers by kind, where its server lays each kind out its own way (libupnp), over
    /// `httpHeaders`; a template as `httpHeaders` is.
    public var httpHeadersByKind: [HTTPAnswerKind: [SSDPHeaderField]] = [:]
    /// A recorded device's responses (`ssdp-sim record`), sent byte for byte before anything else answers.
    public var recording: HTTPRecording?

    /// What a device serves; the defaults give a plain UPnP device: its description at `/description.xml`, no Roku or
    /// DIAL API.
    public init(
        realPort: Int? = nil,
        descriptionPath: String = "/description.xml",
        roku: RokuConfiguration? = nil,
        dial: DIALConfiguration? = nil,
        serviceDescriptions: [String: SSDPServiceDescription] = [:],
        actionResponses: [ActionResponse] = []
    ) {
        self.realPort = realPort
        self.descriptionPath = descriptionPath
        self.roku = roku
        self.dial = dial
        self.serviceDescriptions = serviceDescriptions
        self.actionResponses = actionResponses
    }

    /// The device's own APIs, in the order its HTTP server asks them for an answer: the one place a REST
    /// family (`DeviceAPIConfiguration`, in its folder under `SSDPDevices/Families`) is registered.
    public var apis: [any DeviceAPIConfiguration] {
        let families: [(any DeviceAPIConfiguration)?] = [roku, hue, dial]
        return families.compactMap { $0 } + otherAPIs.map(\.base)
    }

    /// The description served at the SCPDURL of a service of `serviceType`: the device's own, else the
    /// standard one of the type, else, for a type of the user's own, one without actions.
    public func serviceDescription(for serviceType: String) -> SSDPServiceDescription {
        serviceDescriptions[serviceType] ?? SSDPServiceDescription.standard(for: serviceType) ?? .withoutActions
    }
}

extension SimulatedDevice {
    /// Every endpoint of the device's HTTP server, in the order a client meets them: at the root, as
    /// served by a device with an address (and so a server) of its own, or under `prefix` (`/device/N`, a
    /// generic device on the server devices share when they share an address).
    public func httpEndpoints(prefix: String = "") -> [DeviceHTTPEndpoint] {
        var endpoints = [
            DeviceHTTPEndpoint(
                methods: "GET",
                path: prefix + web.descriptionPath,
                summary: "device description (LOCATION)"
            )
        ]
        if let dial = web.dial, dial.descriptionPath != web.descriptionPath {
            endpoints.append(
                .init(
                    methods: "GET",
                    path: dial.descriptionPath,
                    summary: "DIAL device description with Application-URL"
                )
            )
        } else if web.dial != nil {
            endpoints[0].summary += ", with DIAL's Application-URL header"
        }
        for (path, serviceType) in serviceDescriptions(prefix: prefix) {
            let actions = web.serviceDescription(for: serviceType).actions.count
            endpoints.append(
                .init(methods: "GET", path: path, summary: "service description (SCPD, \(actions) actions)")
            )
        }
        for (path, file) in web.files.sorted(by: { $0.key < $1.key }) {
            endpoints.append(
                .init(methods: "GET", path: prefix + path, summary: "\(file.contentType), \(file.bytes.count) bytes")
            )
        }
        for api in web.apis { endpoints += api.endpoints }
        return endpoints
    }

    /// Every service of the device tree with the server paths of its control and event URLs and its SCPD,
    /// as SOAP control and GENA eventing serve them; `prefix` is `/device/N` on the shared server.
    public func controlledServices(prefix: String = "") -> [ControlledService] {
        let descriptionPath = prefix + web.descriptionPath
        return device.allDevices.flatMap(\.services).enumerated().map { index, service in
            let urls = service.urls ?? SSDPRootDevice.simulatorURLs(basePath: prefix, service: index)
            return ControlledService(
                serviceType: service.serviceType,
                serviceID: service.serviceID,
                controlPath: Self.serverPath(of: urls.control, relativeTo: descriptionPath),
                eventPath: Self.serverPath(of: urls.event, relativeTo: descriptionPath),
                description: web.serviceDescription(for: service.serviceType)
            )
        }
    }

    /// The server path of a URL as a description writes it: absolute paths as they are, relative ones
    /// against the description's directory (a Roku's `ecp_SCPD.xml` is `/ecp_SCPD.xml`).
    static func serverPath(of url: String, relativeTo descriptionPath: String) -> String {
        if url.hasPrefix("/") { return url }
        let directory = descriptionPath.split(separator: "/", omittingEmptySubsequences: false).dropLast()
        return directory.joined(separator: "/") + "/" + url
    }

    /// The path of each distinct service description, as the description's SCPDURLs resolve, with the
    /// type of the service whose description it is (the first, when services share an SCPDURL).
    package func serviceDescriptions(prefix: String) -> [(path: String, serviceType: String)] {
        var seen = Set<String>()
        return device.allDevices.flatMap(\.services).enumerated().map { index, service in
            let scpd = service.urls?.scpd ?? SSDPRootDevice.simulatorURLs(basePath: prefix, service: index).scpd
            return (Self.serverPath(of: scpd, relativeTo: prefix + web.descriptionPath), service.serviceType)
        }.filter { seen.insert($0.path).inserted }
    }
}

/// How a device sends its GENA events.
public enum GENAEventDelivery: String, Hashable, Sendable, CaseIterable {
    /// Each event as UDA 1.1 §4.3 says: the initial one at once, then one per change.
    case uda
    /// As MiniDLNA 1.3.0 does (upnpevents.c, fixed in 1.3.1 by 2c66335): for the initial event it opens
    /// the connection and never writes to it, and that subscriber gets no event after. A client that waits
    /// for the initial event waits in vain; one that renews still gets 200.
    case miniDLNA130 = "minidlna-1.3.0"
}

/// The kinds of answer a device's HTTP server may lay out each its own way (`DeviceWeb.httpHeadersByKind`).
public enum HTTPAnswerKind: Hashable, Sendable {
    /// A document or file served: the description, an SCPD, an icon.
    case document
    /// A SOAP action's answer: its result or its fault.
    case control
    /// A SUBSCRIBE accepted: SID and TIMEOUT.
    case subscription
    /// A status page: an error, or (libupnp) the answer to an UNSUBSCRIBE.
    case statusPage
}

/// How a device's HTTP server answers a request it will not serve, where the real server has pages of its
/// own (miniupnpd's HTML pages and its 501 for HEAD): the methods it implements, and per status its body.
public struct HTTPErrorPages: Hashable, Sendable {
    /// One error answer's content type and body.
    public struct Page: Hashable, Sendable {
        /// The Content-Type it is sent with (`text/html`).
        public var contentType: String
        /// The page itself; empty for an answer without a body.
        public var body: String

        /// A page of `contentType`.
        public init(contentType: String, body: String) {
            self.contentType = contentType
            self.body = body
        }
    }

    /// The methods the server implements; any other is answered with status 501.
    public var methods: Set<String>
    /// The page of each status; a status without one gets `otherwise`.
    public var pages: [Int: Page]
    /// The page of every other status.
    public var otherwise: Page
    /// The pages its event URLs refuse a SUBSCRIBE or UNSUBSCRIBE with, where they are not `pages`'.
    public var eventPages: [Int: Page]
    /// The status the server answers in place of the simulator's, by the simulator's (libupnp: 500 for a
    /// path it serves nothing at).
    public var substitutes: [Int: Int] = [:]
    /// Whether an UNSUBSCRIBE's 200 is a page too (libupnp's http_SendStatusResponse).
    public var pagesUnsubscribe = false

    /// A server implementing `methods`, with these pages.
    public init(methods: Set<String>, pages: [Int: Page], otherwise: Page, eventPages: [Int: Page] = [:]) {
        self.methods = methods
        self.pages = pages
        self.otherwise = otherwise
        self.eventPages = eventPages
    }

    /// miniupnpd's (upnphttp.c: Send404, Send501, Send400 and its bodiless GENA errors).
    public static let miniupnpd = HTTPErrorPages(
        methods: ["GET", "POST", "SUBSCRIBE", "UNSUBSCRIBE"],
        pages: [
            400: Page(contentType: "text/html", body: "<html><body>Bad request</body></html>"),
            404: Page(
                contentType: "text/html",
                body: "<HTML><HEAD><TITLE>404 Not Found</TITLE></HEAD><BODY><H1>Not Found</H1>"
                    + "The requested URL was not found on this server.</BODY></HTML>\r\n"
            ),
            501: Page(
                contentType: "text/html",
                body: "<HTML><HEAD><TITLE>501 Not Implemented</TITLE></HEAD><BODY><H1>Not Implemented</H1>"
                    + "The HTTP Method is not implemented by this server.</BODY></HTML>\r\n"
            ),
        ],
        otherwise: Page(contentType: #"text/xml; charset="utf-8""#, body: "")
    )

    /// libupnp 1.8's (httpreadwrite.c's http_SendStatusResponse): one page for every status, its code and
    /// reason in an `h1`, an UNSUBSCRIBE's 200 included; 500 for a path it serves nothing at, and 501 for a
    /// method its web server does not take. `{status}` is the status's code and reason.
    public static let libupnp: HTTPErrorPages = {
        var pages = HTTPErrorPages(
            methods: ["GET", "HEAD", "POST", "SUBSCRIBE", "UNSUBSCRIBE", "NOTIFY"],
            pages: [:],
            otherwise: Page(contentType: "text/html", body: "<html><body><h1>{status}</h1></body></html>")
        )
        pages.substitutes = [404: 500]
        pages.pagesUnsubscribe = true
        return pages
    }()

    /// MiniDLNA's (its upnphttp.c grew from miniupnpd's): the same pages, HEAD served too, and its event
    /// URLs' 400 the same words as XML (check_event).
    public static let miniDLNA = HTTPErrorPages(
        methods: miniupnpd.methods.union(["HEAD"]),
        pages: miniupnpd.pages,
        otherwise: miniupnpd.otherwise,
        eventPages: [
            400: Page(contentType: #"text/xml; charset="utf-8""#, body: "<html><body>Bad request</body></html>")
        ]
    )
}
