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

extension DeviceControl {
    /// The state variables that say what a device knows of its surroundings rather than of itself, which a
    /// family's behaviour reads from `environment`: a recording shows them as they were.
    static let surroundings: Set<String> = ["ExternalIPAddress"]

    /// Puts the device in the state its recorded answers show, so that once it changes, it goes on from
    /// there: each out-argument of a recorded answer sets the state variable the action relates it to, where
    /// the variable takes that value, on a service no family models (a vendor's volume service keeps its
    /// recorded volume), and the surroundings on any (a recorded router keeps its external address). A
    /// family's behaviour keeps its own model of the rest, made to match the real stack's: set from the
    /// answers, a renderer's PlaybackStorageMedium fell out of step with gmrender-resurrect's events
    /// (`scripts/fidelity renderer --recording`). `A_ARG_TYPE_` variables, which only give an argument its
    /// type, are left alone.
    public mutating func takeState(from calls: [HTTPRecording.Call]) {
        for call in calls {
            guard case .success(let answered) = call.outcome,
                let index = service(atControlPath: String(call.target.prefix { $0 != "?" })),
                let action = services[index].description.action(named: call.actionName)
            else { continue }
            let modelled = !(services[index].behaviour is StateVariableService)
            for argument in answered {
                guard
                    let variable = action.arguments.first(where: { $0.name == argument.name && $0.direction == .out })?
                        .relatedStateVariable,
                    !variable.hasPrefix("A_ARG_TYPE_"), !modelled || Self.surroundings.contains(variable)
                else { continue }
                _ = set(variable, to: argument.value)
            }
        }
    }
}
