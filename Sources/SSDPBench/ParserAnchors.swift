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

/// The parse figure's anchors: picohttpparser and llhttp reading the parse corpus, one thread, recognising
/// the names SSDPParser knows, in the program `scripts/parser-anchors/build` makes from our
/// `scripts/parser-anchors/anchors.c` and their code (which stays outside this repository).
///
/// A rate alone means little on a shared machine (the same picohttpparser build read 6.6 M datagrams/s one
/// week and 2.4 M/s another), so the parser is held to these as ratios measured in the same run: each round
/// times picohttpparser, llhttp and `SSDPParser.parse` one after another, and each figure is the median of
/// the rounds' ratios, printed with their spread. Instructions per datagram, counted by callgrind, are the
/// stable figure beside them.
struct ParserAnchors {
    /// The anchors program.
    let executable: String

    enum Parser: String {
        case pico
        case llhttp
    }

    /// The anchors program at `path` (`ssdp-bench` checks that it can be run).
    init(at path: String) {
        executable = path
    }

    /// Datagrams per CPU second of `parser` over the corpus in `file` (framed as `InstructionCount.framed`),
    /// timed for at least `minimum`: the program prints `… 2.437 M datagrams/s …`.
    func rate(of parser: Parser, corpus file: String, atLeast minimum: Duration) throws -> Double {
        let (status, output, errors) = try runProgram(
            executable,
            ["time1", file, parser.rawValue, "\(minimum.seconds)"],
            keepingOutput: true
        )
        let words = output.split(whereSeparator: \.isWhitespace)
        guard status == 0, let unit = words.firstIndex(of: "M"), unit > 0, let millions = Double(words[unit - 1])
        else {
            throw BenchmarkFailure(
                benchmark: "parse",
                reason: "\(executable) time1 \(parser.rawValue) failed (status \(status)): \(output)\(errors)"
            )
        }
        return millions * 1e6
    }

    /// The figures that hold `SSDPParser` to the anchors: its rate as a percentage of llhttp's (the target: at
    /// least llhttp's), and, where valgrind is installed, `parse`'s instructions per datagram as a percentage
    /// of llhttp's and `parseMessage`'s of picohttpparser's (the targets: at most theirs). `parse` is the
    /// parse figure of the same corpus, whose details hold SSDPParser's instruction counts.
    static func figures(
        corpus: [[UInt8]],
        beside parse: Figure,
        anchors: ParserAnchors,
        rounds: Int,
        minimum: Duration,
        counting: InstructionCount.Counting
    ) throws -> [Figure] {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("ssdp-bench-anchors-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("parse.datagrams")
        try InstructionCount.framed(corpus).write(to: file)

        // Per round: each anchor's datagrams/s, and the parser's.
        var anchorRates: [Parser: [Double]] = [:]
        var ownRates: [Double] = []
        for _ in 0..<rounds {
            for parser in [Parser.pico, .llhttp] {
                anchorRates[parser, default: []].append(
                    try anchors.rate(of: parser, corpus: file.path, atLeast: minimum)
                )
            }
            let run = CoreBenchmarks.timedParse(corpus, atLeast: minimum)
            ownRates.append(Double(run.rounds * corpus.count) / run.cpu.seconds)
        }
        func percentages(of anchor: Parser) -> Spread {
            Spread(zip(ownRates, anchorRates[anchor, default: []]).map { $0 / $1 * 100 })
        }
        let besideLLHTTP = percentages(of: .llhttp)
        let besidePico = percentages(of: .pico)
        let rateDetails: [String: Double] = [
            "rounds": Double(rounds), "percentOfPicoRate": besidePico.median,
            "parseDatagramsPerSecond": Spread(ownRates).median,
            "picoDatagramsPerSecond": Spread(anchorRates[.pico, default: []]).median,
            "llhttpDatagramsPerSecond": Spread(anchorRates[.llhttp, default: []]).median,
        ]
        var figures = [
            Figure(
                name: "parse-vs-llhttp",
                unit: "% of llhttp's datagrams/s",
                value: besideLLHTTP.median,
                target: .atLeast(100),
                details: rateDetails,
                remark: "ratio per round: \(besideLLHTTP.text); of pico's: \(besidePico.text)"
            )
        ]

        let counts = [
            ("parse-ins-vs-llhttp", "instructionsPerDatagram", Parser.llhttp),
            ("message-ins-vs-pico", "instructionsWithoutDiagnostics", Parser.pico),
        ]
        for (name, detail, anchor) in counts {
            let anchorCount = try InstructionCount.perDatagram(
                of: anchor,
                in: anchors,
                datagrams: corpus,
                counting: counting
            )
            guard let own = parse.details[detail], let anchorCount else {
                figures.append(Figure(name: name, unit: "%", value: 0, remark: InstructionCount.noValgrind))
                continue
            }
            figures.append(
                Figure(
                    name: name,
                    unit: "% of \(anchor.rawValue)'s instructions",
                    value: own / anchorCount * 100,
                    target: .atMost(100),
                    details: [detail: own, "\(anchor.rawValue)InstructionsPerDatagram": anchorCount]
                )
            )
        }
        return figures
    }
}
