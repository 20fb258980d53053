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

import NIOConcurrencyHelpers
import SSDPCore
import SSDPDeviceCore
import SSDPDevices

/// The SOAP control URLs and GENA event URLs of one device: reads the HTTP request, lets the device's pure
/// machines (`DeviceControl`, `EventSubscriptions`) decide, and says what to answer and which event
/// messages to deliver. Thread-safe: requests arrive on several event loops.
final class DeviceControlServer: Sendable {
    let udn: String
    private let state: NIOLockedValueBox<State>
    private let clock = ContinuousClock()
    private let startedAt: ContinuousClock.Instant
    private let seed: UInt64
    /// How the device reads a SUBSCRIBE (`DeviceWeb.genaRules`).
    private let genaRules: GENARules
    /// The action calls a recorded device answers as recorded (`HTTPRecording.calls`).
    private let recording: HTTPRecording?

    private struct State {
        var control: DeviceControl
        var subscriptions: EventSubscriptions
        var faults: HTTPFaultMachine
        /// The HTTP faults the machine runs; documents are served without it when there are none.
        var faultList: HTTPFaults
        /// How the device sends its events (`DeviceWeb.eventDelivery`).
        var eventDelivery = GENAEventDelivery.uda
        /// Whether the device is still in the state it was recorded in, so that a recorded call is answered
        /// as recorded: until a call that changes it succeeds, or its state is set.
        var asRecorded = true
        /// Which of the recorded answers to a request recorded several times is played next.
        var playhead = HTTPRecording.Playhead()
        var hasFaults: Bool { !faultList.isEmpty }
    }

    /// `prefix` is what the device's paths start with on a shared server (`/device/3`), empty otherwise.
    init(device: SimulatedDevice, prefix: String, seed: UInt64) {
        udn = device.device.udn
        startedAt = clock.now
        self.seed = seed
        genaRules = device.web.genaRules
        recording = device.web.recording
        let services = device.controlledServices(prefix: prefix)
        var environment = ControlEnvironment()
        environment.udn = device.device.udn
        environment.friendlyName = device.device.friendlyName
        if let household = device.sonosHousehold { environment.sonosHouseholdID = household }
        if let library = device.web.mediaLibrary { environment.mediaLibrary = library }
        var control = DeviceControl(
            services: services,
            environment: environment,
            responses: device.web.actionResponses,
            stack: device.web.controlStack,
            registry: .builtIn,
            startedAt: .zero
        )
        if let route = Self.defaultConnectionService(of: device) {
            _ = control.set("DefaultConnectionService", to: route)
        }
        if let recording = device.web.recording { control.takeState(from: recording.calls) }
        var subscriptions = EventSubscriptions(
            random: SSDPRandom.derived(seed: seed, stream: 0x6E41),
            callbackPolicy: device.web.callbackPolicy
        )
        subscriptions.stack = device.web.controlStack
        state = NIOLockedValueBox(
            State(
                control: control,
                subscriptions: subscriptions,
                faults: HTTPFaultMachine(
                    faults: device.web.httpFaults,
                    random: SSDPRandom.derived(seed: seed, stream: 0xFA17)
                ),
                faultList: device.web.httpFaults,
                eventDelivery: device.web.eventDelivery
            )
        )
    }

    /// A router's default route as Layer3Forwarding names it (upnpsoap.c's GetDefaultConnectionService):
    /// the WANConnectionDevice's UDN and type as SSDP advertises it, then the WANIPConnection's serviceId.
    private static func defaultConnectionService(of device: SimulatedDevice) -> String? {
        let isWANIP = { (service: SSDPDeviceService) in service.serviceType.contains(":WANIPConnection:") }
        guard let connection = device.device.allDevices.first(where: { $0.services.contains(where: isWANIP) }),
            let service = connection.services.first(where: isWANIP)
        else { return nil }
        let type = (device.advertisedTypes[connection.deviceType] ?? connection.deviceType).split(separator: ":")
        return "\(connection.udn):\(type.suffix(2).joined(separator: ":")),\(service.serviceID)"
    }

    /// The device's configuration changed while it runs (`PATCH /devices/{id}`): new HTTP faults start over
    /// from its seed (on connections already open too, from their next request; faults left as they were
    /// keep their counts), the user's action answers are replaced, and answers that name the device use its
    /// new name.
    func reconfigure(_ device: SimulatedDevice) {
        state.withLockedValue { state in
            state.control.responses = device.web.actionResponses
            state.control.environment.friendlyName = device.device.friendlyName
            guard device.web.httpFaults != state.faultList else { return }
            state.faults = HTTPFaultMachine(
                faults: device.web.httpFaults,
                random: SSDPRandom.derived(seed: seed, stream: 0xFA17)
            )
            state.faultList = device.web.httpFaults
        }
    }

