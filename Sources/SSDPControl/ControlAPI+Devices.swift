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

import Foundation
import SSDPDeviceCore
import SSDPDevices
import SSDPSimulator

extension ControlAPI {
    /// The operations `POST /devices/{id}/actions/{action}` takes.
    static let actions = ["byebye", "vanish", "alive", "update", "reboot"]
    /// How long a reboot keeps a device down when the body does not say: five seconds.
    static let defaultRebootDown = 5.0
    /// The longest reboot: an hour.
    static let maximumRebootDown = 3_600.0

    /// Every device on the LAN (not those removed), as it is now.
    func devices() throws -> ControlResponse {
        let present = try serving().statuses().filter { $0.state != .removed }
        return .json(200, ["devices": .array(present.map(Self.json(device:)))])
    }

    /// `POST /devices` with a device file's JSON: the devices join the LAN and announce themselves; 201
    /// with them as they are.
    func add(_ request: ControlRequest) async throws -> ControlResponse {
        let simulator = try serving()
        let firstNumber = simulator.statuses().count + 1
        let file = try Self.read(request.body) { (data) throws(SimulatorInputError) in
            try DeviceFile.decode(data, file: "POST /devices", seed: simulator.seed, firstNumber: firstNumber)
        }
        guard !file.devices.isEmpty else { throw ControlRefusal(400, "no devices to add", path: "$.devices") }
        do {
            let added = try await simulator.add(file.devices)
            return .json(201, ["devices": .array(added.map(Self.json(device:)))])
        } catch let error as DeviceOperationError {
            throw ControlRefusal(400, error.reason, path: error.field.map { "$.devices[*].\($0)" })
        } catch {
            throw ControlRefusal(409, (error as? SimulatorError)?.reason ?? "\(error)")
        }
    }

    func device(_ id: String) throws -> ControlResponse {
        let simulator = try serving()
        let number = try Self.number(of: id, in: simulator)
        return .json(200, Self.json(device: simulator.status(number)))
    }

    /// Does `action` to device `id`, and answers the device as it is after.
    func act(_ action: String, on id: String, _ request: ControlRequest) async throws -> ControlResponse {
        let simulator = try serving()
        let number = try Self.number(of: id, in: simulator)
        return try await perform(try Self.operation(action, body: request.body), on: number, simulator)
    }

    /// `PATCH /devices/{id}`: changes the fields the body gives (a device file's words), and answers the
    /// device as it is after.
    func change(_ id: String, _ request: ControlRequest) async throws -> ControlResponse {
        let simulator = try serving()
        let number = try Self.number(of: id, in: simulator)
        let change = try Self.read(request.body) { (data) throws(SimulatorInputError) in
            try DeviceChange.Specification.decode(data, source: "PATCH /devices/\(id)")
        }
        do {
            return .json(200, Self.json(device: try await simulator.change(change, on: number)))
        } catch {
            throw Self.refusal(error)
        }
    }

    /// `DELETE /devices/{id}`: the device says byebye (unless `?byebye=false`) and leaves the LAN.
    func remove(_ id: String, _ request: ControlRequest) async throws -> ControlResponse {
        let simulator = try serving()
        let number = try Self.number(of: id, in: simulator)
        let byebye: Bool
        switch request.query.map({ "\($0.name)=\($0.value)" }) {
        case [], ["byebye=true"]: byebye = true
        case ["byebye=false"]: byebye = false
        default: throw ControlRefusal(400, "DELETE /devices/{id} takes only ?byebye=true or ?byebye=false, once")
        }
        return try await perform(.remove(byebye: byebye), on: number, simulator)
    }

    /// `POST /reset`: the journal emptied, then every device, its state and every fault back to the start
    /// (what the reset did is the journal's first entries).
    func reset() async throws -> ControlResponse {
        let simulator = try serving()
        journal.clear()
        let devices = await simulator.reset().filter { $0.state != .removed }
        return .json(200, ["devices": .array(devices.map(Self.json(device:)))])
    }

    private func perform(
        _ operation: DeviceOperation,
        on number: Int,
        _ simulator: DeviceSimulator
    ) async throws -> ControlResponse {
        do {
            return .json(200, Self.json(device: try await simulator.perform(operation, on: number)))
        } catch {
            throw Self.refusal(error)
        }
    }

    /// The answer for an operation the simulator refused: 404 for an unknown device, 400 naming the field of
    /// a change it refused, 409 for an operation the device's state does not allow.
    private static func refusal(_ error: DeviceOperationError) -> ControlRefusal {
        switch error.code {
        case .unknownDevice: ControlRefusal(404, error.reason)
        case .invalidChange: ControlRefusal(400, error.reason, path: error.field.map { "$.\($0)" })
        default: ControlRefusal(409, error.reason)
        }
    }

