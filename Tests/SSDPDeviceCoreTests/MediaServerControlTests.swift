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
import Testing

@testable import SSDPDeviceCore
@testable import SSDPDevices

/// ContentDirectory and ConnectionManager as MiniDLNA 1.3.1 answers them (after-discovery.md §4): Browse over
/// the built-in library with paging and MiniDLNA's errors, its DIDL-Lite, and the whole path from an
/// async-upnp-client envelope to the response it reads.
struct MediaServerControlTests {
    private static let contentDirectory = "urn:schemas-upnp-org:service:ContentDirectory:1"
    private static let connectionManager = "urn:schemas-upnp-org:service:ConnectionManager:1"

    private func server(library: MediaLibrary = .builtIn) -> DeviceControl {
        var control = DeviceControl(
            services: [
                ControlledService(
                    serviceType: Self.contentDirectory,
                    serviceID: "urn:upnp-org:serviceId:ContentDirectory",
                    controlPath: "/ctl/ContentDir",
                    eventPath: "/evt/ContentDir",
                    description: .contentDirectory1
                ),
                ControlledService(
                    serviceType: Self.connectionManager,
                    serviceID: "urn:upnp-org:serviceId:ConnectionManager",
                    controlPath: "/ctl/ConnectionMgr",
                    eventPath: "/evt/ConnectionMgr",
                    description: .connectionManager1
                ),
            ],
            registry: .builtIn,
            startedAt: .zero
        )
        control.environment.mediaLibrary = library
        return control
    }

    private func call(
        _ control: inout DeviceControl,
        _ action: String,
        _ arguments: [(String, String)] = [],
        service: Int = 0
    ) -> ActionResult {
        control.call(action, arguments, service: service)
    }

    private func browse(
        _ control: inout DeviceControl,
        _ id: String,
        flag: String = "BrowseDirectChildren",
        filter: String = "*",
        start: String = "0",
        count: String = "0"
    ) -> ActionResult {
        call(
            &control,
            "Browse",
            [
                ("ObjectID", id), ("BrowseFlag", flag), ("Filter", filter), ("StartingIndex", start),
                ("RequestedCount", count), ("SortCriteria", ""),
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

    /// The Browse result's DIDL-Lite, parsed.
    private func didl(_ result: ActionResult) throws -> SSDPXMLElement {
        let result = try #require(values(result)["Result"])
        return try #require(SSDPXMLElement.parse(Array(result.utf8)))
    }

    // MARK: - Browse

    /// As Debian's MiniDLNA 1.3.0 lists its root (beside the profile in `scripts/fidelity dlna-server`):
    /// by name, Browse Folders first, and what each holds when the library is empty.
    @Test func browsingTheRootListsMiniDLNAsContainersByName() throws {
        var control = server()
        let result = browse(&control, "0")
        #expect(values(result)["NumberReturned"] == "4")
        #expect(values(result)["TotalMatches"] == "4")
        #expect(values(result)["UpdateID"] == "0")
        let document = try didl(result)
        #expect(document.name == "DIDL-Lite")
        #expect(document.children.map(\.name) == ["container", "container", "container", "container"])
        #expect(document.children.map { $0.attributes["id"] } == ["64", "1", "3", "2"])
        #expect(document.children.map { $0.child("title")?.text } == ["Browse Folders", "Music", "Pictures", "Video"])
        #expect(document.children.map { $0.attributes["childCount"] } == ["0", "7", "5", "3"])
        #expect(document.children.allSatisfy { $0.attributes["parentID"] == "0" })
        // Music's: by name, Recently Added last and, as the one magic container there, not searchable.
        let music = try didl(browse(&control, "1")).children
        #expect(
            music.map { $0.child("title")?.text } == [
                "Album", "All Music", "Artist", "Folders", "Genre", "Playlists", "Recently Added",
            ]
        )
        #expect(music.map { $0.attributes["searchable"] } == ["1", "1", "1", "1", "1", "1", "0"])
        #expect(music.map { $0.attributes["childCount"] } == ["0", "3", "0", "0", "0", "0", "0"])
    }

    @Test func theResultIsMiniDLNAsDIDLLite() throws {
        var control = server()
        let result = try #require(values(browse(&control, "0", count: "1"))["Result"])
        #expect(
            result == """
                <DIDL-Lite xmlns:dc="http://purl.org/dc/elements/1.1/" \
                xmlns:upnp="urn:schemas-upnp-org:metadata-1-0/upnp/" \
                xmlns="urn:schemas-upnp-org:metadata-1-0/DIDL-Lite/" xmlns:dlna="urn:schemas-dlna-org:metadata-1-0/">
                <container id="64" parentID="0" restricted="1" searchable="1" childCount="0">\
                <dc:title>Browse Folders</dc:title>\
                <upnp:class>object.container.storageFolder</upnp:class><upnp:storageUsed>-1</upnp:storageUsed></container>\
                </DIDL-Lite>
                """
        )
        let track = try #require(values(browse(&control, "1$4$0", flag: "BrowseMetadata"))["Result"])
        #expect(
            track.hasSuffix(
                """
                <item id="1$4$0" parentID="1$4" restricted="1"><dc:title>Multicast Morning</dc:title>\
                <upnp:class>object.item.audioItem.musicTrack</upnp:class><dc:creator>The Simulators</dc:creator>\
                <dc:date>2021-03-14</dc:date><upnp:artist>The Simulators</upnp:artist><upnp:album>Virtual LAN</upnp:album>\
                <res size="4921344" duration="0:03:25.000" \
                protocolInfo="http-get:*:audio/mpeg:DLNA.ORG_PN=MP3;DLNA.ORG_OP=01;DLNA.ORG_CI=0;\
                DLNA.ORG_FLAGS=01700000000000000000000000000000">/MediaItems/21.mp3</res></item></DIDL-Lite>
                """
            )
        )
    }

