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

// `ssdp-bench-probe parse|ingest FILE ROUNDS`: the parser or the search session's ingest over the datagrams
// in FILE (each a 4-byte big-endian length, then its bytes), ROUNDS times; `ssdp-bench-probe responder FILE
// ROUNDS`: the searches in FILE answered by 1,000 generic devices of one responder, ROUNDS times;
// `ssdp-bench-probe virtual FILE ROUNDS`: the scenario in FILE run in virtual time with its checks, ROUNDS
// times. The devices, searches and sessions are `Workloads`', as `ssdp-bench` times them. On the main
// thread and nothing else: `ssdp-bench` runs it under `valgrind --tool=callgrind` to count instructions per
// datagram, per answer and per run, figures that do not move with the machine's load. Synchronous and
// without Dispatch, because valgrind 3.19 cannot follow Dispatch's main-thread handling (the scenario is
// read with Foundation, which starts none).

import Foundation
import SSDPBenchWorkloads
import SSDPCore
import SSDPDeviceCore
import SSDPHarness

#if canImport(Glibc)
import Glibc
#endif

/// The datagrams of `path`, or `nil` when it cannot be read or is cut short.
func readDatagrams(_ path: String) -> [[UInt8]]? {
    guard let file = fopen(path, "rb") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while true {
        let count = fread(&chunk, 1, chunk.count, file)
        if count == 0 { break }
        bytes += chunk[0..<count]
    }
    var datagrams: [[UInt8]] = []
    var offset = 0
    while offset < bytes.count {
        guard offset + 4 <= bytes.count else { return nil }
        let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
        offset += 4
        guard offset + length <= bytes.count else { return nil }
        datagrams.append(Array(bytes[offset..<offset + length]))
        offset += length
    }
    return datagrams
}

func fail(_ message: String) -> Never {
    let line = "ssdp-bench-probe: \(message)\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
    exit(64)
}

/// The scenario in `path`, run in virtual time `rounds` times with its checks: the services found and the
/// checks passed, added up.
func runScenario(_ path: String, rounds: Int) -> Int {
    let scenario: Scenario
    do {
        scenario = try ScenarioFile.load(path: path)
    } catch {
        fail("\(error)")
    }
    var checksum = 0
    for _ in 0..<rounds {
        guard let record = try? VirtualRun.run(scenario) else { fail("the scenario did not run") }
        let checks = ScenarioChecks(
            scenario: scenario,
            record: record,
            tolerance: .zero,
            searchHost: "\(VirtualRun.searchDestination(scenario.search))"
        )
        checksum &+= (record.statistics?.servicesReported ?? 0) &+ checks.evaluate().filter(\.passed).count
    }
    return checksum
}

/// The searches in `searches` answered by `Workloads.countedResponderDevices` generic devices of one
/// responder, `rounds` times: the answers' bytes, added up.
func answer(_ searches: [[UInt8]], rounds: Int) -> Int {
    var responder = Workloads.responder(answering: Workloads.devices(Workloads.countedResponderDevices))
    var checksum = 0
    var now = SSDPInstant.zero
    for _ in 0..<rounds {
        for search in searches {
            now = now + .seconds(1)  // the per-source rate limit refills each second
            for (_, answer) in responder.receive(search, from: "10.0.0.1", at: now).answers {
                checksum &+= answer.bytes.count
                responder.answerFinished()
            }
        }
    }
    return checksum
}

let arguments = CommandLine.arguments
guard arguments.count == 4, let rounds = Int(arguments[3]), rounds >= 0 else {
    fail("usage: ssdp-bench-probe parse|parsemessage|ingest|responder|virtual FILE ROUNDS")
}
if arguments[1] == "virtual" {
    print(runScenario(arguments[2], rounds: rounds))
    exit(0)
}
guard let datagrams = readDatagrams(arguments[2]) else { fail("cannot read datagrams from \(arguments[2])") }
var checksum = 0
switch arguments[1] {
case "parse":
    for _ in 0..<rounds {
        for datagram in datagrams {
            checksum &+= (try? SSDPParser.parse(datagram).diagnostics.count) ?? 1
        }
    }
case "parsemessage":  // the parse without diagnostics, as the session and the devices read
    for _ in 0..<rounds {
        for datagram in datagrams {
            checksum &+= (try? SSDPParser.parseMessage(datagram).headers.count) ?? 1
        }
    }
case "ingest":
    guard let configuration = try? Workloads.ingestConfiguration() else { fail("no configuration") }
    for _ in 0..<rounds {
        var session = SearchSessionStateMachine(configuration: configuration)
        _ = session.start(at: .zero)
        for datagram in datagrams {
            _ = session.received(datagram, at: SSDPInstant(offset: .milliseconds(10)))
        }
        checksum &+= session.statistics.servicesReported
    }
case "responder":
    checksum = answer(datagrams, rounds: rounds)
default:
    fail("unknown probe '\(arguments[1])': parse, parsemessage, ingest, responder or virtual")
}
print(checksum)
