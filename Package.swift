// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "ssdp-sim",
    platforms: [.macOS(.v14)],
    products: [
        // Two products, one per job (docs/layout.md, "Products"). A search: SSDPSearch names the SSDPCore
        // types it hands out, so `import SSDPSearch` is enough.
        .library(name: "SSDPSearch", targets: ["SSDPSearch"]),
        // Tests against fake devices: SSDPTesting's LANs, and the modules whose types they hand out, which a
        // test imports where it names them (building a device of its own, configuring a simulator). The other
        // modules are the tool's own: `package`, not `public`.
        .library(
            name: "SSDPTesting",
            targets: ["SSDPTesting", "SSDPSimulator", "SSDPDevices", "SSDPDeviceCore", "SSDPNIO", "SSDPCore"]
        ),
        .executable(name: "ssdp-sim", targets: ["SSDPSimCLI"]),
        .executable(name: "ssdp-bench", targets: ["SSDPBench"]),
        .executable(name: "ssdp-bench-probe", targets: ["SSDPBenchProbe"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
    ],
    targets: [
        // The protocol core: messages, parser, serializer, search targets, the answer rules of a search, and
        // the search session as a pure state machine. It imports nothing, not even Foundation.
        .target(name: "SSDPCore"),
        // The device side as pure values: the device model, its responder and advertiser, behaviours and
        // malformations, the rate limiter and seeded random, the description and service description
        // (SCPD) writers, SOAP control and GENA eventing. Imports only SSDPCore.
        .target(name: "SSDPDeviceCore", dependencies: ["SSDPCore"]),
        // Packet captures: pcap and pcapng read, pcap written, the SSDP in a capture, and its anonymizer.
        .target(name: "SSDPCapture", dependencies: ["SSDPCore"]),
        // The virtual network: its address plan and the virtual host of a device (built in one place), for
        // the harness's virtual runs and SSDPTesting's virtual LAN.
        // The device model, no I/O: a simulated device as configured (its web side, its behaviour), the
        // profiles of real devices, device files, recordings and replays, and the strict decoder they use.
        .target(name: "SSDPDevices", dependencies: ["SSDPCore", "SSDPDeviceCore"]),
        .target(name: "SSDPVirtualNetwork", dependencies: ["SSDPCore", "SSDPDeviceCore", "SSDPDevices"]),
        // sendmmsg(2), which Swift's Glibc module lacks: the source-address socket's batched sends.
        .target(name: "CSSDPLinux"),
        // SwiftNIO transport: UDP sockets, the datagram codec and the handlers that drive the core.
        .target(
            name: "SSDPNIO",
            dependencies: [
                "SSDPCore",
                "CSSDPLinux",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The demo's canned answers of real devices and a responder that replays them (`ssdp-sim demo`, and
        // the search session's loopback tests).
        .target(
            name: "SSDPDemo",
            dependencies: [
                "SSDPCore",
                "SSDPNIO",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
        // The client library users import: SSDPSearchSession and friends.
        .target(
            name: "SSDPSearch",
            dependencies: [
                "SSDPCore",
                "SSDPNIO",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Simulated root devices on the network: the UDP responder and advertiser, the HTTP servers, the
        // journal, over the device model of SSDPDevices.
        .target(
            name: "SSDPSimulator",
            dependencies: [
                "SSDPCore",
                "SSDPDeviceCore",
                "SSDPDevices",
                "SSDPNIO",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // The control API over HTTP+JSON: the devices' operations and the journal's queries for another
        // process (`serve --control`), and its OpenAPI document.
        .target(
            name: "SSDPControl",
            dependencies: [
                "SSDPCore",
                "SSDPDeviceCore",
                "SSDPDevices",
                "SSDPSimulator",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            resources: [.embedInCode("Resources/openapi.json")]
        ),
        // The scenario harness: scenario files, the virtual network, live and external-client runs, checks
        // and reports.
        .target(
            name: "SSDPHarness",
            dependencies: [
                "SSDPCapture",
                "SSDPCore",
                "SSDPDeviceCore",
                "SSDPSearch",
                "SSDPDevices",
                "SSDPSimulator",
                "SSDPVirtualNetwork",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            // The HTML report's style and script, compiled into the binary (no bundle beside it).
            resources: [.embedInCode("Resources/report.css"), .embedInCode("Resources/report.js")]
        ),
        // `ssdp-sim check`: audits a device (ours or anyone's) against UDA 1.1 by using it as a control point
        // does: discovery, descriptions, SCPDs, eventing and control.
        .target(
            name: "SSDPCheck",
            dependencies: [
                "SSDPCore",
                "SSDPDeviceCore",
                "SSDPNIO",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
        // Simulated devices inside a Swift test: on loopback for the length of a closure, or on a virtual
        // network in virtual time.
        .target(
            name: "SSDPTesting",
            dependencies: [
                "SSDPCore",
                "SSDPDeviceCore",
                "SSDPNIO",
                "SSDPSearch",
                "SSDPDevices",
                "SSDPSimulator",
                "SSDPVirtualNetwork",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The `ssdp-sim` executable: argument parsing and output only.
        .executableTarget(
            name: "SSDPSimCLI",
            dependencies: [
                "SSDPCapture",
                "SSDPCheck",
                "SSDPControl",
                "SSDPCore",
                "SSDPHarness",
                "SSDPDemo",
                "SSDPDeviceCore",
                "SSDPSearch",
                "SSDPNIO",
                "SSDPDevices",
                "SSDPSimulator",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The devices, searches and sessions that `ssdp-bench` times and `ssdp-bench-probe` counts.
        .target(
            name: "SSDPBenchWorkloads",
            dependencies: ["SSDPCore", "SSDPDeviceCore", "SSDPDevices", "SSDPSimulator"]
        ),
        // `ssdp-bench-probe`: the parser, the session's ingest, the responder and a virtual run on one thread,
        // without Dispatch, for `ssdp-bench` to count their instructions under valgrind.
        .executableTarget(
            name: "SSDPBenchProbe",
            dependencies: ["SSDPCore", "SSDPHarness", "SSDPBenchWorkloads"]
        ),
        // `ssdp-bench`: the performance figures of the README, against the targets the project set itself.
        .executableTarget(
            name: "SSDPBench",
            dependencies: [
                "SSDPBenchProbe",
                "SSDPBenchWorkloads",
                "SSDPCore",
                "SSDPDeviceCore",
                "SSDPSearch",
                "SSDPDevices",
                "SSDPSimulator",
                "SSDPHarness",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "SSDPCoreTests",
            dependencies: ["SSDPCore", "CSSDPTestSettings"],
            resources: [.copy("Fixtures")]
        ),
        // Swift Testing's settings (Tests/CSSDPTestSettings/settings.c): linked into the test process only.
        .target(name: "CSSDPTestSettings", path: "Tests/CSSDPTestSettings"),
        .testTarget(
            name: "SSDPDeviceCoreTests",
            dependencies: ["SSDPDeviceCore", "SSDPDevices"]
        ),
        .testTarget(
            name: "SSDPNIOTests",
            dependencies: [
                "SSDPNIO",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "SSDPSimulatorTests",
            dependencies: [
                "SSDPDevices",
                "SSDPSimulator",
                "SSDPDeviceCore",
                "SSDPSearch",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "SSDPSearchTests",
            dependencies: [
                "SSDPCore",
                "SSDPSearch",
                "SSDPNIO",
                "SSDPDemo",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "SSDPHarnessTests",
            dependencies: [
                "SSDPHarness", "SSDPCapture", "SSDPDevices", "SSDPSimulator", "SSDPDeviceCore", "SSDPVirtualNetwork",
            ],
            resources: [.copy("Clients")]
        ),
        .testTarget(
            name: "SSDPTestingTests",
            dependencies: [
                "SSDPTesting",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "SSDPControlTests",
            dependencies: [
                "SSDPControl",
                "SSDPDevices",
                "SSDPSimulator",
                "SSDPDeviceCore",
                "SSDPNIO",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // `ssdp-sim check` against the simulator's devices, with and without each fault, and bad input.
        .testTarget(
            name: "SSDPCheckTests",
            dependencies: ["SSDPCheck", "SSDPCore", "SSDPDeviceCore", "SSDPDevices", "SSDPSimulator"]
        ),
        // Runs the built `ssdp-sim` binary: exit codes, output, and multicast inside a private namespace.
        .testTarget(
            name: "SSDPSimCLITests",
            dependencies: ["SSDPSimCLI", "SSDPHarness"],
            resources: [.copy("Scripts")]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// The container image compiles the `ssdp-sim` binary alone and copies no tests: docker/Dockerfile sets
// SSDP_SIM_IMAGE_BUILD, and then the package declares no target under Tests (SwiftPM would look for their
// folders). A change to a test then leaves the image's layers as they are instead of compiling it again.
if Context.environment["SSDP_SIM_IMAGE_BUILD"] != nil {
    package.targets.removeAll { $0.type == .test || $0.path?.hasPrefix("Tests/") == true }
}

// Every Swift target spells `any` on each existential, and a file sees the members of only the modules it
// imports itself (not those another file of the target imports), as swift-log builds: a missing import
// fails here rather than in the package of a user who imports less. Not the member rule for SSDPNIO and
// its tests: the Clang importer takes Glibc's `sockaddr_in` and `in_addr` for swift-nio's private C module
// (CNIOLinux, whose header includes theirs first), which no target of ours may import.
for target in package.targets where !target.name.hasPrefix("CSSDP") {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    if target.name != "SSDPNIO" && target.name != "SSDPNIOTests" {
        settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    }
    target.swiftSettings = settings
}
