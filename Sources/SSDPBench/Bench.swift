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

/// `ssdp-bench`: where the parser, the search session, the responder, the live simulator, the virtual
/// network and a 10,000-device simulator stand, measured against the issue's targets and, for the live
/// simulator, against the machine's own UDP limit in the same run.
@main
struct Bench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ssdp-bench",
        abstract: "Measure ssdp-sim's parser, search session, responder, simulator and virtual network.",
        discussion: """
            Run it in a release build: swift build -c release && swift run -c release ssdp-bench (startup starts \
            the ssdp-sim beside it). Figures are per core where the \
            benchmark is single-threaded (CPU time, not wall time). Exit status: 0 when every benchmark \
            ran (missed targets are reported, not failed), 1 when a benchmark's work came out wrong or the \
            corpus cannot be read, 64 for bad flags.
            """
    )

    static let names = ["parse", "ingest", "responder", "loopback", "virtual", "scale", "startup", "http"]

    @Flag(help: "A few seconds in all, with smaller sizes: keeps the benchmark from rotting in CI.")
    var quick = false

    @Flag(help: "Print the figures as one JSON object instead of a table.")
    var json = false

    @Option(name: .customLong("only"), help: "Run only this benchmark (repeatable): \(names.joined(separator: ", ")).")
    var only: [String] = []

    @Option(help: "The directory of captured datagrams the parse benchmark reads.")
    var corpus = Bench.defaultCorpus

    @Option(
        name: .customLong("parser-anchors"),
        help: """
            Hold the parser to picohttpparser and llhttp in the same run: the program \
            scripts/parser-anchors/build makes. Adds parse-vs-llhttp and the instruction ratios.
            """
    )
    var parserAnchors: String?

    @Option(
        help: """
            Compare with another build: the path of its ssdp-bench. Both run in turn with the same --only, \
            --quick and --parser-anchors, three rounds (one with --quick), and each figure is printed as this \
            build's % of the baseline's, min / median / max, with the instruction counts of both.
            """
    )
    var baseline: String?

    @Option(
        name: .customLong("probe-input"),
        help: """
            Also write what the instruction counts run over into this directory (parse.datagrams, \
            parsemessage.datagrams, ingest.datagrams, responder.datagrams, virtual.json), to profile it: \
            valgrind --tool=callgrind ssdp-bench-probe parse FILE ROUNDS.
            """
    )
    var probeInput: String?

    @Option(name: .customLong("scale-child"), help: .hidden)
    var scaleChild: Int?

    @Flag(name: .customLong("scale-shared"), help: .hidden)
    var scaleShared = false

    static var defaultCorpus: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Tests/SSDPCoreTests/Fixtures").path
    }

    func validate() throws {
        for name in only where !Self.names.contains(name) {
            throw ValidationError(
                "--only '\(name)': no such benchmark (benchmarks: \(Self.names.joined(separator: ", ")))"
            )
        }
        for (flag, path) in [("--parser-anchors", parserAnchors), ("--baseline", baseline)] {
            if let path, !FileManager.default.isExecutableFile(atPath: path) {
                throw ValidationError("\(flag) '\(path)': not an executable")
            }
        }
        if let scaleChild, !(1...100_000).contains(scaleChild) {
            throw ValidationError("--scale-child '\(scaleChild)': must be 1...100000 devices")
        }
    }

    func run() async throws {
        if let scaleChild {
            let figures = try await ScaleBenchmark.run(devices: scaleChild, sharedAddress: scaleShared)
            print(String(decoding: try JSONEncoder().encode(figures), as: UTF8.self))
            return
        }
        let sizes = Sizes(quick: quick)
        if let baseline {
            try compare(with: baseline, rounds: sizes.rounds)
            return
        }
        let counting = InstructionCount.Counting(rounds: sizes.instructionRounds, keepingInputIn: probeInput)
        let selected = only.isEmpty ? Self.names : Self.names.filter(only.contains)
        let table = Table(json: json)
        table.header(quick: quick)
        var figures: [Figure] = []
        do {
            if selected.contains("startup") { try StartupBenchmark.requireBinary() }
            for name in selected {
                table.starting(name)
                let new: [Figure]
                switch name {
                case "parse":
                    let corpus = try CoreBenchmarks.loadCorpus(corpus)
                    let parse = try CoreBenchmarks.parse(corpus: corpus, minimum: sizes.minimum, counting: counting)
                    new =
                        try [parse]
                        + (parserAnchors.map { path in
                            try ParserAnchors.figures(
                                corpus: corpus,
                                beside: parse,
                                anchors: ParserAnchors(at: path),
                                rounds: sizes.rounds,
                                minimum: sizes.minimum,
                                counting: counting
                            )
                        } ?? [])
                case "ingest":
                    new = [
                        try CoreBenchmarks.ingest(
                            services: sizes.services,
                            copies: 10,
                            minimum: sizes.minimum,
                            counting: counting,
                            instructionServices: sizes.instructionServices
                        )
                    ]
                case "responder":
                    new = [
                        try CoreBenchmarks.responder(devices: sizes.devices, minimum: sizes.minimum, counting: counting)
                    ]
                case "loopback": new = [try await LoopbackBenchmark.run(rounds: sizes.rounds, duration: sizes.loopback)]
                case "virtual":
                    new = [
                        try await CoreBenchmarks.virtualTime(
                            devices: sizes.virtualDevices,
                            minimum: sizes.minimum,
                            counting: counting
                        )
                    ]
                case "startup":
                    new = try await StartupBenchmark.run(
                        deviceCounts: sizes.startupDevices,
                        rounds: sizes.startupRounds
                    )
                case "http":
                    new = try await HTTPBenchmark.run(rounds: sizes.rounds, duration: sizes.httpDuration)
                default:
                    let own = try runScaleChild(devices: sizes.devices, sharedAddress: false)
                    let shared = try runScaleChild(devices: sizes.devices, sharedAddress: true)
                    new = own + shared + [ScaleBenchmark.addressCost(own: own, shared: shared)].compactMap { $0 }
                }
                new.forEach(table.row)
                fflush(nil)  // each row as soon as it is measured, also into a pipe or a CI log
                figures += new
            }
        } catch let failure as BenchmarkFailure {
            FileHandle.standardError.write(Data("Error: \(failure)\n".utf8))
            throw ExitCode(1)
        }
        try table.footer(figures)
    }

    /// `--baseline`: this build and the other one's ssdp-bench in turn, each figure as a ratio.
    private func compare(with baseline: String, rounds: Int) throws {
        let own = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        var arguments = (quick ? ["--quick"] : []) + only.flatMap { ["--only", $0] }
        if let parserAnchors { arguments += ["--parser-anchors", parserAnchors] }
        // Both read this build's corpus: the other build's own would be its source tree's, perhaps another.
        arguments += ["--corpus", corpus]
        do {
            let comparison = BaselineComparison(own: own, baseline: baseline, arguments: arguments, rounds: rounds)
            try BaselineComparison.print(try comparison.run(), json: json, rounds: rounds)
        } catch let failure as BenchmarkFailure {
            FileHandle.standardError.write(Data("Error: \(failure)\n".utf8))
            throw ExitCode(1)
        }
    }

    /// How big and how long each benchmark is.
    struct Sizes {
        var minimum: Duration
        var services: Int
        var devices: Int
        var virtualDevices: Int
        var loopback: Duration
        /// The rounds over which instructions per datagram are counted (see `InstructionCount`), and the
        /// services of the ingest count: callgrind runs a debug build (`--quick` in CI) 500 times slower.
        var instructionRounds: Int
        var instructionServices: Int
        /// How many devices `serve` starts with, and how many starts each figure is the median of.
        var startupDevices: [Int]
        var startupRounds: Int
        /// The rounds of a figure measured beside its anchor (the parser beside picohttpparser and llhttp, the
        /// loopback flood beside a UDP echo, the HTTP load beside a bare SwiftNIO server), each in turn, and
        /// how long each HTTP load lasts.
        var rounds: Int
        var httpDuration: Duration

        init(quick: Bool) {
            minimum = quick ? .milliseconds(100) : .seconds(2)
            services = quick ? 1_000 : 10_000
            devices = quick ? 1_000 : 10_000
            virtualDevices = quick ? 100 : 1_000
            loopback = quick ? .milliseconds(300) : .seconds(2)
            instructionRounds = quick ? 1 : 4
            instructionServices = quick ? 20 : 1_000
            startupDevices = quick ? [1, 100] : [1, 100, 10_000]
            startupRounds = quick ? 3 : 5
            rounds = quick ? 1 : 3
            httpDuration = quick ? .seconds(1) : .seconds(2)
        }
    }

    /// Runs the scale benchmark in a child process, so its memory figures start from a fresh heap.
    private func runScaleChild(devices: Int, sharedAddress: Bool) throws -> [Figure] {
        let own = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        let arguments = ["--scale-child", "\(devices)"] + (sharedAddress ? ["--scale-shared"] : [])
        let (status, output, errors) = try runProgram(own, arguments, keepingOutput: true)
        guard status == 0 else {
            let tail = errors.split(separator: "\n").suffix(3).joined(separator: " / ")
            throw BenchmarkFailure(benchmark: "scale", reason: "the child process failed (status \(status)): \(tail)")
        }
        do {
            return try JSONDecoder().decode([Figure].self, from: Data(output.utf8))
        } catch {
            throw BenchmarkFailure(benchmark: "scale", reason: "the child process printed no figures: \(error)")
        }
    }
}

