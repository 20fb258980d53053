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

/// The media server as MiniDLNA 1.3.1 answers (glebius/minidlna@cf671a7 `upnpsoap.c`; after-discovery.md
/// §4): ContentDirectory browses `environment.mediaLibrary` and writes its DIDL-Lite byte for byte, and
/// ConnectionManager reports the library's formats and the one connection MiniDLNA always claims.
enum MiniDLNA {
    /// MiniDLNA's `GetSearchCapabilities` answer.
    static let searchCapabilities =
        "dc:creator,dc:date,dc:title,upnp:album,upnp:actor,upnp:artist,upnp:class,upnp:genre,@id,@parentID,@refID"
    /// MiniDLNA's `GetSortCapabilities` answer.
    static let sortCapabilities =
        "dc:title,dc:date,upnp:class,upnp:album,upnp:episodeNumber,upnp:originalTrackNumber"

    /// MiniDLNA's ConnectionManager `Source` (upnpglobalvars.h RESOURCE_PROTOCOL_INFO_VALUES): every format it
    /// can serve, whatever its library holds, 91 entries.
    static let sourceProtocolInfo = [
        "http-get:*:image/jpeg:DLNA.ORG_PN=JPEG_TN,http-get:*:image/jpeg:DLNA.ORG_PN=JPEG_SM",
        "http-get:*:image/jpeg:DLNA.ORG_PN=JPEG_MED,http-get:*:image/jpeg:DLNA.ORG_PN=JPEG_LRG",
        "http-get:*:video/mpeg:DLNA.ORG_PN=AVC_TS_HD_50_AC3_ISO",
        "http-get:*:video/mpeg:DLNA.ORG_PN=AVC_TS_HD_60_AC3_ISO",
        "http-get:*:video/mpeg:DLNA.ORG_PN=AVC_TS_HP_HD_AC3_ISO",
        "http-get:*:video/mpeg:DLNA.ORG_PN=AVC_TS_MP_HD_AAC_MULT5_ISO",
        "http-get:*:video/mpeg:DLNA.ORG_PN=AVC_TS_MP_HD_AC3_ISO",
        "http-get:*:video/mpeg:DLNA.ORG_PN=AVC_TS_MP_HD_MPEG1_L3_ISO",
        "http-get:*:video/mpeg:DLNA.ORG_PN=AVC_TS_MP_SD_AAC_MULT5_ISO",
        "http-get:*:video/mpeg:DLNA.ORG_PN=AVC_TS_MP_SD_AC3_ISO",
        "http-get:*:video/mpeg:DLNA.ORG_PN=AVC_TS_MP_SD_MPEG1_L3_ISO",
        "http-get:*:video/mpeg:DLNA.ORG_PN=MPEG_PS_NTSC,http-get:*:video/mpeg:DLNA.ORG_PN=MPEG_PS_PAL",
        "http-get:*:video/mpeg:DLNA.ORG_PN=MPEG_TS_HD_NA_ISO",
        "http-get:*:video/mpeg:DLNA.ORG_PN=MPEG_TS_SD_NA_ISO",
        "http-get:*:video/mpeg:DLNA.ORG_PN=MPEG_TS_SD_EU_ISO,http-get:*:video/mpeg:DLNA.ORG_PN=MPEG1",
        "http-get:*:video/mp4:DLNA.ORG_PN=AVC_MP4_MP_SD_AAC_MULT5",
        "http-get:*:video/mp4:DLNA.ORG_PN=AVC_MP4_MP_SD_AC3",
        "http-get:*:video/mp4:DLNA.ORG_PN=AVC_MP4_BL_CIF15_AAC_520",
        "http-get:*:video/mp4:DLNA.ORG_PN=AVC_MP4_BL_CIF30_AAC_940",
        "http-get:*:video/mp4:DLNA.ORG_PN=AVC_MP4_BL_L31_HD_AAC",
        "http-get:*:video/mp4:DLNA.ORG_PN=AVC_MP4_BL_L32_HD_AAC",
        "http-get:*:video/mp4:DLNA.ORG_PN=AVC_MP4_BL_L3L_SD_AAC",
        "http-get:*:video/mp4:DLNA.ORG_PN=AVC_MP4_HP_HD_AAC",
        "http-get:*:video/mp4:DLNA.ORG_PN=AVC_MP4_MP_HD_1080i_AAC",
        "http-get:*:video/mp4:DLNA.ORG_PN=AVC_MP4_MP_HD_720p_AAC",
        "http-get:*:video/mp4:DLNA.ORG_PN=MPEG4_P2_MP4_ASP_AAC",
        "http-get:*:video/mp4:DLNA.ORG_PN=MPEG4_P2_MP4_SP_VGA_AAC",
        "http-get:*:video/vnd.dlna.mpeg-tts:DLNA.ORG_PN=AVC_TS_HD_50_AC3",
        "http-get:*:video/vnd.dlna.mpeg-tts:DLNA.ORG_PN=AVC_TS_HD_50_AC3_T",
        "http-get:*:video/vnd.dlna.mpeg-tts:DLNA.ORG_PN=AVC_TS_HD_60_AC3",
        "http-get:*:video/vnd.dlna.mpeg-tts:DLNA.ORG_PN=AVC_TS_HD_60_AC3_T",
        "http-get:*:video/vnd.dlna.mpeg-tts:DLNA.ORG_PN=AVC_TS_HP_HD_AC3_T",
        "http-get:*:video/vnd.dlna.mpeg-tts:DLNA.ORG_PN=AVC_TS_MP_HD_AAC_MULT5",
        "http-get:*:video/vnd.dlna.mpeg-tts:DLNA.ORG_PN=AVC_TS_MP_HD_AAC_MULT5_T",
        "http-get:*:video/vnd.dlna.mpeg-tts:DLNA.ORG_PN=AVC_TS_MP_HD_AC3",
        "http-get:*:video/vnd.dlna.mpeg-tts:DLNA.ORG_PN=AVC_TS_MP_HD_AC3_T",
        "http-get:*:video/vnd.dlna.mpeg-tts:DLNA.ORG_PN=AVC_TS_MP_HD_MPEG1_L3",
        "http-get:*:video/vnd.dlna.mpeg-tts:DLNA.ORG_PN=AVC_TS_MP_HD_MPEG1_L3_T",
        "http-get:*:video/vnd.dlna.mpeg-tts:DLNA.ORG_PN=AVC_TS_MP_SD_AAC_MULT5",
        "http-get:*:video/vnd.dlna.mpeg-tts:DLNA.ORG_PN=AVC_TS_MP_SD_AAC_MULT5_T",
        "http-get:*:video/vnd.dlna.mpeg-tts:DLNA.ORG_PN=AVC_TS_MP_SD_AC3",
        "http-get:*:video/vnd.dlna.mpeg-tts:DLNA.ORG_PN=AVC_TS_MP_SD_AC3_T",
        "http-get:*:video/vnd.dlna.mpeg-tts:DLNA.ORG_PN=AVC_TS_MP_SD_MPEG1_L3",
        "http-get:*:video/vnd.dlna.mpeg-tts:DLNA.ORG_PN=AVC_TS_MP_SD_MPEG1_L3_T",
        "http-get:*:video/vnd.dlna.mpeg-tts:DLNA.ORG_PN=MPEG_TS_HD_NA",
        "http-get:*:video/vnd.dlna.mpeg-tts:DLNA.ORG_PN=MPEG_TS_HD_NA_T",
        "http-get:*:video/vnd.dlna.mpeg-tts:DLNA.ORG_PN=MPEG_TS_SD_EU",
        "http-get:*:video/vnd.dlna.mpeg-tts:DLNA.ORG_PN=MPEG_TS_SD_EU_T",
        "http-get:*:video/vnd.dlna.mpeg-tts:DLNA.ORG_PN=MPEG_TS_SD_NA",
        "http-get:*:video/vnd.dlna.mpeg-tts:DLNA.ORG_PN=MPEG_TS_SD_NA_T",
        "http-get:*:video/x-ms-wmv:DLNA.ORG_PN=WMVSPLL_BASE",
        "http-get:*:video/x-ms-wmv:DLNA.ORG_PN=WMVSPML_BASE",
        "http-get:*:video/x-ms-wmv:DLNA.ORG_PN=WMVSPML_MP3",
        "http-get:*:video/x-ms-wmv:DLNA.ORG_PN=WMVMED_BASE",
        "http-get:*:video/x-ms-wmv:DLNA.ORG_PN=WMVMED_FULL",
        "http-get:*:video/x-ms-wmv:DLNA.ORG_PN=WMVMED_PRO",
        "http-get:*:video/x-ms-wmv:DLNA.ORG_PN=WMVHIGH_FULL",
        "http-get:*:video/x-ms-wmv:DLNA.ORG_PN=WMVHIGH_PRO",
        "http-get:*:video/3gpp:DLNA.ORG_PN=MPEG4_P2_3GPP_SP_L0B_AAC",
        "http-get:*:video/3gpp:DLNA.ORG_PN=MPEG4_P2_3GPP_SP_L0B_AMR,http-get:*:audio/mpeg:DLNA.ORG_PN=MP3",
        "http-get:*:audio/x-ms-wma:DLNA.ORG_PN=WMABASE,http-get:*:audio/x-ms-wma:DLNA.ORG_PN=WMAFULL",
        "http-get:*:audio/x-ms-wma:DLNA.ORG_PN=WMAPRO,http-get:*:audio/x-ms-wma:DLNA.ORG_PN=WMALSL",
        "http-get:*:audio/x-ms-wma:DLNA.ORG_PN=WMALSL_MULT5,http-get:*:audio/mp4:DLNA.ORG_PN=AAC_ISO_320",
        "http-get:*:audio/3gpp:DLNA.ORG_PN=AAC_ISO_320,http-get:*:audio/mp4:DLNA.ORG_PN=AAC_ISO",
        "http-get:*:audio/mp4:DLNA.ORG_PN=AAC_MULT5_ISO",
        "http-get:*:audio/L16;rate=44100;channels=2:DLNA.ORG_PN=LPCM,http-get:*:image/jpeg:*",
        "http-get:*:video/avi:*,http-get:*:video/divx:*,http-get:*:video/x-matroska:*",
        "http-get:*:video/mpeg:*,http-get:*:video/mp4:*,http-get:*:video/x-ms-wmv:*",
        "http-get:*:video/x-msvideo:*,http-get:*:video/x-flv:*,http-get:*:video/x-tivo-mpeg:*",
        "http-get:*:video/quicktime:*,http-get:*:audio/mp4:*,http-get:*:audio/x-wav:*",
        "http-get:*:audio/x-flac:*,http-get:*:audio/x-dsd:*,http-get:*:application/ogg:*",
    ].joined(separator: ",")
}

