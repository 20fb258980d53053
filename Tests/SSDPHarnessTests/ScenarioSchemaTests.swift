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
import SSDPCore
import SSDPDeviceCore
import Testing

@testable import SSDPDevices
@testable import SSDPHarness
@testable import SSDPSimulator

/// The scenario format is read by one model (the strict decoders' coding keys) and described by one schema
/// (`Scenarios/scenario.schema.json`, which editors check files against): every object of the schema that
/// admits no other fields names exactly the fields its model reads, so a field cannot be added to one and
/// forgotten in the other.
@Suite struct ScenarioSchemaTests {
    /// The fields a model type reads, from its coding keys.
    static func fields<Key: CodingKey & CaseIterable>(_ type: Key.Type) -> Set<String> {
        Set(Key.allCases.map(\.stringValue))
    }

    /// Each closed object of the schema, by JSON pointer, with the model that reads it.
    static let models: [(pointer: String, fields: Set<String>)] = [
        ("#", fields(ScenarioSpecification.CodingKeys.self)),
        ("#/properties/provenance", fields(ScenarioProvenance.CodingKeys.self)),
        ("#/properties/provenance/properties/devices/items", fields(ScenarioProvenance.Device.CodingKeys.self)),
        ("#/$defs/count/oneOf/1", fields(CountFields.CodingKeys.self)),
        ("#/$defs/search", fields(SearchFields.CodingKeys.self)),
        ("#/$defs/device", fields(DeviceSpecification.CodingKeys.self)),
        ("#/$defs/device/properties/actions/items", fields(ActionResponseSpecification.CodingKeys.self)),
        (
            "#/$defs/device/properties/serviceDescriptions/additionalProperties",
            fields(ServiceDescriptionSpecification.CodingKeys.self)
        ),
        ("#/$defs/device/properties/httpFaults", fields(HTTPFaultSpecification.CodingKeys.self)),
        ("#/$defs/device/properties/dialApps/items", fields(DIALAppSpecification.CodingKeys.self)),
        ("#/$defs/device/properties/replay", fields(ReplaySpecification.CodingKeys.self)),
        (
            "#/$defs/device/properties/replay/properties/answers/items",
            fields(ReplaySpecification.Answer.CodingKeys.self)
        ),
        (
            "#/$defs/device/properties/replay/properties/notifications/items",
            fields(ReplaySpecification.Notification.CodingKeys.self)
        ),
        ("#/$defs/device/properties/recording", fields(RecordingSpecification.CodingKeys.self)),
        (
            "#/$defs/device/properties/recording/properties/source",
            fields(RecordingSpecification.Source.CodingKeys.self)
        ),
        (
            "#/$defs/device/properties/recording/properties/searches/items",
            fields(RecordingSpecification.Search.CodingKeys.self)
        ),
        (
            "#/$defs/device/properties/recording/properties/events/items",
            fields(RecordingSpecification.Event.CodingKeys.self)
        ),
        (
            "#/$defs/device/properties/recording/properties/searches/items/properties/answers/items",
            fields(RecordingSpecification.Answer.CodingKeys.self)
        ),
        (
            "#/$defs/device/properties/recording/properties/notifications/items",
            fields(RecordingSpecification.Answer.CodingKeys.self)
        ),
        ("#/$defs/recordedExchange", fields(RecordingSpecification.Exchange.CodingKeys.self)),
        ("#/$defs/recordedExchange/properties/soap", fields(RecordingSpecification.SOAPCall.CodingKeys.self)),
        ("#/$defs/device/properties/media/items", fields(MediaObjectSpecification.CodingKeys.self)),
        (
            "#/$defs/device/properties/media/items/properties/resource",
            fields(MediaObjectSpecification.Resource.CodingKeys.self)
        ),
        ("#/$defs/embeddedDevice", fields(EmbeddedDeviceSpecification.CodingKeys.self)),
        ("#/$defs/behaviour", fields(BehaviourSpecification.CodingKeys.self)),
        ("#/$defs/event", fields(EventFields.CodingKeys.self)),
        ("#/$defs/event/properties/set", fields(DeviceChange.Specification.CodingKeys.self)),
        ("#/$defs/network", fields(NetworkFaultsSpecification.CodingKeys.self)),
        ("#/$defs/network/properties/latency/oneOf/1", fields(NetworkFaultsSpecification.Latency.CodingKeys.self)),
        ("#/$defs/faultRate/oneOf/1", fields(NetworkFaultsSpecification.Rate.CodingKeys.self)),
        ("#/$defs/expect", fields(ExpectFields.CodingKeys.self)),
        ("#/$defs/expect/properties/found", fields(FoundFields.CodingKeys.self)),
        ("#/$defs/expect/properties/found/properties/services/items", fields(FoundFields.Service.CodingKeys.self)),
        ("#/$defs/expect/properties/found/properties/including/items", fields(FoundFields.Service.CodingKeys.self)),
        ("#/$defs/expect/properties/stop", fields(StopFields.CodingKeys.self)),
        ("#/$defs/expect/properties/searches", fields(SearchesFields.CodingKeys.self)),
        ("#/$defs/expect/properties/dropped", Set(SearchSessionStatistics.Drop.allCases.map(\.rawValue))),
        ("#/$defs/expect/properties/http", fields(HTTPFields.CodingKeys.self)),
        ("#/$defs/expect/properties/http/properties/actions/items", fields(HTTPFields.Action.CodingKeys.self)),
    ]

