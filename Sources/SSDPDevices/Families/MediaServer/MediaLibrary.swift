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

extension ControlEnvironment {
    /// The media server's content: `MediaLibrary.builtIn` unless a device file gives another.
    public var mediaLibrary: MediaLibrary {
        get { self[LibraryKey.self] }
        set { self[LibraryKey.self] = newValue }
    }

    private enum LibraryKey: ControlEnvironmentKey {
        static let defaultValue = MediaLibrary.builtIn
    }
}

/// A media server's content: a tree of containers and items, each naming its parent, browsed by
/// ContentDirectory.
///
/// The built-in tree has MiniDLNA's ids (`0` root; `1` Music, `2` Video, `3` Pictures; `1$4` All Music,
/// `2$8` All Video, `3$B` All Pictures, MD `scanner.h`) with a few items in each. A device file may give
/// another. Resource URLs are paths on the device's web server; the simulator sets `baseURL` to the
/// server's origin so that DIDL-Lite carries absolute URLs, as clients need.
public struct MediaLibrary: Hashable, Sendable {
    /// Every object, the root (`0`, parent `-1`) included; children are listed in this order.
    public var objects: [MediaObject]
    /// The origin resource paths are relative to, `http://192.168.1.2:8200`; empty for bare paths.
    public var baseURL: String

    /// A library of `objects`, in browse order; `baseURL` goes before each resource path in DIDL-Lite.
    public init(objects: [MediaObject], baseURL: String = "") {
        self.objects = objects
        self.baseURL = baseURL
    }

    /// The object with id `id`, if there is one.
    public func object(_ id: String) -> MediaObject? {
        objects.first { $0.id == id }
    }

    /// The objects whose parent is `id`, in library order.
    public func children(of id: String) -> [MediaObject] {
        objects.filter { $0.parentID == id }
    }

    /// The distinct protocolInfo values of the resources, in library order (ConnectionManager's `Source`
    /// does not list these: it is MiniDLNA's fixed list, whatever the library holds).
    public var protocolInfos: [String] {
        var seen: Set<String> = []
        return objects.compactMap(\.resource?.protocolInfo).filter { seen.insert($0).inserted }
    }

    /// The containers of MiniDLNA's database with nothing in its media directory (scanner.c, and Debian's
    /// 1.3.0 beside it in `scripts/fidelity dlna-server`), each parent's children in the order MiniDLNA
    /// lists them (by name: SQLite reads them through its (PARENT_ID, NAME) index).
    public static let miniDLNAContainers: [MediaObject] = [
        .container(id: "0", parentID: "-1", title: "root"),
        .container(id: "64", parentID: "0", title: "Browse Folders"),
        .container(id: "1", parentID: "0", title: "Music"),
        .container(id: "3", parentID: "0", title: "Pictures"),
        .container(id: "2", parentID: "0", title: "Video"),
        .container(id: "1$7", parentID: "1", title: "Album"),
        .container(id: "1$4", parentID: "1", title: "All Music"),
        .container(id: "1$6", parentID: "1", title: "Artist"),
        .container(id: "1$14", parentID: "1", title: "Folders"),
        .container(id: "1$5", parentID: "1", title: "Genre"),
        .container(id: "1$F", parentID: "1", title: "Playlists"),
        .container(id: "1$FF0", parentID: "1", title: "Recently Added"),
        .container(id: "2$8", parentID: "2", title: "All Video"),
        .container(id: "2$15", parentID: "2", title: "Folders"),
        .container(id: "2$FF0", parentID: "2", title: "Recently Added"),
        .container(id: "3$B", parentID: "3", title: "All Pictures"),
        .container(id: "3$D2", parentID: "3", title: "Camera"),
        .container(id: "3$C", parentID: "3", title: "Date Taken"),
        .container(id: "3$16", parentID: "3", title: "Folders"),
        .container(id: "3$FF0", parentID: "3", title: "Recently Added"),
    ]

