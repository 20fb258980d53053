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

import Testing

@testable import SSDPCheck

/// `record --call 'SERVICE#ACTION NAME=VALUE ...'` as a user writes it.
@Suite struct NamedCallTests {
    @Test func aCallIsReadWithItsArgumentsAndValuesMayHoldSpaces() throws {
        let call = try NamedCall.parse(
            "AVTransport#SetAVTransportURI InstanceID=0 CurrentURI=http://h/a  b.mp3 CurrentURIMetaData="
        )
        .get()
        #expect(call.service == "AVTransport" && call.action == "SetAVTransportURI")
        let arguments = try call.arguments(named: nil).get()
        #expect(arguments.map(\.name) == ["InstanceID", "CurrentURI", "CurrentURIMetaData"])
        #expect(arguments.map(\.value) == ["0", "http://h/a  b.mp3", ""], "spacing as written")
        #expect(try NamedCall.parse("  RenderingControl#GetVolume  ").get().arguments(named: nil).get().isEmpty)
    }

    /// With the action's in-arguments known (its SCPD), only their names start an argument: DIDL-Lite's
    /// attributes stay in the metadata.
    @Test func theActionsArgumentsSayWhereEachStarts() throws {
        let didl =
            #"<DIDL-Lite><item id="1" parentID="0" restricted="1"><dc:title>A Song</dc:title></item></DIDL-Lite>"#
        let call = try NamedCall.parse(
            "AVTransport#SetAVTransportURI InstanceID=0 CurrentURI=http://h/a.mp3 CurrentURIMetaData=\(didl)"
        ).get()
        let names: Set<String> = ["InstanceID", "CurrentURI", "CurrentURIMetaData"]
        let arguments = try call.arguments(named: names).get()
        #expect(arguments.map(\.name) == ["InstanceID", "CurrentURI", "CurrentURIMetaData"])
        #expect(arguments.last?.value == didl)
        guard
            case .failure(let error) = try NamedCall.parse("AVTransport#Play Sped=1").get().arguments(named: [
                "InstanceID", "Speed",
            ])
        else {
            Issue.record("an argument the action does not have was taken")
            return
        }
        #expect(error.reason == #""Sped=1" is not NAME=VALUE for an argument of Play (InstanceID, Speed)"#)
        // Not first either: a name the action does not have is a mistake, not part of the value before it.
        let late = try NamedCall.parse("RenderingControl#SetVolume InstanceID=0 Channel=Master Volume=20").get()
        guard case .failure(let lateError) = late.arguments(named: ["InstanceID", "Channel", "DesiredVolume"]) else {
            Issue.record("Volume=20 was taken into Channel")
            return
        }
        #expect(lateError.reason.hasPrefix(#""Volume=20" is not NAME=VALUE for an argument of SetVolume"#))
        guard case .failure(let twice) = NamedCall.parse("AVTransport#Play InstanceID=0 Speed=1 Speed=2") else {
            Issue.record("an argument given twice was taken")
            return
        }
        #expect(twice.reason == #""AVTransport#Play InstanceID=0 Speed=1 Speed=2": Speed is given twice"#)
    }

    @Test(arguments: [
        "SetVolume DesiredVolume=4", "#Play", "AVTransport#", "AVTransport#Play Speed", "AVTransport#Play =1",
    ])
    func whatIsNoCallSaysTheForm(text: String) {
        guard case .failure(let error) = NamedCall.parse(text) else {
            Issue.record("\(text) read as a call")
            return
        }
        #expect(error.reason.hasPrefix("\"\(text)\": "), "\(error.reason)")
    }

    @Test func aServiceIsNamedByItsTypeItsNameOrItsServiceId() throws {
        let type = "urn:schemas-upnp-org:service:AVTransport:1"
        let named = { (service: String) in
            NamedCall(service: service, action: "Play", written: "").names(
                type: type,
                serviceId: "urn:upnp-org:serviceId:AVT"
            )
        }
        #expect(named("AVTransport") && named("avtransport") && named(type) && named("AVT"))
        #expect(!named("RenderingControl") && !named("Transport"))
    }
}
