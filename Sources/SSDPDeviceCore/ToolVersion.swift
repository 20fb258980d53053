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

/// The version of ssdp-sim: what `ssdp-sim --version` prints, what reports and `serve --json` carry, and
/// the last version CHANGELOG.md names (a test holds them together).
public enum ToolVersion {
    /// The version, `MAJOR.MINOR.PATCH`; raise it with a new CHANGELOG.md entry.
    public static let current = "0.26.0"
}

extension SSDPRootDevice {
    /// The SERVER of a device that imitates no stack (the `generic` profile's): the OS, UDA's version and
    /// this tool at its version.
    public static let defaultServer = "Linux/6.1 UPnP/1.1 ssdp-sim/\(ToolVersion.current)"
}
