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

import NIOConcurrencyHelpers
import SSDPCore
import SSDPDeviceCore

/// A DIAL server on its HTTP side (`DIALServer` answers, this serves it): the REST side under the
/// `Application-URL`, its launches, stops and data recorded as `DeviceAction`s.
final class DIALAPIServer: Sendable {
    /// The apps and paths.
    let configuration: DIALConfiguration
    private let server: NIOLockedValueBox<DIALServer>

    init(udn: String, configuration: DIALConfiguration) {
        let server = DIALServer(udn: udn, configuration: configuration)
        self.configuration = configuration
        self.server = NIOLockedValueBox(server)
    }

    /// The answer for a path under the application URL, or `nil` when `request` is for another path.
    func respond(to request: DeviceHTTPRequest) -> DeviceHTTPResponse? {
        server.withLockedValue { $0.respond(to: request) }.map(DeviceHTTPResponse.init)
    }
}