    /// The schema, parsed.
    static func schema() throws -> [String: Any] {
        let url = HarnessFixtures.repositoryRoot.appendingPathComponent("Scenarios/scenario.schema.json")
        return try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    }

    /// The object a JSON pointer (`#/$defs/search`) names in `root`.
    static func resolve(_ pointer: String, in root: [String: Any]) -> [String: Any]? {
        var node: Any = root
        for part in pointer.split(separator: "/").dropFirst() {
            if let object = node as? [String: Any], let next = object[String(part)] {
                node = next
            } else if let array = node as? [Any], let index = Int(part), array.indices.contains(index) {
                node = array[index]
            } else {
                return nil
            }
        }
        return node as? [String: Any]
    }

    @Test(arguments: models.indices)
    func theSchemaNamesTheFieldsItsModelReads(index: Int) throws {
        let (pointer, fields) = Self.models[index]
        let object = try #require(Self.resolve(pointer, in: try Self.schema()), "\(pointer) is not in the schema")
        let properties = Set((object["properties"] as? [String: Any] ?? [:]).keys)
        #expect(object["additionalProperties"] as? Bool == false, "\(pointer) admits fields no model reads")
        #expect(
            properties.subtracting(fields).isEmpty,
            "\(pointer): in the schema, not read: \(properties.subtracting(fields).sorted())"
        )
        #expect(
            fields.subtracting(properties).isEmpty,
            "\(pointer): read, not in the schema: \(fields.subtracting(properties).sorted())"
        )
    }

    /// One model reads and writes the format: every shipped scenario, read and written again, is the same
    /// JSON (what `ssdp-sim import` writes is this model too).
    @Test(
        arguments: try FileManager.default.contentsOfDirectory(atPath: HarnessFixtures.scenariosDirectory)
            .filter { $0.hasSuffix(".json") && $0 != "scenario.schema.json" }.sorted()
    )
    func aScenarioReadAndWrittenIsTheSameJSON(file: String) throws {
        let data = try Data(
            contentsOf: URL(fileURLWithPath: HarnessFixtures.scenariosDirectory).appendingPathComponent(file)
        )
        let model = try StrictDecoder.decode(ScenarioSpecification.self, from: data)
        let written = try JSONEncoder().encode(model)
        let original = try JSONSerialization.jsonObject(with: data) as? NSDictionary
        let again = try JSONSerialization.jsonObject(with: written) as? NSDictionary
        #expect(original != nil && original == again, "\(file) reads and writes back as another JSON")
    }

    /// Every closed object of the schema has its model here: a new object cannot go unchecked.
    @Test func everyClosedObjectOfTheSchemaHasAModel() throws {
        var closed: [String] = []
        func walk(_ node: Any, _ pointer: String) {
            if let object = node as? [String: Any] {
                if object["properties"] != nil, object["additionalProperties"] as? Bool == false {
                    closed.append(pointer)
                }
                for (key, value) in object { walk(value, pointer + "/" + key) }
            } else if let array = node as? [Any] {
                for (index, value) in array.enumerated() { walk(value, pointer + "/\(index)") }
            }
        }
        walk(try Self.schema(), "#")
        #expect(closed.count >= 20)
        #expect(
            Set(closed) == Set(Self.models.map(\.pointer)),
            "\(Set(closed).symmetricDifference(Self.models.map(\.pointer)).sorted())"
        )
    }
}
