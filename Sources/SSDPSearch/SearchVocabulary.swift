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

// The vocabulary of a search, so that `import SSDPSearch` alone is enough to search. These are SSDPCore's
// types under the same names (a file that imports both sees one type); the rest of SSDPCore (the parser,
// the state machine) stays out of the names of an SSDPSearch user.

/// What to search for and where; see `SSDPCore.SSDPSearchSessionConfiguration`.
public typealias SSDPSearchSessionConfiguration = SSDPCore.SSDPSearchSessionConfiguration
/// A configuration value that is out of range, naming the field; see `SSDPCore.SSDPConfigurationError`.
public typealias SSDPConfigurationError = SSDPCore.SSDPConfigurationError
/// One service a search found; see `SSDPCore.SSDPService`.
public typealias SSDPService = SSDPCore.SSDPService
/// The headers of a found service beyond the five it is made of; see `SSDPCore.SSDPHeaders`.
public typealias SSDPHeaders = SSDPCore.SSDPHeaders
/// An instant on the session's monotonic clock (a service's expiry); see `SSDPCore.SSDPInstant`.
public typealias SSDPInstant = SSDPCore.SSDPInstant
/// What a session sent, received, reported and dropped; see `SSDPCore.SearchSessionStatistics`.
public typealias SearchSessionStatistics = SSDPCore.SearchSessionStatistics
/// Why a session failed, with a stable code; see `SSDPCore.SSDPSearchSessionError`.
public typealias SSDPSearchSessionError = SSDPCore.SSDPSearchSessionError
