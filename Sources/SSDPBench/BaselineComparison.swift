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

/// `ssdp-bench --baseline OTHER`: this build and another one's `ssdp-bench`, run in turn with the same
/// benchmarks and sizes, several rounds, each figure printed as this build's value over the baseline's, a
/// percentage, with the rounds' min / median / max; and each instruction count beside the baseline's. What a
/// pull request shows to say it made nothing slower, on a machine whose load moves both alike.
struct BaselineComparison {
    /// This build's `ssdp-bench` and the baseline's.
    let own: String
    let baseline: String
    /// What both are run with (`--only`, `--quick`, `--parser-anchors`), `--json` added.
    let arguments: [String]
    let rounds: Int

    /// One build's figures of one round, as its `--json` prints them.
    struct Printed: Decodable {
        struct Entry: Decodable {
            var name: String
            var unit: String
            var value: Double
            var details: [String: Double]?
        }
        var build: String
        var figures: [Entry]
    }

    /// A figure of both builds: this build's values and the baseline's, one per round.
    struct Compared {
        var name: String
        var unit: String
        var own: [Double] = []
        var baseline: [Double] = []
        /// Each instruction count, this build's and the baseline's (the same in every round).
        var instructions: [String: (own: Double, baseline: Double)] = [:]

        /// This build's value as a percentage of the baseline's, per round.
        var ratios: Spread { Spread(zip(own, baseline).filter { $0.1 != 0 }.map { $0 / $1 * 100 }) }
    }

    func run() throws -> [Compared] {
        var compared: [String: Compared] = [:]
        var order: [String] = []
        for round in 1...rounds {
            // Each goes first in every other round, so that neither always meets the machine as the other left it.
            let ownFirst = round % 2 == 1
            let turns = ownFirst ? "this build, then the baseline" : "the baseline, then this build"
            FileHandle.standardError.write(Data("  round \(round) of \(rounds): \(turns)\n".utf8))
            let mine: Printed
            let theirs: Printed
            if ownFirst {
                mine = try figures(of: own, called: "this build")
                theirs = try figures(of: baseline, called: "the baseline")
            } else {
                theirs = try figures(of: baseline, called: "the baseline")
                mine = try figures(of: own, called: "this build")
            }
            if round == 1, mine.build != theirs.build {
                throw BenchmarkFailure(
                    benchmark: "baseline",
                    reason:
                        "this build is a \(mine.build) build and the baseline a \(theirs.build) one: compare like with like"
                )
            }
            let baselineByName = Dictionary(
                theirs.figures.map { ($0.name, $0) },
                uniquingKeysWith: { first, _ in first }
            )
            for entry in mine.figures {
                guard let other = baselineByName[entry.name] else { continue }
                if compared[entry.name] == nil {
                    order.append(entry.name)
                    compared[entry.name] = Compared(name: entry.name, unit: entry.unit)
                }
                compared[entry.name]!.own.append(entry.value)
                compared[entry.name]!.baseline.append(other.value)
                for (key, value) in entry.details ?? [:] where key.lowercased().contains("instructions") {
                    if let theirs = other.details?[key] { compared[entry.name]!.instructions[key] = (value, theirs) }
                }
            }
        }
        guard !order.isEmpty else {
            throw BenchmarkFailure(benchmark: "baseline", reason: "the two builds printed no figure of the same name")
        }
        return order.map { compared[$0]! }
    }

    /// One run of `program` with the comparison's arguments, its JSON read.
    private func figures(of program: String, called build: String) throws -> Printed {
        let (status, output, errors) = try runProgram(program, arguments + ["--json"], keepingOutput: true)
        let tail = errors.split(separator: "\n").suffix(3).joined(separator: " / ")
        guard status == 0 else {
            throw BenchmarkFailure(
                benchmark: "baseline",
                reason: "\(build), \(program), failed (status \(status)): \(tail)"
            )
        }
        do {
            return try JSONDecoder().decode(Printed.self, from: Data(output.utf8))
        } catch {
            throw BenchmarkFailure(
                benchmark: "baseline",
                reason: "\(build), \(program), printed no figures as JSON (an ssdp-bench without --json?): \(error)"
            )
        }
    }

    /// The comparison as a table, or as one JSON object.
    static func print(_ compared: [Compared], json: Bool, rounds: Int) throws {
        if json {
            let object: [String: Any] = [
                "rounds": rounds,
                "figures": compared.map { figure -> [String: Any] in
                    [
                        "name": figure.name, "unit": figure.unit, "own": figure.own, "baseline": figure.baseline,
                        "percentOfBaseline": [
                            "min": figure.ratios.values.first ?? 0, "median": figure.ratios.median,
                            "max": figure.ratios.values.last ?? 0,
                        ],
                        "instructions": figure.instructions.mapValues { ["own": $0.own, "baseline": $0.baseline] },
                    ]
                },
            ]
            let data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
            Swift.print(String(decoding: data, as: UTF8.self))
            return
        }
        Swift.print("this build as a % of the baseline, both run in turn, \(rounds) round\(rounds == 1 ? "" : "s").")
        Swift.print("Above 100 % is more of what the figure counts: faster for a rate, worse for a count of")
        Swift.print("instructions or a % of an anchor's instructions.")
        Swift.print("")
        for figure in compared {
            let own = Spread(figure.own).median
            let baseline = Spread(figure.baseline).median
            Swift.print(
                "\(figure.name): \(formatted(figure.ratios.median)) % of the baseline, rounds \(figure.ratios.text); "
                    + "this build \(formatted(own)), the baseline \(formatted(baseline)) \(figure.unit) (medians)"
            )
            for (key, counts) in figure.instructions.sorted(by: { $0.key < $1.key }) {
                Swift.print(
                    "    \(key): \(formatted(counts.own)) against \(formatted(counts.baseline)), "
                        + "\(formatted(counts.own / counts.baseline * 100)) %"
                )
            }
        }
    }
}
