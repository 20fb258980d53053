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
import SSDPDeviceCore
import SSDPDevices
import SSDPSimulator

extension ControlAPI {
    /// `GET /network`: the network faults as they are now, every field given.
    func network() throws -> ControlResponse {
        .json(200, try serving().network.json)
    }

    /// `PUT /network`: the faults the body gives replace every fault (an empty object clears them), from the
    /// next datagram on; answers them as they are after.
    func setNetwork(_ request: ControlRequest) async throws -> ControlResponse {
        let simulator = try serving()
        let faults = try Self.read(request.body) { (data) throws(SimulatorInputError) in
            try NetworkFaultsSpecification.decode(data, source: "PUT /network")
        }
        await simulator.setNetwork(faults)
        return .json(200, faults.json)
    }
}
