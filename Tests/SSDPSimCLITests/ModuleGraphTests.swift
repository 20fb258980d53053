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

/// The layering docs/layout.md shows: the protocol at the bottom, importing nothing; each
/// module importing only modules below it; and no device-side type in the protocol core.
@Suite struct ModuleGraphTests {
    /// The package's modules a module may import (its own dependencies and theirs), from docs/layout.md.
    static let allowed: [String: Set<String>] = [
        "SSDPCore": [],
        "SSDPDeviceCore": ["SSDPCore"],
        "SSDPCapture": ["SSDPCore"],
        "SSDPNIO": ["SSDPCore"],
        "SSDPSearch": ["SSDPCore", "SSDPNIO"],
        "SSDPDemo": ["SSDPCore", "SSDPNIO"],
        "SSDPSimulator": ["SSDPCore", "SSDPDeviceCore", "SSDPNIO"],
        "SSDPControl": ["SSDPCore", "SSDPDeviceCore", "SSDPNIO", "SSDPSimulator"],
        "SSDPVirtualNetwork": ["SSDPCore", "SSDPDeviceCore", "SSDPNIO", "SSDPSimulator"],
        "SSDPHarness": [
            "SSDPCore", "SSDPDeviceCore", "SSDPNIO", "SSDPSearch", "SSDPSimulator", "SSDPVirtualNetwork", "SSDPCapture",
        ],
        // Audits a device as a control point uses one: the protocol core, the XML reader, the probe's sockets.
        "SSDPCheck": ["SSDPCore", "SSDPDeviceCore", "SSDPNIO"],
        // Not the harness: fixtures for users' tests need the virtual network, not scenarios and reports.
        "SSDPTesting": ["SSDPCore", "SSDPDeviceCore", "SSDPNIO", "SSDPSearch", "SSDPSimulator", "SSDPVirtualNetwork"],
    ]

    @Test(arguments: allowed.keys.sorted())
    func aModuleImportsOnlyModulesBelowIt(module: String) throws {
        let imported = try Self.imports(of: module)
        let packageModules = imported.filter { $0.hasPrefix("SSDP") }
        #expect(packageModules.isSubset(of: Self.allowed[module] ?? []), "\(module) imports \(packageModules.sorted())")
        #expect(!imported.isEmpty || module == "SSDPCore", "no imports found for \(module): is the path right?")
    }

    @Test func theProtocolCoreImportsNothingAndDeclaresNoDeviceType() throws {
        #expect(try Self.imports(of: "SSDPCore").isEmpty)
        // The pure device core: the protocol core and nothing else (no Foundation, no NIO).
        #expect(try Self.imports(of: "SSDPDeviceCore") == ["SSDPCore"])
        let deviceTypes = [
            "SSDPDevice", "SSDPRootDevice", "DeviceResponder", "DeviceAdvertiser", "SimulatorResponder",
            "SSDPDeviceBehaviour", "SSDPMalformation", "SSDPRandom", "SSDPRateLimiter",
        ]
        let declared = try Self.sources(of: "SSDPCore").flatMap { text in
            text.split(separator: "\n").compactMap { line -> String? in
                let words = line.split(separator: " ")
                guard let index = words.firstIndex(where: { ["struct", "enum", "class", "actor"].contains($0) }),
                    index + 1 < words.count
                else { return nil }
                return String(words[index + 1].prefix { $0.isLetter || $0.isNumber })
            }
        }
        #expect(declared.count > 10)
        #expect(Set(declared).isDisjoint(with: deviceTypes), "\(Set(declared).intersection(deviceTypes))")
    }

    @Test func noModuleReExportsAnother() throws {
        for module in Self.allowed.keys {
            #expect(try !Self.sources(of: module).contains { $0.contains("@_exported") }, "\(module)")
        }
    }

    /// docs/layout.md's table of what each module imports is the code's: every module this test knows is
    /// in it, with exactly the package modules its files import.
    @Test func theLayoutPageListsWhatEachModuleImports() throws {
        let page = try String(
            contentsOf: VersionTests.repository.appendingPathComponent("docs/layout.md"),
            encoding: .utf8
        )
        var listed: [String: Set<String>] = [:]
        for line in page.split(separator: "\n") {
            let words = line.split(separator: " ", maxSplits: 1).map(String.init)
            guard let module = words.first, Self.allowed[module] != nil else { continue }
            let rest = words.count > 1 ? words[1].prefix { $0 != "(" } : ""
            listed[module] = Set(
                rest.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
                    $0.hasPrefix("SSDP")
                }
            )
        }
        #expect(Set(listed.keys) == Set(Self.allowed.keys), "modules in docs/layout.md: \(listed.keys.sorted())")
        for (module, imports) in listed {
            let actual = try Self.imports(of: module).filter { $0.hasPrefix("SSDP") }
            #expect(
                imports == actual,
                "docs/layout.md says \(module) imports \(imports.sorted()); it imports \(actual.sorted())"
            )
        }
    }

    /// The modules a module's files import, by name.
    static func imports(of module: String) throws -> Set<String> {
        var names = Set<String>()
        for text in try sources(of: module) {
            for line in text.split(separator: "\n") {
                var words = line.split(separator: " ").map(String.init)
                while let first = words.first, first.hasPrefix("@") { words.removeFirst() }
                guard words.first == "import", words.count >= 2 else { continue }
                let name =
                    ["struct", "class", "enum", "func", "var", "protocol", "typealias"].contains(words[1])
                    ? words.dropFirst(2).first ?? "" : words[1]
                names.insert(String(name.prefix { $0 != "." }))
            }
        }
        return names
    }

    static func sources(of module: String) throws -> [String] {
        let folder = VersionTests.repository.appendingPathComponent("Sources/\(module)")
        return try FileManager.default.subpathsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
            .map { try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8) }
    }
}
