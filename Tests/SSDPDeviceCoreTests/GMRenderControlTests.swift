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

/// gmrender-resurrect 0.1's services (`ControlStack.gmrender`) as Debian's gmediarender answered the same
/// calls in `scripts/fidelity renderer`: values from its table, its empty answers, its 501 faults, its
/// transport states and its LastChange; and libupnp's envelopes and events, byte for byte.
struct GMRenderControlTests {
    private static let transport = 0
    private static let rendering = 1
    private static let manager = 2

    private func renderer() -> DeviceControl {
        let service = { (type: String, description: SSDPServiceDescription) in
            ControlledService(
                serviceType: "urn:schemas-upnp-org:service:\(type):1",
                serviceID: "urn:upnp-org:serviceId:\(type)",
                controlPath: "/upnp/control/\(type)",
                eventPath: "/upnp/event/\(type)",
                description: description
            )
        }
        return DeviceControl(
            services: [
                service("AVTransport", .gmrenderAVTransport), service("RenderingControl", .gmrenderRenderingControl),
                service("ConnectionManager", .gmrenderConnectionManager),
            ],
            stack: .gmrender,
            registry: .builtIn,
            startedAt: .zero
        )
    }

    @discardableResult
    private func call(
        _ control: inout DeviceControl,
        _ service: Int,
        _ action: String,
        _ arguments: [(String, String)] = [("InstanceID", "0")]
    ) -> Result<[SOAPArgument], UPnPError> {
        control.call(action, arguments, service: service, client: "192.168.77.2", at: 0).outcome
    }

    private func values(_ result: Result<[SOAPArgument], UPnPError>) -> [String] {
        (try? result.get())?.map { "\($0.name)=\($0.value)" } ?? ["fault"]
    }

