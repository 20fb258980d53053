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
import SSDPCore
import SSDPDeviceCore

/// Something a command reports as it works: one JSON object with an `event` field for programs, and the
/// same thing in words for people (`nil` when it is only of interest to programs, like every datagram).
protocol OutputLine: Encodable {
    /// The line (or lines) for people.
    var text: String? { get }
    /// The line as a JSON value, when it is one already (an event's): written by `JSONValue.jsonText`,
    /// the bytes `JSONEncoder` would write for about a quarter of its instructions. `nil`: the line is encoded.
    var jsonValue: JSONValue? { get }
}

extension OutputLine {
    var jsonValue: JSONValue? { nil }
}

/// How every command speaks. Text on standard output for people; with `--json`, one JSON object per line
/// instead, for programs, and no text at all, so the output is JSON lines and nothing else. Errors go to
/// standard error as `Error: …` either way, the way ArgumentParser reports a bad flag.
struct CommandOutput: Sendable {
    /// Whether the command was given `--json`.
    let json: Bool

    /// Prints one event: its JSON line with `--json`, else its text.
    func emit(_ line: some OutputLine) {
        if json {
            if let value = line.jsonValue { print(value.jsonText) } else { printJSONLine(line) }
        } else if let text = line.text?.escapingControlCharacters(keepingLineBreaks: true) {
            print(text, terminator: text.hasSuffix("\n") ? "" : "\n")
        }
    }

    /// Prints words for people that have no JSON form (a banner, a hint); nothing with `--json`.
    func say(_ text: String) {
        if !json { print(text) }
    }

    /// Reports an error on standard error.
    func error(_ text: String) {
        printError("Error: \(text)")
    }
}

extension String {
    /// The text with every character that would act on a terminal rather than show (control characters,
    /// C1 controls, bidirectional overrides) written as an escape, `\x1B` or `\u{202E}`: what a client or
    /// a device sent cannot move the cursor, clear the screen or forge a line. Line feeds stay where
    /// `keepingLineBreaks` says (a multi-line text of the command's own), else they show as `\n`.
    func escapingControlCharacters(keepingLineBreaks: Bool = false) -> String {
        var result = ""
        for scalar in unicodeScalars {
            switch scalar.value {
            case 0x0A where keepingLineBreaks, 0x09:
                result.unicodeScalars.append(scalar)
            case 0x0A: result += "\\n"
            case 0x0D: result += "\\r"
            case 0..<0x20, 0x7F...0x9F:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\x" + (hex.count < 2 ? "0" : "") + hex
            case 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069:
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default:
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}

/// Prints a value as one line of JSON with sorted keys.
func printJSONLine(_ value: some Encodable) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    guard let data = try? encoder.encode(value) else { return }
    print(String(decoding: data, as: UTF8.self))
}

/// Writes a line to standard error.
func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

/// A duration in seconds with three decimals, for people and for JSON.
func seconds(_ duration: Duration) -> Double {
    Double(duration.milliseconds) / 1_000
}

/// "1 service", "4 services".
func plural(_ count: Int, _ noun: String, plural: String? = nil) -> String {
    "\(count) \(count == 1 ? noun : plural ?? noun + "s")"
}

/// Refuses a report path whose directory does not exist, naming the flag: found before the work starts,
/// not after it.
func validateReportPaths(_ paths: [(flag: String, path: String?)]) throws {
    for (flag, path) in paths {
        guard let path else { continue }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        guard FileManager.default.fileExists(atPath: directory) else {
            throw ValidationError("\(flag) '\(path)': the directory \(directory) does not exist")
        }
    }
}
