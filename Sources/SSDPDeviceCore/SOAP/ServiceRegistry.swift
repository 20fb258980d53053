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

/// Which behaviour each service of a device gets when its `DeviceControl` is built: by the service's kind
/// (its type's name, `WANIPConnection`) on ssdp-sim's own stack, or one for every service on a stack of its
/// own (gmrender-resurrect's). A kind not registered answers from its state variables.
///
/// It names no family: `builtIn`, in SSDPDevices' `Families/ServiceKinds.swift`, registers ssdp-sim's
/// own, one line each, and a family added to it is its folder and that line. A library user, or a test,
/// registers another on a copy (`registering(_:_:)`) and hands it to `DeviceControl`.
public struct ServiceRegistry: Sendable {
    /// Makes a service's behaviour, given the kinds of every service of its device (a media server's
    /// connection manager answers as its content directory's device does).
    public typealias MakeBehaviour = @Sendable (_ kindsOnDevice: Set<String>) -> any ServiceBehaviour

    private var kinds: [String: MakeBehaviour] = [:]
    private var stacks: [ControlStack: MakeBehaviour] = [:]

    /// A registry with nothing registered: every service answers from its state variables.
    public init() {}

    /// This registry with services of `kind` made by `make`, in place of what it had for the kind.
    public func registering(_ kind: String, _ make: @escaping MakeBehaviour) -> ServiceRegistry {
        var registry = self
        registry.kinds[kind] = make
        return registry
    }

    /// This registry with every service on `stack` made by `make`, whatever its kind.
    public func registering(stack: ControlStack, _ make: @escaping MakeBehaviour) -> ServiceRegistry {
        var registry = self
        registry.stacks[stack] = make
        return registry
    }

    /// The behaviour of a service of `kind` on a device whose services are of `kinds`, written by `stack`.
    func behaviour(for kind: String, on kinds: Set<String>, stack: ControlStack) -> any ServiceBehaviour {
        let make = stacks[stack] ?? self.kinds[kind]
        return make?(kinds) ?? StateVariableService()
    }
}
