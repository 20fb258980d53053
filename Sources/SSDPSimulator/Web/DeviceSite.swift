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
import SSDPDevices

/// The HTTP side of one device with a server of its own, as the real device lays it out: the description
/// at its path (and where an API serves it too, with the API's headers: DIAL's `Application-URL`), a service
/// description at each SCPDURL, and the device's APIs. Every path is fixed when the device starts; nothing a
/// request says reaches the file system.
/// The device is looked up per request, so a change (`PATCH /devices/{id}`) or a reset reaches connections
/// already open.
struct DeviceSite: HTTPSite {
    let controls: DeviceControls
    /// The device's index among the simulator's.
    let index: Int

    init(controls: DeviceControls, index: Int) {
        self.controls = controls
        self.index = index
    }

    /// The site of `device` alone (tests).
    init(device: SimulatedDevice) {
        self.init(controls: DeviceControls(devices: [device], seed: 0), index: 0)
    }

    func respond(to request: DeviceHTTPRequest) -> DeviceHTTPResponse {
        // While the device is gone, every request is dropped unanswered.
        guard controls.isPresent(index) else { return .dropped }
        let device = controls.device(index)
        let recording = device.web.recording
        // A stand-in (`serve --record-from`) asks the real device, and plays its answer as its own.
        if let recording, let forwarding = controls.forwarding, forwarding.devices.contains(index) {
            return .forwarded {
                let now = HTTPDate.secondsNow
                guard let answer = await forwarding.send(request) else {
                    // The device gave no answer: a document the recording holds is still the device's.
                    return recording.response(
                        method: request.method,
                        target: request.target,
                        origin: request.origin,
                        secondsSince1970: now,
                        asRecorded: false
                    )
                }
                return recording.played(answer, origin: request.origin, secondsSince1970: now)
            }
        }
        if let recorded = controls.server(index, prefix: "").recordedResponse(to: request) {
            // A recorded change (a key pressed through the recording proxy) is the family's too, so that it
            // answers from there once the recording has no more to say.
            var response = DeviceHTTPResponse.recorded(recorded)
            if Self.changesTheDevice(request, status: recorded.status) {
                response.actions = vendorAnswer(request)?.actions ?? []
            }
            return response
        }
        let pages = device.web.errorPages
        var answer: DeviceHTTPResponse
        if let pages, !pages.methods.contains(request.method) {
            answer = .status(501)
        } else {
            answer = self.answer(request, device: device)
        }
        if pages?.pagesUnsubscribe == true, request.method == "UNSUBSCRIBE", answer.status == 200 {
            answer.isStatusPage = true
        }
        // The family's own status, before a profile's error pages substitute another (libupnp's 500 for a
        // 404): what a recording's answers are looked up by.
        let familyStatus = answer.status
        answer = answer.withPage(from: pages)
        // What the family has no answer for either (not a recorded call's answer, which is the recording's
        // already): a recorded read of the device's state, changed device or not (a DIAL app on a device of no
        // family: still the best answer there is), else what the recorded device said to such a request.
        if answer.raw == nil, let recording {
            let now = HTTPDate.secondsNow
            let read =
                familyStatus == 404
                ? recording.response(
                    method: request.method,
                    target: request.target,
                    origin: request.origin,
                    secondsSince1970: now
                ) : nil
            if let recorded = read
                ?? recording.fallback(
                    method: request.method,
                    status: familyStatus,
                    origin: request.origin,
                    secondsSince1970: now
                )
            {
                return .recorded(recorded)
            }
        }
        let kind: HTTPAnswerKind =
            if pages != nil && answer.isStatusPage {
                .statusPage
            } else if request.method == "POST" {
                .control
            } else if request.method == "SUBSCRIBE" {
                .subscription
            } else {
                .document
            }
        let template =
            device.web.files[request.path]?.httpHeaders ?? device.web.httpHeadersByKind[kind] ?? device.web.httpHeaders
        return answer.laidOut(by: template, server: device.server)
    }

