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
import Dispatch
import Foundation
import SSDPCapture
import SSDPCheck
import SSDPCore
import SSDPDeviceCore
import SSDPDevices
import SSDPHarness
import SSDPSimulator
import Synchronization

struct Record: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Record a real device, so that serve can play it back as that device.",
        discussion: """
            Meets the device as a control point does and keeps what it said, byte for byte: its answers \
            to ssdp:all, upnp:rootdevice, each UUID and each type its description names (and to each \
            other target those answers name), with their delays; its description, SCPDs and icons; what it \
            answers to a HEAD, to a path it does not have and to a method it does not take. The file is a \
            device file: `ssdp-sim serve --devices FILE` answers searches and serves those documents as \
            the device did, at its own address, on the device's port. What identifies the device (UUIDs, \
            addresses, MACs, serial numbers, names) is said after a recording; --anonymize replaces it, \
            the same value by the same replacement everywhere in the file.

              ssdp-sim record http://192.168.1.1:5000/rootDesc.xml --output router.json
              ssdp-sim record urn:schemas-upnp-org:device:MediaServer:1 --pick 1 --output nas.json
              ssdp-sim serve --devices router.json

            A file is written whole or not at all: a device that does not answer, a description that is \
            not one, a document that does not arrive whole within --timeout or is larger than 1 MiB, an \
            interrupt (SIGINT, SIGTERM) leave no file. Exit status: 0 written, 1 nothing recorded (the \
            message names the URL and why), 64 invalid input, 130 interrupted.
            """
    )

    @OptionGroup var device: ControlPointOptions

    @Option(name: [.short, .long], help: "Write the device file here.")
    var output: String

    @Option(help: "Of several devices found (an address, a search target), record only the Nth.")
    var pick: Int?

    @Flag(help: "Replace what identifies the device (UUIDs, addresses, MACs, serial numbers, names) in the file.")
    var anonymize = false

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Listen on the group this many seconds (0.1 to 3600) from the start for the device's NOTIFY messages (Linux).",
            valueName: "seconds"
        )
    )
    var listen: Double?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Wait up to this many seconds (0.1 to 3600) for the device to appear, looking again a second after each try: start the recording, then the device, and with --listen what it says as it starts is recorded too.",
            valueName: "seconds"
        )
    )
    var wait: Double?

    @Option(
        name: .customLong("call"),
        help: ArgumentHelp(
            "Also make this action call, which may change the device, and keep its answer: 'SERVICE#ACTION NAME=VALUE ...' (repeatable; made last, in order).",
            valueName: "call"
        )
    )
    var calls: [String] = []

    func validate() throws {
        for call in calls {
            if case .failure(let error) = NamedCall.parse(call) { throw ValidationError("--call \(error.reason)") }
        }
        guard calls.count <= HTTPRecording.maximumCalls else {
            throw ValidationError("--call: at most \(HTTPRecording.maximumCalls) calls, got \(calls.count)")
        }
        #if !os(Linux)
        if listen != nil { throw ValidationError("--listen needs Linux (it reads each NOTIFY's TTL: IP_RECVTTL)") }
        #endif
        if let pick, pick < 1 { throw ValidationError("--pick must be 1 or more, got \(pick)") }
        if let listen, !(0.1...3_600).contains(listen) {
            throw ValidationError("--listen must be 0.1...3600 seconds, got \(listen)")
        }
        if let wait, !(0.1...3_600).contains(wait) {
            throw ValidationError("--wait must be 0.1...3600 seconds, got \(wait)")
        }
        try validateReportPaths([("--output", output)])
    }

    func run() async throws {
        let output = CommandOutput(json: false)
        let interrupt = Interrupt.install()
        var options = DeviceRecordOptions()
        options.ssdpPort = device.port
        options.searchHost = device.host
        options.mx = device.mx
        options.timeout = device.exchangeTimeout
        options.pick = pick
        options.listen = listen.map { .milliseconds(Int64($0 * 1_000)) }
        options.wait = wait.map { .milliseconds(Int64($0 * 1_000)) }
        options.stillListening = { left in
            output.say(
                left > .zero
                    ? "Recorded; listening \(left.secondsText) s more (a device stopped now is heard saying byebye)"
                    : "Recorded; the listening (--listen) ended before the recording did: a device stopped now is not heard"
            )
        }
        options.calls = calls.compactMap { try? NamedCall.parse($0).get() }
        output.say("Recording \(device.target)")
        let devices: [RecordedDevice]
        do {
            devices = try await DeviceRecorder.record(try device.deviceTarget(), options: options)
        } catch {
            output.error("nothing recorded: \(error)")
            throw ExitCode(1)
        }
        let file = RecordingFile(devices: devices, anonymize: anonymize, listened: listen != nil)
        do {
            try interrupt.whileWriting { try file.write(to: self.output) }
        } catch {
            output.error("\(error)")
            throw ExitCode(1)
        }
        for line in file.summary { output.say(line) }
        output.say("Wrote \(self.output): serve it with `ssdp-sim serve --devices \(self.output)`")
    }
}

