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

import ArgumentParser
import SSDPCore
import SSDPDeviceCore
import SSDPDevices
import SSDPNIO
import SSDPSimulator

/// Which devices `serve` runs: a profile and a count, or a device file.
struct DeviceOptions: ParsableArguments {
    @Option(help: "The device profile (see `ssdp-sim profiles`).")
    var profile = "generic"

    @Option(help: "How many devices of the profile, 1...10000.")
    var count = 1

    @Option(
        help: ArgumentHelp(
            "A JSON device file (the format scenario files use); replaces --profile and --count.",
            valueName: "file"
        )
    )
    var devices: String?

    @Option(help: "The friendly name (numbered when --count is above 1).")
    var friendlyName: String?

    @Option(help: "The root device type, urn:…:device:NAME:VERSION.")
    var deviceType: String?

    @Option(help: "The SERVER header.")
    var server: String?

    @Option(help: "CACHE-CONTROL max-age in seconds.")
    var maxAge: Int?

    func makeDevices(seed: UInt64) throws -> [SimulatedDevice] {
        if let devices {
            do {
                return try DeviceFile.load(path: devices, seed: seed).devices
            } catch {
                throw ValidationError("\(error)")
            }
        }
        let specification = DeviceSpecification(
            profile: profile,
            count: count,
            friendlyName: friendlyName,
            deviceType: deviceType,
            server: server,
            maxAge: maxAge
        )
        do {
            return try specification.makeDevices(firstNumber: 1, seed: seed)
        } catch {
            throw ValidationError(describe(error))
        }
    }
}

/// How every device misbehaves. With none of these flags, a device file's behaviours stand.
struct BehaviourOptions: ParsableArguments {
    @Option(
        help: """
            When answers leave: uniform (random within MX), immediate, whole-seconds (libupnp), fixed:SECONDS, \
            late:SECONDS (after MX).
            """
    )
    var delay: String?

    @Option(help: "Probability (0...1) that a device does not hear a search.")
    var loss: Double?

    @Option(help: "Probability (0...1) that each answer datagram is lost.")
    var responseLoss: Double?

    @Option(help: "Ignore the first K searches (a deterministic loss pattern).")
    var ignoreFirst: Int?

    @Option(help: "Send each answer this many times, 1...10.")
    var duplicates: Int?

    @Flag(help: "Answer every search with the device's own targets, whatever the ST (like a Hue bridge).")
    var chatty = false

    @Option(help: "Chatter, comma-separated: any-target, wrong-target, notifies.")
    var chatter: String?

    @Option(
        help: """
            Malform every answer, comma-separated: lf-only, lowercase-names, no-space-after-colon, spaced-max-age, \
            missing-ext, missing-cache-control, missing-location, missing-server, missing-usn, no-final-blank-line, \
            invalid-utf8, oversized.
            """
    )
    var malformed: String?

    @Option(help: "Answer nothing from FROM to UNTIL seconds after start (e.g. 2-5); repeatable.")
    var silent: [String] = []

    @Flag(help: "Start from a well-behaved device instead of the profile's known quirks (a Hue's chatter).")
    var noQuirks = false

    /// Applies the flags to every device: each flag given replaces that part of the device's behaviour
    /// (its profile's quirks, or its device file's behaviour). The flags are read by the same code as a
    /// device file's `behaviour`.
    func apply(to devices: inout [SimulatedDevice]) throws {
        let given =
            delay != nil || loss != nil || responseLoss != nil || ignoreFirst != nil || duplicates != nil || chatty
            || chatter != nil || malformed != nil || !silent.isEmpty
        guard given || noQuirks else { return }
        let specification = BehaviourSpecification(
            delay: delay,
            searchLoss: loss,
            responseLoss: responseLoss,
            ignoreFirst: ignoreFirst,
            duplicates: duplicates,
            chatty: chatty || chatter != nil ? (chatty ? ["any-target"] : []) + (chatter.map { [$0] } ?? []) : nil,
            malformed: malformed.map { [$0] },
            silent: silent.isEmpty ? nil : silent
        )
        do throws(SSDPConfigurationError) {
            for index in devices.indices {
                let base = noQuirks ? SSDPDeviceBehaviour() : devices[index].behaviour
                devices[index].behaviour = try specification.makeBehaviour(base: base)
                try devices[index].behaviour.validate()
            }
        } catch {
            throw ValidationError(describe(error))
        }
    }
}

