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

/// The control API's paths and the methods each takes: the contract `docs/control.md` and the OpenAPI
/// document describe (a test holds the document to this table).
enum ControlRoute: CaseIterable, Hashable, Sendable {
    case health, devices, device, action, network, reset, journal, journalWait, openAPI

    /// The path, with `{name}` for a segment that varies.
    var template: String {
        switch self {
        case .health: "/health"
        case .devices: "/devices"
        case .device: "/devices/{id}"
        case .action: "/devices/{id}/actions/{action}"
        case .network: "/network"
        case .reset: "/reset"
        case .journal: "/journal"
        case .journalWait: "/journal/wait"
        case .openAPI: "/openapi.json"
        }
    }

    /// The methods the path takes.
    var methods: [String] {
        switch self {
        case .action, .reset: ["POST"]
        case .devices: ["GET", "POST"]
        case .device: ["GET", "PATCH", "DELETE"]
        case .network: ["GET", "PUT"]
        case .journal: ["GET", "DELETE"]
        default: ["GET"]
        }
    }

    /// The route whose template `segments` fit, with the varying segments by name.
    static func match(_ segments: [String]) -> (route: ControlRoute, parameters: [String: String])? {
        for route in allCases {
            let template = route.template.split(separator: "/")
            guard template.count == segments.count else { continue }
            var parameters: [String: String] = [:]
            let fits = zip(template, segments).allSatisfy { part, segment in
                if part.hasPrefix("{") {
                    parameters[String(part.dropFirst().dropLast())] = segment
                    return true
                }
                return part == segment
            }
            if fits { return (route, parameters) }
        }
        return nil
    }
}