    @Test func childrenComeInPagesAndACountOfZeroMeansAll() throws {
        var control = server()
        let second = browse(&control, "0", start: "1", count: "1")
        #expect(values(second)["NumberReturned"] == "1")
        #expect(values(second)["TotalMatches"] == "4")
        #expect(try didl(second).children.map { $0.attributes["id"] } == ["1"])
        let rest = browse(&control, "1$4", start: "1")
        #expect(try didl(rest).children.map { $0.attributes["id"] } == ["1$4$1", "1$4$2"])
        #expect(values(rest)["TotalMatches"] == "3")
        let beyond = browse(&control, "0", start: "5", count: "2")
        #expect(values(beyond)["NumberReturned"] == "0")
        #expect(values(beyond)["TotalMatches"] == "4")
    }

    @Test func metadataIsTheObjectItselfWithItsResourceAtTheServersOrigin() throws {
        var library = MediaLibrary.builtIn
        library.baseURL = "http://192.168.1.2:8200"
        var control = server(library: library)
        let result = browse(&control, "3$B$1", flag: "BrowseMetadata", start: "4", count: "9")
        #expect(values(result)["NumberReturned"] == "1")
        #expect(values(result)["TotalMatches"] == "1")
        let photo = try #require(try didl(result).children.first)
        #expect(photo.name == "item")
        #expect(photo.attributes["id"] == "3$B$1")
        #expect(photo.attributes["parentID"] == "3$B")
        #expect(photo.child("class")?.text == "object.item.imageItem.photo")
        let resource = try #require(photo.child("res"))
        #expect(resource.text == "http://192.168.1.2:8200/MediaItems/27.jpg")
        #expect(resource.attributes["resolution"] == "4032x3024")
        #expect(resource.attributes["protocolInfo"] == MediaResource.jpeg)
        #expect(MediaResource.jpeg.hasSuffix("DLNA.ORG_FLAGS=00F00000000000000000000000000000"))
    }