/// How every device's HTTP side misbehaves. With none of these flags, a device file's `httpFaults` stand.
struct HTTPFaultOptions: ParsableArguments {
    @Option(
        help:
            "A fault of the description at LOCATION: 503:N (the first N fetches), delay:SECONDS, hang, truncated, empty, malformed; repeatable."
    )
    var descriptionFault: [String] = []

    @Option(help: "A fault of every service description (SCPD), in the same forms; repeatable.")
    var scpdFault: [String] = []

    @Option(help: "Probability (0...1) that an event message (GENA NOTIFY) is never sent.")
    var eventLoss: Double?

    @Option(help: "Seconds each event message waits before it is sent.")
    var eventDelay: Double?

    /// Applies the flags to every device, read by the same code as a device file's `httpFaults`.
    func apply(to devices: inout [SimulatedDevice]) throws {
        let specification = HTTPFaultSpecification(
            description: descriptionFault.isEmpty ? nil : descriptionFault,
            serviceDescriptions: scpdFault.isEmpty ? nil : scpdFault,
            eventLoss: eventLoss,
            eventDelay: eventDelay
        )
        do throws(SSDPConfigurationError) {
            for index in devices.indices {
                devices[index].web.httpFaults = try specification.makeFaults(
                    field: "httpFaults",
                    base: devices[index].web.httpFaults
                )
            }
        } catch {
            throw ValidationError(describe(error))
        }
    }
}

/// Where and how `serve` meets the network.
struct NetworkOptions: ParsableArguments {
    @Option(
        help: """
            An interface to serve on; repeatable. Searches are answered on the interface they arrive on, with a \
            LOCATION of its address. Default: the first multicast-capable non-loopback one.
            """
    )
    var interface: [String] = []

    @Flag(help: "Serve on every multicast-capable interface but loopback (instead of --interface).")
    var allInterfaces = false

    @Flag(help: "Also serve IPv6: join FF02::C and answer with the interface's link-local address in [brackets].")
    var ipv6 = false

    @Flag(help: "Also serve IPv6 site-local: join FF05::C and answer with the interface's global or ULA address.")
    var siteLocal = false

    @Flag(help: "Do not serve IPv4 (with --ipv6 or --site-local).")
    var noIpv4 = false

    @Option(help: "The UDP port searches arrive on (0: the system chooses).")
    var port = 1900

    @Option(
        help: ArgumentHelp(
            """
            The port of each device's HTTP side: default, the real device's (Roku 8060, Sonos 1400, IGD 5000, \
            generic 49152); `any` for free ports; or PORT. Devices that share an address take consecutive ports.
            """,
            valueName: "port|any"
        )
    )
    var httpPort: String?

    @Option(
        help: ArgumentHelp(
            """
            Give the devices these addresses, in order: FIRST-LAST or a CIDR block, held by the interface (ip addr \
            add). Default: 127.0.0.2 onwards on loopback (Linux); elsewhere the interface's address, shared.
            """,
            valueName: "range"
        )
    )
    var addresses: String?

    @Flag(help: "Put every device at the interface's address (consecutive HTTP ports), even on loopback.")
    var sharedAddress = false

    @Flag(help: "Do not join the multicast group or send NOTIFY; answer unicast searches only.")
    var unicastOnly = false

    @Option(help: "strict (UDA 1.1: multicast searches need MX and MAN) or lenient (accept them anyway).")
    var strictness: SSDPSearchRequest.Strictness = .strict

    @Flag(help: "Answer searches from any address, not only loopback, private and link-local ones.")
    var allowAnySource = false

    @Option(help: "The most answers per second to one source address.")
    var rateLimit = 1_000

    @Option(help: "The most answers waiting for their delay at once; more are dropped and counted.")
    var maxPending = 10_000

    @Option(help: "The multicast TTL of NOTIFY messages.")
    var ttl = 2

    @Option(help: "How many times each NOTIFY round sends the alive set, 1...3.")
    var notifyCopies = 2

    @Option(
        help: """
            The seed of every random choice (UDNs, delays, loss): a number, or any other text (a pod's name), \
            which stands for its hash; default: random, printed at start.
            """
    )
    var seed: Seed?

