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
import NIOPosix
import SSDPCore
import SSDPNIO

/// What `ssdp-sim check` is pointed at.
package enum DeviceCheckTarget: Sendable, Hashable, CustomStringConvertible {
    /// A device's LOCATION: its description's URL.
    case location(URL)
    /// A device's IP address: searched for `ssdp:all`, each root device that answers is checked.
    case address(String)
    /// A search target: searched for at the search host, each root device that answers is checked.
    case searchTarget(String)

    /// The target a user wrote: an `http://` URL, an IP address, or anything else as a search target.
    package init(_ text: String) throws(DeviceCheckError) {
        if text.lowercased().hasPrefix("http://") {
            guard let url = URL(string: text), url.host?.isEmpty == false else {
                throw DeviceCheckError("'\(text)' is not a URL with a host")
            }
            self = .location(url)
        } else if text.lowercased().hasPrefix("https://") {
            throw DeviceCheckError("'\(text)': SSDP devices serve their descriptions over http://, not https://")
        } else if text.contains("://") {
            throw DeviceCheckError("'\(text)' is not an http:// URL (a LOCATION), nor an IP address or a search target")
        } else if (try? SocketAddress(ipAddress: text, port: 0)) != nil {
            self = .address(text)
        } else if text.isEmpty || text.contains(where: \.isWhitespace) {
            throw DeviceCheckError("'\(text)' is neither a LOCATION URL, an IP address nor a search target")
        } else {
            self = .searchTarget(text)
        }
    }

    /// The target as the user wrote it (a URL, an address, a search target).
    package var description: String {
        switch self {
        case .location(let url): url.absoluteString
        case .address(let address): address
        case .searchTarget(let target): target
        }
    }
}

/// A check that cannot run as asked (a bad target or option): the message says which and why.
package struct DeviceCheckError: Error, Sendable, CustomStringConvertible {
    /// What is wrong, naming the target or option.
    package var description: String

    /// An error saying `description`.
    package init(_ description: String) { self.description = description }
}

/// How `ssdp-sim check` works.
package struct DeviceCheckOptions: Sendable {
    /// The groups every check belongs to, in the order they run.
    package static let groups = [
        "discovery", "description", "scpd", "gena", "control", "dial", "ecp", "profile", "advertisement",
    ]

    /// The UDP port searches go to.
    package var ssdpPort = 1900
    /// The MX of the searches that find and check the device, 1...5: the window its answers are spread over.
    package var mx = DiscoveryAudit.mx
    /// Where a search target is searched for: the multicast group, or one address.
    package var searchHost = "239.255.255.250"
    /// Whether to call actions (`--control`): a call can change the device.
    package var control = false
    /// Groups or checks not to make, as `--skip` names them (without regard to case).
    package var skip: Set<String> = []
    /// How long one HTTP exchange may take, and how long to wait for an event.
    package var timeout = Duration.seconds(5)
    /// The largest document read.
    package var maximumDocumentSize = 1 << 20
    /// The host named in the CallStranger check's CALLBACK; by default one that is no host's.
    package var strangerHost: String?
    /// The DIAL apps whose state is read, the first the device has (`--dial-app`).
    package var dialApps = DIALAudit.wellKnownApps
    /// A profile to hold the device to (`--profile`): what its real device's clients need.
    package var profile: DeviceProfileExpectation?
    /// How long to listen to the group for the device's NOTIFY messages (`--listen`); `nil`, not at all.
    package var listen: Duration?
    /// Whether the device is expected to leave while the checker listens, saying byebye (`--expect-byebye`).
    package var expectByebye = false
    /// The interface to listen to the group on (`--interface`); `nil`, the system's choice.
    package var interface: String?

    /// The defaults: port 1900, the multicast group, no control calls, nothing skipped, 5 s, 1 MiB.
    package init() {}

    /// Whether `check` (or its group) is to be made.
    func wants(_ check: String) -> Bool {
        let lowered = check.lowercased()
        return !skip.contains(lowered) && !skip.contains(String(lowered.prefix { $0 != "." }))
    }
}

