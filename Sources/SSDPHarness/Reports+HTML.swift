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
import SSDPCore
import SSDPDeviceCore

// The HTML report and the Markdown summary.

extension Reports {
    /// One self-contained HTML page of `report`: its style, script and data inline, nothing fetched (the
    /// page's content security policy forbids it), every text from a run escaped.
    package static func html(_ report: HTMLReport) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = [UInt8](try encoder.encode(report))
        return pageHead(report, scripts: true) + """
            <noscript><p>The runs, their checks and sequence diagrams are drawn by the page's own script: allow JavaScript for this file.</p></noscript>
            <main id="report"></main>
            <script type="application/json" id="report-data">\(scriptSafe(json))</script>
            <script>
            \(HTMLReportPage.script)
            </script>
            </body>
            </html>

            """
    }

    /// The start of a report's page, to its command line: the head (no script unless `scripts`, nothing
    /// from anywhere else), the title and the counts.
    private static func pageHead(_ report: HTMLReport, scripts: Bool) -> String {
        let policy = "default-src 'none'; style-src 'unsafe-inline'" + (scripts ? "; script-src 'unsafe-inline'" : "")
        let summary = "\(report.failed) failed, \(report.passed) passed, \(report.skipped) skipped"
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta http-equiv="Content-Security-Policy" content="\(policy)">
            <meta name="generator" content="ssdp-sim \(htmlEscaped(report.version))">
            <title>\(htmlEscaped(report.title)) (\(summary))</title>
            <style>
            \(HTMLReportPage.style)
            </style>
            </head>
            <body>
            <h1>\(htmlEscaped(report.title))</h1>
            <p class="counts"><span class="failed">\(report.failed) failed</span><span class="passed">\(report.passed) passed</span><span class="skipped">\(report.skipped) skipped</span></p>
            <p class="muted">\(htmlEscaped(report.command.isEmpty ? "" : "$ " + report.command)) · ssdp-sim \(htmlEscaped(report.version))</p>

            """
    }

    /// A Markdown summary of `report` for a CI job's page (`$GITHUB_STEP_SUMMARY`): the counts, each failed
    /// run with its failed checks and the command that reproduces it, and the other runs in a fold.
    package static func markdownSummary(_ report: HTMLReport) -> String {
        var text = "## \(markdownEscaped(report.title))\n\n"
        text += "**\(report.failed) failed**, \(report.passed) passed, \(report.skipped) skipped"
        text += report.command.isEmpty ? "\n\n" : " · `\(report.command.replacingOccurrences(of: "`", with: "'"))`\n\n"
        for run in report.runs where run.status == .failed {
            text += "### ❌ \(markdownEscaped(run.name)) (seed \(run.seed), \(run.mode))\n\n"
            if let note = run.note { text += "\(markdownEscaped(note))\n\n" }
            text += "| check | expected | got |\n|---|---|---|\n"
            for check in run.checks where check.status == .failed {
                text += "| \(cell(check.name)) | \(cell(check.expected)) | \(cell(check.actual)) |\n"
            }
            text += "\nReproduce: `\(run.reproduce.replacingOccurrences(of: "`", with: "'"))`\n\n"
        }
        let others = report.runs.filter { $0.status != .failed }
        if !others.isEmpty {
            text += "<details><summary>\(others.count) runs passed or skipped</summary>\n\n"
            text += "| run | result | checks |\n|---|---|---|\n"
            for run in others {
                let passed = run.checks.count { $0.status == .passed }
                text += "| \(cell(run.name)) | \(run.status.rawValue) | \(passed) of \(run.checks.count) passed |\n"
            }
            text += "\n</details>\n"
        }
        return text
    }

    /// The index of a report written one page per run: each run's verdict, its failed checks and a link to
    /// its page, failures first. Plain HTML, no script.
    package static func htmlIndex(_ report: HTMLReport, pages: [(run: HTMLReport.Run, file: String)]) -> String {
        var rows = ""
        for (run, file) in pages {
            let failed = run.checks.filter { $0.status == .failed }.map { htmlEscaped($0.name) }.joined(
                separator: ", "
            )
            let status = run.status.rawValue
            rows += "<tr class=\"\(status)\"><td class=\"badge \(status)\">\(status)</td>"
            rows += "<td><a href=\"\(htmlEscaped(percentEncoded(file)))\">\(htmlEscaped(run.name))</a></td>"
            rows += "<td>\(htmlEscaped(run.seed))</td><td>\(htmlEscaped(run.mode))</td><td>\(failed)</td></tr>\n"
        }
        return pageHead(report, scripts: false) + """
            <table class="checks"><tr><th></th><th>run</th><th>seed</th><th>mode</th><th>failed checks</th></tr>
            \(rows)</table>
            </body>
            </html>

            """
    }

    /// A file name for a run's page: its id with anything but letters, digits, `-`, `_` and `.` as `_`.
    package static func fileName(for id: String) -> String {
        String(
            id.unicodeScalars.map {
                $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "-_.".unicodeScalars.contains($0))
                    ? Character($0) : "_"
            }
        )
    }

    private static func percentEncoded(_ file: String) -> String {
        file.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? file
    }

    /// `text` safe in HTML text and attribute values: the XML escaper of the device descriptions and the
    /// JUnit reports (`&apos;` is HTML5's too).
    static func htmlEscaped(_ text: String) -> String {
        SSDPRootDevice.escaped(text)
    }

    /// JSON safe inside a `<script>` element: no `<`, `>` or `&` (so no `</script>` or `<!--`), and no
    /// U+2028 or U+2029, each written as its `\u` escape, which JSON reads back as the same text. It works
    /// on the bytes: the JSON of a long run is megabytes.
    static func scriptSafe(_ json: [UInt8]) -> String {
        var safe: [UInt8] = []
        safe.reserveCapacity(json.count + json.count / 64)
        var index = 0
        while index < json.count {
            let byte = json[index]
            switch byte {
            case UInt8(ascii: "<"): safe += Array("\\u003c".utf8)
            case UInt8(ascii: ">"): safe += Array("\\u003e".utf8)
            case UInt8(ascii: "&"): safe += Array("\\u0026".utf8)
            // U+2028 and U+2029 are E2 80 A8 and E2 80 A9.
            case 0xE2 where index + 2 < json.count && json[index + 1] == 0x80 && (json[index + 2] & 0xFE) == 0xA8:
                safe += Array((json[index + 2] == 0xA8 ? "\\u2028" : "\\u2029").utf8)
                index += 2
            default: safe.append(byte)
            }
            index += 1
        }
        return String(decoding: safe, as: UTF8.self)
    }

    /// `text` as Markdown text, on one line: no markup (`<`, `>`, `&` as entities) and no Markdown (links,
    /// images, emphasis, code, table cells: their punctuation escaped with a backslash).
    private static func markdownEscaped(_ text: String) -> String {
        escaping(text) { scalar in
            switch scalar {
            case "&": "&amp;"
            case "<": "&lt;"
            case ">": "&gt;"
            case "|", "\\", "`", "*", "_", "[", "]", "(", ")", "!", "#", "~": "\\" + String(scalar)
            case "\n", "\r": " "
            default: nil
            }
        }
    }

    private static func cell(_ text: String) -> String {
        markdownEscaped(text.count > 300 ? String(text.prefix(299)) + "…" : text)
    }
}
