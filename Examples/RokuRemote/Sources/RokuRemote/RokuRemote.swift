// SPDX-License-Identifier: Apache-2.0 (see LICENSE at the root of ssdp-sim)

import Foundation
import SSDPSearch

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A Roku on the network, as its External Control Protocol (ECP) describes it.
public struct Roku: Hashable, Sendable {
    /// The ECP base URL: the LOCATION of its answer (`http://192.168.1.20:8060/`).
    public var base: URL
    /// The name the user gave it (`user-device-name`).
    public var name: String
    /// Its serial number (`serial-number`), which tells two Rokus of the same name apart.
    public var serialNumber: String
}

/// Finds the Rokus on the LAN and presses their keys: the code a test wants to run against fake Rokus.
public struct RokuRemote: Sendable {
    /// How the remote searches: the real network by default; a test gives it a session of its own.
    public var makeSession: @Sendable (SSDPSearchSessionConfiguration) -> SSDPSearchSession
    /// What the remote searches for, and where: `roku:ecp` on the LAN by default.
    public var configuration: SSDPSearchSessionConfiguration

    /// A remote that searches with `configuration` (the LAN by default) through sessions `makeSession` makes.
    public init(
        configuration: SSDPSearchSessionConfiguration? = nil,
        makeSession: @escaping @Sendable (SSDPSearchSessionConfiguration) -> SSDPSearchSession = {
            SSDPSearchSession(configuration: $0)
        }
    ) throws {
        self.configuration = try configuration ?? .createMulticastConfiguration(forSearchTarget: "roku:ecp")
        self.makeSession = makeSession
    }

    /// The ECP base URL of every Roku that answers, once each, in the order they answered.
    public func locate() async throws -> [URL] {
        var bases: [URL] = []
        for try await service in makeSession(configuration).services {
            guard let base = URL(string: service.location), !bases.contains(base) else { continue }
            bases.append(base)
        }
        return bases
    }

    /// Every Roku that answers, with its name and serial number from `/query/device-info`.
    public func discover() async throws -> [Roku] {
        var rokus: [Roku] = []
        for base in try await locate() {
            let (data, _) = try await URLSession.shared.data(from: base.appending(path: "query/device-info"))
            let info = String(decoding: data, as: UTF8.self)
            rokus.append(
                Roku(
                    base: base,
                    name: Self.value(of: "user-device-name", in: info) ?? "",
                    serialNumber: Self.value(of: "serial-number", in: info) ?? ""
                )
            )
        }
        return rokus
    }

    /// Presses `key` (`Home`, `Play`, `Select`, …) on `roku`.
    public func press(_ key: String, on roku: Roku) async throws {
        var request = URLRequest(url: roku.base.appending(path: "keypress/\(key)"))
        request.httpMethod = "POST"
        let (_, response) = try await URLSession.shared.data(for: request)
        guard let status = (response as? HTTPURLResponse)?.statusCode, status == 200 else {
            throw URLError(.badServerResponse)
        }
    }

    /// The text of `<name>…</name>` in a device-info document.
    static func value(of name: String, in xml: String) -> String? {
        guard let start = xml.range(of: "<\(name)>"),
            let end = xml.range(of: "</\(name)>", range: start.upperBound..<xml.endIndex)
        else { return nil }
        return String(xml[start.upperBound..<end.lowerBound])
    }
}