/// `ssdp-sim check`: audits a device against UDA 1.1 by using it as a control point does, and reports
/// each rule it follows or breaks.
package enum DeviceChecker {
    /// The most devices one run checks, from an address or a search target.
    package static let maximumDevices = 16

    /// Checks every device `target` names; `onResult` sees each result as it is made.
    package static func run(
        _ target: DeviceCheckTarget,
        options: DeviceCheckOptions,
        onResult: @escaping @Sendable (DeviceCheckResult) -> Void = { _ in }
    ) async -> DeviceCheckReport {
        let log = ResultLog(options: options, onResult: onResult)
        // The group is listened to while everything else is checked, and until --listen's time is up.
        var listener: NotifyListener?
        if options.listen != nil, options.wants("advertisement") {
            do {
                listener = try await NotifyListener.start(port: options.ssdpPort, interface: options.interface)
            } catch {
                log.record(
                    .skipped(
                        "advertisement",
                        "",
                        "cannot listen to the SSDP group on port \(options.ssdpPort): \(error)"
                    )
                )
            }
        }
        switch target {
        case .location(let url):
            await check(url, ssdpHost: url.host ?? "", options: options, log: log)
        case .address(let address):
            // Each device is then searched where its LOCATION says it is, as a control point reaches it.
            for location in await locations(answering: "ssdp:all", at: address, options: options, log: log) {
                await check(location, ssdpHost: location.host ?? address, options: options, log: log)
            }
        case .searchTarget(let searchTarget):
            // Each device is then searched where it was found: by multicast, a UPnP 1.0 device too.
            for location in await locations(answering: searchTarget, at: options.searchHost, options: options, log: log)
            {
                await check(location, ssdpHost: options.searchHost, options: options, log: log)
            }
        }
        if let listener, let listen = options.listen {
            if listener.elapsed < listen { try? await Task.sleep(for: listen - listener.elapsed) }
            let listened = listener.elapsed
            await listener.stop()
            let datagrams = listener.datagrams
            for (location, device) in log.described {
                log.location = location.absoluteString
                AdvertisementAudit.evaluate(
                    datagrams,
                    device: device,
                    location: location,
                    listened: listened,
                    expectByebye: options.expectByebye,
                    knownMaxAge: log.maxAges[device.udn.lowercased()]
                ).forEach(log.record)
            }
        }
        return DeviceCheckReport(target: target.description, results: log.results)
    }

    /// The LOCATIONs of the devices that answer `searchTarget` at `host`; a failed `discovery.answers` when
    /// none answers.
    static func locations(
        answering searchTarget: String,
        at host: String,
        options: DeviceCheckOptions,
        log: ResultLog
    ) async -> [URL] {
        let search = CheckSearch(
            check: "discovery.answers",
            subject: searchTarget,
            target: searchTarget,
            expected: [],
            bytes: DiscoveryAudit.search(target: searchTarget, mx: "\(options.mx)")
        )
        guard let address = try? SocketAddress(ipAddress: host, port: options.ssdpPort) else {
            log.record(.failed("discovery.answers", searchTarget, "\(host) is not an IP address"))
            return []
        }
        let answers: [CheckAnswer]
        switch await DiscoveryAudit.send([search], to: address).first {
        case .failure(let error):
            // No route to the group, say: the search never left, which "no device answered" would hide.
            let reason = (error as? IOError).map { String(cString: strerror($0.errnoCode)) } ?? "\(error)"
            log.record(
                .failed(
                    "discovery.answers",
                    searchTarget,
                    "cannot send the search to \(address.endpointDescription): \(reason)"
                )
            )
            return []
        case .success(let received): answers = received
        case nil: answers = []
        }
        var found: [URL] = []
        for answer in answers {
            guard let message = try? SSDPParser.parse(answer.bytes), let text = message.message.headers[.location],
                let url = URL(string: text), !found.contains(url)
            else { continue }
            // A LOCATION on a third host is not followed: an answer must not send the checker elsewhere.
            guard url.host == answer.source || url.host == host else {
                log.record(
                    .failed(
                        "discovery.location",
                        text,
                        "the answer from \(answer.source) names another host; not followed",
                        evidence: answer.text
                    )
                )
                continue
            }
            guard found.count < Self.maximumDevices else { break }
            found.append(url)
        }
        if found.isEmpty {
            let unanswered =
                "no device answered \(searchTarget) at \(host):\(options.ssdpPort) within \(search.wait.shortSecondsText) s"
            log.record(
                .failed(
                    "discovery.answers",
                    searchTarget,
                    answers.isEmpty
                        ? unanswered + (await whyUnanswered(toward: address))
                        : "\(plural(answers.count, "answer")), none with a LOCATION",
                    evidence: answers.first.map(\.text) ?? ""
                )
            )
        }
        return found
    }

    /// What to look at when no device answered a search to `address`: the search's source, when a device
    /// that drops searches by their source would drop it (as ssdp-sim's do, and many real devices), else
    /// where such a drop shows.
    private static func whyUnanswered(toward address: SocketAddress) async -> String {
        guard let source = await SSDPProbe.sourceAddress(toward: address), let ip = source.ipAddress else {
            return ": is the device up, and is there a route to \(address.ipAddress ?? "it")?"
        }
        if !SourceAddressPolicy.localOnly.allows(source) {
            let policy = "answers only local sources (ssdp-sim's, unless serve --allow-any-source; many real ones)"
            let who =
                address.isMulticast
                ? "a device that \(policy) dropped it"
                : "the device at \(address.ipAddress ?? "it") \(policy) dropped it"
            return
                ": our search left from \(ip), which is not a loopback, private or link-local address, so \(who) for its source policy"
        }
        return
            ": is the device up and on this network? Our search left from \(ip); a device that drops searches by their source says so in its own log (ssdp-sim: a `dropped` event with its reason)"
    }

    /// Every check of the root device at `location`, whose searches go to `ssdpHost`.
    private static func check(
        _ location: URL,
        ssdpHost: String,
        options: DeviceCheckOptions,
        log: ResultLog
    ) async {
        log.location = location.absoluteString
        let fetch = HTTPFetch(timeout: options.timeout, maximumBodySize: options.maximumDocumentSize)
        let (exchange, fetched) = await document(
            "description.fetch",
            location.absoluteString,
            location,
            fetch: fetch,
            log: log
        )
        let (audit, device) = fetched.map { DescriptionAudit.audit($0, location: location) } ?? ([], nil)
        audit.forEach(log.record)
        guard let device else {
            for group in DeviceCheckOptions.groups where group != "description" {
                log.record(.skipped(group, "", "the description could not be read"))
            }
            return
        }
        // A device may describe itself at a second LOCATION (a Roku's DIAL dd.xml): that description is
        // checked, and what it adds (DIAL), not the device again.
        let first = log.checkedDevices[device.udn.lowercased()]
        var services: [(DescribedDevice.Service, DescribedService?)] = []
        if let first {
            for group in DeviceCheckOptions.groups
            where !["description", "dial"].contains(group) && (group != "profile" || options.profile != nil) {
                log.record(.skipped(group, "", "\(device.udn) was checked at \(first.absoluteString)"))
            }
        } else {
            log.checkedDevices[device.udn.lowercased()] = location
            log.described.append((location, device))
            services = await useDevice(
                device,
                location: location,
                ssdpHost: ssdpHost,
                exchange: exchange,
                fetch: fetch,
                options: options,
                log: log
            )
        }
        await vendorChecks(
            device,
            location: location,
            ssdpHost: ssdpHost,
            description: exchange,
            fetch: fetch,
            options: options,
            log: log,
            secondary: first != nil
        )
        guard first == nil else { return }
        guard options.control, options.wants("control") else {
            log.record(
                .skipped(
                    "control",
                    "",
                    options.wants("control") ? "calls actions only with --control" : "skipped as asked (--skip)"
                )
            )
            return
        }
        for case (let service, let described?) in services where service.controlURL != nil {
            (await ControlAudit.check(service, described: described, fetch: fetch)).forEach(log.record)
        }
    }

    /// Discovery, the SCPDs and eventing of a device seen for the first time; its services with their SCPDs.
    private static func useDevice(
        _ device: DescribedDevice,
        location: URL,
        ssdpHost: String,
        exchange: HTTPExchange,
        fetch: HTTPFetch,
        options: DeviceCheckOptions,
        log: ResultLog
    ) async -> [(DescribedDevice.Service, DescribedService?)] {
        if options.wants("discovery") {
            await discover(device, location: location, ssdpHost: ssdpHost, options: options, log: log)
        } else {
            log.record(.skipped("discovery", "", "skipped as asked (--skip)"))
        }
        let all = device.allDevices.flatMap(\.services)
        let wanted = options.wants("scpd") || options.wants("gena") || options.control
        // Fetched side by side, judged in order: three SCPDs that hang cost one timeout, not three.
        let exchanges = wanted ? await fetchAll(all.map(\.scpdURL), fetch: fetch) : []
        var services: [(DescribedDevice.Service, DescribedService?)] = []
        for (index, service) in all.enumerated() {
            let described = wanted ? serviceDescription(service, exchange: exchanges[index], log: log) : nil
            services.append((service, described))
        }
        if options.wants("gena") {
            await eventing(services, fetch: fetch, localAddress: exchange.localAddress, options: options, log: log)
        } else {
            log.record(.skipped("gena", "", "skipped as asked (--skip)"))
        }
        return services
    }

    /// The DIAL checks when the description came with an Application-URL, the ECP checks of a Roku, and
    /// the device held to `--profile`.
    private static func vendorChecks(
        _ device: DescribedDevice,
        location: URL,
        ssdpHost: String,
        description: HTTPExchange,
        fetch: HTTPFetch,
        options: DeviceCheckOptions,
        log: ResultLog,
        secondary: Bool = false
    ) async {
        if !options.wants("dial") {
            log.record(.skipped("dial", "", "skipped as asked (--skip)"))
        } else if let applicationURL = description.message?.header("Application-URL") {
            (await DIALAudit.check(
                applicationURL: applicationURL,
                location: location,
                apps: options.dialApps,
                control: options.control,
                fetch: fetch
            )).forEach(log.record)
        } else {
            log.record(.skipped("dial", "", "the description came without an Application-URL: not a DIAL device"))
        }
        guard !secondary else { return }
        if !options.wants("ecp") {
            log.record(.skipped("ecp", "", "skipped as asked (--skip)"))
        } else if device.deviceType.lowercased().contains("roku"), let url = location.origin {
            (await ECPAudit.check(origin: url, fetch: fetch)).forEach(log.record)
        } else {
            log.record(.skipped("ecp", "", "not a Roku (its device type is \(device.deviceType))"))
        }
        guard let profile = options.profile else { return }
        guard options.wants("profile") else {
            log.record(.skipped("profile", "", "skipped as asked (--skip)"))
            return
        }
        (await ProfileAudit.check(
            profile,
            device: device,
            location: location,
            ssdpAddress: try? SocketAddress(ipAddress: ssdpHost, port: options.ssdpPort),
            fetch: fetch
        )).forEach(log.record)
    }

    /// Fetches the document at `url` for `check`, records how it went, and returns the exchange and the body
    /// (`nil` when the fetch failed).
    private static func document(
        _ check: String,
        _ subject: String,
        _ url: URL,
        fetch: HTTPFetch,
        log: ResultLog
    ) async -> (exchange: HTTPExchange, body: [UInt8]?) {
        let exchange = await fetch.exchange("GET", url)
        return (exchange, documentResult(check, subject, exchange, log: log))
    }

    /// Records how the fetch `exchange` of a document went for `check`; the body when it gave one.
    private static func documentResult(
        _ check: String,
        _ subject: String,
        _ exchange: HTTPExchange,
        log: ResultLog
    ) -> [UInt8]? {
        let problem = documentProblem(exchange)
        log.record(
            .expect(
                check,
                subject,
                failure: problem,
                passed: "\(exchange.message?.body.count ?? 0) bytes",
                evidence: exchange.evidence
            )
        )
        return problem == nil ? exchange.message?.body : nil
    }

    /// What is wrong with a document fetch, or `nil` when it gave 200 and a body.
    static func documentProblem(_ exchange: HTTPExchange) -> String? {
        switch exchange.response {
        case .failure(let error): return error.reason
        case .success(let message):
            if message.status != 200 { return exchange.notOK }
            if message.body.isEmpty { return "answered 200 OK with an empty body" }
            return nil
        }
    }

    private static func discover(
        _ device: DescribedDevice,
        location: URL,
        ssdpHost: String,
        options: DeviceCheckOptions,
        log: ResultLog
    ) async {
        guard let address = try? SocketAddress(ipAddress: ssdpHost, port: options.ssdpPort) else {
            log.record(.skipped("discovery", "", "\(ssdpHost) is not an IP address to search at"))
            return
        }
        let searches = DiscoveryAudit.searches(for: device, mx: options.mx)
        let answers = await DiscoveryAudit.send(searches, to: address)
        let uuids = Set(device.allDevices.map { $0.udn.lowercased() })
        // The max-age its answers give: how long the advertisement checks may go without an alive.
        log.maxAges[device.udn.lowercased()] = answers.flatMap { (try? $0.get()) ?? [] }.compactMap { answer in
            (try? SSDPParser.parse(answer.bytes)).flatMap { parsed -> Int? in
                guard let usn = parsed.message.headers[.usn],
                    uuids.contains(DiscoveryAudit.uuid(ofUSN: usn).lowercased())
                else { return nil }
                return parsed.message.headers[.cacheControl].flatMap { SSDPCacheControl($0).maxAge }
            }
        }.max()
        let unanswered = zip(searches, answers).allSatisfy { search, result in
            search.expected.isEmpty || (try? result.get())?.isEmpty == true
        }
        if unanswered, device.specVersion == "1.0", !SSDPConformance.isMulticastHost("\(ssdpHost):1900") {
            log.record(
                .skipped(
                    "discovery",
                    ssdpHost,
                    "no answer at \(ssdpHost):\(options.ssdpPort): a UPnP 1.0 device need not answer a search sent to "
                        + "its address (UDA 1.1 added those); give a search target to search by multicast, as its "
                        + "control points do, or --port if it listens for searches on another port"
                )
            )
            return
        }
        for (search, result) in zip(searches, answers) {
            switch result {
            case .success(let answers):
                DiscoveryAudit.evaluate(
                    search,
                    answers: answers,
                    location: location,
                    searchedHost: ssdpHost,
                    deviceUUIDs: uuids
                )
                .forEach(log.record)
            case .failure(let error):
                log.record(.failed(search.check, search.subject, "the search could not be sent: \(error)"))
            }
        }
    }

    /// The SCPD checks of `service`, and its SCPD when it could be read.
    /// The GET of each of `urls` (`nil` where there is no URL), all at once, in the order of `urls`.
    private static func fetchAll(_ urls: [URL?], fetch: HTTPFetch) async -> [HTTPExchange?] {
        await withTaskGroup(of: (Int, HTTPExchange?).self) { group in
            for (index, url) in urls.enumerated() {
                group.addTask {
                    guard let url else { return (index, nil) }
                    return (index, await fetch.exchange("GET", url))
                }
            }
            var exchanges = [HTTPExchange?](repeating: nil, count: urls.count)
            for await (index, exchange) in group { exchanges[index] = exchange }
            return exchanges
        }
    }

    /// The SCPD checks of `service`, whose SCPD fetch is `exchange` (`nil`: it has no SCPDURL).
    private static func serviceDescription(
        _ service: DescribedDevice.Service,
        exchange: HTTPExchange?,
        log: ResultLog
    ) -> DescribedService? {
        guard let exchange else {
            log.record(.failed("scpd.fetch", service.serviceType, "the service's SCPDURL is missing or not a URL"))
            return nil
        }
        guard let body = documentResult("scpd.fetch", service.serviceType, exchange, log: log) else {
            return nil
        }
        let (results, described) = ServiceDescriptionAudit.audit(
            body,
            subject: service.serviceType,
            hasControlURL: service.controlURL != nil
        )
        results.forEach(log.record)
        return described
    }

    private static func eventing(
        _ services: [(DescribedDevice.Service, DescribedService?)],
        fetch: HTTPFetch,
        localAddress: SocketAddress?,
        options: DeviceCheckOptions,
        log: ResultLog
    ) async {
        let evented = services.filter { $0.0.eventSubURL != nil }
        guard !evented.isEmpty else {
            log.record(.skipped("gena", "", "no service has an eventSubURL"))
            return
        }
        guard let host = localAddress?.ipAddress,
            let listener = try? await EventListener.start(
                host: host,
                eventLoopGroup: MultiThreadedEventLoopGroup.singleton
            )
        else {
            log.record(.skipped("gena", "", "cannot listen for events on the address that reaches the device"))
            return
        }
        let stranger = options.strangerHost ?? Self.stranger(for: host)
        for (service, described) in evented {
            (await EventingAudit.check(
                service,
                described: described,
                fetch: fetch,
                listener: listener,
                stranger: stranger
            ))
            .forEach(log.record)
        }
        await listener.stop()
    }

    /// A host no device should send events to for a subscriber at `host`: on loopback, an address no one
    /// listens on; elsewhere an address of the documentation ranges (RFC 5737, RFC 3849) that names no host.
    static func stranger(for host: String) -> String {
        if host.hasPrefix("127.") { return "127.255.255.254" }
        if host == "::1" { return "::ffff:127.255.255.254" }
        return host.contains(":") ? "2001:db8::1" : "192.0.2.1"
    }
}

/// The results of one run, in order, each one also handed to the caller as it is made; a result of a
/// check the user skipped becomes a skip.
final class ResultLog {
    private(set) var results: [DeviceCheckResult] = []
    /// The LOCATION of the device being checked, written into each result.
    var location = ""
    /// The LOCATION each device (by its UDN, in lower case) was checked at first.
    var checkedDevices: [String: URL] = [:]
    /// Each device checked, at its first LOCATION: what its advertisements are held to.
    var described: [(URL, DescribedDevice)] = []
    /// The max-age each device's answers gave, by UDN in lower case.
    var maxAges: [String: Int] = [:]
    private let options: DeviceCheckOptions
    private let onResult: @Sendable (DeviceCheckResult) -> Void

    init(options: DeviceCheckOptions, onResult: @escaping @Sendable (DeviceCheckResult) -> Void) {
        self.options = options
        self.onResult = onResult
    }

    func record(_ result: DeviceCheckResult) {
        var result = result
        if result.outcome != .skipped, !options.wants(result.check) {
            result = .skipped(result.check, result.subject, "skipped as asked (--skip)")
        }
        result.location = location
        results.append(result)
        onResult(result)
    }
}
