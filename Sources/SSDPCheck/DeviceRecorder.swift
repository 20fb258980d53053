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

import Foundation
import NIOCore
import SSDPCore
import SSDPDeviceCore
import SSDPNIO

/// What `ssdp-sim record` is asked to do.
package struct DeviceRecordOptions: Sendable {
    /// The UDP port searches go to.
    package var ssdpPort = 1900
    /// Where a search target is searched for.
    package var searchHost = "239.255.255.250"
    /// The MX of the searches the device is recorded answering.
    package var mx = DiscoveryAudit.mx
    /// How long one HTTP exchange may take.
    package var timeout = Duration.seconds(5)
    /// Which of several devices found to record (1 is the first); `nil`: every one.
    package var pick: Int?
    /// How long to listen on the group for the devices' NOTIFY messages, from the start; `nil`: not at all.
    package var listen: Duration?
    /// How long to wait for the device to appear, looking again a second after each try; `nil`: it must be
    /// there at once. With `listen`, what it multicasts as it starts is heard too.
    package var wait: Duration?
    /// Told when every device is recorded and the listening goes on (`listen`), with how much longer it
    /// listens: a device stopped now is heard saying byebye.
    package var stillListening: (@Sendable (Duration) -> Void)?
    /// Action calls the user names (`--call`), made after the read-only ones, in order, whatever they change.
    package var calls: [NamedCall] = []

    /// The defaults: port 1900, the group, MX 1, 5 s.
    package init() {}
}

/// An action call a user asks a recording to make (`record --call 'AVTransport#Play InstanceID=0 Speed=1'`):
/// a service (its type, its short name `AVTransport`, or its serviceId's), an action, and its in-arguments.
package struct NamedCall: Sendable, Hashable {
    /// The service as the user named it.
    package var service: String
    /// The action's name.
    package var action: String
    /// The arguments as written, after the action.
    package var written: String

    /// One in-argument.
    package struct Argument: Sendable, Hashable {
        /// The argument's name (`DesiredVolume`).
        package var name: String
        /// Its value as written (`20`).
        package var value: String
    }

    /// A call read from `text`: `Service#Action Name=Value …`; `nil`, with why, when it is not one.
    package static func parse(_ text: String) -> Result<NamedCall, DeviceRecordError> {
        let trimmed = text.drop { $0 == " " }
        let first = trimmed.prefix { $0 != " " }
        guard let hash = first.firstIndex(of: "#"), hash > first.startIndex, first.index(after: hash) < first.endIndex
        else {
            return .failure(DeviceRecordError("\"\(text)\": a call is SERVICE#ACTION [NAME=VALUE ...]"))
        }
        let call = NamedCall(
            service: String(first[..<hash]),
            action: String(first[first.index(after: hash)...]),
            written: String(trimmed[first.endIndex...].drop { $0 == " " })
        )
        if case .failure(let error) = call.arguments(named: nil) {
            return .failure(DeviceRecordError("\"\(text)\": \(error.reason)"))
        }
        return .success(call)
    }

    /// Its arguments: each starts at a word `NAME=` whose NAME is one of `names` (the action's in-arguments;
    /// any name, when `nil`), and its value runs to the space before the next, as written (so that a value
    /// may hold spaces, and DIDL-Lite's `id="0"` stays in a CurrentURIMetaData).
    package func arguments(named names: Set<String>?) -> Result<[Argument], DeviceRecordError> {
        var starts: [(name: String, value: String.Index)] = []
        var index = written.startIndex
        while index < written.endIndex {
            if index == written.startIndex || written[written.index(before: index)] == " " {
                let name = written[index...].prefix { $0.isLetter || $0.isNumber || $0 == "_" }
                let after = name.endIndex
                if !name.isEmpty, after < written.endIndex, written[after] == "=",
                    names?.contains(String(name)) ?? true
                {
                    starts.append((String(name), written.index(after: after)))
                }
            }
            index = written.index(after: index)
        }
        // A word NAME=VALUE that is none of the action's arguments is a mistake, not part of a value, unless
        // its value is quoted (an attribute: DIDL-Lite's id="1").
        if let names {
            for word in written.split(separator: " ") {
                guard let equals = word.firstIndex(of: "="), equals > word.startIndex,
                    word[..<equals].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }),
                    !names.contains(String(word[..<equals])),
                    !["\"", "'"].contains(word[word.index(after: equals)...].first)
                else { continue }
                return .failure(
                    DeviceRecordError(
                        "\"\(word)\" is not NAME=VALUE for an argument of \(action) (\(names.sorted().joined(separator: ", ")))"
                    )
                )
            }
        }
        if let repeated = Dictionary(grouping: starts.map(\.name), by: { $0 }).first(where: { $0.value.count > 1 })?.key
        {
            return .failure(DeviceRecordError("\(repeated) is given twice"))
        }
        guard written.isEmpty || starts.first.map({ written[..<$0.value].count - $0.name.count - 1 == 0 }) == true
        else {
            let word = written.prefix { $0 != " " }
            return .failure(
                DeviceRecordError(
                    "\"\(word)\" is not NAME=VALUE\(names.map { " for an argument of \(action) (\($0.sorted().joined(separator: ", ")))" } ?? "")"
                )
            )
        }
        var arguments: [Argument] = []
        for (number, start) in starts.enumerated() {
            let end =
                number + 1 < starts.count
                ? written.index(starts[number + 1].value, offsetBy: -(starts[number + 1].name.count + 2))
                : written.endIndex
            arguments.append(Argument(name: start.name, value: String(written[start.value..<max(end, start.value)])))
        }
        return .success(arguments)
    }

    /// Whether it names the service of `type` with `serviceId`: the type itself, its name
    /// (`urn:schemas-upnp-org:service:AVTransport:1` is `AVTransport`), or its serviceId's last part.
    func names(type: String, serviceId: String) -> Bool {
        let parts = type.split(separator: ":")
        let name = parts.count >= 2 ? String(parts[parts.count - 2]) : type
        let id = serviceId.split(separator: ":").last.map(String.init) ?? serviceId
        return [type, name, id].contains { $0.equalsIgnoringASCIICase(service) }
    }

    /// As the user wrote it.
    var text: String { "\(service)#\(action)" + (written.isEmpty ? "" : " " + written) }
}