    /// The number of the device `id` names; a removed device is not found.
    private static func number(of id: String, in simulator: DeviceSimulator) throws -> Int {
        let number: Int
        do {
            number = try simulator.deviceNumber(id)
        } catch {
            throw ControlRefusal(404, error.reason)
        }
        guard simulator.status(number).state != .removed else {
            throw ControlRefusal(404, "device \(id) was removed (POST /reset brings it back)")
        }
        return number
    }

    /// A body, or `{}` when it is empty.
    private static func bodyOrEmptyObject(_ body: [UInt8]) -> [UInt8] {
        body.contains(where: { !" \t\r\n".utf8.contains($0) }) ? body : Array("{}".utf8)
    }

    /// A body (`{}` when empty) read by `decode` as an input file is read: a bad one is 400 with the JSON
    /// path and reason a bad device file gets, and one that is not JSON at all says where it stops being JSON.
    static func read<Value>(
        _ body: [UInt8],
        _ decode: (Data) throws(SimulatorInputError) -> Value
    ) throws -> Value {
        let data = Data(bodyOrEmptyObject(body))
        do {
            return try decode(data)
        } catch {
            if let reason = Self.whyNotJSON(data) {
                throw ControlRefusal(400, "the body is not JSON: \(reason)", path: "$")
            }
            throw ControlRefusal(400, error.reason, path: error.path)
        }
    }

    /// The operation `action` names, with its body's fields: `{"downFor": SECONDS, "newPort": BOOL}` for a
    /// reboot, none (or `{}`) for the others.
    static func operation(_ action: String, body: [UInt8]) throws -> DeviceOperation {
        guard actions.contains(action) else {
            throw ControlRefusal(404, "no action \(action) (the actions: \(actions.joined(separator: ", ")))")
        }
        let source = "POST /devices/{id}/actions/\(action)"
        guard action == "reboot" else {
            _ = try read(body) { (data) throws(SimulatorInputError) in
                try InputFile.decode(NoFields.self, from: data, file: source)
            }
            switch action {
            case "byebye": return .byebye
            case "vanish": return .vanish
            case "alive": return .alive
            default: return .update
            }
        }
        let reboot = try read(body) { (data) throws(SimulatorInputError) in
            try InputFile.decode(RebootFields.self, from: data, file: source)
        }
        let seconds = reboot.downFor ?? defaultRebootDown
        guard (0...maximumRebootDown).contains(seconds) else {
            throw ControlRefusal(400, "must be a number of seconds, 0...3600", path: "$.downFor")
        }
        return .reboot(
            downFor: .milliseconds(Int64((seconds * 1_000).rounded())),
            newPort: reboot.newPort ?? false
        )
    }

    /// What a reboot's body may say: how long the device stays down, and whether it comes back on another
    /// HTTP port. Read strictly: any other field is refused with its path.
    private struct RebootFields: Decodable {
        var downFor: Double?
        var newPort: Bool?

        enum CodingKeys: String, CodingKey, CaseIterable {
            case downFor, newPort
        }
    }

    /// The body of an action that takes no fields: `{}`, or nothing.
    private struct NoFields: Decodable {
        /// None: the strict decoder refuses every field.
        enum CodingKeys: CodingKey, CaseIterable {}

        init(from decoder: any Decoder) throws {
            _ = try decoder.container(keyedBy: CodingKeys.self)
        }
    }

    /// Why `data` is not JSON, in one line (`Unexpected end of file during JSON parse.`), or `nil` when it
    /// is: JSONSerialization says where, JSONDecoder does not.
    private static func whyNotJSON(_ data: Data) -> String? {
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            return nil
        } catch {
            return ((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String) ?? "\(error)"
        }
    }

    static func json(device: DeviceStatus) -> JSONValue {
        var members: [String: JSONValue] = [
            "number": .int(device.number), "udn": .string(device.udn), "friendlyName": .string(device.friendlyName),
            "deviceType": .string(device.deviceType), "address": .string(device.address),
            "location": .string(device.location), "state": .string(device.state.name), "bootId": .int(device.bootID),
            "configId": .int(device.configID), "maxAge": .int(device.maxAge), "behaviour": device.behaviour.json,
            "httpFaults": device.httpFaults.json,
            "advertisements": .array(
                device.advertisements.map { JSONValue(["nt": .string($0.target), "usn": .string($0.usn)]) }
            ),
        ]
        members["profile"] = device.profile.map { .string($0) }
        return JSONValue(members)
    }
}