    /// Sets state variables as the device itself would, all or none, and returns the event messages its
    /// subscribers are due (each late or lost as the HTTP faults draw it, the lost ones among the records),
    /// or the first variable refused and why.
    func set(_ values: [(name: String, value: String)]) -> Result<DeviceHTTPResponse, DeviceControls.StateError> {
        let now = self.now
        return state.withLockedValue { state in
            var control = state.control
            var changed: [Int: [String]] = [:]
            for (name, value) in values {
                switch control.set(name, to: value) {
                case .success(let changes):
                    for (index, names) in changes { changed[index, default: []] += names }
                case .failure(let error):
                    return .failure(DeviceControls.StateError(field: name, reason: error.reason))
                }
            }
            state.control = control
            if !changed.isEmpty { state.asRecorded = false }
            var response = DeviceHTTPResponse(status: 200)
            for (index, names) in changed.sorted(by: { $0.key < $1.key }) {
                let properties = state.control.eventProperties(service: index, changed: names)
                Self.deliver(
                    state.subscriptions.events(service: index, properties: properties, at: now),
                    serviceType: state.control.services[index].serviceType,
                    udn: udn,
                    state: &state,
                    to: &response
                )
            }
            return .success(response)
        }
    }

    /// What the device knows of its surroundings (the Sonos household, the media server's own URL), set
    /// once every device has its LOCATION.
    func updateEnvironment(_ change: @Sendable (inout ControlEnvironment) -> Void) {
        state.withLockedValue { change(&$0.control.environment) }
    }

    /// The device rebooted (a new BOOTID): its subscriptions are gone, so renewals get 412.
    func reboot() {
        state.withLockedValue { $0.subscriptions.forgetAll() }
    }

    private var now: SSDPInstant {
        SSDPInstant(offset: clock.now - startedAt)
    }

    /// `document` (the description or an SCPD) as the device's HTTP faults serve it: at once and whole, or
    /// 503, late, never, or damaged.
    func serve(
        _ kind: HTTPFaultMachine.Document,
        _ document: String,
        for request: DeviceHTTPRequest,
        headers: [SSDPHeaderField] = []
    ) -> DeviceHTTPResponse {
        let decision = state.withLockedValue { state in
            state.hasFaults && (request.method == "GET" || request.method == "HEAD") ? state.faults.fetch(kind) : nil
        }
        guard let decision else { return .document(document, for: request, headers: headers) }
        var response: DeviceHTTPResponse =
            decision.unavailable
            ? .status(503, headers: [SSDPHeaderField(name: "Retry-After", value: "1")])
            : .document(
                decision.damage.map { HTTPFaultMachine.damage(document, $0) } ?? document,
                for: request,
                headers: headers
            )
        response.delay = decision.delay
        response.hangs = decision.hangs
        return response
    }

    /// Whether the device is still in the state it was recorded in (`HTTPRecording`): what a recorded
    /// device's recorded calls and reads of its state are played while.
    var isAsRecorded: Bool { state.withLockedValue { $0.asRecorded } }

    /// The recorded response to `request` (`HTTPRecording.response`), as the device is now: a read of its
    /// state only while it is as recorded and not before a recorded change played, and of a request recorded
    /// several times, the next answer.
    func recordedResponse(to request: DeviceHTTPRequest) -> HTTPRecording.Played? {
        guard let recording else { return nil }
        return state.withLockedValue { state in
            recording.response(
                method: request.method,
                target: request.target,
                origin: request.origin,
                secondsSince1970: HTTPDate.secondsNow,
                asRecorded: state.asRecorded,
                body: request.body,
                playhead: &state.playhead
            )
        }
    }

    /// The device has changed by a way other than its actions (a Roku's key pressed, a DIAL app launched,
    /// its live state set): its recorded calls and reads no longer say its state.
    func leaveRecordedState() {
        state.withLockedValue { $0.asRecorded = false }
    }

    /// The answer for a control or event URL, or `nil` when `request` is for another path. With
    /// `checksHost`, a control request whose Host names another address than the one it reached
    /// (`DeviceHTTPRequest.hostNamesOrigin`) gets 412 and an event request 400, as GUPnP 1.6 answers them.
    func respond(to request: DeviceHTTPRequest, checksHost: Bool) -> DeviceHTTPResponse? {
        let now = self.now
        return state.withLockedValue { state in
            if let index = state.control.service(atControlPath: request.path) {
                guard request.method == "POST" else { return .methodNotAllowed(allow: "POST") }
                guard !checksHost || request.hostNamesOrigin else { return .status(412) }
                return Self.control(request, service: index, state: &state, udn: udn, recording: recording, at: now)
            }
            if let index = state.control.service(atEventPath: request.path) {
                guard !checksHost || request.hostNamesOrigin else { return .status(400) }
                return Self.eventing(
                    request,
                    service: index,
                    state: &state,
                    udn: udn,
                    rules: genaRules,
                    recording: recording,
                    at: now
                )
            }
            return nil
        }
    }

