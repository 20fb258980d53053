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
import Testing

/// One captured datagram of `Fixtures/`, as listed in `Fixtures/corpus.json`.
///
/// Each fixture is a file holding the datagram's bytes exactly as they went on the wire. Its manifest entry
/// names the device and where the capture comes from, and what the parser must make of it: a message with
/// exactly these diagnostics (in `SSDPDiagnostic.description` form) and these header values, or a parse error.
struct CorpusFixture: Decodable, Sendable, CustomTestStringConvertible {
    /// What parsing the fixture must produce.
    enum Expectation: Sendable {
        case message(kind: SSDPMessage.Kind, diagnostics: [String], headers: [String: String])
        case error(code: String, line: Int?)
    }

    /// The file name inside `Fixtures/`.
    let file: String
    /// The device and the citation the datagram comes from.
    let source: String
    let expected: Expectation

    var testDescription: String { file }

    /// Whether the fixture must parse into a message rather than fail.
    var isMessage: Bool {
        if case .message = expected { true } else { false }
    }

    /// The datagram's bytes.
    func bytes() throws -> [UInt8] {
        try [UInt8](Data(contentsOf: Self.directory.appendingPathComponent(file)))
    }

    /// Every fixture of the manifest, in manifest order.
    static func all() throws -> [CorpusFixture] {
        let manifest = try Data(contentsOf: directory.appendingPathComponent("corpus.json"))
        return try JSONDecoder().decode([CorpusFixture].self, from: manifest)
    }

    /// The names of the files in `Fixtures/`, hidden files and the manifest excluded.
    static func fileNames() throws -> Set<String> {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        return Set(names.filter { !$0.hasPrefix(".") && $0 != "corpus.json" })
    }

    static var directory: URL {
        get throws { try #require(Bundle.module.url(forResource: "Fixtures", withExtension: nil)) }
    }
}

// MARK: - Decoding

extension CorpusFixture.Expectation: Decodable {
    private enum CodingKeys: String, CodingKey {
        case kind, diagnostics, headers, error, line
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let code = try container.decodeIfPresent(String.self, forKey: .error) {
            self = .error(code: code, line: try container.decodeIfPresent(Int.self, forKey: .line))
            return
        }
        let kindName = try container.decode(String.self, forKey: .kind)
        guard let kind = SSDPMessage.Kind(fixtureName: kindName) else {
            throw DecodingError.dataCorruptedError(
                forKey: .kind,
                in: container,
                debugDescription: "unknown kind \(kindName)"
            )
        }
        self = .message(
            kind: kind,
            diagnostics: try container.decode([String].self, forKey: .diagnostics),
            headers: try container.decodeIfPresent([String: String].self, forKey: .headers) ?? [:]
        )
    }
}

extension SSDPMessage.Kind {
    /// The kind named `response`, `search` or `notify`, as the manifest spells it.
    init?(fixtureName: String) {
        switch fixtureName {
        case "response": self = .response
        case "search": self = .search
        case "notify": self = .notify
        default: return nil
        }
    }
}
