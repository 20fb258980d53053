// swift-tools-version: 6.0
// SPDX-License-Identifier: Apache-2.0 (see LICENSE at the root of ssdp-sim)
import PackageDescription

// An app's own package, as a user of ssdp-sim writes it: a small Roku remote built on SSDPSearch, and its
// tests with fake Rokus from SSDPTesting. In your package, depend on ssdp-sim by URL and version instead:
//     .package(url: "<ssdp-sim's Git URL>", from: "0.8.0")
let package = Package(
    name: "RokuRemote",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "RokuRemote", targets: ["RokuRemote"])
    ],
    dependencies: [
        .package(name: "ssdp-sim", path: "../..")
    ],
    targets: [
        .target(
            name: "RokuRemote",
            dependencies: [.product(name: "SSDPSearch", package: "ssdp-sim")]
        ),
        .testTarget(
            name: "RokuRemoteTests",
            dependencies: [
                "RokuRemote",
                .product(name: "SSDPTesting", package: "ssdp-sim"),
                .product(name: "SSDPSearch", package: "ssdp-sim"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
