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

import SSDPCore
import SSDPDeviceCore
import SSDPDevices
import Testing

/// A family added as one of ours is: its SCPD and one `ServiceBehaviour` (what would be its folder under
/// SSDPDevices' `Families/`), and one registration, here on a copy of `ServiceRegistry.builtIn` (where ours have their
/// line). Nothing else in the device core is told about it.
@Suite struct ServiceRegistryTests {
    /// A toaster's one service: `Toast` answers how dark the toast came out, from the darkness set before,
    /// and counts the toasts; `SetDarkness` is left to the state variables.
    struct Toaster: ServiceBehaviour {
        var toasts = 0

        mutating func answer(
            _ call: SOAPActionCall,
            service: inout ControlledService,
            context: ActionContext
        ) -> Result<[SOAPArgument], UPnPError>? {
            guard call.actionName == "Toast" else { return nil }
            toasts += 1
            return .success([SOAPArgument("Result", "toast \(toasts), darkness \(service.value(of: "Darkness"))")])
        }
    }

    static let toaster = ControlledService(
        serviceType: "urn:schemas-example-com:service:Toaster:1",
        serviceID: "urn:example-com:serviceId:Toaster1",
        controlPath: "/ctl/toaster",
        eventPath: "/evt/toaster",
        description: SSDPServiceDescription(
            actions: [
                .init(
                    name: "SetDarkness",
                    arguments: [.init(name: "NewDarkness", direction: .in, relatedStateVariable: "Darkness")]
                ),
                .init(
                    name: "Toast",
                    arguments: [.init(name: "Result", direction: .out, relatedStateVariable: "A_ARG_TYPE_Result")]
                ),
            ],
            stateVariables: [
                .init(name: "Darkness", dataType: "ui1", defaultValue: "3"),
                .init(name: "A_ARG_TYPE_Result", dataType: "string"),
            ]
        )
    )

    /// The first out-argument's value of `action` called on the toaster (`DeviceControl.call` of the fixtures).
    static func call(_ control: inout DeviceControl, _ action: String, _ arguments: [(String, String)] = []) -> String?
    {
        try? control.call(action, arguments).outcome.get().first?.value
    }

    @Test func aRegisteredFamilyAnswersWithItsBehaviourAndKeepsItsState() {
        let registry = ServiceRegistry.builtIn.registering("Toaster") { _ in Toaster() }
        var control = DeviceControl(services: [Self.toaster], registry: registry, startedAt: .zero)
        #expect(Self.call(&control, "Toast") == "toast 1, darkness 3")
        _ = Self.call(&control, "SetDarkness", [("NewDarkness", "5")])
        #expect(Self.call(&control, "Toast") == "toast 2, darkness 5")
    }

    @Test func anUnregisteredFamilyAnswersFromItsStateVariables() {
        var control = DeviceControl(services: [Self.toaster], registry: .builtIn, startedAt: .zero)
        #expect(Self.call(&control, "Toast") == "", "the out-argument's variable, empty")
        var gmrender = DeviceControl(
            services: [Self.toaster],
            stack: .gmrender,
            registry: ServiceRegistry.builtIn.registering("Toaster") { _ in Toaster() },
            startedAt: .zero
        )
        #expect(Self.call(&gmrender, "Toast") != "toast 1, darkness 3", "a stack's own services come first")
    }
}
