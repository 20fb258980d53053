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
import Testing

/// The README and the pages under docs/ hold together: every version they print as the tool's is the one
/// `ssdp-sim --version` prints, every relative link reaches a file of the repository and, when it names an
/// anchor, a heading of that page, and the README's Contents list names each of its sections.
@Suite struct DocsTests {
    /// README.md and every Markdown page under docs/, as paths relative to the repository.
    static func documents() throws -> [String] {
        let docs = try FileManager.default.contentsOfDirectory(
            atPath: VersionTests.repository.appendingPathComponent("docs").path
        )
        return ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
    }

    /// The text of `document`, a path relative to the repository.
    static func text(of document: String) throws -> String {
        try String(contentsOf: VersionTests.repository.appendingPathComponent(document), encoding: .utf8)
    }

    /// The lines of `text` outside fenced code blocks, where Markdown makes headings and links (a `#` line
    /// inside a block is a shell comment).
    static func prose(_ text: String) -> [Substring] {
        var fenced = false
        var lines: [Substring] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.drop(while: { $0 == " " }).hasPrefix("```") {
                fenced.toggle()
            } else if !fenced {
                lines.append(line)
            }
        }
        return lines
    }

    /// The headings of `text` as level and title: `## Layout` is 2 and "Layout".
    static func headings(in text: String) -> [(level: Int, title: Substring)] {
        prose(text).compactMap { line -> (level: Int, title: Substring)? in
            let hashes = line.prefix { $0 == "#" }.count
            guard (1...6).contains(hashes), line.dropFirst(hashes).first == " " else { return nil }
            return (hashes, line.dropFirst(hashes + 1))
        }
    }

    /// The anchor GitHub gives a heading's title: lower case, every character but letters, digits, spaces,
    /// `-` and `_` removed, and each space a `-`.
    static func anchor(_ title: Substring) -> String {
        let kept = title.trimmingCharacters(in: .whitespaces).lowercased().filter {
            $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == " "
        }
        return String(kept.map { $0 == " " ? "-" : $0 })
    }

    /// The anchors of the headings of `text`; a heading met again gets `-1`, `-2`, … as on GitHub.
    static func anchors(in text: String) -> Set<String> {
        var seen: [String: Int] = [:]
        var anchors: Set<String> = []
        for heading in headings(in: text) {
            let base = anchor(heading.title)
            let count = seen[base, default: 0]
            seen[base] = count + 1
            anchors.insert(count == 0 ? base : "\(base)-\(count)")
        }
        return anchors
    }

    /// The first capture group of every match of `pattern` in `text`.
    static func captures(of pattern: String, in text: String) throws -> [String] {
        try NSRegularExpression(pattern: pattern).matches(in: text, range: NSRange(text.startIndex..., in: text))
            .compactMap { match in Range(match.range(at: 1), in: text).map { String(text[$0]) } }
    }

    /// The targets of the inline links of `text` outside code blocks, `[words](target)`, but those with a
    /// scheme (`https:`, `mailto:`): the relative links, with their anchors.
    static func relativeLinks(in text: String) throws -> [String] {
        try prose(text).flatMap { line in try captures(of: #"\]\(([^)\s]+)\)"#, in: String(line)) }
            .filter { $0.range(of: "^[A-Za-z][A-Za-z0-9+.-]*:", options: .regularExpression) == nil }
    }

    /// Every version `text` prints as the tool's: `ssdp-sim X.Y.Z`, a dependency on the package
    /// (`from: "X.Y.Z"`), and what follows `--version` (its output, or "prints the version (X.Y.Z").
    /// Line breaks and runs of spaces count as one space, so a sentence broken over two lines is read whole.
    static func printedVersions(in text: String) throws -> [String] {
        let flat = text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        let patterns = [
            #"ssdp-sim (\d+\.\d+\.\d+)"#,
            #"from: "(\d+\.\d+\.\d+)""#,
            #"--version[^0-9]{0,40}?(\d+\.\d+\.\d+)"#,
        ]
        return try patterns.flatMap { try captures(of: $0, in: flat) }
    }

    /// Every version the README and docs/ print as the tool's is the one `ssdp-sim --version` prints (the
    /// README once said 0.7.2 while the code was 0.8.0).
    @Test func everyPrintedVersionIsTheToolsVersion() async throws {
        let version = try await CommandRunner.ssdpSim("--version").standardOutput.trimmingCharacters(
            in: .whitespacesAndNewlines
        )
        #expect(version.range(of: #"^\d+\.\d+\.\d+$"#, options: .regularExpression) != nil, "\(version)")
        var printed: [String: [String]] = [:]
        for document in try Self.documents() {
            printed[document] = try Self.printedVersions(in: Self.text(of: document))
        }
        // The README prints it in `--version`'s sentence and in the package dependency; docs/ prints it too.
        #expect(printed["README.md", default: []].count >= 2, "\(printed)")
        #expect(printed.values.flatMap { $0 }.count >= 4, "too few versions found: is the scan right? \(printed)")
        let stale = printed.flatMap { document, versions in
            versions.filter { $0 != version }.map { "\(document): \($0)" }
        }
        #expect(stale.isEmpty, "printed as the tool's version, which is \(version): \(stale.sorted())")
    }

    /// Every relative link of the README and docs/ reaches a file or folder of the repository, and every
    /// `#anchor` into a Markdown page (the same page or another) is the anchor of one of its headings.
    @Test func everyRelativeLinkReachesItsFileAndHeading() throws {
        var links = 0
        var anchored = 0
        var broken: [String] = []
        for document in try Self.documents() {
            let page = VersionTests.repository.appendingPathComponent(document)
            for link in try Self.relativeLinks(in: Self.text(of: document)) {
                links += 1
                let parts = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                let path = String(parts[0])
                let target =
                    path.isEmpty
                    ? page : page.deletingLastPathComponent().appendingPathComponent(path).standardizedFileURL
                guard FileManager.default.fileExists(atPath: target.path) else {
                    broken.append("\(document): \(link): no such file")
                    continue
                }
                guard parts.count == 2, target.pathExtension == "md" else { continue }
                anchored += 1
                let anchors = try Self.anchors(in: String(contentsOf: target, encoding: .utf8))
                if !anchors.contains(String(parts[1])) {
                    broken.append("\(document): \(link): no heading has that anchor")
                }
            }
        }
        #expect(links >= 60, "only \(links) relative links found: is the scan right?")
        #expect(anchored >= 25, "only \(anchored) links with an anchor found: is the scan right?")
        #expect(broken.isEmpty, "\(broken)")
    }

    /// Every recipe that gives a loopback multicast names `src 127.0.0.1` in its route, so that a client
    /// that binds no address (python-roku, most libraries) sends from 127.0.0.1, as UnboundClientTests runs
    /// it, rather than from 0.0.0.0.
    @Test func everyLoopbackMulticastRouteNamesItsSource() throws {
        var routes: [String] = []
        for document in try Self.documents() {
            routes += try Self.captures(
                of: #"(ip route add 239\.0\.0\.0/8 dev lo[^`'&;\n]*)"#,
                in: Self.text(of: document)
            )
            .map { "\(document): \($0)" }
        }
        #expect(routes.count >= 5, "only \(routes.count) recipes found: is the scan right?")
        let bare = routes.filter { !$0.hasSuffix(UnboundClients.documentedRoute) }
        #expect(bare.isEmpty, "routes without src 127.0.0.1: \(bare)")
    }

    /// The README is the user's manual, not the reference: the two commands, one short section per job with
    /// its command, and links. It stays under 400 lines (issue 68); the details live in docs/.
    @Test func theReadmeStaysUnder400Lines() throws {
        let lines = try Self.text(of: "README.md").split(separator: "\n", omittingEmptySubsequences: false).count
        #expect(lines <= 400, "README.md has \(lines) lines: move the detail into its page under docs/")
    }

    /// The README's Contents list links each of the README's sections and subsections (`##` and `###`
    /// headings after it), so a newcomer sees the whole README from its first screen.
    @Test func theReadmesContentsListsEverySection() throws {
        let readme = try Self.text(of: "README.md")
        let contents = try #require(
            readme.components(separatedBy: "\n## Contents\n").dropFirst().first?
                .components(separatedBy: "\n## ").first
        )
        let listed = try Set(Self.relativeLinks(in: contents).filter { $0.hasPrefix("#") }.map { $0.dropFirst() })
        let sections = Self.headings(in: readme).filter { (2...3).contains($0.level) && $0.title != "Contents" }
        #expect(sections.count >= 10, "only \(sections.count) sections found: is the scan right?")
        let unlisted = sections.map { Self.anchor($0.title) }.filter { !listed.contains(Substring($0)) }
        #expect(unlisted.isEmpty, "sections missing from the Contents list: \(unlisted)")
    }

    /// Scenarios/README.md's table of the scenario files has a row for each shipped scenario, and its
    /// "live" column says whether the file is tagged `live` (what `run --live` and `--client` run).
    @Test func theScenarioTableHasEveryFileAndItsLiveTag() throws {
        let directory = VersionTests.repository.appendingPathComponent("Scenarios")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".json") && !$0.hasSuffix(".schema.json") }
        #expect(files.count >= 20, "only \(files.count) scenario files found: is the scan right?")
        var tagged: [String: String] = [:]
        for file in files {
            let data = try Data(contentsOf: directory.appendingPathComponent(file))
            let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any], "\(file)")
            tagged[file] = ((object["tags"] as? [String]) ?? []).contains("live") ? "yes" : "no"
        }
        let table = try Self.text(of: "Scenarios/README.md")
        let rows = try #require(table.components(separatedBy: "\n## The scenario files\n").dropFirst().first)
        var listed: [String: String] = [:]
        for line in rows.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 2 else { continue }
            listed[cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`"))] = cells[1]
        }
        #expect(listed == tagged)
    }
}