    @Test func theRootsMetadataListsTheClassesItSearches() throws {
        var control = server()
        let root = try #require(try didl(browse(&control, "0", flag: "BrowseMetadata")).children.first)
        #expect(root.attributes["parentID"] == "-1")
        #expect(root.attributes["childCount"] == "4")
        #expect(
            root.children.filter { $0.name == "searchClass" }.map(\.text) == [
                "object.item.audioItem", "object.item.imageItem", "object.item.videoItem",
            ]
        )
    }

    @Test func aFilterLeavesOutWhatItDoesNotName() throws {
        var control = server()
        let result = try #require(values(browse(&control, "1$4", filter: "dc:title,res@duration"))["Result"])
        #expect(!result.contains("xmlns:dlna"))
        let track = try #require(SSDPXMLElement.parse(Array(result.utf8))?.children.first)
        #expect(track.children.map(\.name) == ["title", "class", "res"])
        #expect(
            track.child("res")?.attributes == [
                "duration": "0:03:25.000", "protocolInfo": MediaResource.mp3,
            ]
        )
        let folders = try #require(values(browse(&control, "0", filter: "dc:title"))["Result"])
        #expect(folders.contains(#"<container id="1" parentID="0" restricted="1" ><dc:title>Music</dc:title>"#))
    }

    @Test func childrenOfAnItemAreAnEmptyPageAsInMiniDLNA() throws {
        var control = server()
        let result = browse(&control, "2$8$0")
        #expect(values(result)["NumberReturned"] == "0")
        #expect(values(result)["TotalMatches"] == "0")
        #expect(try didl(result).children.isEmpty)
    }

    @Test func anUnknownObjectIs701AndBadArgumentsAre402() {
        var control = server()
        #expect(code(browse(&control, "9$9")) == 701)
        #expect(code(browse(&control, "9$9", flag: "BrowseMetadata")) == 701)
        #expect(code(browse(&control, "0", start: "-1")) == 402)
        #expect(code(browse(&control, "0", count: "-5")) == 402)
        #expect(code(browse(&control, "0", count: "all")) == 402)
        #expect(code(call(&control, "Browse", [("ObjectID", "0"), ("BrowseFlag", "BrowseDirectChildren")])) == 402)
    }

    @Test func aBrowseFlagMiniDLNADoesNotKnowIs402() {
        // MiniDLNA reads the flag itself: 402, where a generic service's SCPD check says 600.
        var control = server()
        let call = SOAPActionCall(
            serviceType: Self.contentDirectory,
            actionName: "Browse",
            arguments: [
                SOAPArgument("ObjectID", "0"), SOAPArgument("BrowseFlag", "BrowseEverything"),
                SOAPArgument("Filter", "*"), SOAPArgument("StartingIndex", "0"), SOAPArgument("RequestedCount", "0"),
                SOAPArgument("SortCriteria", ""),
            ]
        )
        #expect(control.services[0].behaviour.argumentCheck == .typesOnly)
        #expect(
            control.call(call, service: 0, client: "192.168.1.20", at: SSDPInstant(offset: .seconds(10))).outcome
                == .failure(.invalidArgs)
        )
    }

    @Test func theUpdateIDIsTheSystemUpdateIDVariable() {
        var control = server()
        #expect(values(call(&control, "GetSystemUpdateID")) == ["Id": "0"])
        control.services[0].values["SystemUpdateID"] = "7"
        #expect(values(call(&control, "GetSystemUpdateID")) == ["Id": "7"])
        #expect(values(browse(&control, "0"))["UpdateID"] == "7")
    }

    @Test func theCapabilitiesAreMiniDLNAs() {
        var control = server()
        #expect(
            values(call(&control, "GetSearchCapabilities")) == [
                "SearchCaps": "dc:creator,dc:date,dc:title,upnp:album,upnp:actor,upnp:artist,upnp:class,upnp:genre,"
                    + "@id,@parentID,@refID"
            ]
        )
        #expect(
            values(call(&control, "GetSortCapabilities")) == [
                "SortCaps": "dc:title,dc:date,upnp:class,upnp:album,upnp:episodeNumber,upnp:originalTrackNumber"
            ]
        )
    }

    @Test func textIsEscapedOnceInTheDIDLAndOnceMoreInTheEnvelope() throws {
        let library = MediaLibrary(objects: [
            .container(id: "0", parentID: "-1", title: "root"),
            MediaObject(
                id: "0$1",
                parentID: "0",
                title: "Rock & <Roll>",
                upnpClass: "object.item.audioItem.musicTrack",
                resource: MediaResource(path: "/MediaItems/1.mp3?a=1&b=2", protocolInfo: MediaResource.mp3)
            ),
        ])
        var control = server(library: library)
        let result = browse(&control, "0")
        let didl = try #require(values(result)["Result"])
        #expect(didl.contains("<dc:title>Rock &amp; &lt;Roll&gt;</dc:title>"))
        #expect(didl.contains(">/MediaItems/1.mp3?a=1&amp;b=2</res>"))
        let arguments = try result.outcome.get()
        let envelope = SOAPEnvelope.response(
            serviceType: Self.contentDirectory,
            actionName: "Browse",
            arguments: arguments
        )
        #expect(envelope.contains("&lt;dc:title&gt;Rock &amp;amp; &amp;lt;Roll&amp;gt;&lt;/dc:title&gt;"))
        let response = try #require(SSDPXMLElement.parse(Array(envelope.utf8))?.child("Body")?.child("BrowseResponse"))
        let text = try #require(response.child("Result")?.text)
        let item = try #require(SSDPXMLElement.parse(Array(text.utf8))?.child("item"))
        #expect(item.child("title")?.text == "Rock & <Roll>")
        #expect(item.child("res")?.text == "/MediaItems/1.mp3?a=1&b=2")
    }

    // MARK: - The whole path

    @Test func anAsyncUPnPClientBrowseReadsBackFromTheResponseEnvelope() throws {
        let body = """
            <?xml version="1.0"?><s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/" \
            s:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"><s:Body>\
            <u:Browse xmlns:u="urn:schemas-upnp-org:service:ContentDirectory:1"><ObjectID>1$4</ObjectID>\
            <BrowseFlag>BrowseDirectChildren</BrowseFlag><Filter>*</Filter><StartingIndex>0</StartingIndex>\
            <RequestedCount>2</RequestedCount><SortCriteria></SortCriteria></u:Browse></s:Body></s:Envelope>
            """
        var library = MediaLibrary.builtIn
        library.baseURL = "http://192.168.1.2:8200"
        var control = server(library: library)
        let soapAction = #""\#(Self.contentDirectory)#Browse""#
        let call = try SOAPActionCall.read(soapAction: soapAction, body: Array(body.utf8)).get()
        let index = try #require(control.service(atControlPath: "/ctl/ContentDir"))
        let arguments = try control.call(call, service: index, client: "192.168.1.50", at: .zero).outcome.get()
        let envelope = SOAPEnvelope.response(
            serviceType: call.serviceType,
            actionName: call.actionName,
            arguments: arguments
        )

        let response = try #require(SSDPXMLElement.parse(Array(envelope.utf8))?.child("Body")?.child("BrowseResponse"))
        #expect(response.attributes["xmlns:u"] == Self.contentDirectory)
        #expect(response.children.map(\.name) == ["Result", "NumberReturned", "TotalMatches", "UpdateID"])
        #expect(response.child("NumberReturned")?.text == "2")
        #expect(response.child("TotalMatches")?.text == "3")
        let result = try #require(response.child("Result"))
        let didl = try #require(SSDPXMLElement.parse(Array(result.text.utf8)))
        #expect(didl.attributes["xmlns"] == "urn:schemas-upnp-org:metadata-1-0/DIDL-Lite/")
        #expect(didl.children.map { $0.attributes["id"] } == ["1$4$0", "1$4$1"])
        #expect(
            didl.children.map { $0.child("res")?.text } == [
                "http://192.168.1.2:8200/MediaItems/21.mp3", "http://192.168.1.2:8200/MediaItems/22.mp3",
            ]
        )
    }

    // MARK: - ConnectionManager

    /// MiniDLNA's fixed list (upnpglobalvars.h), whatever the library holds: Debian's 1.3.0 answered the same
    /// 91 formats with an empty media directory.
    @Test func theServerSourcesMiniDLNAsFormatsWhateverItHoldsAndSinksNone() throws {
        for library in [
            MediaLibrary.builtIn, MediaLibrary(objects: [.container(id: "0", parentID: "-1", title: "root")]),
        ] {
            var control = server(library: library)
            let answer = values(call(&control, "GetProtocolInfo", service: 1))
            let source = try #require(answer["Source"]).split(separator: ",").map(String.init)
            #expect(source.count == 91)
            #expect(source.first == "http-get:*:image/jpeg:DLNA.ORG_PN=JPEG_TN")
            #expect(source.last == "http-get:*:application/ogg:*")
            #expect(source.contains("http-get:*:audio/mpeg:DLNA.ORG_PN=MP3"))
            #expect(answer["Sink"] == "")
        }
    }

    @Test func theOnlyConnectionIsZeroAsMiniDLNAClaims() {
        var control = server()
        #expect(values(call(&control, "GetCurrentConnectionIDs", service: 1)) == ["ConnectionIDs": "0"])
        #expect(
            values(call(&control, "GetCurrentConnectionInfo", [("ConnectionID", "0")], service: 1)) == [
                "RcsID": "-1", "AVTransportID": "-1", "ProtocolInfo": "", "PeerConnectionManager": "",
                "PeerConnectionID": "-1", "Direction": "Output", "Status": "Unknown",
            ]
        )
        #expect(code(call(&control, "GetCurrentConnectionInfo", [("ConnectionID", "1")], service: 1)) == 701)
        #expect(code(call(&control, "GetCurrentConnectionInfo", [("ConnectionID", "zero")], service: 1)) == 402)
    }

    @Test func aRenderersConnectionManagerIsLeftToTheGenericAnswer() {
        // The behaviour is chosen when the device is built, from the kinds of all its services.
        var services = server().services
        services[1].values["SinkProtocolInfo"] = "http-get:*:audio/mpeg:*"
        var renderer = DeviceControl(services: [services[1]], registry: .builtIn, startedAt: .zero)
        let answer = values(call(&renderer, "GetProtocolInfo", service: 0))
        #expect(answer == ["Source": "", "Sink": "http-get:*:audio/mpeg:*"])
        // A Sonos has a ContentDirectory, and an AVTransport beside it.
        services.append(
            ControlledService(
                serviceType: "urn:schemas-upnp-org:service:AVTransport:1",
                serviceID: "urn:upnp-org:serviceId:AVTransport",
                controlPath: "/MediaRenderer/AVTransport/Control",
                eventPath: "/MediaRenderer/AVTransport/Event",
                description: SSDPServiceDescription(actions: [], stateVariables: [])
            )
        )
        var sonos = DeviceControl(services: services, registry: .builtIn, startedAt: .zero)
        #expect(values(call(&sonos, "GetProtocolInfo", service: 1))["Source"] == "")
        #expect(server().services[1].behaviour is MediaServerConnectionManager)
    }
}
