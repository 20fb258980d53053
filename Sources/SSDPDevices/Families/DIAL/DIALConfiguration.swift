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

/// A DIAL server (DIAL 2.2, as the Netflix reference server behaves).
public struct DIALConfiguration: Hashable, Sendable {
    /// The path of the description that carries the `Application-URL` header (`/dd.xml`). When it is the
    /// device's description path, that one description carries it.
    public var descriptionPath: String
    /// The path the `Application-URL` header points at; an app's URL is this path, a slash if it lacks
    /// one, and the app's name.
    public var applicationPath: String
    /// The apps a client can launch.
    public var apps: [DIALApp]
    /// `GET` on the application path redirects to the running app, or answers 204 when none runs (Google
    /// Cast); the reference server answers 404.
    public var redirectsToRunningApp: Bool
    /// DIAL 2.2's `system` app, as the reference server has it: its status (hidden; stopped to clients
    /// older than 2.1), `POST ?action=sleep&key=KEY` (403 without a query or without the key when there is
    /// one, 401 for another key, 501 for any other action and for sleep itself, which the reference does not
    /// do), 403 for a stop. `nil` for a server without it.
    public var systemApp: DIALSystemApp?

    /// A DIAL server at these paths; by default with YouTube and Netflix, answering 404 to `GET` on the application
    /// path as the reference server does.
    public init(
        descriptionPath: String,
        applicationPath: String,
        apps: [DIALApp] = DIALApp.defaults,
        redirectsToRunningApp: Bool = false,
        systemApp: DIALSystemApp? = nil
    ) {
        self.descriptionPath = descriptionPath
        self.applicationPath = applicationPath
        self.apps = apps
        self.redirectsToRunningApp = redirectsToRunningApp
        self.systemApp = systemApp
    }
}

/// DIAL 2.2's `system` app (`DIALConfiguration.systemApp`).
public struct DIALSystemApp: Hashable, Sendable {
    /// The key a sleep request must carry (`&key=…`); empty for none (the reference's `--sleep-password`).
    public var sleepKey: String

    /// The system app, with `sleepKey` (none by default, as the reference server starts).
    public init(sleepKey: String = "") {
        self.sleepKey = sleepKey
    }
}

/// An app a DIAL server can launch.
public struct DIALApp: Hashable, Sendable {
    /// The name in the app's URL (`YouTube`).
    public var name: String
    /// Whether a client may stop the app (`<options allowStop>`); a stop is refused with 403 otherwise.
    public var allowStop: Bool
    /// The web origins a request with an `Origin` header may come from (DIAL 2.x §6.1), as the reference
    /// server matches them (`allows(origin:)`); requests without one are always served, as from a phone app,
    /// and an app without any takes every origin.
    public var allowedOrigins: [String]

    /// An app a client may stop by default, taking every origin unless `allowedOrigins` lists some.
    public init(name: String, allowStop: Bool = true, allowedOrigins: [String] = []) {
        self.name = name
        self.allowStop = allowStop
        self.allowedOrigins = allowedOrigins
    }

    /// YouTube and Netflix with the origins the reference server registers for them (server/main.c): the
    /// phone apps' `package:` origins too.
    public static let defaults = [
        DIALApp(name: "YouTube", allowedOrigins: ["https://youtube.com", "https://*.youtube.com", "package:*"]),
        DIALApp(name: "Netflix", allowedOrigins: ["https://netflix.com", "https://www.netflix.com"]),
    ]

    /// Whether a request from `origin` may use the app, as the reference server decides
    /// (dial_server.c's is_allowed_origin): an empty one always; an `https://` origin by its host against
    /// the `https://` entries, with any port when an entry names none (`:443` also matching none) and
    /// `*.example.com` standing for one label; any other origin exactly, or by the prefix of an entry
    /// ending in `*` (`package:*`).
    public func allows(origin: String) -> Bool {
        guard !origin.isEmpty, !allowedOrigins.isEmpty else { return true }
        let https = "https://"
        return allowedOrigins.contains { entry in
            if origin.hasPrefix(https) {
                guard entry.hasPrefix(https) else { return false }
                return Self.host(origin.dropFirst(https.count), matches: entry.dropFirst(https.count))
            }
            if entry.count > 1, entry.hasSuffix("*") {
                return origin.count >= entry.count && origin.hasPrefix(entry.dropLast())
            }
            return origin == entry
        }
    }

    /// Whether an origin's `host[:port]` matches an entry's (`allows(origin:)`).
    private static func host(_ origin: Substring, matches entry: Substring) -> Bool {
        let (originHost, originPort) = hostAndPort(origin)
        let (entryHost, entryPort) = hostAndPort(entry)
        switch entryPort {
        case nil: break
        case "443": guard originPort == nil || originPort == "443" else { return false }
        default: guard originPort == entryPort else { return false }
        }
        if entryHost.hasPrefix("*.") {
            guard let dot = originHost.firstIndex(of: ".") else { return false }
            return originHost[dot...] == entryHost.dropFirst()
        }
        return originHost == entryHost
    }

    private static func hostAndPort(_ authority: Substring) -> (host: Substring, port: Substring?) {
        let authority = authority.prefix { $0 != "/" }
        guard let colon = authority.lastIndex(of: ":") else { return (authority, nil) }
        return (authority[..<colon], authority[authority.index(after: colon)...])
    }
}
