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

/// gmrender-resurrect 0.1's services, as Debian's gmediarender runs them (upnp_transport.c, upnp_control.c,
/// upnp_connmgr.c at v0.1): each service is a table of variables that its actions read and write, and an
/// action's answer is the variables its handler appends, whatever the SCPD says it returns. So
/// GetDeviceCapabilities and GetTransportSettings answer nothing, GetMediaInfo's PlayMedium is
/// PossibleRecordStorageMedia's value, GetVolumeDB's argument is `CurrentVolumeDB`, and GetCurrentConnectionInfo
/// answers the table's `A_ARG_TYPE_…` values for any connection. Every error is libupnp's 501 with
/// gmrender's words (upnp_set_error): a missing argument, an unknown action ("Action Failed"), a transition
/// the state does not allow. Nothing is checked against the SCPD: a Seek to `x` succeeds.
///
/// The renderer plays nothing: Play needs a URI and then holds the position where Play or Seek put it.
/// Every service of the stack is one of these, whatever its kind: the stack checks no arguments against the
/// SCPD (each handler reads the ones it needs as it goes) and answers 501 for an action it does not have.
struct GMRenderService: ServiceBehaviour {
    var argumentCheck: ArgumentCheck { .none }

    var unknownAction: UPnPError { GMRender.actionFailed }

    func initialValues(of service: ControlledService, in device: DeviceControl) -> [String: String] {
        GMRender.initialValues(of: service.kind)
    }

    mutating func answer(
        _ call: SOAPActionCall,
        service: inout ControlledService,
        context: ActionContext
    ) -> Result<[SOAPArgument], UPnPError>? {
        GMRender.answer(call, service: &service)
    }

    func lastChange(_ names: [String], of service: ControlledService) -> String {
        GMRender.lastChange(names, of: service)
    }
}

/// gmrender-resurrect's tables and handlers.
enum GMRender {
    /// What libupnp answers for an action the service does not have.
    static let actionFailed = UPnPError(code: 501, description: "Action Failed")

    /// The values a service of `kind` starts with (the handlers' var_meta tables, and the volume of a fresh
    /// GStreamer output: 100 %, 0 dB).
    static func initialValues(of kind: String) -> [String: String] {
        switch kind {
        case "AVTransport":
            [
                "TransportState": "STOPPED", "TransportStatus": "OK", "PlaybackStorageMedium": "UNKNOWN",
                "RecordStorageMedium": "NOT_IMPLEMENTED", "PossiblePlaybackStorageMedia": "NETWORK,UNKNOWN",
                "PossibleRecordStorageMedia": "NOT_IMPLEMENTED", "CurrentPlayMode": "NORMAL", "TransportPlaySpeed": "1",
                "RecordMediumWriteStatus": "NOT_IMPLEMENTED", "CurrentRecordQualityMode": "NOT_IMPLEMENTED",
                "PossibleRecordQualityModes": "NOT_IMPLEMENTED", "NumberOfTracks": "0", "CurrentTrack": "0",
                "CurrentTrackDuration": zeroTime, "RelativeTimePosition": zeroTime,
                "AbsoluteTimePosition": "NOT_IMPLEMENTED", "RelativeCounterPosition": "2147483647",
                "AbsoluteCounterPosition": "2147483647", "A_ARG_TYPE_SeekMode": "TRACK_NR",
                "A_ARG_TYPE_InstanceID": "0", "CurrentTransportActions": "PLAY",
            ]
        case "RenderingControl":
            [
                "Brightness": "0", "Contrast": "0", "Sharpness": "0", "RedVideoGain": "0", "GreenVideoGain": "0",
                "BlueVideoGain": "0", "RedVideoBlackLevel": "0", "GreenVideoBlackLevel": "0",
                "BlueVideoBlackLevel": "0", "ColorTemperature": "0", "HorizontalKeystone": "0",
                "VerticalKeystone": "0", "Mute": "0", "Volume": "100", "VolumeDB": "0", "Loudness": "0",
                "A_ARG_TYPE_InstanceID": "0",
            ]
        case "ConnectionManager":
            [
                "SinkProtocolInfo": sinkProtocolInfo, "CurrentConnectionIDs": "0",
                "A_ARG_TYPE_ConnectionStatus": "Unknown", "A_ARG_TYPE_ConnectionManager": "/",
                "A_ARG_TYPE_Direction": "Input", "A_ARG_TYPE_ProtocolInfo": ":::", "A_ARG_TYPE_ConnectionID": "-1",
                "A_ARG_TYPE_AVTransportID": "0", "A_ARG_TYPE_RcsID": "0",
            ]
        default:
            [:]
        }
    }