    /// MiniDLNA's containers (`miniDLNAContainers`) with three tracks in All Music, two movies in All Video
    /// and two photos in All Pictures. (A real MiniDLNA would list them under Album, Artist, Folders and the
    /// rest too; here they are only in the All … containers.)
    public static let builtIn = MediaLibrary(
        objects: miniDLNAContainers + [
            .track(id: "1$4$0", title: "Multicast Morning", number: 21, size: 4_921_344, duration: "0:03:25.000"),
            .track(id: "1$4$1", title: "Notify Alive", number: 22, size: 5_873_664, duration: "0:04:04.000"),
            .track(id: "1$4$2", title: "Byebye Blues", number: 23, size: 3_612_672, duration: "0:02:30.000"),
            MediaObject(
                id: "2$8$0",
                parentID: "2$8",
                title: "Harbour at Dusk",
                upnpClass: "object.item.videoItem",
                date: "2022-09-03",
                resource: MediaResource(
                    path: "/MediaItems/24.mp4",
                    protocolInfo: MediaResource.mp4,
                    size: 73_400_320,
                    duration: "0:05:12.400",
                    resolution: "1280x720"
                )
            ),
            MediaObject(
                id: "2$8$1",
                parentID: "2$8",
                title: "Garden Timelapse",
                upnpClass: "object.item.videoItem",
                date: "2023-04-18",
                resource: MediaResource(
                    path: "/MediaItems/25.mkv",
                    protocolInfo: "http-get:*:video/x-matroska:*",
                    size: 31_457_280,
                    duration: "0:01:40.000",
                    resolution: "1920x1080"
                )
            ),
            .photo(id: "3$B$0", title: "Lighthouse", number: 26, date: "2023-07-14T10:22:05", size: 2_841_602),
            .photo(id: "3$B$1", title: "Snowy Pass", number: 27, date: "2024-01-02T15:03:41", size: 3_104_118),
        ]
    )
}

/// One container or item of a `MediaLibrary`: what DIDL-Lite says of it.
public struct MediaObject: Hashable, Sendable {
    /// MiniDLNA's ids: `0`, `1$4`, `1$4$2`.
    public var id: String
    /// The container's id; `-1` for the root.
    public var parentID: String
    /// The name shown for the object (`dc:title`).
    public var title: String
    /// `object.container.storageFolder`, `object.item.audioItem.musicTrack`, `object.item.imageItem.photo`, …
    public var upnpClass: String
    /// Who made it (`dc:creator`), if known.
    public var creator: String?
    /// A track's performer (`upnp:artist`), if known.
    public var artist: String?
    /// The album a track is on (`upnp:album`), if known.
    public var album: String?
    /// `2023-07-14`, or with a time for photos.
    public var date: String?
    /// The media file; `nil` for a container.
    public var resource: MediaResource?

    /// A container or item; the optional properties are left out of its DIDL-Lite when `nil`.
    public init(
        id: String,
        parentID: String,
        title: String,
        upnpClass: String,
        creator: String? = nil,
        artist: String? = nil,
        album: String? = nil,
        date: String? = nil,
        resource: MediaResource? = nil
    ) {
        self.id = id
        self.parentID = parentID
        self.title = title
        self.upnpClass = upnpClass
        self.creator = creator
        self.artist = artist
        self.album = album
        self.date = date
        self.resource = resource
    }

    /// Whether it holds other objects (its class is a container's).
    public var isContainer: Bool {
        upnpClass.hasPrefix("object.container")
    }

    /// A folder, as all of MiniDLNA's containers are.
    public static func container(id: String, parentID: String, title: String) -> MediaObject {
        MediaObject(id: id, parentID: parentID, title: title, upnpClass: "object.container.storageFolder")
    }

    /// An MP3 of the built-in album in All Music.
    static func track(id: String, title: String, number: Int, size: Int, duration: String) -> MediaObject {
        MediaObject(
            id: id,
            parentID: "1$4",
            title: title,
            upnpClass: "object.item.audioItem.musicTrack",
            creator: "The Simulators",
            artist: "The Simulators",
            album: "Virtual LAN",
            date: "2021-03-14",
            resource: MediaResource(
                path: "/MediaItems/\(number).mp3",
                protocolInfo: MediaResource.mp3,
                size: size,
                duration: duration
            )
        )
    }