/// One device as `record` met it: its identity as its description gives it, its answers to each search
/// target, and each HTTP exchange, as they arrived.
package struct RecordedDevice: Sendable {
    /// One answer datagram, and when and where from it came.
    package struct Answer: Sendable {
        /// Time from the search.
        package var delay: Duration
        /// The UDP port it came from.
        package var sourcePort: Int
        /// The datagram.
        package var bytes: [UInt8]
    }

    /// One NOTIFY heard on the group while recording (`DeviceRecordOptions.listen`).
    package struct Notification: Sendable {
        /// Time from the start of the listening.
        package var elapsed: Duration
        /// The UDP port it came from.
        package var sourcePort: Int
        /// The IP TTL it arrived with, when the system said.
        package var ttl: Int?
        /// The datagram.
        package var bytes: [UInt8]
    }

    /// One HTTP exchange.
    package struct Exchange: Sendable {
        /// The method asked.
        package var method: String
        /// The path and query asked.
        package var target: String
        /// For an action call: the service type and action (`type#Name`), and the in-arguments sent.
        package var soap: (action: String, arguments: [(String, String)])?
        /// The response as it arrived.
        package var response: [UInt8]
        /// Whether it is a read of the device's state on a vendor's REST side (`HTTPRecording.Exchange`).
        package var readsState = false
        /// Whether a client made it through the recording proxy (`RecordingProxy`).
        package var proxied = false
        /// The request's body, for a request made through the recording proxy that had one (not a call's).
        package var requestBody: String?
    }

    /// The LOCATION it was recorded at.
    package var location: URL
    /// The root device's UDN, as its description names it.
    package var udn: String
    /// The root device's type.
    package var deviceType: String
    /// The SERVER its answers carried, which its NOTIFY messages carry too.
    package var server: String?
    /// The max-age of its answers' CACHE-CONTROL.
    package var maxAge: Int?
    /// Its answers' BOOTID.UPNP.ORG (UDA 1.1).
    package var bootID: Int?
    /// Its answers' CONFIGID.UPNP.ORG (UDA 1.1).
    package var configID: Int?
    /// The answers to each search target, in the order searched.
    package var searches: [(target: String, answers: [Answer])]
    /// The MX the searches carried.
    package var mx: Int
    /// The widest spread, first to last, of its answers to one of three searches of ssdp:all at MX 3.
    package var widestSpread = Duration.zero
    /// Whether it draws each answer's delay within the search's MX: `widestSpread` is over 0.9 s
    /// (`SSDPRecordedAnswers.spreadOverMX`).
    package var drawsDelaysWithinMX: Bool { SSDPRecordedAnswers.spreadOverMX(widestSpread: widestSpread) }
    /// The exchanges: the description, each SCPD and icon, the description's HEAD.
    package var exchanges: [Exchange]
    /// What it answered to a GET of a path it does not have.
    package var notFound: Exchange?
    /// What it answered to a method it does not take.
    package var unsupportedMethod: Exchange?
    /// The read-only action calls, each with its answer (`Exchange.soap`).
    package var calls: [Exchange]
    /// The initial event of each service it sends events for: a NOTIFY to `target` (the event URL's path
    /// and query subscribed at), the message as it arrived in `response`.
    package var events: [Exchange] = []
    /// The optional calls and reads that got no answer (`type#Name: why`, `GET /path: why`), left out of the
    /// recording.
    package var leftOut: [String]
    /// How many of `exchanges` are reads of the vendor's REST side (`vendorReads`).
    package var vendorReads: Int
    /// What a user should know of a call they named that the device refused (`--call X: answered 500 …`):
    /// kept all the same, as the device's answer.
    package var refusedCalls: [String] = []
    /// Its NOTIFY messages heard while recording, in the order they came.
    package var notifications: [Notification] = []

    /// The max-age of the first NOTIFY heard that says one.
    package var notifyMaxAge: Int? {
        notifications.lazy.compactMap {
            (try? SSDPParser.parseMessage($0.bytes))?.headers["CACHE-CONTROL"].flatMap { SSDPCacheControl($0).maxAge }
        }.first
    }

    /// Whether a message is this device's: a USN of one of its UUIDs (the root's, or one its answers
    /// carried), or, without a USN, a LOCATION at its origin.
    var owns: (SSDPMessage) -> Bool {
        var uuids: Set<String> = [DiscoveryAudit.uuid(ofUSN: udn).lowercased()]
        for answer in searches.flatMap(\.answers) {
            if let usn = (try? SSDPParser.parseMessage(answer.bytes))?.headers["USN"] {
                uuids.insert(DiscoveryAudit.uuid(ofUSN: usn).lowercased())
            }
        }
        let origin = location.origin
        return { [uuids] message in
            // By its USN where it has one: other root devices may share the origin (Windows hosts several
            // on port 2869).
            if let usn = message.headers["USN"] { return uuids.contains(DiscoveryAudit.uuid(ofUSN: usn).lowercased()) }
            return message.headers["LOCATION"].flatMap { URL(string: $0)?.origin } == origin
        }
    }
}