    @Option(help: "BOOTID.UPNP.ORG; default: the start time in seconds, so it grows with every start.")
    var bootId: Int?

    /// The multicast scopes the flags ask for.
    var scopes: [SSDPMulticastScope] {
        (noIpv4 ? [] : [.ipv4]) + (ipv6 ? [.ipv6LinkLocal] : []) + (siteLocal ? [.ipv6SiteLocal] : [])
    }

    func makeConfiguration(devices: [SimulatedDevice], seed: UInt64) throws -> SimulatorConfiguration {
        guard !scopes.isEmpty else { throw ValidationError("--no-ipv4 needs --ipv6 or --site-local") }
        guard !(allInterfaces && !interface.isEmpty) else {
            throw ValidationError("give --interface or --all-interfaces, not both")
        }
        guard !(sharedAddress && addresses != nil) else {
            throw ValidationError("give --addresses or --shared-address, not both")
        }
        var configuration = SimulatorConfiguration(
            devices: devices,
            interfaces: interface,
            port: port,
            httpPort: try httpPorts(),
            listening: unicastOnly ? .unicastOnly : .multicast,
            responder: .init(
                strictness: strictness,
                answersPerSourcePerSecond: rateLimit,
                maximumPendingAnswers: maxPending
            ),
            multicastTTL: ttl,
            sourcePolicy: allowAnySource ? .any : .localOnly,
            notifyCopies: notifyCopies,
            seed: seed,
            bootID: bootId
        )
        configuration.allInterfaces = allInterfaces
        configuration.scopes = scopes
        if sharedAddress {
            configuration.addressing = .shared
        } else if let addresses {
            do {
                configuration.addressing = .list(try DeviceAddressing.parse(addresses, limit: devices.count))
            } catch {
                throw ValidationError(describe(error))
            }
        }
        return configuration
    }

    /// `--http-port`: absent or `real`, `any` (or 0), or a port.
    private func httpPorts() throws -> HTTPPorts {
        switch httpPort {
        case nil, "real": return .real
        case "any", "0": return .any
        case let text?:
            guard let port = Int(text), (1...65_535).contains(port) else {
                throw ValidationError("--http-port '\(text)': expected a port 1...65535, any, or real")
            }
            return .fixed(port)
        }
    }
}

extension SSDPSearchRequest.Strictness: ExpressibleByArgument {}

/// `--seed`: a number, or any other text, which stands for its 64-bit FNV-1a hash. The same text makes the
/// same devices, so replicas given their pod's name (Kubernetes' downward API) each have UDNs of their own,
/// and a StatefulSet's pod that comes back under its name comes back with its UDNs, as a rebooted device
/// does. The number printed at start reproduces the run.
struct Seed: ExpressibleByArgument {
    let value: UInt64

    init?(argument: String) {
        if let number = UInt64(argument) {
            value = number
            return
        }
        guard !argument.isEmpty else { return nil }
        value = argument.utf8.reduce(0xcbf2_9ce4_8422_2325) { hash, byte in (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    }
}

/// A configuration error as a user reads it: the flag (or field) at fault, the value, and the reason.
func describe(_ error: SSDPConfigurationError) -> String {
    let flags = [
        "searchLoss": "--loss", "responseLoss": "--response-loss", "ignoredSearches": "--ignore-first",
        "duplicates": "--duplicates", "delay": "--delay", "silent": "--silent",
        "chatty": "--chatter", "malformed": "--malformed", "count": "--count", "profile": "--profile",
        "port": "--port", "httpPort": "--http-port", "addresses": "--addresses", "ttl": "--ttl",
        "notifyCopies": "--notify-copies",
        "rateLimit": "--rate-limit", "maxPending": "--max-pending", "maxAge": "--max-age",
        "deviceType": "--device-type",
        "httpFaults.eventLoss": "--event-loss", "httpFaults.eventDelay": "--event-delay",
    ]
    let field = error.field.hasPrefix("behaviour.") ? String(error.field.dropFirst("behaviour.".count)) : error.field
    if field.hasPrefix("httpFaults.description[") { return "--description-fault '\(error.value)': \(error.reason)" }
    if field.hasPrefix("httpFaults.serviceDescriptions[") { return "--scpd-fault '\(error.value)': \(error.reason)" }
    return "\(flags[field] ?? error.field) '\(error.value)': \(error.reason)"
}
