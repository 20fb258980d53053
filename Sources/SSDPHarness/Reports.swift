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

/// The files `ssdp-sim run` writes: JUnit XML, JSON, and per-scenario traces (pcap and a timeline).
package enum Reports {
    // The reports themselves are in Reports+JUnit, Reports+JSON, Reports+Pcap and Reports+Timeline.

    /// `text` with every scalar `replacement` gives a replacement for written as that: the one loop behind
    /// each report's escaping (XML, HTML, JSON in a script, Markdown).
    static func escaping(_ text: String, _ replacement: (Unicode.Scalar) -> String?) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if let replaced = replacement(scalar) {
                escaped += replaced
            } else {
                escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// Writes `data` to `path` whole or not at all: a temporary file beside it, then a rename.
    package static func writeAtomically(_ data: Data, to path: String) throws {
        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).tmp")
        do {
            try data.write(to: temporary)
            guard rename(temporary.path, url.path) == 0 else {
                throw HarnessError(reason: String(cString: strerror(errno)))
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw HarnessError(reason: "cannot write \(path): \(error)")
        }
    }
}