/// Why a recording could not be made: what was asked of which URL, and what went wrong.
package struct DeviceRecordError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The reason, naming the URL.
    package var reason: String

    init(_ reason: String) { self.reason = reason }

    /// The reason.
    package var description: String { reason }
}

/// `ssdp-sim record`: meets a device as a control point does (its answers to each search target its
/// description implies, its description, SCPDs and icons, and what it says to a HEAD, to a path it does not
/// have and to a method it does not take) and keeps everything as it arrived, so that a simulated device can
/// play it back.
///
/// It also calls each read-only action once, as `check --control` does (`Get…` actions whose in-arguments
/// all have a conventional value, and ContentDirectory's Browse of the root), and keeps each answer: never
/// an action that could change the device.
///
/// Bounded as `check` is: each exchange within `timeout`, each response within 1 MiB, at most 256
/// answers a search, 64 SCPDs, 16 icons, 128 action calls and `DeviceChecker.maximumDevices` devices. A device that cannot be
/// read whole (its description or a document it lists does not arrive) is an error, and nothing of it is
/// kept; an HTTP error status is an answer like any other, and is kept.
package enum DeviceRecorder {
    /// The most SCPDs one device's recording holds.
    package static let maximumServiceDescriptions = 64
    /// The most icons one device's recording holds.
    package static let maximumIcons = 16
    /// The path asked for to record what the device answers to one it does not have.
    package static let absentPath = "/ssdp-sim-no-such-path"
    /// The most NOTIFY messages one device's recording holds.
    package static let maximumNotifications = 256

    /// How long the recorder waits, after an answer, for bytes the device sends past its length before
    /// it closes (a device that keeps the connection open despite `Connection: close` costs this much per
    /// exchange).
    static let trailingBytesWait = Duration.milliseconds(200)

    /// Records every device `target` names (or the one `options.pick` picks).
    package static func record(
        _ target: DeviceCheckTarget,
        options: DeviceRecordOptions
    ) async throws(DeviceRecordError) -> [RecordedDevice] {
        // The group is listened to from the start, before the devices are looked for: their NOTIFY sets,
        // those they send as they start included when the recording waits for them. A port or a route that
        // cannot be had is said before anything is recorded.
        let limit = maximumNotifications * DeviceChecker.maximumDevices
        var listening: (listener: SSDPGroupListener, heard: Task<[SSDPGroupListener.Heard], any Error>)?
        let listeningSince = ContinuousClock.now
        if let duration = options.listen {
            do {
                let listener = try SSDPGroupListener(port: options.ssdpPort)
                let heard = Task {
                    try await listener.listen(for: duration, limit: limit) { $0.starts(with: Array("NOTIFY ".utf8)) }
                }
                listening = (listener, heard)
            } catch {
                throw DeviceRecordError("--listen: \(error)")
            }
        }
        // A recording that fails does not wait for the listening to end.
        defer { listening?.listener.stop() }
        // Where its searches go: where the device is, or, for one found by multicast, the group (a UPnP
        // 1.0 device need not answer a search sent to its address).
        let searchHost: String? = if case .searchTarget = target { options.searchHost } else { nil }
        var found = try await devices(at: target, options: options)
        let foundAfter = listeningSince.duration(to: .now)
        // In the order of their LOCATIONs, so that --pick N names the same device from run to run.
        found.sort { $0.absoluteString < $1.absoluteString }
        if let pick = options.pick {
            guard (1...found.count).contains(pick) else {
                throw DeviceRecordError(
                    "--pick \(pick): \(target) found \(found.count) device\(found.count == 1 ? "" : "s"): \(found.map(\.absoluteString).joined(separator: ", "))"
                )
            }
            found = [found[pick - 1]]
        }
        var devices: [RecordedDevice] = []
        for location in found {
            let device = try await record(location, searchHost: searchHost ?? location.host ?? "", options: options)
            // One device described at two LOCATIONs (a Roku's `/` and its DIAL `/dial/dd.xml`) is recorded
            // once, at the first: a device file holds a UDN once.
            if let first = devices.firstIndex(where: { $0.udn == device.udn }) {
                devices[first].leftOut.append(
                    "\(location.absoluteString): the same device (\(device.udn)) as \(devices[first].location.absoluteString)"
                )
                continue
            }
            devices.append(device)
        }
        if let listening {
            if let duration = options.listen {
                options.stillListening?(max(duration - listeningSince.duration(to: .now), .zero))
            }
            let heard: [SSDPGroupListener.Heard]
            do {
                heard = try await listening.heard.value
            } catch {
                throw DeviceRecordError("--listen: \(error)")
            }
            for index in devices.indices {
                if let duration = options.listen, duration <= foundAfter {
                    devices[index].leftOut.append(
                        "NOTIFYs: the listening (--listen \(duration.shortSecondsText) s) ended before the device was found (after \(foundAfter.secondsText) s); listen for longer than it takes to find the device and record it"
                    )
                }
                let owns = devices[index].owns
                let own = heard.filter { (try? SSDPParser.parseMessage($0.bytes)).map(owns) == true }
                devices[index].notifications = own.prefix(maximumNotifications).map {
                    .init(elapsed: $0.elapsed, sourcePort: $0.source.port ?? 0, ttl: $0.ttl, bytes: $0.bytes)
                }
                if own.count > maximumNotifications || heard.count >= limit {
                    devices[index].leftOut.append(
                        "NOTIFYs after the first \(devices[index].notifications.count): \(heard.count >= limit ? "the listening stopped at \(limit) NOTIFYs heard from every device" : "past the \(maximumNotifications) a recording holds")"
                    )
                }
            }
        }
        return devices
    }

    /// The LOCATIONs of the devices `target` names: the URL itself, or those that answer a search. With
    /// `options.wait`, looked for again a second after each try until one is found (as many as `--pick`
    /// names) or the wait is over (a URL: until it answers HTTP at all); the last failure is the error.
    private static func devices(
        at target: DeviceCheckTarget,
        options: DeviceRecordOptions
    ) async throws(DeviceRecordError) -> [URL] {
        let clock = ContinuousClock()
        let deadline = clock.now + (options.wait ?? .zero)
        // While waiting, fewer devices than `--pick` names are not yet enough: the Nth may still start.
        let enough = { (found: [URL]) throws(DeviceRecordError) -> [URL] in
            guard options.wait != nil, let pick = options.pick, found.count < pick, clock.now < deadline else {
                return found
            }
            throw DeviceRecordError("--pick \(pick): \(found.count) found so far")
        }
        while true {
            do throws(DeviceRecordError) {
                switch target {
                case .location(let url):
                    if options.wait != nil {
                        let fetch = HTTPFetch(
                            timeout: options.timeout,
                            maximumBodySize: HTTPRecording.maximumResponseSize
                        )
                        _ = try await exchange("GET", url, fetch: fetch, what: "the description")
                    }
                    return [url]
                case .address(let address):
                    return try await enough(locations(answering: "ssdp:all", at: address, options: options))
                case .searchTarget(let searchTarget):
                    return try await enough(
                        locations(answering: searchTarget, at: options.searchHost, options: options)
                    )
                }
            } catch {
                guard clock.now < deadline, !Task.isCancelled else {
                    guard let wait = options.wait else { throw error }
                    throw DeviceRecordError(
                        "\(error.reason) (looked for until --wait \(wait.shortSecondsText) s was over)"
                    )
                }
                try? await Task.sleep(for: .seconds(1))
            }
        }
    }

    /// The LOCATIONs of the root devices that answer `searchTarget` at `host`, as `check` finds them.
    private static func locations(
        answering searchTarget: String,
        at host: String,
        options: DeviceRecordOptions
    ) async throws(DeviceRecordError) -> [URL] {
        var checkOptions = DeviceCheckOptions()
        checkOptions.ssdpPort = options.ssdpPort
        checkOptions.mx = options.mx
        let log = ResultLog(options: checkOptions) { _ in }
        let found = await DeviceChecker.locations(answering: searchTarget, at: host, options: checkOptions, log: log)
        guard !found.isEmpty else {
            throw DeviceRecordError(log.results.first { $0.outcome == .failed }?.detail ?? "no device answered")
        }
        return found
    }

    /// The device at `location`, searched at `searchHost`.
    private static func record(
        _ location: URL,
        searchHost: String,
        options: DeviceRecordOptions
    ) async throws(DeviceRecordError) -> RecordedDevice {
        let fetch = HTTPFetch(
            timeout: options.timeout,
            maximumBodySize: HTTPRecording.maximumResponseSize,
            trailingBytesWait: trailingBytesWait
        )
        let description = try await exchange("GET", location, fetch: fetch, what: "the description")
        guard let message = description.message, message.status == 200,
            let root = SSDPXMLElement.parse(message.body), root.name == "root", let element = root.child("device")
        else {
            let why =
                description.message?.status == 200
                ? "is not a UPnP device description (no <root> with a <device>)" : description.notOK ?? ""
            throw DeviceRecordError("\(location.absoluteString): \(why)")
        }
        let (_, described) = DescriptionAudit.audit(message.body, location: location)
        guard let described else { throw DeviceRecordError("\(location.absoluteString): no device in the description") }
        var exchanges = [try recorded(description, "GET", location)]

        let (searches, spreads) = try await answers(
            of: described,
            at: location,
            searchHost: searchHost,
            options: options
        )

        var documents: [URL] = []
        for service in described.allDevices.flatMap(\.services) {
            guard let url = service.scpdURL, !documents.contains(url) else { continue }
            documents.append(url)
        }
        documents = Array(documents.prefix(maximumServiceDescriptions))
        let base = root.child("URLBase").flatMap { URL(string: $0.trimmedText) } ?? location
        documents += Array(icons(of: element, base: base).prefix(maximumIcons))
        var total = exchanges[0].response.count
        let count = { (exchange: RecordedDevice.Exchange) throws(DeviceRecordError) in
            total += exchange.response.count
            guard total <= HTTPRecording.maximumTotalSize else {
                throw DeviceRecordError(
                    "\(location.absoluteString): its documents and answers come to more than a recording holds (\(HTTPRecording.maximumTotalSize) bytes)"
                )
            }
        }
        var serviceDescriptions: [URL: DescribedService] = [:]
        for url in documents where !exchanges.contains(where: { $0.target == target(of: url) }) {
            let fetched = try await exchange("GET", url, fetch: fetch, what: "a document")
            exchanges.append(try recorded(fetched, "GET", url))
            try count(exchanges[exchanges.count - 1])
            if let body = fetched.message?.body, let root = SSDPXMLElement.parse(body), root.name == "scpd" {
                serviceDescriptions[url] = ServiceDescriptionAudit.read(root)
            }
        }
        // The calls are optional: one that gets no answer, or too much of one, is left out and said, and a
        // service whose control URL does not answer is asked nothing more.
        var calls: [RecordedDevice.Exchange] = []
        var leftOut: [String] = []
        var refusedCalls: [String] = []
        // An optional exchange counted; `nil`, and said, when it would not fit.
        let fitting = { (kept: RecordedDevice.Exchange?, name: String) throws(DeviceRecordError) in
            guard let kept, total + kept.response.count <= HTTPRecording.maximumTotalSize else {
                leftOut.append("\(name): more than a recording holds")
                return RecordedDevice.Exchange?.none
            }
            try count(kept)
            return kept
        }
        // An optional exchange as recorded and counted; `nil`, and said, when it would not fit.
        let optional = { (exchange: HTTPExchange, method: String, url: URL, name: String) throws(DeviceRecordError) in
            try fitting(try? recorded(exchange, method, url), name)
        }
        var made = Set<String>()
        for service in described.allDevices.flatMap(\.services) {
            guard let url = service.controlURL, let scpd = service.scpdURL.flatMap({ serviceDescriptions[$0] })
            else { continue }
            for (action, arguments) in readOnlyCalls(of: scpd, serviceType: service.serviceType) {
                let name = "\(service.serviceType)#\(action)"
                guard made.insert("\(target(of: url)) \(name) \(arguments)").inserted else { continue }
                // The calls the user names have their places kept.
                guard made.count <= HTTPRecording.maximumCalls - options.calls.count else { continue }
                let answer = await ControlAudit.call(
                    action,
                    arguments: arguments,
                    type: service.serviceType,
                    url: url,
                    fetch: fetch
                )
                if case .failure(let error) = answer.response {
                    leftOut.append("\(name): \(error.reason)")
                    break
                }
                guard var call = try optional(answer, "POST", url, name) else { continue }
                call.soap = (name, arguments)
                calls.append(call)
            }
        }
        let readsMade = HTTPRecording.maximumCalls - options.calls.count
        if made.count > readsMade {
            leftOut.append("\(made.count - readsMade) more calls: past the \(readsMade) a recording makes")
        }
        // Each service's initial event (GENA): optional too.
        var events: [RecordedDevice.Exchange] = []
        if let host = description.localAddress?.ipAddress {
            for (url, event) in await initialEvents(of: described, host: host, fetch: fetch) {
                switch event {
                case .success(let message):
                    let event = RecordedDevice.Exchange(method: "NOTIFY", target: target(of: url), response: message)
                    if let kept = try fitting(event, "the initial event of \(url.absoluteString)") {
                        events.append(kept)
                    }
                case .failure(let why): leftOut.append("the initial event of \(url.absoluteString): \(why.reason)")
                }
            }
        }
        // The vendor's REST side, where the device's kind is known: optional too, as the calls are.
        var vendorReads = 0
        let reads = Self.vendorReads(
            deviceType: described.deviceType,
            modelName: element.child("modelName")?.trimmedText ?? "",
            location: location,
            applicationURL: message.header("Application-URL")
        )
        for (url, readsState) in reads where !exchanges.contains(where: { $0.target == target(of: url) }) {
            let read = await fetch.exchange("GET", url)
            if case .failure(let error) = read.response {
                leftOut.append("GET \(url.absoluteString): \(error.reason)")
                continue
            }
            guard var exchange = try optional(read, "GET", url, "GET \(url.absoluteString)") else { continue }
            exchange.readsState = readsState
            exchanges.append(exchange)
            vendorReads += 1
        }
        // A HEAD that does not end (a server that keeps the connection) is not recorded: its playback is
        // then the GET's head.
        let head = await fetch.exchange("HEAD", location)
        if case .success = head.response { exchanges.append(try recorded(head, "HEAD", location)) }
        var absent = URLComponents(url: location, resolvingAgainstBaseURL: true)
        absent?.percentEncodedPath = absentPath
        absent?.percentEncodedQuery = nil
        var notFound: RecordedDevice.Exchange?
        if let url = absent?.url {
            notFound = try recorded(
                try await exchange("GET", url, fetch: fetch, what: "a path it does not have"),
                "GET",
                url
            )
        }
        let unsupported = try recorded(
            try await exchange("PUT", location, fetch: fetch, what: "a method it does not take"),
            "PUT",
            location
        )
        // The calls the user named, whatever they change, last: everything above is of the device as it was
        // before them (and a call that powers it off takes nothing from the rest). Each must name a service and an action the device has; its
        // answer, fault or not, is kept.
        for named in options.calls {
            let services = described.allDevices.flatMap(\.services)
            guard let service = services.first(where: { named.names(type: $0.serviceType, serviceId: $0.serviceId) }),
                let url = service.controlURL
            else {
                let known = services.map {
                    $0.serviceType.split(separator: ":").dropLast().last.map(String.init) ?? $0.serviceType
                }
                throw DeviceRecordError(
                    "--call \(named.text): \(location.absoluteString) has no service \(named.service) with a control URL (it has \(known.joined(separator: ", ")))"
                )
            }
            let scpd = service.scpdURL.flatMap { serviceDescriptions[$0] }
            if let scpd, !scpd.actions.contains(where: { $0.name == named.action }) {
                throw DeviceRecordError(
                    "--call \(named.text): \(service.serviceType) has no action \(named.action) (it has \(scpd.actions.map(\.name).joined(separator: ", ")))"
                )
            }
            let name = "\(service.serviceType)#\(named.action)"
            // The action's in-arguments say where each argument starts, where the SCPD gives them.
            let inArguments = scpd?.actions.first { $0.name == named.action }.map { Set($0.inArguments.map(\.name)) }
            let arguments: [(String, String)]
            switch named.arguments(named: inArguments) {
            case .success(let read): arguments = read.map { ($0.name, $0.value) }
            case .failure(let error): throw DeviceRecordError("--call \(named.text): \(error.reason)")
            }
            let answer = await ControlAudit.call(
                named.action,
                arguments: arguments,
                type: service.serviceType,
                url: url,
                fetch: fetch
            )
            if case .failure(let error) = answer.response {
                throw DeviceRecordError("--call \(named.text): POST \(url.absoluteString): \(error.reason)")
            }
            guard var call = try fitting(try recorded(answer, "POST", url), name) else {
                throw DeviceRecordError("--call \(named.text): the answer is more than a recording holds")
            }
            call.soap = (name, arguments)
            // Kept as a client's call through the recording proxy is: a change, played in order.
            call.proxied = true
            calls.append(call)
            if let message = answer.message, message.status != 200 {
                let code = SSDPXMLElement.parse(message.body)?.child("Body")?.child("Fault")?.child("detail")?
                    .child("UPnPError")
                let error = code.map {
                    " (UPnP error \($0.child("errorCode")?.trimmedText ?? "?"): \($0.child("errorDescription")?.trimmedText ?? ""))"
                }
                refusedCalls.append(
                    "--call \(named.text): answered \(answer.statusText)\(error ?? ""), kept as the device's answer"
                )
            }
        }
        let first = searches.lazy.flatMap(\.answers).compactMap { try? SSDPParser.parseMessage($0.bytes) }.first
        let headers = first?.headers
        return RecordedDevice(
            location: location,
            udn: described.udn,
            deviceType: described.deviceType,
            server: headers?["SERVER"],
            maxAge: headers?["CACHE-CONTROL"].flatMap { SSDPCacheControl($0).maxAge },
            // A value out of UDA 1.1's range (GSSDP's BOOTID -1) is not the device's number: its answers
            // carry it as recorded.
            bootID: headers?["BOOTID.UPNP.ORG"].flatMap { Int($0) }.flatMap { SSDPRootDevice.bootIDs ~= $0 ? $0 : nil },
            configID: headers?["CONFIGID.UPNP.ORG"].flatMap { Int($0) }.flatMap {
                SSDPRootDevice.configIDs ~= $0 ? $0 : nil
            },
            searches: searches,
            mx: options.mx,
            widestSpread: SSDPRecordedAnswers.widestSpread(spreads),
            exchanges: exchanges,
            notFound: notFound,
            unsupportedMethod: unsupported,
            calls: calls,
            events: events,
            leftOut: leftOut,
            vendorReads: vendorReads,
            refusedCalls: refusedCalls
        )
    }

    /// Each evented service's initial event, as a control point subscribing meets it: a SUBSCRIBE with a
    /// callback to a listener on `host` (the recorder's end of its connections to the device), the NOTIFY of
    /// the new SID as it arrived, then an UNSUBSCRIBE; or why there is none. At most
    /// `maximumServiceDescriptions` event URLs.
    private static func initialEvents(
        of described: DescribedDevice,
        host: String,
        fetch: HTTPFetch
    ) async -> [(URL, Result<[UInt8], DeviceRecordError>)] {
        var urls: [URL] = []
        for service in described.allDevices.flatMap(\.services) {
            guard let url = service.eventSubURL, !urls.contains(url) else { continue }
            urls.append(url)
        }
        guard !urls.isEmpty,
            let listener = try? await EventListener.start(host: host, eventLoopGroup: fetch.eventLoopGroup),
            let port = listener.address?.port
        else { return [] }
        var events: [(URL, Result<[UInt8], DeviceRecordError>)] = []
        // A device that sent no initial event for one service (MiniDLNA 1.3.0) is waited for a second, not
        // the whole timeout, for each of the others.
        var wait = fetch.timeout
        for url in urls.prefix(maximumServiceDescriptions) {
            let callback = "<http://\(EventingAudit.bracketed(host)):\(port)/ssdp-sim-record/\(events.count)>"
            let subscribe = await fetch.exchange(
                "SUBSCRIBE",
                url,
                headers: [("CALLBACK", callback), ("NT", "upnp:event"), ("TIMEOUT", "Second-300")]
            )
            guard let sid = subscribe.message?.header("SID"), subscribe.message?.status == 200 else {
                events.append((url, .failure(DeviceRecordError("SUBSCRIBE was answered \(subscribe.statusText)"))))
                continue
            }
            let event = await listener.take(timeout: wait) { $0.header("SID") == sid }
            _ = await fetch.exchange("UNSUBSCRIBE", url, headers: [("SID", sid)])
            guard let event else {
                let seconds = wait.shortSecondsText
                wait = min(wait, .seconds(1))
                events.append((url, .failure(DeviceRecordError("no NOTIFY within \(seconds) s of the SUBSCRIBE"))))
                continue
            }
            events.append((url, .success(event.raw)))
        }
        await listener.stop()
        return events
    }

    /// The read-only calls a recording makes of a service described by `scpd`: each `Get…` action whose
    /// in-arguments all have a conventional value, and a ContentDirectory's Browse of the root, its metadata
    /// and its children (what every DLNA client asks first).
    static func readOnlyCalls(
        of scpd: DescribedService,
        serviceType: String
    ) -> [(action: String, arguments: [(String, String)])] {
        var calls: [(action: String, arguments: [(String, String)])] = []
        for action in scpd.actions where !isSecret(action.name) {
            if let arguments = ControlAudit.readOnlyArguments(of: action) { calls.append((action.name, arguments)) }
        }
        let browse = ["ObjectID", "BrowseFlag", "Filter", "StartingIndex", "RequestedCount", "SortCriteria"]
        if serviceType.contains(":ContentDirectory:"),
            scpd.actions.first(where: { $0.name == "Browse" })?.inArguments.map(\.name) == browse
        {
            for flag in ["BrowseMetadata", "BrowseDirectChildren"] {
                let values = ["0", flag, "*", "0", "0", ""]
                calls.append(("Browse", Array(zip(browse, values))))
            }
        }
        return calls
    }

    /// The reads of a vendor's REST side a recording makes, where the device's kind is known: each a GET
    /// that changes nothing and that the vendor's clients make first. A Roku's ECP queries (rokuecp and
    /// python-roku read `device-info`, `apps`, `active-app` and `media-player`, a Roku TV's channels too), the
    /// state of the apps `check` asks a DIAL device for, at the Application-URL its description came with,
    /// and a Hue bridge's `/api/config` (what aiohue reads before pairing; the rest needs a paired key).
    /// Each comes with whether it reads the device's state, which a request that changes the device changes
    /// (all but the bridge's config, which says what bridge it is).
    static func vendorReads(
        deviceType: String,
        modelName: String,
        location: URL,
        applicationURL: String?
    ) -> [(url: URL, readsState: Bool)] {
        var reads: [(url: URL, readsState: Bool)] = []
        if let origin = location.origin {
            if deviceType.lowercased().contains("roku") {
                let queries = ["device-info", "apps", "active-app", "media-player", "tv-channels", "tv-active-channel"]
                reads += queries.map { (origin.appendingPathComponent("query/\($0)"), true) }
            }
            if modelName.lowercased().contains("hue bridge") {
                reads.append((origin.appendingPathComponent("api/config"), false))
            }
        }
        // Played back, a recording answers on the description's origin only: an Application-URL elsewhere
        // (another port) is left to the family.
        if let applicationURL, let base = URL(string: applicationURL), base.scheme?.lowercased() == "http",
            base.origin == location.origin
        {
            reads += DIALAudit.wellKnownApps.compactMap { app in
                DIALAudit.appURL(app, at: applicationURL).map { ($0, true) }
            }
        }
        return reads
    }

    /// The device's answers to each target its description implies (`ssdp:all`, `upnp:rootdevice`, each
    /// UUID and type), then to each other target its answers to `ssdp:all` named, searched at `searchHost`
    /// as `check` searches it. Answers from other devices are not its own:
    /// its own carry one of its UUIDs, or a LOCATION at its origin (a Roku's `uuid:roku:ecp:SERIAL`).
    private static func answers(
        of device: DescribedDevice,
        at location: URL,
        searchHost: String,
        options: DeviceRecordOptions
    ) async throws(DeviceRecordError) -> (
        searches: [(target: String, answers: [RecordedDevice.Answer])], spreads: [[Duration]]
    ) {
        guard let address = try? SocketAddress(ipAddress: searchHost, port: options.ssdpPort) else {
            throw DeviceRecordError("\(location.absoluteString): \(searchHost) is not an IP address to search")
        }
        let uuids = Set(device.allDevices.map { DiscoveryAudit.uuid(ofUSN: $0.udn).lowercased() })
        let origin = location.origin
        let own = { (answer: CheckAnswer) -> Bool in
            guard let headers = (try? SSDPParser.parseMessage(answer.bytes))?.headers else { return false }
            if let usn = headers["USN"], uuids.contains(DiscoveryAudit.uuid(ofUSN: usn).lowercased()) { return true }
            return headers["LOCATION"].flatMap { URL(string: $0)?.origin } == origin
        }
        var searches = DiscoveryAudit.searches(for: device, mx: options.mx).filter { $0.check == "discovery.answers" }
        // Beside the first round, three searches of ssdp:all at MX 3 show whether the device draws each
        // answer's delay within the MX (played so) or answers at once or all together (played as recorded).
        // They end when the round does, or a second after: an answer drawn within MX 3 has come by then.
        searches += (0..<3).map { _ in
            CheckSearch(
                check: Self.spreadCheck,
                subject: "ssdp:all",
                target: "ssdp:all",
                expected: [],
                bytes: DiscoveryAudit.search(target: "ssdp:all", mx: "3"),
                lateWait: .milliseconds(500)
            )
        }
        var recorded: [(target: String, answers: [RecordedDevice.Answer])] = []
        var spreads: [[Duration]] = []
        for round in 0..<2 {
            let results = await DiscoveryAudit.send(searches, to: address)
            for (search, result) in zip(searches, results) {
                guard case .success(let answers) = result else {
                    if case .failure(let error) = result {
                        throw DeviceRecordError("cannot search \(address.endpointDescription): \(error)")
                    }
                    continue
                }
                let mine = answers.filter(own).map {
                    RecordedDevice.Answer(delay: $0.elapsed, sourcePort: $0.sourcePort, bytes: $0.bytes)
                }
                if search.check == Self.spreadCheck {
                    spreads.append(mine.map(\.delay))
                } else {
                    recorded.append((search.target, mine))
                }
            }
            guard round == 0 else { break }
            // Targets its answers to ssdp:all named that the description did not imply (a :1 of a :2).
            let named =
                recorded.first { $0.target == "ssdp:all" }?.answers.compactMap {
                    (try? SSDPParser.parseMessage($0.bytes))?.headers["ST"]
                } ?? []
            let asked = Set(recorded.map(\.target))
            var more: [String] = []
            for target in named where !asked.contains(target) && !more.contains(target) { more.append(target) }
            guard !more.isEmpty else { break }
            searches = more.map {
                CheckSearch(
                    check: "discovery.answers",
                    subject: $0,
                    target: $0,
                    expected: [],
                    bytes: DiscoveryAudit.search(target: $0, mx: "\(options.mx)")
                )
            }
        }
        guard recorded.contains(where: { !$0.answers.isEmpty }) else {
            throw DeviceRecordError(
                "\(address.endpointDescription): the device described at \(location.absoluteString) answered none of \(recorded.count) searches (does it listen for searches on another port: --port? A UPnP 1.0 device may answer only on the group: record it by a search target)"
            )
        }
        return (recorded, spreads)
    }

    /// What the searches that tell how the device times its answers are called among the others.
    private static let spreadCheck = "record.spread"

    /// The URLs of the icons of `element` and the devices inside it.
    private static func icons(of element: SSDPXMLElement, base: URL) -> [URL] {
        let own = (element.child("iconList")?.children ?? []).compactMap { icon in
            icon.child("url").flatMap { URL(string: $0.trimmedText, relativeTo: base)?.absoluteURL }
        }
        let embedded = (element.child("deviceList")?.children ?? []).flatMap { icons(of: $0, base: base) }
        return own + embedded
    }

    /// `method url`, which must be answered: a transport failure is an error naming `what` and the URL.
    private static func exchange(
        _ method: String,
        _ url: URL,
        fetch: HTTPFetch,
        what: String
    ) async throws(DeviceRecordError) -> HTTPExchange {
        let exchange = await fetch.exchange(method, url)
        if case .failure(let error) = exchange.response {
            throw DeviceRecordError("\(method) \(url.absoluteString) (\(what)): \(error.reason)")
        }
        return exchange
    }

    /// `exchange` as a recording keeps it: as it arrived, but a chunked body de-chunked (with its length in
    /// a Content-Length, where Transfer-Encoding was), so that playback can change the body.
    private static func recorded(
        _ exchange: HTTPExchange,
        _ method: String,
        _ url: URL
    ) throws(DeviceRecordError) -> RecordedDevice.Exchange {
        let response = exchange.message.map(asRecorded) ?? []
        guard response.count <= HTTPRecording.maximumResponseSize else {
            throw DeviceRecordError(
                "\(method) \(url.absoluteString): the response is \(response.count) bytes, more than a recording holds (\(HTTPRecording.maximumResponseSize))"
            )
        }
        return RecordedDevice.Exchange(method: method, target: target(of: url), soap: nil, response: response)
    }

    /// `message` as a recording keeps it: as it arrived, but a chunked body de-chunked.
    static func asRecorded(_ message: HTTPMessage) -> [UInt8] {
        message.header("Transfer-Encoding")?.lowercased().contains("chunked") == true ? unchunked(message) : message.raw
    }

    /// A chunked response as one with a Content-Length: its status line and headers as they came, but
    /// Transfer-Encoding, then its de-chunked body.
    static func unchunked(_ message: HTTPMessage) -> [UInt8] {
        let headers = message.headers.filter { !$0.name.equalsIgnoringASCIICase("Transfer-Encoding") }
            .map { "\($0.name): \($0.value)\r\n" }.joined()
        return Array("\(message.startLine)\r\n\(headers)Content-Length: \(message.body.count)\r\n\r\n".utf8)
            + message.body
    }

    /// Whether an action reads what a recording meant to be shared must not hold: a login or a key
    /// (WANPPPConnection's GetUserName and GetPassword, WLANConfiguration's GetSecurityKeys).
    static func isSecret(_ action: String) -> Bool {
        let name = action.lowercased()
        return ["password", "passphrase", "username", "securitykey", "wepkey", "psk", "credential", "secret"]
            .contains { name.contains($0) }
    }

    /// The path and query of `url`, as sent.
    static func target(of url: URL) -> String { HTTPFetch.requestTarget(of: url) }
}