    private static func control(
        _ request: DeviceHTTPRequest,
        service index: Int,
        state: inout State,
        udn: String,
        recording: HTTPRecording?,
        at now: SSDPInstant
    ) -> DeviceHTTPResponse {
        let call: SOAPActionCall
        switch SOAPActionCall.read(soapAction: request.headers["soapaction"], body: request.body) {
        case .success(let read): call = read
        case .failure: return .status(400)
        }
        let serviceType = state.control.services[index].serviceType
        // The user's answer for an action (`actions`) comes before the recording's, as before any behaviour.
        if state.asRecorded,
            !state.control.responses.contains(where: { $0.matches(call, serviceType: serviceType) }),
            let (played, outcome) = recording?.answer(
                to: call,
                target: request.target,
                origin: request.origin,
                secondsSince1970: HTTPDate.secondsNow,
                playhead: &state.playhead
            )
        {
            var response = DeviceHTTPResponse.recorded(played)
            response.records.append(
                .actionCalled(
                    ActionRecord(udn: udn, serviceType: serviceType, call: call, outcome: outcome, recorded: true)
                )
            )
            // A recorded change (a client's, through the recording proxy) changes the family's model too, and
            // its subscribers hear of it: what answers once the recording has no more to say.
            if !HTTPRecording.Call.isReadOnly(call.actionName), case .success = outcome {
                let result = state.control.call(call, service: index, client: request.client, at: now)
                deliver(result, service: index, udn: udn, state: &state, to: &response, at: now)
            }
            return response
        }
        let result = state.control.call(call, service: index, client: request.client, at: now)
        if case .success = result.outcome, !HTTPRecording.Call.isReadOnly(call.actionName) {
            state.asRecorded = false
        }
        var response: DeviceHTTPResponse
        switch result.outcome {
        case .success(let arguments):
            response = .xml(
                SOAPEnvelope.response(
                    serviceType: call.serviceType,
                    actionName: call.actionName,
                    arguments: arguments,
                    stack: state.control.stack
                )
            )
        case .failure(let error):
            response = .xml(SOAPEnvelope.fault(error, stack: state.control.stack), status: 500)
        }
        response.headers.append(SSDPHeaderField(name: "EXT", value: ""))
        response.records.append(
            .actionCalled(ActionRecord(udn: udn, serviceType: serviceType, call: call, outcome: result.outcome))
        )
        deliver(result, service: index, udn: udn, state: &state, to: &response, at: now)
        return response
    }

    /// Hands the events of what a call changed on service `index` to its subscribers, by `response`.
    private static func deliver(
        _ result: ActionResult,
        service index: Int,
        udn: String,
        state: inout State,
        to response: inout DeviceHTTPResponse,
        at now: SSDPInstant
    ) {
        let properties = state.control.eventProperties(service: index, changed: result.changedVariables)
        deliver(
            state.subscriptions.events(service: index, properties: properties, at: now),
            serviceType: state.control.services[index].serviceType,
            udn: udn,
            state: &state,
            to: &response
        )
    }

    /// Hands `events` to the response for delivery, each late or lost as the device's faults draw it (a
    /// lost one is reported at once, as never sent).
    private static func deliver(
        _ events: [GENAEvent],
        serviceType: String,
        udn: String,
        state: inout State,
        to response: inout DeviceHTTPResponse
    ) {
        for event in events {
            var delivery = EventDelivery(udn: udn, serviceType: serviceType, event: event)
            if state.eventDelivery == .miniDLNA130 {
                // The initial event's connection is opened and left silent; nothing follows it.
                guard event.sequence == 0 else { continue }
                delivery.silent = true
                response.events.append(delivery)
                continue
            }
            if let delay = state.faults.event() {
                delivery.delay = delay == .zero ? nil : delay
                response.events.append(delivery)
            } else {
                delivery.lost = true
                response.records.append(.eventSent(delivery))
            }
        }
    }