    /// The answer to `call`, which `service`'s SCPD has, and what it changes in `service`.
    static func answer(_ call: SOAPActionCall, service: inout ControlledService) -> Result<[SOAPArgument], UPnPError> {
        var handler = Handler(call: call, service: service)
        let result: Result<[SOAPArgument], UPnPError>
        do throws(UPnPError) {
            switch service.kind {
            case "AVTransport": result = .success(try handler.transport())
            case "RenderingControl": result = .success(try handler.control())
            case "ConnectionManager": result = .success(try handler.connectionManager())
            default: result = .success([])
            }
        } catch {
            result = .failure(error)
        }
        service = handler.service
        return result
    }

    /// The LastChange document for `names` as gmrender's builder writes it through its xmldoc: an XML
    /// declaration, an element per line (CRLF), `val` then `channel="Master"` on the volume ones.
    static func lastChange(_ names: [String], of service: ControlledService) -> String {
        let namespace = service.kind == "RenderingControl" ? "RCS" : "AVT"
        var xml = "<?xml version=\"1.0\"?>\r\n<Event xmlns=\"urn:schemas-upnp-org:metadata-1-0/\(namespace)/\">\r\n"
        xml += "<InstanceID val=\"0\">\r\n"
        for name in names {
            let channel = ["Volume", "VolumeDB", "Mute", "Loudness"].contains(name) ? #" channel="Master""# : ""
            xml += #"<\#(name) val="\#(SSDPRootDevice.escaped(service.value(of: name)))"\#(channel)></\#(name)>"#
            xml += "\r\n"
        }
        return xml + "</InstanceID>\r\n</Event>\r\n"
    }

    static let zeroTime = "0:00:00"

