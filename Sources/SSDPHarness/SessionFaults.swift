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

/// Faults put into the search session on purpose, for the harness's own tests: each must fail a shipped
/// scenario by the check made for it, or the scenarios would pass a broken session. The session itself
/// stays as it ships; a virtual run with faults makes it misbehave around it, by changing what it reports
/// and sends. Never set outside those tests.
///
/// What the run sees is the fault; the session's own bookkeeping is not: its statistics and its found set
/// at the stop still count a duplicate or a chatty answer as dropped, and with one request fewer it still
/// arms the last search's timer (the record, which the checks read, shows one fewer). An answer whose ST
/// only contains the searched one is reported at each repeat.
package struct SessionFaults: OptionSet, Sendable, Hashable {
    package let rawValue: Int

    package init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// The original design's filter: keep an ST that contains the searched one.
    package static let containsTarget = Self(rawValue: 1 << 0)
    /// Report every answer, duplicates included.
    package static let keepsDuplicates = Self(rawValue: 1 << 1)
    /// Send one M-SEARCH fewer than configured: the last is not sent.
    package static let oneRequestFewer = Self(rawValue: 1 << 2)
    /// Take LOCATION from the SERVER header.
    package static let locationFromServer = Self(rawValue: 1 << 3)

    /// What a session with these faults reports for `datagram`, of which the session made `result`: a
    /// duplicate or an answer whose ST contains the searched one reported after all, a LOCATION taken from
    /// SERVER.
    func result(
        _ result: SearchSessionStateMachine.ReceiveResult,
        of datagram: [UInt8],
        searching target: String,
        at now: SSDPInstant
    ) -> SearchSessionStateMachine.ReceiveResult {
        var reported: SSDPService
        switch result {
        case .reportService(let service):
            reported = service
        case .dropped(.duplicate) where contains(.keepsDuplicates):
            guard let service = Self.service(in: datagram, at: now) else { return result }
            reported = service
        case .dropped(.wrongSearchTarget(let found)) where contains(.containsTarget) && found.contains(target):
            guard let service = Self.service(in: datagram, at: now) else { return result }
            reported = service
        default:
            return result
        }
        if contains(.locationFromServer) { reported.location = reported.server }
        return .reportService(reported)
    }

    /// Whether a session with these faults sends its search number `number` (from 1) of `configured`.
    func sends(search number: Int, of configured: Int) -> Bool {
        !(contains(.oneRequestFewer) && number == configured)
    }

    /// The service an answer reports, as the session reads it.
    private static func service(in datagram: [UInt8], at now: SSDPInstant) -> SSDPService? {
        guard let message = try? SSDPParser.parseMessage(datagram) else { return nil }
        return try? SSDPService(response: message, receivedAt: now)
    }
}
