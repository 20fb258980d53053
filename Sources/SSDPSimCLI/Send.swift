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
import Foundation
import NIOCore
import SSDPCore
import SSDPNIO
import SSDPSearch

struct Send: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Send one SSDP datagram as-is and print every answer with its source and time (netcat for SSDP).",
        discussion: """
            The datagram comes from --st (an M-SEARCH built for you), --file PATH, or standard input \
            (--file - or a pipe), and is sent exactly as given. Answers are printed as they arrive, \
            each after a line with its time offset, source and size.

              ssdp-sim send --host 127.0.0.1 --port 1901 --st upnp:rootdevice --mx 1
              printf 'M-SEARCH * HTTP/1.1\\r\\nHOST: 127.0.0.1:1901\\r\\nMAN: "ssdp:discover"\\r\\nST: ssdp:all\\r\\n\\r\\n' \\
                | ssdp-sim send --host 127.0.0.1 --port 1901
            """
    )

    @Option(help: "Build an M-SEARCH for this search target.")
    var st: String?

    @Option(help: "MX of the M-SEARCH --st builds (omitted for a unicast --host).")
    var mx = 1

    @Option(help: ArgumentHelp("Send this file's bytes; - reads standard input.", valueName: "path"))
    var file: String?

    @Option(help: "Where to send: the multicast group or a device's IP address.")
    var host = SSDPSearchSessionConfiguration.multicastHost

    @Option(help: "The destination port.")
    var port = SSDPSearchSessionConfiguration.multicastPort

    @Option(help: "Seconds to wait for answers.")
    var wait = 3.0

    @Option(help: "The interface to send on.")
    var interface: String?

    @Option(help: "The multicast TTL, 1...255.")
    var ttl = 2

    @Flag(help: "Print one JSON object per answer instead of text.")
    var json = false

    func validate() throws {
        guard isIPAddress(host) else { throw ValidationError("--host must be an IPv4 or IPv6 address, got '\(host)'") }
        guard (1...65_535).contains(port) else { throw ValidationError("--port must be 1...65535, got \(port)") }
        guard wait > 0, wait <= 3_600 else {
            throw ValidationError("--wait must be more than 0 and at most 3600 seconds, got \(wait)")
        }
        guard (1...255).contains(ttl) else { throw ValidationError("--ttl must be 1...255, got \(ttl)") }
        guard (1...120).contains(mx) else { throw ValidationError("--mx must be 1...120, got \(mx)") }
        if st != nil, file != nil { throw ValidationError("give --st or --file, not both") }
    }

    func run() async throws {
        let bytes = try message()
        let destination = try SocketAddress(ipAddress: host, port: port)
        let output = CommandOutput(json: json)
        output.say(
            "Sent \(plural(bytes.count, "byte")) to \(destination.endpointDescription); waiting \(wait) s for answers"
        )
        let count = try await SSDPProbe.send(
            bytes,
            to: destination,
            interface: interface,
            multicastTTL: ttl,
            wait: .milliseconds(Int64(wait * 1_000))
        ) { answer in
            output.emit(
                AnswerLine(
                    time: seconds(answer.elapsed),
                    from: answer.source.endpointDescription,
                    bytes: answer.bytes.count,
                    message: String(decoding: answer.bytes, as: UTF8.self)
                )
            )
        }
        output.say("--- \(plural(count, "answer")) in \(wait) s")
    }

    /// The datagram to send: built from --st, or read from --file or standard input.
    private func message() throws -> [UInt8] {
        if let st {
            var headers: SSDPHeaders = [:]
            headers.append(name: "HOST", value: "\(host.contains(":") ? "[\(host)]" : host):\(port)")
            headers.append(name: "MAN", value: "\"ssdp:discover\"")
            if SSDPConformance.isMulticastHost("\(host):\(port)") { headers.append(name: "MX", value: "\(mx)") }
            headers.append(name: "ST", value: st)
            return SSDPMessage(kind: .search, headers: headers).serialized()
        }
        let data: Data?
        if let file, file != "-" {
            data = FileManager.default.contents(atPath: file)
            guard data != nil else { throw ValidationError("--file '\(file)': cannot read the file") }
        } else if file == "-" || isatty(STDIN_FILENO) == 0 {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            throw ValidationError("nothing to send: give --st, --file, or pipe a message into standard input")
        }
        guard let data, !data.isEmpty else { throw ValidationError("nothing to send: the message is empty") }
        guard data.count <= 65_507 else {
            throw ValidationError("the message is \(data.count) bytes; a UDP datagram holds at most 65507")
        }
        return Array(data)
    }
}

/// One answer: a header line and the message as it came, or a JSON object with the message in `text`.
private struct AnswerLine: OutputLine {
    let event = "answer"
    var time: Double
    var from: String
    var bytes: Int
    var message: String

    enum CodingKeys: String, CodingKey {
        case event, time, from, bytes
        case message = "text"
    }

    var text: String? {
        "--- +\(time) s from \(from), \(plural(bytes, "byte"))\n" + message
    }
}
