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
        "SSDPDevices": ["SSDPCore", "SSDPDeviceCore"],
        "SSDPCapture": ["SSDPCore"],
        "SSDPNIO": ["SSDPCore"],
        "SSDPSearch": ["SSDPCore", "SSDPNIO"],
        "SSDPDemo": ["SSDPCore", "SSDPNIO"],
        "SSDPSimulator": ["SSDPCore", "SSDPDeviceCore", "SSDPDevices", "SSDPNIO"],
        "SSDPControl": ["SSDPCore", "SSDPDeviceCore", "SSDPDevices", "SSDPNIO", "SSDPSimulator"],
        // The virtual network: devices without sockets, so nothing of NIO or the simulator's network side.
        "SSDPVirtualNetwork": ["SSDPCore", "SSDPDeviceCore", "SSDPDevices"],
        "SSDPHarness": [
            "SSDPCore", "SSDPDeviceCore", "SSDPDevices", "SSDPNIO", "SSDPSearch", "SSDPSimulator", "SSDPVirtualNetwork",
            "SSDPCapture",
        ],
        // Audits a device as a control point uses one: the protocol core, the XML reader, the probe's sockets.
        "SSDPCheck": ["SSDPCore", "SSDPDeviceCore", "SSDPNIO"],
        // Not the harness: fixtures for users' tests need the virtual network, not scenarios and reports.
        "SSDPTesting": [
            "SSDPCore", "SSDPDeviceCore", "SSDPDevices", "SSDPNIO", "SSDPSearch", "SSDPSimulator", "SSDPVirtualNetwork",
        ],
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
        let deviceTypes: Set<Substring> = [
            "SSDPDevice", "SSDPRootDevice", "DeviceResponder", "DeviceAdvertiser", "SimulatorResponder",
            "SSDPDeviceBehaviour", "SSDPMalformation", "SSDPRandom", "SSDPRateLimiter",
        ]
        let declared: [Substring] = try Self.sources(of: "SSDPCore").flatMap { text in
            text.split(separator: "\n").compactMap {
                Self.declaredName(in: $0, after: ["struct", "enum", "class", "actor"])
            }
        }
        #expect(declared.count > 10)
        #expect(Set(declared).isDisjoint(with: deviceTypes), "\(Set(declared).intersection(deviceTypes))")
    }

    /// A REST family reaches the simulator through `DeviceAPI` alone: no code of SSDPSimulator names a
    /// family's type, its configuration's key path on `DeviceWeb`, or a header or state name of its own
    /// (`DeviceWeb.apis`, in SSDPDevices, is the one line that lists them). Comments may.
    @Test func theSimulatorNamesNoRESTFamily() throws {
        let familyWords = [
            "RokuECP", "RokuConfiguration", "HueBridge", "DIALServer", "DIALConfiguration", "web.roku", "web.hue",
            "web.dial", "\\.roku", "\\.hue", "\\.dial", "Application-URL", "linkButton", "powerMode", "activeApp",
            "tvChannel",
        ]
        let files = try Self.sourceFiles(in: "Sources/SSDPSimulator")
        #expect(files.keys.contains("Web/DeviceSite.swift"))
        for (file, lines) in files {
            for word in familyWords {
                #expect(!lines.contains { $0.contains(word) }, "\(file) names \(word)")
            }
        }
    }

    /// The device model needs no NIO, so it lives below the simulator's network side, in SSDPDevices: every
    /// file of SSDPSimulator imports NIO, SSDPNIO, swift-log or swift-service-lifecycle itself, or names a
    /// type declared in a file that does (directly, or through other files). A file that does neither
    /// belongs in SSDPDevices.
    @Test func everyFileOfTheSimulatorNeedsTheNetworkSide() throws {
        let networkModules: Set = [
            "NIOCore", "NIOPosix", "NIOHTTP1", "NIOConcurrencyHelpers", "NIOEmbedded", "SSDPNIO", "Logging",
            "ServiceLifecycle",
        ]
        let code = try Self.sourceFiles(in: "Sources/SSDPSimulator")
        let importsTheNetworkSide = Set(
            code.filter { _, lines in
                lines.contains { line in
                    let words = Self.words(of: line)
                    return words.first == "import"
                        && words.dropFirst().first.map { networkModules.contains(String($0)) } == true
                }
            }.keys
        )
        // The types each file declares at its top level; a name declared in two files (a nested
        // `CodingKeys`, a `State`) says nothing of which one a file means, and is left out.
        var declaredIn: [Substring: Set<String>] = [:]
        for (path, lines) in code {
            for name in Self.topLevelTypes(in: lines) { declaredIn[name, default: []].insert(path) }
        }
        declaredIn = declaredIn.filter { $0.value.count == 1 }
        var needsIt = importsTheNetworkSide
        var grew = true
        while grew {
            grew = false
            for (path, lines) in code where !needsIt.contains(path) {
                let names = lines.flatMap { $0.split { !$0.isLetter && !$0.isNumber && $0 != "_" } }
                if names.contains(where: { name in
                    declaredIn[name].map { !$0.contains(path) && !$0.isDisjoint(with: needsIt) } == true
                }) {
                    needsIt.insert(path)
                    grew = true
                }
            }
        }
        #expect(code.count > 15)
        // The check looks through files: the journal's filter imports nothing of NIO, and names the entry,
        // which names the simulator's events, which hold socket addresses.
        #expect(!importsTheNetworkSide.contains("JournalFilter.swift") && needsIt.contains("JournalFilter.swift"))
        let needNothing = Set(code.keys).subtracting(needsIt).sorted()
        #expect(
            needNothing.isEmpty,
            "files of SSDPSimulator that need no NIO, which belong in SSDPDevices: \(needNothing)"
        )
    }

    /// The SSDP and UPnP layers hold no device family. Each family (its SOAP services, its REST API, its
    /// SCPDs, its profile) is a folder of SSDPDevices' `Families/` and reaches SSDPDeviceCore only through
    /// the protocols below, which nothing in the core adopts but the plain state-variable service. (The
    /// compiler already keeps the core from naming a type of SSDPDevices; this keeps a family from being
    /// added to the core itself.)
    @Test func theDeviceCoreHoldsNoFamily() throws {
        let protocols: Set<Substring> = [
            "ServiceBehaviour", "DeviceAPI", "DeviceAPIConfiguration", "ControlEnvironmentKey",
        ]
        let families = try Self.adopters(of: protocols, in: "Sources/SSDPDevices/Families")
        #expect(
            families.isSuperset(of: ["InternetGatewayConnection", "SonosHousehold", "HueBridgeAPI", "RokuECP"]),
            "\(families)"
        )
        #expect(try Self.adopters(of: protocols, in: "Sources/SSDPDeviceCore") == ["StateVariableService"])
    }

    /// The types declared or extended under `folder` whose declaration line adopts one of `protocols`.
    static func adopters(of protocols: Set<Substring>, in folder: String) throws -> Set<Substring> {
        var found: Set<Substring> = []
        for lines in try sourceFiles(in: folder).values {
            for line in lines {
                guard let name = declaredName(in: line, after: ["struct", "enum", "class", "actor", "extension"]),
                    let colon = line.firstIndex(of: ":")
                else { continue }
                let adopted = line[line.index(after: colon)...].prefix { $0 != "{" }.split { $0 == "," || $0 == " " }
                if adopted.contains(where: protocols.contains) { found.insert(name) }
            }
        }
        return found
    }

    /// The types `lines` declare at their top level (not indented), by name.
    static func topLevelTypes(in lines: [Substring]) -> [Substring] {
        lines.filter { !$0.hasPrefix(" ") }.compactMap {
            declaredName(in: $0, after: ["struct", "enum", "class", "protocol", "typealias", "actor"])
        }
    }

    /// The name `line` declares after the first of `keywords` (`struct`, `extension`, …), if it has one.
    static func declaredName(in line: Substring, after keywords: Set<Substring>) -> Substring? {
        let words = line.split(separator: " ")
        guard let keyword = words.firstIndex(where: keywords.contains), keyword + 1 < words.count else { return nil }
        return words[keyword + 1].prefix { $0.isLetter || $0.isNumber }
    }

    /// The Swift files under `folder` (from the repository's root), by path within it: each one's lines,
    /// comments left out.
    static func sourceFiles(in folder: String) throws -> [String: [Substring]] {
        try sourceTexts(in: folder).mapValues { text in
            text.split(separator: "\n").map { line in line.range(of: "//").map { line[..<$0.lowerBound] } ?? line }
        }
    }

    @Test func noModuleReExportsAnother() throws {
        for module in Self.allowed.keys {
            #expect(try !Self.sources(of: module).contains { $0.contains("@_exported") }, "\(module)")
        }
    }

    /// A user of the package sees two library products, one per job (docs/layout.md, "Products"): every
    /// public module `SSDPTesting` imports, whose types its API may hand out, is in it, so that a test may
    /// import it by name.
    @Test func usersGetTwoLibraryProducts() async throws {
        let manifest = try await PackageManifest.current.value
        #expect(Set(manifest.libraries.keys) == ["SSDPSearch", "SSDPTesting"])
        #expect(manifest.libraries["SSDPSearch"] == ["SSDPSearch"])
        let testing = Set(manifest.libraries["SSDPTesting"] ?? [])
        #expect(testing.contains("SSDPTesting"))
        let imported = try Self.imports(of: "SSDPTesting").filter { $0.hasPrefix("SSDP") && $0 != "SSDPSearch" }
        let unlisted = try imported.filter { try !testing.contains($0) && Self.declaresSomethingPublic(module: $0) }
        #expect(unlisted.isEmpty, "SSDPTesting imports public modules its product does not list: \(unlisted)")
    }

    /// The modules no product lists are the tool's own: nothing in them is `public`, so that another package
    /// sees only what the two products hold.
    @Test func aModuleNoProductListsDeclaresNothingPublic() async throws {
        let manifest = try await PackageManifest.current.value
        let listed = Set(manifest.libraries.values.joined())
        let unlisted = Self.allowed.keys.filter { !listed.contains($0) }.sorted()
        #expect(
            unlisted == ["SSDPCapture", "SSDPCheck", "SSDPControl", "SSDPDemo", "SSDPHarness", "SSDPVirtualNetwork"]
        )
        for module in unlisted {
            #expect(try !Self.declaresSomethingPublic(module: module), "\(module) declares something public")
        }
    }

    /// Whether a line of `module`'s sources declares something `public`.
    static func declaresSomethingPublic(module: String) throws -> Bool {
        let files = try sourceFiles(in: "Sources/\(module)")
        #expect(!files.isEmpty, "no sources found for \(module): is the path right?")
        return files.values.joined().contains { words(of: $0).first == "public" }
    }

    /// The words of a line of code, after the attributes that begin it (`@MainActor`, `@testable`).
    static func words(of line: Substring) -> ArraySlice<Substring> {
        line.split(separator: " ").drop { $0.hasPrefix("@") }
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

    /// Every module of this package, and every product of its dependencies, that a target's files import is
    /// among the target's dependencies or theirs, test targets included. A test target that imported a module
    /// outside them compiled only when that module happened to be built first: a clean clone's `swift build
    /// --build-tests` failed on one (VirtualLANTests importing SSDPHarness).
    @Test func everyTargetDependsOnWhatItsFilesImport() async throws {
        let manifest = try await PackageManifest.current.value
        #expect(manifest.targets.count > 20, "\(manifest.targets.keys.sorted())")
        let products = Set(manifest.targets.values.flatMap(\.products))
        var missing: [String] = []
        for (name, target) in manifest.targets {
            let (closure, reachableProducts) = manifest.closure(of: name)
            let imported = try Self.imports(in: target.folder)
            for module in imported.sorted() where module != name {
                let known = manifest.targets[module] != nil || products.contains(module)
                if known && !closure.contains(module) && !reachableProducts.contains(module) {
                    missing.append("\(name) imports \(module) but does not depend on it")
                }
            }
        }
        #expect(missing.isEmpty, "\(missing)")
    }

    /// The modules a module's files import, by name.
    static func imports(of module: String) throws -> Set<String> {
        try imports(in: "Sources/\(module)")
    }

    /// The modules the Swift files under `folder` (from the repository's root) import, by name.
    static func imports(in folder: String) throws -> Set<String> {
        var names = Set<String>()
        for text in try sources(in: folder) {
            for line in text.split(separator: "\n") {
                let words = Array(Self.words(of: line))
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
        try sources(in: "Sources/\(module)")
    }

    static func sources(in folder: String) throws -> [String] {
        Array(try sourceTexts(in: folder).values)
    }

    /// The text of each Swift file under `folder` (from the repository's root), by path within it.
    static func sourceTexts(in folder: String) throws -> [String: String] {
        let folder = VersionTests.repository.appendingPathComponent(folder)
        var texts: [String: String] = [:]
        for path in try FileManager.default.subpathsOfDirectory(atPath: folder.path) where path.hasSuffix(".swift") {
            texts[path] = try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8)
        }
        return texts
    }
}

/// The targets Package.swift declares and what each depends on, as `swift package dump-package` reads them.
struct PackageManifest {
    struct Target {
        /// Where its files are, from the repository's root.
        var folder: String
        /// The targets of this package it depends on.
        var targets: [String]
        /// The products of other packages it depends on.
        var products: [String]
    }

    var targets: [String: Target]
    /// Each library product and the targets it lists.
    var libraries: [String: [String]]

    /// The manifest of this repository, read once for every test that asks.
    static let current = Task { try await read() }

    /// The manifest of this repository. `dump-package` runs with a scratch folder of its own: the one of
    /// `swift test` is locked while the tests run.
    static func read() async throws -> PackageManifest {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("manifest-\(UUID())")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let output = try await CommandRunner.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            [
                "swift", "package", "--package-path", VersionTests.repository.path, "--scratch-path", scratch.path,
                "dump-package",
            ],
            timeout: .seconds(120)
        )
        guard output.status == 0 else { throw ManifestError(description: output.standardError) }
        let json = try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any]
        var targets: [String: Target] = [:]
        for entry in json?["targets"] as? [[String: Any]] ?? [] {
            guard let name = entry["name"] as? String else { continue }
            let type = entry["type"] as? String
            let folder = entry["path"] as? String ?? (type == "test" ? "Tests/\(name)" : "Sources/\(name)")
            var target = Target(folder: folder, targets: [], products: [])
            for dependency in entry["dependencies"] as? [[String: Any]] ?? [] {
                if let first = (dependency["byName"] ?? dependency["target"]) as? [Any],
                    let name = first.first as? String
                {
                    target.targets.append(name)
                } else if let product = dependency["product"] as? [Any], let name = product.first as? String {
                    target.products.append(name)
                }
            }
            targets[name] = target
        }
        var libraries: [String: [String]] = [:]
        for entry in json?["products"] as? [[String: Any]] ?? [] {
            guard let name = entry["name"] as? String, let type = entry["type"] as? [String: Any],
                type["library"] != nil
            else { continue }
            libraries[name] = entry["targets"] as? [String] ?? []
        }
        return PackageManifest(targets: targets, libraries: libraries)
    }

    /// The targets `name` depends on, directly or through others, and the products they bring.
    func closure(of name: String) -> (targets: Set<String>, products: Set<String>) {
        var seen = Set<String>()
        var products = Set<String>()
        var pending = [name]
        while let next = pending.popLast() {
            guard let target = targets[next] else { continue }
            products.formUnion(target.products)
            for dependency in target.targets where seen.insert(dependency).inserted { pending.append(dependency) }
        }
        return (seen, products)
    }

    struct ManifestError: Error, CustomStringConvertible {
        var description: String
    }
}
