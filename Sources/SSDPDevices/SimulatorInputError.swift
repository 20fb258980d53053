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

import FoundationEssentials

/// Bad input from a user's file: which file, where in it (a JSON path such as `$.devices[1].behaviour.delay`)
/// and why.
public struct SimulatorInputError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file, as the user named it.
    public var file: String
    /// Where in the file, as a JSON path (`$.devices[1].behaviour.delay`); `$` for the file as a whole, which
    /// the description leaves out (`devices.json: no such file`).
    public var path: String
    /// What is wrong, in words for the user.
    public var reason: String

    /// An error at `path` in `file`.
    public init(file: String, path: String, reason: String) {
        self.file = file
        self.path = path
        self.reason = reason
    }

    /// The error for a JSON decoding failure, with the path Foundation reports turned into a JSON path.
    public init(file: String, decodingError error: any Error) {
        guard let error = error as? DecodingError else {
            self.init(file: file, path: "$", reason: "\(error)")
            return
        }
        switch error {
        case .typeMismatch(let type, let context):
            self.init(file: file, path: Self.path(context.codingPath), reason: "expected \(Self.name(of: type))")
        case .valueNotFound(let type, let context):
            self.init(
                file: file,
                path: Self.path(context.codingPath),
                reason: "expected \(Self.name(of: type)), found null"
            )
        case .keyNotFound(let key, let context):
            self.init(file: file, path: Self.path(context.codingPath + [key]), reason: "required field is missing")
        case .dataCorrupted(let context):
            let reason = context.codingPath.isEmpty ? "not valid JSON" : context.debugDescription
            self.init(file: file, path: Self.path(context.codingPath), reason: reason)
        @unknown default:
            self.init(file: file, path: "$", reason: "\(error)")
        }
    }

    /// `FILE: PATH: REASON`, as the command line prints it; `FILE: REASON` for the file as a whole (`$`).
    public var description: String { path == "$" ? "\(file): \(reason)" : "\(file): \(path): \(reason)" }

    /// A coding path as a JSON path: `$.devices[1].behaviour`.
    public static func path(_ codingPath: [any CodingKey]) -> String {
        codingPath.reduce("$") { path, key in
            if let index = key.intValue { return "\(path)[\(index)]" }
            return "\(path).\(key.stringValue)"
        }
    }

    private static func name(of type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type: "a whole number"
        case is Double.Type: "a number"
        case is Bool.Type: "true or false"
        case is [Any].Type: "a list"
        case is [String: Any].Type: "an object"
        default: "\(type)"
        }
    }
}

/// A coding key for any field name, to see the fields a JSON object has.
public struct AnyCodingKey: CodingKey {
    /// The field's name.
    public var stringValue: String
    /// Always `nil`: only an object's field names are read this way.
    public var intValue: Int? { nil }

    /// The key of the field named `stringValue`.
    public init(stringValue: String) {
        self.stringValue = stringValue
    }

    /// Always fails: the key names object fields only.
    public init?(intValue: Int) {
        nil
    }
}

/// A user's input file (a device file, a scenario, an expectations file, a capture) read the one way every
/// such file is: missing, unreadable, or — for JSON — the place in it where the JSON is not what was
/// expected, each as a `SimulatorInputError` naming the file.
package enum InputFile {
    /// The bytes of the file at `path`.
    package static func contents(of path: String) throws(SimulatorInputError) -> Data {
        guard FileManager.default.fileExists(atPath: path) else {
            throw SimulatorInputError(file: path, path: "$", reason: "no such file")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw SimulatorInputError(file: path, path: "$", reason: "cannot read the file")
        }
        return data
    }

    /// `data` decoded as `Value`, strictly (`StrictDecoder`); `file` names it in errors.
    package static func decode<Value: Decodable>(
        _ type: Value.Type,
        from data: Data,
        file: String
    ) throws(SimulatorInputError) -> Value {
        do {
            return try StrictDecoder.decode(type, from: data)
        } catch {
            throw SimulatorInputError(file: file, decodingError: error)
        }
    }
}