    /// The formats a GStreamer 1.22 output with Debian's base and good plug-ins registers
    /// (upnp_connmgr.c's register_mime_type over the element factories), as SinkProtocolInfo lists them.
    static let sinkProtocolInfo = [
        "application/dash+xml", "application/kate", "application/ogg", "application/vnd.ms-sstr+xml",
        "application/x-3gp", "application/x-apetag", "application/x-ass", "application/x-hls",
        "application/x-icy", "application/x-id3", "application/x-kate", "application/x-navi-animation",
        "application/x-ogg-avi", "application/x-ogm-audio", "application/x-ogm-text", "application/x-ogm-video",
        "application/x-rtcp", "application/x-rtcp-stream", "application/x-rtp", "application/x-rtp-stream",
        "application/x-srtcp", "application/x-srtcp-stream", "application/x-srtp", "application/x-srtp-stream",
        "application/x-ssa", "application/x-subtitle", "application/x-subtitle-avi",
        "application/x-subtitle-dks", "application/x-subtitle-lrc", "application/x-subtitle-mpl2",
        "application/x-subtitle-qttext", "application/x-subtitle-sami", "application/x-subtitle-tmplayer",
        "application/x-subtitle-unknown", "application/x-subtitle-vtt", "application/x-usf", "audio/*",
        "audio/AMR", "audio/AMR-WB", "audio/G722", "audio/G723", "audio/G729", "audio/L16;rate=44100;channels=2",
        "audio/ac3", "audio/alac", "audio/isac", "audio/m4a", "audio/mp4", "audio/mpeg", "audio/ogg",
        "audio/webm", "audio/x-ac3", "audio/x-adpcm", "audio/x-alac", "audio/x-alaw", "audio/x-amr-nb-sh",
        "audio/x-amr-wb-sh", "audio/x-au", "audio/x-bv", "audio/x-celt", "audio/x-dts", "audio/x-eac3",
        "audio/x-flac", "audio/x-gsm", "audio/x-iLBC", "audio/x-ldac", "audio/x-m4a", "audio/x-matroska",
        "audio/x-mpeg", "audio/x-mulaw", "audio/x-nellymoser", "audio/x-opus", "audio/x-pn-realaudio",
        "audio/x-private1-ac3", "audio/x-private1-dts", "audio/x-raw", "audio/x-rf64", "audio/x-sbc",
        "audio/x-scpls", "audio/x-siren", "audio/x-speex", "audio/x-tta", "audio/x-unaligned-raw",
        "audio/x-vorbis", "audio/x-wav", "audio/x-wavpack", "audio/x-wavpack-correction", "audio/x-wma",
        "closedcaption/x-cea-608", "closedcaption/x-cea-708", "image/bmp", "image/jpeg", "image/png",
        "image/svg", "image/svg+xml", "image/tiff", "image/vnd.wap.wbmp", "image/x-MS-bmp", "image/x-bitmap",
        "image/x-bmp", "image/x-cmu-raster", "image/x-icon", "image/x-j2c", "image/x-jpc", "image/x-pcx",
        "image/x-pixmap", "image/x-portable-anymap", "image/x-portable-bitmap", "image/x-portable-graymap",
        "image/x-portable-pixmap", "image/x-sun-raster", "image/x-tga", "meta/x-klv",
        "multipart/x-mixed-replace", "subpicture/x-dvd", "subtitle/x-kate", "text/x-cmml", "text/x-raw",
        "video/mj2", "video/mpeg", "video/mpegts", "video/ogg", "video/quicktime", "video/webm", "video/x-av1",
        "video/x-bayer", "video/x-cineform", "video/x-daala", "video/x-dirac", "video/x-divx", "video/x-dv",
        "video/x-ffv", "video/x-flash-screen", "video/x-flash-video", "video/x-fli", "video/x-flv",
        "video/x-fwht", "video/x-h261", "video/x-h263", "video/x-h264", "video/x-h265", "video/x-huffyuv",
        "video/x-jpeg", "video/x-matroska", "video/x-matroska-3d", "video/x-mp4-part", "video/x-msmpeg",
        "video/x-msvideo", "video/x-pn-realvideo", "video/x-prores", "video/x-pwc1", "video/x-pwc2",
        "video/x-qt-part", "video/x-raw", "video/x-smoke", "video/x-sonix", "video/x-svq", "video/x-theora",
        "video/x-unaligned-raw", "video/x-vp6-alpha", "video/x-vp6-flash", "video/x-vp8", "video/x-vp9",
        "video/x-wmv",
    ].map { "http-get:*:\($0):*" }.joined(separator: ",")

    /// One call's handler: the service's table as the call changes it.
    private struct Handler {
        let call: SOAPActionCall
        var service: ControlledService

        // MARK: AVTransport

