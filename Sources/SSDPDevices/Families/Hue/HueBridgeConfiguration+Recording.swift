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

import SSDPDeviceCore

extension HueBridgeConfiguration {
    /// Takes the identity and the pairings a recorded bridge's answers show, so that once the family's API
    /// answers for it (a request the recording does not hold), it is the same bridge to the same apps: the
    /// name, bridge id, MAC, model and versions of its recorded `/api/config`, and the key of every pairing
    /// recorded through the recording proxy (a `POST /api` answered with a `username`). An answer that is not
    /// a 200 with the JSON expected leaves that part as it was.
    public mutating func takeState(from recording: HTTPRecording) {
        if let config = Self.recordedJSON(of: "GET", "/api/config", in: recording).first {
            if let name = Self.string(config["name"]), !name.isEmpty { self.name = name }
            if let id = Self.string(config["bridgeid"]), !id.isEmpty { bridgeID = id }
            if let mac = Self.string(config["mac"]), !mac.isEmpty { self.mac = mac }
            if let model = Self.string(config["modelid"]), !model.isEmpty { modelID = model }
            if let version = Self.string(config["apiversion"]), !version.isEmpty { apiVersion = version }
            if let version = Self.string(config["swversion"]), !version.isEmpty { swVersion = version }
            if let version = Self.string(config["datastoreversion"]), !version.isEmpty { datastoreVersion = version }
        }
        for answer in Self.recordedJSON(of: "POST", "/api", in: recording) {
            guard case .array(let results) = answer else { continue }
            for result in results {
                guard let key = Self.string(result["success"]?["username"]), !key.isEmpty,
                    !pairedKeys.contains(key)
                else { continue }
                pairedKeys.append(key)
            }
        }
    }

    /// The string `json` is, if it is one.
    private static func string(_ json: JSONValue?) -> String? {
        guard case .string(let value) = json else { return nil }
        return value
    }

    /// The JSON of each recorded 200 answer to `method target`, in the order recorded.
    private static func recordedJSON(of method: String, _ target: String, in recording: HTTPRecording) -> [JSONValue] {
        recording.exchanges.filter { $0.method == method && $0.target == target }.compactMap { exchange in
            guard HTTPRecording.status(of: exchange.response) == 200 else { return nil }
            return JSONValue(parsing: Array(exchange.response[(HTTPRecording.headEnd(exchange.response) ?? 0)...]))
        }
    }
}