/// SIGINT and SIGTERM while a recording is made: the run ends at once with 130 and no file; once the file is
/// being written, the write finishes first (it is atomic and quick), so a file is whole or absent. The
/// decision and the exit happen under the lock the write takes, so the two cannot cross.
private final class Interrupt: @unchecked Sendable {
    // `sources` is set before any source is resumed, and only keeps them alive; `writing` is locked.
    private let writing = Mutex(false)
    private var sources: [any DispatchSourceSignal] = []

    static func install() -> Interrupt {
        let interrupt = Interrupt()
        interrupt.sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                interrupt.writing.withLock { writing in
                    guard !writing else { return }
                    FileHandle.standardError.write(Data("interrupted: nothing written\n".utf8))
                    _exit(130)
                }
            }
            return source
        }
        for source in interrupt.sources { source.resume() }
        return interrupt
    }

    /// Runs `write`; an interrupt from now on waits for the process to end by itself.
    func whileWriting(_ write: () throws -> Void) rethrows {
        writing.withLock { $0 = true }
        try write()
    }
}

extension DeviceSpecification {
    /// A device file entry for a recorded device: the built-in profile of its family when there is one (what
    /// answers the calls the recording does not hold, and lays out its NOTIFY messages where none was heard),
    /// what its answers say of it (SERVER, BOOTID, CONFIGID; the max-age of its NOTIFYs where one was heard,
    /// else its answers' when no profile knows its NOTIFY's), and the recording, whose description names the
    /// device.
    init(recorded device: RecordedDevice) {
        var family = SimulatorProfile.family(ofDeviceType: device.deviceType)?.name
        // A Roku TV has a Roku player's device type; its device-info says which it is.
        let deviceInfo = device.exchanges.first { $0.method == "GET" && $0.target == "/query/device-info" }
        if family == "roku", let deviceInfo,
            String(decoding: deviceInfo.response, as: UTF8.self).contains("<is-tv>true</is-tv>")
        {
            family = "roku-tv"
        }
        self.init(profile: family, server: device.server)
        maxAge = device.notifyMaxAge ?? (family == nil ? device.maxAge : nil)
        bootId = device.bootID
        configId = device.configID
        let exchange = { (exchange: RecordedDevice.Exchange) in
            RecordingSpecification.Exchange(
                method: exchange.method,
                target: exchange.target,
                soap: exchange.soap.map {
                    .init(action: $0.action, arguments: Dictionary($0.arguments) { _, last in last })
                },
                readsState: exchange.readsState,
                proxied: exchange.proxied,
                body: exchange.requestBody,
                bytes: exchange.response
            )
        }
        recording = RecordingSpecification(
            source: .init(
                location: device.location.absoluteString,
                recorded: ISO8601DateFormatter().string(from: Date()),
                tool: "ssdp-sim \(ToolVersion.current)"
            ),
            searches: device.searches.map { search in
                RecordingSpecification.Search(
                    st: search.target,
                    mx: device.mx,
                    answers: search.answers.map {
                        .init(delay: $0.delay.inSeconds, sourcePort: $0.sourcePort, bytes: $0.bytes)
                    }
                )
            },
            http: (device.exchanges + device.calls).map(exchange),
            notFound: device.notFound.map(exchange),
            unsupportedMethod: device.unsupportedMethod.map(exchange),
            events: device.events.map { RecordingSpecification.Event(target: $0.target, bytes: $0.response) },
            notifications: device.notifications.map {
                .init(delay: $0.elapsed.inSeconds, sourcePort: $0.sourcePort, ttl: $0.ttl, bytes: $0.bytes)
            },
            answerDelays: device.drawsDelaysWithinMX ? .withinMX : nil
        )
    }
}