        mutating func transport() throws(UPnPError) -> [SOAPArgument] {
            // has_instance_id: its own words after upnp_get_string's.
            guard call.argument("InstanceID") != nil else {
                throw UPnPError(code: 501, description: "Missing InstanceID")
            }
            switch call.actionName {
            case "GetMediaInfo":
                return variables([
                    ("NrTracks", "NumberOfTracks"), ("MediaDuration", "CurrentMediaDuration"),
                    ("CurrentURI", "AVTransportURI"), ("CurrentURIMetaData", "AVTransportURIMetaData"),
                    ("NextURI", "NextAVTransportURI"), ("NextURIMetaData", "NextAVTransportURIMetaData"),
                    // get_media_info appends TRANSPORT_VAR_REC_MEDIA here, not the play medium.
                    ("PlayMedium", "PossibleRecordStorageMedia"), ("RecordMedium", "RecordStorageMedium"),
                    ("WriteStatus", "RecordMediumWriteStatus"),
                ])
            case "GetTransportInfo":
                return variables([
                    ("CurrentTransportState", "TransportState"), ("CurrentTransportStatus", "TransportStatus"),
                    ("CurrentSpeed", "TransportPlaySpeed"),
                ])
            case "GetPositionInfo":
                return variables([
                    ("Track", "CurrentTrack"), ("TrackDuration", "CurrentTrackDuration"),
                    ("TrackMetaData", "CurrentTrackMetaData"), ("TrackURI", "CurrentTrackURI"),
                    ("RelTime", "RelativeTimePosition"), ("AbsTime", "AbsoluteTimePosition"),
                    ("RelCount", "RelativeCounterPosition"), ("AbsCount", "AbsoluteCounterPosition"),
                ])
            case "GetCurrentTransportActions":
                return variables([("Actions", "CurrentTransportActions")])
            case "SetAVTransportURI":
                let uri = try argument("CurrentURI")
                let metadata = try argument("CurrentURIMetaData")
                set("AVTransportURI", uri)
                set("AVTransportURIMetaData", metadata)
                set("NumberOfTracks", uri.isEmpty ? "0" : "1")
                if value("TransportState") == "PLAYING" { setCurrentTrack(uri: uri, metadata: metadata) }
            case "SetNextAVTransportURI":
                set("NextAVTransportURI", try argument("NextURI"))
                set("NextAVTransportURIMetaData", try argument("NextURIMetaData"))
            case "Play":
                try play()
            case "Pause":
                switch value("TransportState") {
                case "PAUSED_PLAYBACK": break
                case "PLAYING": changeState(to: "PAUSED_PLAYBACK")
                default: throw transitionNotAllowed("PAUSE")
                }
            case "Stop":
                if ["PLAYING", "PAUSED_PLAYBACK"].contains(value("TransportState")) { changeState(to: "STOPPED") }
            case "Seek":
                // Only REL_TIME, and only where the output has a stream to seek in.
                if try argument("Unit") == "REL_TIME" {
                    let target = try argument("Target")
                    if ["PLAYING", "PAUSED_PLAYBACK"].contains(value("TransportState")) {
                        set("RelativeTimePosition", target)
                    }
                }
            default:
                // GetDeviceCapabilities and GetTransportSettings: "TODO: implement ?"
                break
            }
            return []
        }

        private mutating func play() throws(UPnPError) {
            switch value("TransportState") {
            case "PLAYING":
                return
            case "STOPPED", "PAUSED_PLAYBACK":
                if value("TransportState") == "STOPPED" { set("RelativeTimePosition", GMRender.zeroTime) }
                // GStreamer cannot play without a URI.
                guard !value("AVTransportURI").isEmpty else {
                    throw UPnPError(code: 501, description: "Playing failed")
                }
                changeState(to: "PLAYING")
                setCurrentTrack(uri: value("AVTransportURI"), metadata: value("AVTransportURIMetaData"))
            default:
                throw transitionNotAllowed("PLAY")
            }
        }

        /// change_transport_state: the state, and the actions it allows.
        private mutating func changeState(to state: String) {
            guard value("TransportState") != state else { return }
            set("TransportState", state)
            let actions =
                switch state {
                case "PLAYING": "PAUSE,STOP,SEEK"
                case "PAUSED_PLAYBACK": "PLAY,STOP,SEEK"
                default: value("AVTransportURI").isEmpty ? "PLAY" : "PLAY,SEEK"
                }
            set("CurrentTransportActions", actions)
        }

        private mutating func setCurrentTrack(uri: String, metadata: String) {
            set("CurrentTrack", uri.isEmpty ? "0" : "1")
            set("CurrentTrackURI", uri)
            set("CurrentTrackMetaData", metadata)
        }

        private func transitionNotAllowed(_ transition: String) -> UPnPError {
            UPnPError(
                code: 501,
                description: "Transition to \(transition) not allowed; allowed=\(value("CurrentTransportActions"))"
            )
        }

        // MARK: RenderingControl

