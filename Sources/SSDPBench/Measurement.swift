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

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One line of the benchmark's table: what was measured, the figure, and the target it is held to.
struct Figure: Codable, Sendable {
    /// The benchmark's name, as `--only` takes it (`parse`, `ingest`, …).
    var name: String
    /// What `value` counts, for people ("datagrams/s").
    var unit: String
    var value: Double
    /// The target the issue sets, and whether higher or lower is better.
    var target: Target?
    /// Supporting figures, printed under the line and kept in the JSON (`cpuSeconds`, `echoRepliesPerSecond`, …).
    var details: [String: Double] = [:]
    /// What the run did, in words, when the figure needs it (a fallback taken, say).
    var remark: String?

    enum Target: Codable, Sendable {
        case atLeast(Double)
        case atMost(Double)

        func isMet(by value: Double) -> Bool {
            switch self {
            case .atLeast(let bound): value >= bound
            case .atMost(let bound): value <= bound
            }
        }

        var text: String {
            switch self {
            case .atLeast(let bound): "≥ \(formatted(bound))"
            case .atMost(let bound): "≤ \(formatted(bound))"
            }
        }
    }

    var meetsTarget: Bool? { target.map { $0.isMet(by: value) } }
}

/// A figure's rounds: the median, and the spread as min / median / max.
struct Spread {
    var values: [Double]

    init(_ values: [Double]) {
        self.values = values.sorted()
    }

    var median: Double {
        guard !values.isEmpty else { return 0 }
        let middle = values.count / 2
        return values.count % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2
    }

    var text: String {
        guard let first = values.first, let last = values.last else { return "none" }
        return "\(formatted(first)) / \(formatted(median)) / \(formatted(last)) (min / median / max)"
    }
}

/// Runs `executable` with `arguments` to its end: its exit status, its standard output (empty unless
/// `keepingOutput`) and its standard error, each read as it comes, so that neither pipe can fill and stall it.
func runProgram(
    _ executable: String,
    _ arguments: [String],
    keepingOutput: Bool
) throws -> (status: Int32, output: String, errors: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = keepingOutput ? output : FileHandle.nullDevice
    process.standardError = errors
    try process.run()
    let errorsRead = DispatchGroup()
    nonisolated(unsafe) var errorData = Data()
    DispatchQueue.global().async(group: errorsRead) {
        errorData = errors.fileHandleForReading.readDataToEndOfFile()
    }
    let outputData = keepingOutput ? output.fileHandleForReading.readDataToEndOfFile() : Data()
    errorsRead.wait()
    process.waitUntilExit()
    return (
        process.terminationStatus, String(decoding: outputData, as: UTF8.self),
        String(decoding: errorData, as: UTF8.self)
    )
}

/// A benchmark whose work came out wrong (a service missing, a count off): the figures would mean nothing.
struct BenchmarkFailure: Error, CustomStringConvertible {
    var benchmark: String
    var reason: String

    var description: String { "\(benchmark): \(reason)" }
}

/// Checks a result of a benchmark's work; a wrong result stops the benchmark run with exit status 1.
func require(_ condition: Bool, _ benchmark: String, _ reason: @autoclosure () -> String) throws {
    if !condition { throw BenchmarkFailure(benchmark: benchmark, reason: reason()) }
}

/// Runs `body` in rounds until at least `minimum` has passed, and returns the rounds and the wall and CPU
/// time they took. One untimed round comes first, so caches and lazily made tables are warm.
func measure(
    atLeast minimum: Duration,
    _ body: () throws -> Void
) rethrows -> (rounds: Int, wall: Duration, cpu: Duration) {
    try body()
    let clock = ContinuousClock()
    let start = clock.now
    let cpuStart = threadCPUTime()
    var rounds = 0
    repeat {
        try body()
        rounds += 1
    } while clock.now - start < minimum
    return (rounds, clock.now - start, threadCPUTime() - cpuStart)
}

/// The CPU time the calling thread has used.
func threadCPUTime() -> Duration {
    var spec = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
    return .seconds(spec.tv_sec) + .nanoseconds(spec.tv_nsec)
}

/// The CPU time the whole process has used, all threads.
func processCPUTime() -> Duration {
    var spec = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
    return .seconds(spec.tv_sec) + .nanoseconds(spec.tv_nsec)
}

/// The process's resident memory now, in bytes (Linux `/proc/self/statm`; 0 where there is none).
func residentBytes() -> Int {
    guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = statm.split(separator: " ")
    guard fields.count >= 2, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// The process's peak resident memory so far, in bytes (`getrusage`).
func peakResidentBytes() -> Int {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    #if canImport(Darwin)
    return Int(usage.ru_maxrss)
    #else
    return Int(usage.ru_maxrss) * 1024
    #endif
}

extension Duration {
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}

/// A figure for people: 2,345,678 → "2.35 M", 12,345 → "12.3 k", 0.981 → "0.981".
func formatted(_ value: Double) -> String {
    func rounded(_ value: Double, _ digits: Int) -> String {
        var text = String(Double(Int((value * pow(10, Double(digits))).rounded())) / pow(10, Double(digits)))
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }
    switch abs(value) {
    case 1e9...: return rounded(value / 1e9, 2) + " G"
    case 1e6...: return rounded(value / 1e6, 2) + " M"
    case 1e4...: return rounded(value / 1e3, 1) + " k"
    case 100...: return rounded(value, 0)
    case 1...: return rounded(value, 2)
    default: return rounded(value, 3)
    }
}