    private func answer(_ request: DeviceHTTPRequest, device: SimulatedDevice) -> DeviceHTTPResponse {
        let control = controls.server(index, prefix: "")
        let path = request.path
        // Every API that serves the description at this path adds its headers (DIAL's Application-URL).
        let apiHeaders = device.web.apis.compactMap { $0.descriptionHeaders(at: path, origin: request.origin) }
        if path == device.web.descriptionPath || !apiHeaders.isEmpty {
            let headers = apiHeaders.flatMap { $0 }
            let description = device.rootDevice(baseURL: "", defaultBootID: 0)
                .descriptionXML(basePath: "", origin: request.origin)
            return control.serve(.description, description, for: request, headers: headers)
        }
        if let serviceType = device.serviceDescriptions(prefix: "").first(where: { $0.0 == path })?.1 {
            var answer = control.serve(
                .serviceDescription,
                device.web.serviceDescription(for: serviceType).xml,
                for: request
            )
            if answer.status == 200, let type = answer.headers.firstIndex(where: { $0.name == "Content-Type" }) {
                answer.headers[type].value = device.web.serviceDescriptionContentType
            }
            return answer
        }
        if let file = device.web.files[path] {
            guard request.method == "GET" || request.method == "HEAD" else {
                return .methodNotAllowed(allow: "GET, HEAD")
            }
            var answer = DeviceHTTPResponse(
                status: 200,
                headers: [SSDPHeaderField(name: "Content-Type", value: file.contentType)]
            )
            answer.bytes = file.bytes
            return answer
        }
        if let answer = control.respond(to: request, checksHost: controls.checksHost) { return answer }
        guard let answer = vendorAnswer(request) else { return .status(404) }
        // A vendor's REST side taking what is not a read (a key pressed, an app launched) changes the device.
        if Self.changesTheDevice(request, status: answer.status) {
            control.leaveRecordedState()
        }
        return answer
    }

    /// Whether `request`, answered `status`, changed the device: a request that is not a read, and succeeded.
    private static func changesTheDevice(_ request: DeviceHTTPRequest, status: Int) -> Bool {
        !HTTPRecording.isRead(request.method) && (200..<300).contains(status)
    }

    /// The answer of the first of the device's own APIs (a Roku's ECP, a Hue bridge's, DIAL) that has one
    /// for `request`.
    private func vendorAnswer(_ request: DeviceHTTPRequest) -> DeviceHTTPResponse? {
        // A loop, not `lazy.compactMap(…).first`: on a collection that asks the first API twice, and an API
        // answers by acting (a second DELETE of a DIAL app finds it stopped).
        for api in controls.apis(index) {
            if let answer = api.respond(to: request) { return answer }
        }
        return nil
    }
}

/// The documents of a simulator's devices that share its HTTP server, made when they are asked for rather
/// than kept (a description is a kilobyte or two; a simulator may run ten thousand devices):
/// `/device/N/description.xml` and `/device/N/service/K/scpd.xml`, N and K counted from 0.
struct DescriptionDocuments: HTTPSite {
    let controls: DeviceControls

    init(controls: DeviceControls) {
        self.controls = controls
    }

    /// The documents of `devices` alone (tests).
    init(devices: [SimulatedDevice]) {
        self.init(controls: DeviceControls(devices: devices, seed: 0))
    }

    func respond(to request: DeviceHTTPRequest) -> DeviceHTTPResponse {
        // "", "device", N, then "description.xml", or "service", K, and "scpd.xml", "control" or "event"
        let parts = request.path.split(separator: "/", omittingEmptySubsequences: false)
        if parts.count > 2, parts[1] == "device", let index = Self.number(parts[2]), !controls.isPresent(index) {
            return .dropped
        }
        if let document = document(at: request.path) {
            let index = Self.number(parts[2])!
            guard !controls.device(index).web.httpFaults.isEmpty else { return .document(document, for: request) }
            let kind: HTTPFaultMachine.Document = parts.count == 4 ? .description : .serviceDescription
            return controls.server(index, prefix: "/device/\(index)").serve(kind, document, for: request)
        }
        guard parts.count == 6, parts[1] == "device", let index = Self.number(parts[2]), index < controls.count,
            controls.device(index).web.realPort == nil, parts[3] == "service",
            parts[5] == "control" || parts[5] == "event"
        else { return .status(404) }
        return controls.server(index, prefix: "/device/\(index)").respond(to: request, checksHost: controls.checksHost)
            ?? .status(404)
    }

    /// The document at `path`, or `nil` for any other path.
    func document(at path: String) -> String? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        // "", "device", N, then "description.xml" or "service", K, "scpd.xml"
        guard parts.count >= 4, parts[0].isEmpty, parts[1] == "device", let index = Self.number(parts[2]),
            index < controls.count
        else { return nil }
        let device = controls.device(index)
        guard device.web.realPort == nil else { return nil }
        let root = device.rootDevice(baseURL: "", defaultBootID: 0)
        switch parts.count {
        case 4 where parts[3] == "description.xml":
            return root.descriptionXML(basePath: "/device/\(index)")
        case 6 where parts[3] == "service" && parts[5] == "scpd.xml":
            let services = root.device.allDevices.flatMap(\.services)
            guard let service = Self.number(parts[4]), service < services.count else { return nil }
            return device.web.serviceDescription(for: services[service].serviceType).xml
        default:
            return nil
        }
    }

    /// A decimal number written the one way the server writes it: digits only, no sign, no leading zero.
    private static func number(_ text: Substring) -> Int? {
        guard let value = Int(text), value >= 0, String(value) == text else { return nil }
        return value
    }
}