    private static func eventing(
        _ request: DeviceHTTPRequest,
        service index: Int,
        state: inout State,
        udn: String,
        rules: GENARules,
        recording: HTTPRecording?,
        at now: SSDPInstant
    ) -> DeviceHTTPResponse {
        let serviceType = state.control.services[index].serviceType
        let outcome: EventSubscriptions.Outcome
        switch GENARequest.read(method: request.method, headers: request.headers, rules: rules) {
        case .success(let genaRequest):
            outcome = state.subscriptions.handle(
                genaRequest,
                service: index,
                from: request.client,
                device: try? GENACallback.read(request.origin).get(),
                at: now
            )
        case .failure(let refusal): outcome = .refused(refusal)
        }
        var response: DeviceHTTPResponse
        var record = SubscriptionRecord(
            udn: udn,
            serviceType: serviceType,
            kind: .refused,
            sid: request.headers["sid"] ?? "",
            timeout: nil,
            status: 200,
            subscriber: request.client
        )
        switch outcome {
        case .subscribed(let subscription), .renewed(let subscription):
            response = DeviceHTTPResponse(
                status: 200,
                headers: [
                    SSDPHeaderField(name: "SID", value: subscription.sid),
                    SSDPHeaderField(name: "TIMEOUT", value: "Second-\(subscription.timeout)"),
                ]
            )
            record.sid = subscription.sid
            record.timeout = subscription.timeout
            if case .subscribed = outcome {
                record.kind = .subscribe
                // What the device sent a new subscriber, while it is as recorded; else the family's state.
                let recorded =
                    state.asRecorded && !state.playhead.hasPlayedAChange
                    ? recording?.initialEvents[request.target] : nil
                let properties = recorded ?? state.control.eventProperties(service: index)
                let initial = state.subscriptions.events(
                    service: index,
                    properties: properties,
                    only: subscription.sid,
                    at: now
                )
                deliver(initial, serviceType: serviceType, udn: udn, state: &state, to: &response)
            } else {
                record.kind = .renew
            }
        case .unsubscribed:
            response = DeviceHTTPResponse(status: 200)
            record.kind = .unsubscribe
        case .refused(let refusal):
            response =
                refusal == .methodNotAllowed
                ? .methodNotAllowed(allow: "SUBSCRIBE, UNSUBSCRIBE") : .status(refusal.status)
            response.refusesEventing = true
            record.status = response.status
            record.reason = refusal.reason
        }
        response.records.append(.subscription(record))
        return response
    }
}

/// One SOAP action a client called, for the event stream and the checks: the call as sent and what the
/// device answered.
public struct ActionRecord: Hashable, Sendable {
    /// The UDN of the root device called.
    public var udn: String
    /// The service's type, from the device's description.
    public var serviceType: String
    /// The call as the client sent it: service type, action name and in-arguments.
    public var call: SOAPActionCall
    /// The out-arguments the device answered, or the UPnP error of its fault.
    public var outcome: Result<[SOAPArgument], UPnPError>
    /// Whether the answer was a recorded device's, as recorded (`HTTPRecording.calls`).
    public var recorded = false
}

/// One SUBSCRIBE, renewal or UNSUBSCRIBE, or a refusal of one.
public struct SubscriptionRecord: Hashable, Sendable {
    /// What the request was: a new subscription, a renewal, an unsubscription, or any of them refused.
    public enum Kind: String, Hashable, Sendable {
        case subscribe, renew, unsubscribe, refused
    }

    /// The UDN of the root device asked.
    public var udn: String
    /// The service's type, from the device's description.
    public var serviceType: String
    /// What the request was, or `refused`.
    public var kind: Kind
    /// The subscription's SID: the one granted, else the one the request named (empty when it named none).
    public var sid: String
    /// The seconds granted.
    public var timeout: Int?
    /// The HTTP status answered.
    public var status: Int
    /// The address the request came from.
    public var subscriber: String = ""
    /// Why the request was refused (`GENARefusal.reason`); `nil` when it was not.
    public var reason: String?
}

/// An event message to deliver to a subscriber, and, once tried, how its NOTIFY went.
public struct EventDelivery: Hashable, Sendable {
    /// The UDN of the root device that sends the event.
    public var udn: String
    /// The type of the service the event is about.
    public var serviceType: String
    /// The message: the subscriber's callback and SID, the sequence number and the property set.
    public var event: GENAEvent
    /// The subscriber's HTTP status, or `nil` when it could not be reached or the message was lost.
    public var status: Int?
    /// How long the message waited before it was sent (an HTTP-side fault).
    public var delay: Duration?
    /// Never sent (an HTTP-side fault).
    public var lost = false
    /// The connection is opened and nothing is written to it (`GENAEventDelivery.miniDLNA130`).
    public var silent = false
}

extension SimulatedDevice {
    /// The Sonos household the device advertises (`X-RINCON-HOUSEHOLD`), if any.
    var sonosHousehold: String? {
        (extraHeaders + (responseHeaders ?? [])).first { $0.name.uppercased() == "X-RINCON-HOUSEHOLD" }?.value
    }
}