        mutating func control() throws(UPnPError) -> [SOAPArgument] {
            switch call.actionName {
            case "GetVolumeDBRange":
                // Ignores its arguments.
                return [SOAPArgument("MinValue", "-15360"), SOAPArgument("MaxValue", "0")]
            case "SetMute":
                set("Mute", Self.atoi(try argument("DesiredMute")) != 0 ? "1" : "0")
            case "SetVolume":
                // The level as given is the variable's value; the decibels and mute follow the clamped one.
                let given = try argument("DesiredVolume")
                let level = min(max(Self.atoi(given), 0), 100)
                set("Volume", given)
                set("VolumeDB", String(Int(256 * Self.decibels(ofLevel: level))))
                set("Mute", level == 0 ? "1" : "0")
            case "SetVolumeDB":
                let level = Self.level(ofDecibels: Double(Self.atoi(try argument("DesiredVolume"))))
                set("Volume", String(level))
                set("VolumeDB", String(Int(256 * Self.decibels(ofLevel: level))))
            default:
                // cmd_obtain_variable: InstanceID, then the one variable the action reads.
                _ = try argument("InstanceID")
                guard let action = service.description.action(named: call.actionName),
                    let out = action.arguments.first(where: { $0.direction == .out })
                else { return [] }
                let name = call.actionName == "GetVolumeDB" ? "CurrentVolumeDB" : out.name
                return [SOAPArgument(name, value(out.relatedStateVariable))]
            }
            return []
        }

        /// gmrender's volume curve: -60 dB to -20 dB over the lower half of 0...100, -20 dB to 0 dB over the
        /// upper half.
        private static func decibels(ofLevel level: Int) -> Double {
            level < 50 ? -60 + 40.0 / 50 * Double(level) : -20 + 20.0 / 50 * Double(level - 50)
        }

        private static func level(ofDecibels decibels: Double) -> Int {
            if decibels < -60 { return 0 }
            if decibels > 0 { return 100 }
            return decibels < -20 ? Int((decibels + 60) * 50 / 40) : Int((decibels + 20) * 50 / 20) + 50
        }

        /// C's atoi: an optional sign and the leading digits, 0 when there are none.
        private static func atoi(_ text: String) -> Int {
            let trimmed = text.drop { $0 == " " || $0 == "\t" }
            let negative = trimmed.first == "-"
            let unsigned = trimmed.first == "-" || trimmed.first == "+" ? trimmed.dropFirst() : trimmed
            let digits = unsigned.prefix { $0.isASCII && $0.isNumber }.prefix(9)
            let value = Int(String(digits)) ?? 0
            return negative ? -value : value
        }

        // MARK: ConnectionManager

        mutating func connectionManager() throws(UPnPError) -> [SOAPArgument] {
            switch call.actionName {
            case "GetProtocolInfo":
                return variables([("Source", "SourceProtocolInfo"), ("Sink", "SinkProtocolInfo")])
            case "GetCurrentConnectionIDs":
                return [SOAPArgument("ConnectionIDs", "0")]
            case "GetCurrentConnectionInfo":
                _ = try argument("ConnectionID")
                return variables([
                    ("RcsID", "A_ARG_TYPE_RcsID"), ("AVTransportID", "A_ARG_TYPE_AVTransportID"),
                    ("ProtocolInfo", "A_ARG_TYPE_ProtocolInfo"),
                    ("PeerConnectionManager", "A_ARG_TYPE_ConnectionManager"),
                    ("PeerConnectionID", "A_ARG_TYPE_ConnectionID"), ("Direction", "A_ARG_TYPE_Direction"),
                    ("Status", "A_ARG_TYPE_ConnectionStatus"),
                ])
            case "PrepareForConnection":
                return variables([
                    ("ConnectionID", "CurrentConnectionIDs"), ("AVTransportID", "A_ARG_TYPE_AVTransportID"),
                    ("RcsID", "A_ARG_TYPE_RcsID"),
                ])
            default:
                return []
            }
        }

        // MARK: The table

        /// upnp_get_string: the argument's text, or 501 naming it.
        private func argument(_ name: String) throws(UPnPError) -> String {
            guard let value = call.argument(name) else {
                throw UPnPError(code: 501, description: "Missing action request argument (\(name))")
            }
            return value
        }

        private func value(_ name: String) -> String { service.value(of: name) }

        private mutating func set(_ name: String, _ value: String) { service.values[name] = value }

        /// upnp_append_variable for each pair: the argument's name and the variable it reads.
        private func variables(_ pairs: [(argument: String, variable: String)]) -> [SOAPArgument] {
            pairs.map { SOAPArgument($0.argument, value($0.variable)) }
        }
    }
}
