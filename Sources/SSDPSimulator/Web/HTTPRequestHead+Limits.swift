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

import NIOHTTP1

extension HTTPRequestHead {
    /// The bytes the header limits count: the request target and every header line (name, value, `: ` and
    /// CRLF).
    package var headerSize: Int {
        uri.utf8.count + headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 }
    }

    /// Whether the request names its host as HTTP/1.1 must, exactly once (RFC 9112 §3.2); HTTP/1.0 need not.
    package var hasRequiredHost: Bool {
        version.minor == 0 || headers["Host"].count == 1
    }
}
