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

import Testing

@testable import SSDPCheck

@Suite struct DeviceRecorderTests {
    /// A chunked response is kept with its body whole and a Content-Length in Transfer-Encoding's place: the
    /// chunks' framing would break a body that playback changes, and a description read from it.
    @Test func aChunkedResponseIsKeptDechunked() throws {
        let raw =
            "HTTP/1.1 200 OK\r\nContent-Type: text/xml\r\nTransfer-Encoding: chunked\r\nServer: x\r\n\r\n6\r\n<root>\r\n7\r\n</root>\r\n0\r\n\r\n"
        let reader = HTTPMessageReader(maximumBodySize: 1_024, endsAtClose: true)
        guard case .complete(let message) = reader.read(Array(raw.utf8), closed: true) else {
            Issue.record("not read whole")
            return
        }
        let kept = String(decoding: DeviceRecorder.unchunked(message), as: UTF8.self)
        #expect(
            kept == "HTTP/1.1 200 OK\r\nContent-Type: text/xml\r\nServer: x\r\nContent-Length: 13\r\n\r\n<root></root>"
        )
    }
}
