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

/// The UPnP stack a device's control and eventing are written by, where the bytes a client meets depend on
/// it: the SOAP envelopes, the GENA events' headers and property sets, and how the services answer. Chosen
/// once when the device is built (`DeviceWeb.controlStack`).
public enum ControlStack: String, Hashable, Sendable {
    /// ssdp-sim's own, as UDA 1.1 writes it (and miniupnpd and MiniDLNA, whose bytes it follows): each
    /// service behaves as its SCPD and the profile's device say.
    case uda
    /// gmrender-resurrect 0.1 on libupnp 1.8 (Debian's gmediarender): libupnp's envelopes and events, and
    /// gmrender's services, which answer from a table of variables, leave GetDeviceCapabilities and
    /// GetTransportSettings empty and fail every error with 501 (`GMRender`).
    case gmrender
}
