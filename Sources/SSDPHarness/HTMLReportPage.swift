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

/// The page of the HTML report: its style and its script, inline, so that the file opens from disk or as
/// a CI artifact with nothing fetched from anywhere. The script draws from the report's data, which the
/// page carries as JSON, and puts every text from a run into the page as text (never as markup).
///
/// Both are files of their own, `Resources/report.css` and `Resources/report.js` (linted by
/// `scripts/lint-report`), compiled into the binary: the binary stays one file.
enum HTMLReportPage {
    static let style = text(of: PackageResources.report_css)
    static let script = text(of: PackageResources.report_js)

    /// A resource's text, without the newline that ends the file (the page puts its own around it).
    private static func text(of bytes: [UInt8]) -> String {
        String(decoding: bytes.last == UInt8(ascii: "\n") ? bytes.dropLast() : bytes[...], as: UTF8.self)
    }
}