/// ContentDirectory as MiniDLNA answers it: its capabilities, and Browse over `environment.mediaLibrary`.
/// Its handlers read each argument themselves: no allowed lists or ranges are checked (a Browse with a flag
/// it does not know is 402).
struct MediaServerContentDirectory: ServiceBehaviour {
    var argumentCheck: ArgumentCheck { .typesOnly }

    mutating func answer(
        _ call: SOAPActionCall,
        service: inout ControlledService,
        context: ActionContext
    ) -> Result<[SOAPArgument], UPnPError>? {
        switch call.actionName {
        case "GetSearchCapabilities":
            return .success([SOAPArgument("SearchCaps", MiniDLNA.searchCapabilities)])
        case "GetSortCapabilities":
            return .success([SOAPArgument("SortCaps", MiniDLNA.sortCapabilities)])
        case "Browse":
            return browse(call, in: context.environment.mediaLibrary, updateID: service.value(of: "SystemUpdateID"))
        default:
            // GetSystemUpdateID answers the SystemUpdateID variable, as the generic answer does; Search and
            // UpdateObject are left to it too.
            return nil
        }
    }

    /// Browse as MiniDLNA's `BrowseContentDirectory`: the object itself or a page of its children, in the
    /// library's order (SortCriteria is not applied), with the DIDL-Lite unescaped (the SOAP writer escapes it).
    private func browse(
        _ call: SOAPActionCall,
        in library: MediaLibrary,
        updateID: String
    ) -> Result<[SOAPArgument], UPnPError> {
        // The SCPD check has refused counts that are negative or not numbers (402), as MiniDLNA does.
        guard let start = call.integer("StartingIndex"), start >= 0,
            let requested = call.integer("RequestedCount"), requested >= 0,
            let id = call.argument("ObjectID")
        else { return .failure(.invalidArgs) }
        let flag = call.argument("BrowseFlag")
        let objects: [MediaObject]
        let totalMatches: Int
        switch flag {
        case "BrowseMetadata":
            guard let object = library.object(id) else { return .failure(UPnPError(code: 701)) }
            objects = [object]
            totalMatches = 1
        case "BrowseDirectChildren":
            // Children of an item: MiniDLNA finds none and answers an empty page, not 710 No such container.
            guard library.object(id) != nil else { return .failure(UPnPError(code: 701)) }
            let children = library.children(of: id)
            objects = Array(children.dropFirst(start).prefix(requested == 0 ? children.count : requested))
            totalMatches = children.count
        default:
            return .failure(.invalidArgs)
        }
        let filter = DIDLFilter(call.argument("Filter") ?? "")
        return .success([
            SOAPArgument("Result", library.didl(objects, filter: filter, metadata: flag == "BrowseMetadata")),
            SOAPArgument("NumberReturned", "\(objects.count)"),
            SOAPArgument("TotalMatches", "\(totalMatches)"),
            SOAPArgument("UpdateID", updateID),
        ])
    }
}