    /// A JPEG of the built-in camera roll in All Pictures.
    static func photo(id: String, title: String, number: Int, date: String, size: Int) -> MediaObject {
        MediaObject(
            id: id,
            parentID: "3$B",
            title: title,
            upnpClass: "object.item.imageItem.photo",
            date: date,
            resource: MediaResource(
                path: "/MediaItems/\(number).jpg",
                protocolInfo: MediaResource.jpeg,
                size: size,
                resolution: "4032x3024"
            )
        )
    }
}

/// The file of an item, as its `<res>` element gives it.
public struct MediaResource: Hashable, Sendable {
    /// The path on the device's web server, `/MediaItems/22.mp3` (MiniDLNA's detail id and extension).
    public var path: String
    /// `http-get:*:<mime>:<DLNA parameters>`.
    public var protocolInfo: String
    /// Bytes.
    public var size: Int?
    /// `H:MM:SS.mmm`.
    public var duration: String?
    /// `WIDTHxHEIGHT`, for pictures and video.
    public var resolution: String?

    /// A resource at `path` on the device's web server; the optional attributes are left out of `<res>` when
    /// `nil`.
    public init(
        path: String,
        protocolInfo: String,
        size: Int? = nil,
        duration: String? = nil,
        resolution: String? = nil
    ) {
        self.path = path
        self.protocolInfo = protocolInfo
        self.size = size
        self.duration = duration
        self.resolution = resolution
    }

    /// MiniDLNA's protocolInfo for a DLNA profile: byte seeking, streaming or interactive transfer mode
    /// (MD `callback`: `DLNA.ORG_FLAGS=%08X%024X`).
    private static func dlna(_ mime: String, profile: String, streaming: Bool) -> String {
        let flags = streaming ? "01700000" : "00F00000"
        return "http-get:*:\(mime):DLNA.ORG_PN=\(profile);DLNA.ORG_OP=01;DLNA.ORG_CI=0;DLNA.ORG_FLAGS=\(flags)"
            + String(repeating: "0", count: 24)
    }

    /// MiniDLNA's protocolInfo for an MP3 track (DLNA profile `MP3`, streaming transfer).
    public static let mp3 = dlna("audio/mpeg", profile: "MP3", streaming: true)
    /// MiniDLNA's protocolInfo for an MP4 video (DLNA profile `AVC_MP4_MP_SD_AAC_MULT5`, streaming transfer).
    public static let mp4 = dlna("video/mp4", profile: "AVC_MP4_MP_SD_AAC_MULT5", streaming: true)
    /// MiniDLNA's protocolInfo for a JPEG picture (DLNA profile `JPEG_LRG`, interactive transfer).
    public static let jpeg = dlna("image/jpeg", profile: "JPEG_LRG", streaming: false)
}

// MARK: - DIDL-Lite

/// The properties a Browse `Filter` asks for (MD `set_filter_flags`): all of them for `*` or an empty
/// filter, else those named, a `res` attribute as `res@size`, `@size` or `size`.
struct DIDLFilter {
    private let everything: Bool
    private let names: Set<String>

    init(_ filter: String) {
        everything = filter.count <= 1
        names = Set(filter.split(separator: ",").map { String($0).trimmingASCIIWhitespace })
    }

    func includes(_ name: String) -> Bool {
        everything || names.contains(name)
    }

    func includesResource(attribute: String) -> Bool {
        includes("res@" + attribute) || includes("@" + attribute) || includes(attribute)
    }

    var includesResource: Bool {
        includes("res") || ["size", "duration", "resolution"].contains(where: includesResource(attribute:))
    }
}

