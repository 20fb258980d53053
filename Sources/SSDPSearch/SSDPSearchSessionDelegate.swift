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

/// Told how a search goes, as in the original design.
///
/// Calls arrive on the session's event loop, one at a time, in order: `didFindService` for each new
/// service as soon as it arrives, then exactly one of `searchSessionDidStopSearch` (the search ended)
/// or `didEncounterError` (the socket failed; as in the original design, no stop call follows).
public protocol SSDPSearchSessionDelegate: AnyObject, Sendable {
    func searchSession(_ searchSession: SSDPSearchSession, didFindService service: SSDPService)
    func searchSession(_ searchSession: SSDPSearchSession, didEncounterError error: SSDPSearchSessionError)
    func searchSessionDidStopSearch(_ searchSession: SSDPSearchSession, foundServices: [SSDPService])
}
