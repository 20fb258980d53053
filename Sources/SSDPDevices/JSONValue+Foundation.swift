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

extension JSONValue {
    /// The value of anything `Encodable`, through its JSON form (`SimulatorCounters`); `null` when it
    /// cannot be encoded.
    public init(encoding value: some Encodable) {
        guard let data = try? JSONEncoder().encode(value),
            let decoded = try? JSONDecoder().decode(JSONValue.self, from: data)
        else {
            self = .null
            return
        }
        self = decoded
    }
}