extension MediaLibrary {
    /// `objects` as MiniDLNA writes a Browse result: its namespaces (`xmlns:dlna` when the filter asks), a
    /// newline, then the objects without space between them. `metadata` marks a BrowseMetadata answer,
    /// where the root lists the classes it can search.
    func didl(_ objects: [MediaObject], filter: DIDLFilter, metadata: Bool) -> String {
        var xml =
            #"<DIDL-Lite xmlns:dc="http://purl.org/dc/elements/1.1/""#
            + #" xmlns:upnp="urn:schemas-upnp-org:metadata-1-0/upnp/""#
            + #" xmlns="urn:schemas-upnp-org:metadata-1-0/DIDL-Lite/""#
        if filter.includes("dlna") { xml += #" xmlns:dlna="urn:schemas-dlna-org:metadata-1-0/""# }
        xml += ">\n"
        for object in objects {
            if object.isContainer {
                xml += container(object, filter: filter, metadata: metadata)
            } else {
                xml += item(object, filter: filter)
            }
        }
        return xml + "</DIDL-Lite>"
    }

    /// `<container id parentID restricted searchable childCount>` with MiniDLNA's spacing (a space before
    /// `>` when childCount is filtered out), title, class, and the storageUsed it gives every folder.
    private func container(_ object: MediaObject, filter: DIDLFilter, metadata: Bool) -> String {
        var xml = #"<container id="\#(escaped(object.id))" parentID="\#(escaped(object.parentID))" restricted="1" "#
        // MiniDLNA's magic Recently Added containers (`1$FF0`, …) are the ones it says are not searchable.
        if filter.includes("@searchable") {
            xml += object.id.hasSuffix("$FF0") ? #"searchable="0" "# : #"searchable="1" "#
        }
        if filter.includes("@childCount") { xml += #"childCount="\#(children(of: object.id).count)""# }
        xml += ">"
        if metadata, object.id == "0", filter.includes("upnp:searchClass") {
            for searchClass in ["audioItem", "imageItem", "videoItem"] {
                xml += #"<upnp:searchClass includeDerived="1">object.item.\#(searchClass)</upnp:searchClass>"#
            }
        }
        xml += element("dc:title", object.title) + element("upnp:class", object.upnpClass)
        if object.upnpClass == "object.container.storageFolder" || filter.includes("upnp:storageUsed") {
            xml += element("upnp:storageUsed", "-1")
        }
        if filter.includes("dc:creator") { xml += element("dc:creator", object.creator) }
        if filter.includes("upnp:artist") { xml += element("upnp:artist", object.artist) }
        return xml + "</container>"
    }

    /// `<item id parentID restricted>` with title, class, the optional properties the filter asks for in
    /// MiniDLNA's order, and the resource.
    private func item(_ object: MediaObject, filter: DIDLFilter) -> String {
        var xml = #"<item id="\#(escaped(object.id))" parentID="\#(escaped(object.parentID))" restricted="1">"#
        xml += element("dc:title", object.title) + element("upnp:class", object.upnpClass)
        let properties = [
            ("dc:creator", object.creator), ("dc:date", object.date), ("upnp:artist", object.artist),
            ("upnp:album", object.album),
        ]
        for (name, value) in properties where filter.includes(name) {
            xml += element(name, value)
        }
        if let resource = object.resource, filter.includesResource { xml += self.resource(resource, filter: filter) }
        return xml + "</item>"
    }

    /// `<res size duration resolution protocolInfo>URL</res>`, each attribute followed by a space as MiniDLNA's
    /// `add_res` writes them.
    private func resource(_ resource: MediaResource, filter: DIDLFilter) -> String {
        var xml = "<res "
        let attributes = [
            ("size", resource.size.map { "\($0)" }), ("duration", resource.duration),
            ("resolution", resource.resolution),
        ]
        for (name, value) in attributes where filter.includesResource(attribute: name) {
            if let value { xml += #"\#(name)="\#(escaped(value))" "# }
        }
        return xml + #"protocolInfo="\#(escaped(resource.protocolInfo))">\#(escaped(baseURL + resource.path))</res>"#
    }

    /// `<name>value</name>`, or nothing when there is no value.
    private func element(_ name: String, _ value: String?) -> String {
        guard let value else { return "" }
        return "<\(name)>\(escaped(value))</\(name)>"
    }

    private func escaped(_ text: String) -> String {
        SSDPRootDevice.escaped(text)
    }
}
