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

/// Instructions per datagram of the parser and the session's ingest, per answer of the responder and per
/// virtual run, counted by valgrind's callgrind over `ssdp-bench-probe`: the same count for the same build
/// whatever else the machine does, so a regression shows on a noisy shared machine where datagrams per
/// second cannot show it.
///
/// The probe runs twice, `1` round and `1 + rounds` rounds over the same datagrams; the difference per
/// datagram leaves out the process's start and the reading of its input. `nil` when valgrind is not
/// installed (the figure says so).
enum InstructionCount {
    enum Probe: String {
        /// `SSDPParser.parse`, with its diagnostics.
        case parse
        /// `SSDPParser.parseMessage`, without them.
        case parseMessage = "parsemessage"
        case ingest, responder, virtual
    }

    /// How a benchmark's instructions are counted: over how many rounds, and the directory that keeps what
    /// the probe ran over (`--probe-input`), if any.
    struct Counting {
        var rounds: Int
        var keepingInputIn: String?
    }

    /// What a figure says instead of a count when valgrind is missing.
    static let noValgrind = "no instruction count: valgrind is not installed"

    static func perDatagram(_ probe: Probe, datagrams: [[UInt8]], counting: Counting) throws -> Double? {
        let perRound = try perRound(probe, input: framed(datagrams), counting: counting)
        return perRound.map { $0 / Double(datagrams.count) }
    }

    /// Instructions per datagram of one of the parse benchmark's anchors (`ParserAnchors`) over `datagrams`:
    /// the anchors program's `rounds CORPUS PARSER N`, counted as the probe is.
    static func perDatagram(
        of parser: ParserAnchors.Parser,
        in anchors: ParserAnchors,
        datagrams: [[UInt8]],
        counting: Counting
    ) throws -> Double? {
        let perRound = try perRound(
            input: framed(datagrams),
            counting: counting,
            program: { _ in anchors.executable },
            arguments: { file, rounds in ["rounds", file, parser.rawValue, "\(rounds)"] }
        )
        return perRound.map { $0 / Double(datagrams.count) }
    }

    /// The datagrams as the probe and the anchors read them: each a 4-byte big-endian length and its bytes.
    static func framed(_ datagrams: [[UInt8]]) -> Data {
        var bytes = Data()
        for datagram in datagrams {
            withUnsafeBytes(of: UInt32(datagram.count).bigEndian) { bytes.append(contentsOf: $0) }
            bytes.append(contentsOf: datagram)
        }
        return bytes
    }

    /// Instructions per answer of `Workloads.countedResponderDevices` devices to `search`, `answersPerSearch`
    /// of them.
    static func perAnswer(to search: [UInt8], answersPerSearch: Int, counting: Counting) throws -> Double? {
        try perDatagram(.responder, datagrams: [search], counting: counting).map { $0 / Double(answersPerSearch) }
    }

    /// Instructions per run of `scenario` (JSON, as a scenario file holds it) in virtual time with its checks.
    static func perVirtualRun(scenario: Data, counting: Counting) throws -> Double? {
        try perRound(.virtual, input: scenario, counting: counting)
    }

    /// Instructions per round of `probe` over `input` (written to a file the probe reads): the difference
    /// between runs of 1 and `1 + rounds` rounds, divided by `rounds`.
    private static func perRound(_ probe: Probe, input: Data, counting: Counting) throws -> Double? {
        if let kept = counting.keepingInputIn {
            let directory = URL(fileURLWithPath: kept)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try input.write(
                to: directory.appendingPathComponent(probe == .virtual ? "virtual.json" : "\(probe.rawValue).datagrams")
            )
        }
        return try perRound(
            input: input,
            counting: counting,
            program: strippedProbe,
            arguments: { file, rounds in [probe.rawValue, file, "\(rounds)"] }
        )
    }

    /// Instructions per round of `program` (found once, given the working directory) run with the `arguments`
    /// for the input file and a number of rounds: the difference between runs of 1 and `1 + rounds` rounds,
    /// over `rounds`.
    private static func perRound(
        input: Data,
        counting: Counting,
        program: (_ directory: URL) throws -> String,
        arguments: (_ file: String, _ rounds: Int) -> [String]
    ) throws -> Double? {
        guard let valgrind = executable(named: "valgrind") else { return nil }
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("ssdp-bench-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("input")
        try input.write(to: file)
        let program = try program(directory)
        let counts = try [1, 1 + counting.rounds].map { rounds in
            try collected(valgrind: valgrind, program: program, arguments: arguments(file.path, rounds))
        }
        return Double(counts[1] - counts[0]) / Double(counting.rounds)
    }

    /// The probe, built beside `ssdp-bench`, copied without its debug information: valgrind 3.19 cannot
    /// read the DWARF 5 that Swift writes (`objcopy` from binutils; the copy is used as is without it).
    private static func strippedProbe(in directory: URL) throws -> String {
        let own = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let probe = own.deletingLastPathComponent().appendingPathComponent("ssdp-bench-probe").path
        guard FileManager.default.isExecutableFile(atPath: probe) else {
            throw BenchmarkFailure(benchmark: "instructions", reason: "\(probe) is missing: build the package first")
        }
        let copy = directory.appendingPathComponent("ssdp-bench-probe").path
        if let objcopy = executable(named: "objcopy"),
            (try? runProgram(objcopy, ["--strip-debug", probe, copy], keepingOutput: false).status) == 0
        {
            return copy
        }
        return probe
    }

    /// Callgrind's total (`Collected : N`) for one run of `program` (the probe or the anchors).
    private static func collected(valgrind: String, program: String, arguments: [String]) throws -> Int {
        let (status, _, errors) = try runProgram(
            valgrind,
            ["--tool=callgrind", "--callgrind-out-file=/dev/null", program] + arguments,
            keepingOutput: false
        )
        let line = errors.split(separator: "\n").first { $0.contains("Collected :") }
        guard status == 0, let line, let count = line.split(separator: " ").last.flatMap({ Int($0) }) else {
            let tail = errors.split(separator: "\n").suffix(3).joined(separator: " / ")
            throw BenchmarkFailure(
                benchmark: "instructions",
                reason: "valgrind \(arguments.joined(separator: " ")) failed (status \(status)): \(tail)"
            )
        }
        return count
    }

    /// The first `name` on PATH that can be run.
    private static func executable(named name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }
}

extension Figure {
    /// The figure with its instruction count among its details, under `detail` (`instructionsPerDatagram`,
    /// …), or, where valgrind is missing, with a remark that says so.
    func counting(_ instructions: Double?, as detail: String) -> Figure {
        var figure = self
        if let instructions {
            figure.details[detail] = instructions
        } else {
            figure.remark = InstructionCount.noValgrind
        }
        return figure
    }
}
