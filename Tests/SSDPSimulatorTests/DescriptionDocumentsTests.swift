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
import Testing

@testable import SSDPDevices
@testable import SSDPSimulator

/// The HTTP server's paths: made on request, and nothing but the paths the descriptions name.
@Suite struct DescriptionDocumentsTests {
    let documents = DescriptionDocuments(
        devices: (1...3).map { SimulatorProfile.generic.device(number: $0, seed: 9) }  // 3 services each
    )

    @Test func servesEachDevicesDescriptionAndServices() throws {
        for index in 0..<3 {
            let description = documents.respond(
                to: .init(method: "GET", target: "/device/\(index)/description.xml", origin: "")
            )
            #expect(description.status == 200)
            #expect(description.headers.first { $0.name == "Content-Type" }?.value == "text/xml; charset=\"utf-8\"")
            let udn = documents.controls.device(index).device.udn
            #expect(description.body.contains("<UDN>\(udn)</UDN>"))
            #expect(description.body.contains("/device/\(index)/service/2/scpd.xml"))
            // A generic MediaRenderer's services in description order, each with its template's SCPD.
            let descriptions: [SSDPServiceDescription] = [.renderingControl1, .connectionManager1, .avTransport1]
            for (service, expected) in descriptions.enumerated() {
                #expect(documents.document(at: "/device/\(index)/service/\(service)/scpd.xml") == expected.xml)
            }
            let post = documents.respond(
                to: .init(method: "POST", target: "/device/\(index)/description.xml", origin: "")
            )
            #expect(post.status == 405)
        }
    }

    @Test(
        arguments: [
            "/", "", "/device", "/device/", "/device/3/description.xml", "/device/-1/description.xml",
            "/device/01/description.xml", "/device/+1/description.xml", "/device/0/description.xml/",
            "/device/0/service/3/scpd.xml", "/device/0/service/00/scpd.xml", "/device/0/service/0/scpd.xml/x",
            "/device/0/../0/description.xml", "//device/0/description.xml", "/device/0/description.XML",
            "/etc/passwd", "/device/99999999999999999999/description.xml",
        ]
    )
    func refusesEveryOtherPath(path: String) {
        #expect(documents.document(at: path) == nil, "\(path)")
        #expect(documents.respond(to: .init(method: "GET", target: path, origin: "")).status == 404, "\(path)")
    }
}