/// ConnectionManager of a media server as MiniDLNA answers it: the formats it can serve and the one
/// connection it always claims.
struct MediaServerConnectionManager: ServiceBehaviour {
    /// The behaviour of a ConnectionManager on a device of `kinds`: a media server's on a device with a
    /// ContentDirectory and no AVTransport; a renderer's (a Sonos has both), whose formats are what it sinks,
    /// answers from its variables.
    static func behaviour(on kinds: Set<String>) -> any ServiceBehaviour {
        kinds.contains("ContentDirectory") && !kinds.contains("AVTransport")
            ? MediaServerConnectionManager() : StateVariableService()
    }

    mutating func answer(
        _ call: SOAPActionCall,
        service: inout ControlledService,
        context: ActionContext
    ) -> Result<[SOAPArgument], UPnPError>? {
        switch call.actionName {
        case "GetProtocolInfo":
            return .success([
                SOAPArgument("Source", MiniDLNA.sourceProtocolInfo),
                SOAPArgument("Sink", ""),
            ])
        case "GetCurrentConnectionIDs":
            return .success([SOAPArgument("ConnectionIDs", "0")])
        case "GetCurrentConnectionInfo":
            // The SCPD check has refused a ConnectionID that is not a number (402).
            guard call.integer("ConnectionID") == 0 else {
                return .failure(UPnPError(code: 701))
            }
            return .success([
                SOAPArgument("RcsID", "-1"), SOAPArgument("AVTransportID", "-1"), SOAPArgument("ProtocolInfo", ""),
                SOAPArgument("PeerConnectionManager", ""), SOAPArgument("PeerConnectionID", "-1"),
                SOAPArgument("Direction", "Output"), SOAPArgument("Status", "Unknown"),
            ])
        default:
            return nil
        }
    }
}