    @Test func aFreshRendererAnswersWhatGMediaRenderAnswered() {
        var control = renderer()
        #expect(
            values(call(&control, Self.transport, "GetTransportInfo"))
                == ["CurrentTransportState=STOPPED", "CurrentTransportStatus=OK", "CurrentSpeed=1"]
        )
        #expect(
            values(call(&control, Self.transport, "GetMediaInfo")) == [
                "NrTracks=0", "MediaDuration=", "CurrentURI=", "CurrentURIMetaData=", "NextURI=", "NextURIMetaData=",
                "PlayMedium=NOT_IMPLEMENTED", "RecordMedium=NOT_IMPLEMENTED", "WriteStatus=NOT_IMPLEMENTED",
            ]
        )
        #expect(
            values(call(&control, Self.transport, "GetPositionInfo")) == [
                "Track=0", "TrackDuration=0:00:00", "TrackMetaData=", "TrackURI=", "RelTime=0:00:00",
                "AbsTime=NOT_IMPLEMENTED", "RelCount=2147483647", "AbsCount=2147483647",
            ]
        )
        #expect(values(call(&control, Self.transport, "GetDeviceCapabilities")).isEmpty)
        #expect(values(call(&control, Self.transport, "GetTransportSettings")).isEmpty)
        #expect(values(call(&control, Self.transport, "GetCurrentTransportActions")) == ["Actions=PLAY"])
        let master = [("InstanceID", "0"), ("Channel", "Master")]
        #expect(values(call(&control, Self.rendering, "GetVolume", master)) == ["CurrentVolume=100"])
        #expect(values(call(&control, Self.rendering, "ListPresets")) == ["CurrentPresetNameList="])
        #expect(values(call(&control, Self.rendering, "GetVolumeDB", master)) == ["CurrentVolumeDB=0"])
        #expect(values(call(&control, Self.manager, "GetCurrentConnectionIDs", [])) == ["ConnectionIDs=0"])
        for connection in ["0", "7"] {
            #expect(
                values(call(&control, Self.manager, "GetCurrentConnectionInfo", [("ConnectionID", connection)])) == [
                    "RcsID=0", "AVTransportID=0", "ProtocolInfo=:::", "PeerConnectionManager=/",
                    "PeerConnectionID=-1", "Direction=Input", "Status=Unknown",
                ]
            )
        }
        let protocols = values(call(&control, Self.manager, "GetProtocolInfo", []))
        #expect(protocols.first == "Source=")
        #expect(protocols.last?.hasPrefix("Sink=http-get:*:application/dash+xml:*,") == true)
        #expect(protocols.last?.split(separator: ",").count == 164)
    }

    @Test func everyFaultIs501InGMRendersWords() {
        var control = renderer()
        #expect(
            call(&control, Self.rendering, "NoSuchAction")
                == .failure(UPnPError(code: 501, description: "Action Failed"))
        )
        #expect(
            call(&control, Self.rendering, "GetVolume", [])
                == .failure(UPnPError(code: 501, description: "Missing action request argument (InstanceID)"))
        )
        #expect(
            call(&control, Self.transport, "GetTransportInfo", [])
                == .failure(UPnPError(code: 501, description: "Missing InstanceID"))
        )
        #expect(
            call(&control, Self.transport, "Pause")
                == .failure(UPnPError(code: 501, description: "Transition to PAUSE not allowed; allowed=PLAY"))
        )
        // Nothing loaded: GStreamer cannot play.
        #expect(call(&control, Self.transport, "Play") == .failure(UPnPError(code: 501, description: "Playing failed")))
        // Nothing is checked against the SCPD: a volume far out of range is taken as given.
        let master = [("InstanceID", "0"), ("Channel", "Master")]
        #expect(values(call(&control, Self.rendering, "SetVolume", master + [("DesiredVolume", "250")])).isEmpty)
        #expect(values(call(&control, Self.rendering, "GetVolume", master)) == ["CurrentVolume=250"])
    }

    @Test func theTransportMovesAsGMRendersDoes() {
        var control = renderer()
        let uri = [
            ("InstanceID", "0"), ("CurrentURI", "http://192.168.77.2:5002/track.mp3"), ("CurrentURIMetaData", ""),
        ]
        #expect(values(call(&control, Self.transport, "SetAVTransportURI", uri)).isEmpty)
        // One track, not yet current; still STOPPED, so the actions are unchanged.
        #expect(
            values(call(&control, Self.transport, "GetMediaInfo")).prefix(3) == [
                "NrTracks=1", "MediaDuration=", "CurrentURI=http://192.168.77.2:5002/track.mp3",
            ]
        )
        #expect(values(call(&control, Self.transport, "GetPositionInfo")).first == "Track=0")
        #expect(values(call(&control, Self.transport, "GetCurrentTransportActions")) == ["Actions=PLAY"])
        // A seek while stopped leaves the position; Play makes the track current.
        let seek = [("InstanceID", "0"), ("Unit", "REL_TIME"), ("Target", "0:01:00")]
        #expect(values(call(&control, Self.transport, "Seek", seek)).isEmpty)
        #expect(values(call(&control, Self.transport, "GetPositionInfo"))[4] == "RelTime=0:00:00")
        #expect(values(call(&control, Self.transport, "Play", [("InstanceID", "0"), ("Speed", "1")])).isEmpty)
        #expect(values(call(&control, Self.transport, "GetCurrentTransportActions")) == ["Actions=PAUSE,STOP,SEEK"])
        #expect(
            values(call(&control, Self.transport, "GetPositionInfo")).prefix(4) == [
                "Track=1", "TrackDuration=0:00:00", "TrackMetaData=", "TrackURI=http://192.168.77.2:5002/track.mp3",
            ]
        )
        call(&control, Self.transport, "Seek", seek)
        #expect(values(call(&control, Self.transport, "GetPositionInfo"))[4] == "RelTime=0:01:00")
        call(&control, Self.transport, "Pause")
        #expect(
            values(call(&control, Self.transport, "GetTransportInfo")).first == "CurrentTransportState=PAUSED_PLAYBACK"
        )
        #expect(values(call(&control, Self.transport, "GetCurrentTransportActions")) == ["Actions=PLAY,STOP,SEEK"])
        call(&control, Self.transport, "Stop")
        #expect(values(call(&control, Self.transport, "GetCurrentTransportActions")) == ["Actions=PLAY,SEEK"])
    }

    @Test func volumeSetsItsDecibelsAndMute() {
        var control = renderer()
        let master = [("InstanceID", "0"), ("Channel", "Master")]
        call(&control, Self.rendering, "SetVolume", master + [("DesiredVolume", "30")])
        // -60 dB + 40 dB × 30/50 = -36 dB, in 1/256 dB.
        #expect(values(call(&control, Self.rendering, "GetVolumeDB", master)) == ["CurrentVolumeDB=-9216"])
        #expect(values(call(&control, Self.rendering, "GetMute", master)) == ["CurrentMute=0"])
        call(&control, Self.rendering, "SetVolume", master + [("DesiredVolume", "0")])
        #expect(values(call(&control, Self.rendering, "GetMute", master)) == ["CurrentMute=1"])
        call(&control, Self.rendering, "SetMute", master + [("DesiredMute", "0")])
        #expect(values(call(&control, Self.rendering, "GetMute", master)) == ["CurrentMute=0"])
    }

    /// The initial event's LastChange as gmediarender sent it after SetAVTransportURI: every variable of the
    /// table but the A_ARG_TYPE ones, in the SCPD's order, a line each.
    @Test func lastChangeIsWrittenAsGMRenderWritesIt() {
        var control = renderer()
        let uri = [
            ("InstanceID", "0"), ("CurrentURI", "http://192.168.77.2:5002/track.mp3"), ("CurrentURIMetaData", ""),
        ]
        call(&control, Self.transport, "SetAVTransportURI", uri)
        let properties = control.eventProperties(service: Self.transport)
        #expect(properties.map(\.name) == ["LastChange"])
        let lines = properties[0].value.split(separator: "\r\n", omittingEmptySubsequences: false)
        #expect(
            lines.prefix(3) == [
                #"<?xml version="1.0"?>"#, #"<Event xmlns="urn:schemas-upnp-org:metadata-1-0/AVT/">"#,
                #"<InstanceID val="0">"#,
            ]
        )
        #expect(lines[3] == #"<TransportStatus val="OK"></TransportStatus>"#)
        #expect(lines.contains(#"<PossiblePlaybackStorageMedia val="NETWORK,UNKNOWN"></PossiblePlaybackStorageMedia>"#))
        #expect(lines.contains(#"<AVTransportURI val="http://192.168.77.2:5002/track.mp3"></AVTransportURI>"#))
        #expect(
            lines.suffix(4) == [
                #"<PossibleRecordQualityModes val="NOT_IMPLEMENTED"></PossibleRecordQualityModes>"#, "</InstanceID>",
                "</Event>", "",
            ]
        )
        #expect(lines.count == 3 + 26 + 3)
        let volume = control.eventProperties(service: Self.rendering)[0].value
        #expect(volume.contains(#"<Volume val="100" channel="Master"></Volume>"#))
    }

    @Test func libupnpsEnvelopesAndEventsByteForByte() {
        let type = "urn:schemas-upnp-org:service:AVTransport:1"
        let envelope =
            #"<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/" s:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/">"#
        #expect(
            SOAPEnvelope.response(serviceType: type, actionName: "Seek", arguments: [], stack: .gmrender)
                == envelope + "<s:Body>\n" + #"<u:SeekResponse xmlns:u="\#(type)"></u:SeekResponse>"#
                + "\r\n</s:Body> </s:Envelope>"
        )
        #expect(
            SOAPEnvelope.response(
                serviceType: type,
                actionName: "GetCurrentTransportActions",
                arguments: [SOAPArgument("Actions", "PLAY")],
                stack: .gmrender
            )
                == envelope + "<s:Body>\n" + #"<u:GetCurrentTransportActionsResponse xmlns:u="\#(type)">"#
                + "\r\n<Actions>PLAY</Actions>\r\n</u:GetCurrentTransportActionsResponse>\r\n</s:Body> </s:Envelope>"
        )
        #expect(
            SOAPEnvelope.fault(UPnPError(code: 501, description: "Action Failed"), stack: .gmrender)
                == envelope
                + "\n<s:Body>\n<s:Fault>\n<faultcode>s:Client</faultcode>\n<faultstring>UPnPError</faultstring>\n"
                + "<detail>\n<UPnPError xmlns=\"urn:schemas-upnp-org:control-1-0\">\n<errorCode>501</errorCode>\n"
                + "<errorDescription>Action Failed</errorDescription>\n</UPnPError>\n</detail>\n</s:Fault>\n</s:Body>\n"
                + "</s:Envelope>\n"
        )
        let body = GENAEvent.propertySet([SOAPArgument("LastChange", "<a/>")], stack: .gmrender)
        #expect(
            body == #"<e:propertyset xmlns:e="urn:schemas-upnp-org:event-1-0">"#
                + "\n<e:property>\n<LastChange>&lt;a/&gt;</LastChange>\n</e:property>\n</e:propertyset>\n\n\r\n"
        )
        let event = GENAEvent(
            sid: "uuid:s",
            callback: "http://192.168.77.2:5001/event",
            sequence: 0,
            body: body,
            stack: .gmrender
        )
        #expect(
            event.headers(host: "192.168.77.2:5001").map(\.name)
                == ["HOST", "CONTENT-TYPE", "CONTENT-LENGTH", "NT", "NTS", "SID", "SEQ"]
        )
    }

    /// gena_device.c's reading of a SUBSCRIBE: a CALLBACK without NT is 400; no TIMEOUT is 1801 s.
    @Test func libupnpReadsASubscribeItsOwnWay() {
        let callback = "<http://192.168.77.2:5001/event>"
        #expect(
            GENARequest.read(method: "SUBSCRIBE", headers: ["callback": callback], rules: .libupnp)
                == .failure(.incompatibleHeaders)
        )
        guard
            case .success(.subscribe(_, let timeout)) = GENARequest.read(
                method: "SUBSCRIBE",
                headers: ["callback": callback, "nt": "upnp:event"],
                rules: .libupnp
            )
        else {
            Issue.record("a subscription")
            return
        }
        #expect(timeout == 1801)
        #expect(
            GENARequest.read(method: "SUBSCRIBE", headers: ["sid": "uuid:s"], rules: .libupnp)
                == .success(.renew(sid: "uuid:s", timeout: 1801))
        )
        #expect(
            GENARequest.read(method: "SUBSCRIBE", headers: ["sid": "uuid:s", "timeout": "Second-300"], rules: .libupnp)
                == .success(.renew(sid: "uuid:s", timeout: 300))
        )
    }
}