/// What the benchmark prints: a table as it goes, or one JSON object at the end.
struct Table {
    let json: Bool

    static var build: String {
        #if DEBUG
        "debug"
        #else
        "release"
        #endif
    }

    static var machine: [String: String] {
        let cpu = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?
            .split(separator: "\n").first { $0.hasPrefix("model name") }
            .map { $0.split(separator: ":", maxSplits: 1).last?.trimmingCharacters(in: .whitespaces) ?? "" }
        return [
            "cores": "\(ProcessInfo.processInfo.activeProcessorCount)",
            "cpu": cpu ?? "unknown",
            "os": ProcessInfo.processInfo.operatingSystemVersionString,
        ]
    }

    /// The benchmark column: the longest name, `startup-10000-shared`, and a space.
    static let nameWidth = 21

    func header(quick: Bool) {
        guard !json else { return }
        let machine = Self.machine
        print(
            "ssdp-bench: \(Self.build) build\(quick ? ", quick mode (small sizes, short runs)" : ""); \(machine["cores"]!) cores, \(machine["cpu"]!)"
        )
        if Self.build == "debug" {
            print("  a debug build is several times slower: use swift run -c release ssdp-bench for figures")
        }
        print("")
        print(pad("benchmark", Self.nameWidth) + pad("figure", 34) + pad("target", 12) + "met")
    }