extension RecordedDevice {
    /// The device with what identifies it replaced by `anonymizer`, consistently with every other device
    /// and file it anonymizes: its answers as datagrams are, its responses and calls as HTTP responses are
    /// (`CaptureAnonymizer.anonymize(response:headEnd:binaryBody:)`; a body that is not UTF-8, an icon, as
    /// it was), the arguments of its calls, its LOCATION, UDN and SERVER. Everything is gone through twice,
    /// so that a value first met late (a serial number in a document) is replaced in what came before it too.
    func anonymized(by anonymizer: inout CaptureAnonymizer) -> RecordedDevice {
        _ = anonymizing(by: &anonymizer)
        return anonymizing(by: &anonymizer)
    }

    private func anonymizing(by anonymizer: inout CaptureAnonymizer) -> RecordedDevice {
        let text = { (value: String, anonymizer: inout CaptureAnonymizer) in
            String(decoding: anonymizer.anonymize(recorded: Array(value.utf8)), as: UTF8.self)
        }
        let response = { (exchange: Exchange, anonymizer: inout CaptureAnonymizer) -> Exchange in
            var exchange = exchange
            let end = HTTPRecording.headEnd(exchange.response) ?? exchange.response.count
            let isText = String(validating: exchange.response[end...], as: UTF8.self) != nil
            exchange.response = Self.withContentLength(
                anonymizer.anonymize(response: exchange.response, headEnd: end, binaryBody: !isText)
            )
            if let soap = exchange.soap {
                exchange.soap = (soap.action, soap.arguments.map { ($0.0, text($0.1, &anonymizer)) })
            }
            return exchange
        }
        var device = self
        device.searches = searches.map { search in
            var search = search
            search.target = text(search.target, &anonymizer)
            for index in search.answers.indices {
                search.answers[index].bytes = anonymizer.anonymize(recorded: search.answers[index].bytes)
            }
            return search
        }
        device.exchanges = exchanges.map { response($0, &anonymizer) }
        // A HEAD says the length of the GET of its target: the anonymized GET's, where it said the recorded.
        for (index, head) in device.exchanges.enumerated() where head.method == "HEAD" {
            let get = { (exchanges: [Exchange]) in
                exchanges.first { $0.method == "GET" && $0.target == head.target }.map(Self.bodyLength)
            }
            guard let recorded = get(exchanges), let anonymized = get(device.exchanges), recorded != anonymized,
                let end = HTTPRecording.headEnd(head.response),
                let range = HTTPRecording.headerValueRange("content-length", in: Array(head.response[..<end])),
                String(decoding: head.response[range], as: UTF8.self) == "\(recorded)"
            else { continue }
            device.exchanges[index].response.replaceSubrange(range, with: Array("\(anonymized)".utf8))
        }
        for index in device.notifications.indices {
            device.notifications[index].bytes = anonymizer.anonymize(recorded: device.notifications[index].bytes)
        }
        device.calls = calls.map { response($0, &anonymizer) }
        device.events = events.map { response($0, &anonymizer) }
        device.notFound = notFound.map { response($0, &anonymizer) }
        device.unsupportedMethod = unsupportedMethod.map { response($0, &anonymizer) }
        device.location = URL(string: text(location.absoluteString, &anonymizer)) ?? location
        device.udn = text(udn, &anonymizer)
        device.server = server.map { text($0, &anonymizer) }
        device.leftOut = leftOut.map { text($0, &anonymizer) }
        return device
    }

    /// The length of an exchange's body.
    private static func bodyLength(_ exchange: Exchange) -> Int {
        exchange.response.count - (HTTPRecording.headEnd(exchange.response) ?? exchange.response.count)
    }

    /// `response` with its Content-Length saying its body's length, where a replacement changed it (not a
    /// HEAD's, or any answer without a body, whose Content-Length is another's).
    private static func withContentLength(_ response: [UInt8]) -> [UInt8] {
        let end = HTTPRecording.headEnd(response) ?? response.count
        let head = Array(response[..<end])
        // Line ends the device sent after the length it gave stay out of it, as they came.
        let trailer = HTTPRecording.trailingLineEnds(of: Array(response[end...]), head: head)
        return HTTPRecording.withContentLength(response.count - end - trailer.count, in: head) + response[end...]
    }
}
