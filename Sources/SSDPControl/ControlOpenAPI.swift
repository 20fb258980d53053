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

/// The control API's OpenAPI 3.1 document, `GET /openapi.json`: every path and method `ControlRoute` lists
/// and every status each answers (a test holds the server to it, both ways). It is a file of its own,
/// `Resources/openapi.json`, compiled into the binary, where validators can read it: the Python client's
/// suite checks it against the OpenAPI 3.1 schema and every answer it gets against the document's schemas.
enum ControlOpenAPI {
    static let document = String(decoding: PackageResources.openapi_json, as: UTF8.self)
}