    func starting(_ name: String) {
        guard !json else { return }
        FileHandle.standardError.write(Data("  running \(name)…\n".utf8))
    }

    func row(_ figure: Figure) {
        guard !json else { return }
        let met = figure.meetsTarget.map { $0 ? "yes" : "NO" } ?? "-"
        print(
            pad(figure.name, Self.nameWidth) + pad("\(formatted(figure.value)) \(figure.unit)", 34)
                + pad(figure.target?.text ?? "-", 12) + met
        )
        let details = figure.details.sorted { $0.key < $1.key }.map { "\($0.key) \(formatted($0.value))" }
        print(String(repeating: " ", count: Self.nameWidth) + details.joined(separator: ", "))
        if let remark = figure.remark { print(String(repeating: " ", count: Self.nameWidth) + remark) }
    }

    func footer(_ figures: [Figure]) throws {
        if json {
            let object: [String: Any] = [
                "build": Self.build,
                "machine": Self.machine,
                "figures": figures.map { figure -> [String: Any] in
                    var entry: [String: Any] = [
                        "name": figure.name, "unit": figure.unit, "value": figure.value, "details": figure.details,
                    ]
                    switch figure.target {
                    case .atLeast(let bound): entry["target"] = ["atLeast": bound]
                    case .atMost(let bound): entry["target"] = ["atMost": bound]
                    case nil: break
                    }
                    if let met = figure.meetsTarget { entry["met"] = met }
                    if let remark = figure.remark { entry["remark"] = remark }
                    return entry
                },
            ]
            let data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
            print(String(decoding: data, as: UTF8.self))
        } else {
            let missed = figures.filter { $0.meetsTarget == false }.map(\.name)
            print("")
            print(missed.isEmpty ? "every target met" : "targets missed: \(missed.joined(separator: ", "))")
        }
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}
