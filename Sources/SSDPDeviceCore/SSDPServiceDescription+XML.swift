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

extension SSDPServiceDescription {
    /// The SCPD document (UDA 1.1 §2.5, `specVersion` 1.`specVersionMinor`) a device serves at the service's SCPDURL, every
    /// list in the description's order and every text escaped. A service without actions leaves
    /// `<actionList>` out, as UDA allows and as a Roku's `ecp_SCPD.xml` does.
    public var xml: String {
        var xml = """
            <?xml version="1.0" encoding="utf-8"?>
            <scpd xmlns="urn:schemas-upnp-org:service-1-0">
              <specVersion><major>1</major><minor>\(specVersionMinor)</minor></specVersion>

            """
        if !actions.isEmpty {
            xml += "  <actionList>\n"
            for action in actions {
                Self.write(action, to: &xml)
            }
            xml += "  </actionList>\n"
        }
        xml += "  <serviceStateTable>\n"
        for variable in stateVariables {
            Self.write(variable, to: &xml)
        }
        xml += "  </serviceStateTable>\n</scpd>\n"
        return xml
    }

    // MARK: - Elements

    private static func write(_ action: Action, to xml: inout String) {
        xml += "    <action>\n"
        element("name", action.name, indent: 6, to: &xml)
        if !action.arguments.isEmpty {
            xml += "      <argumentList>\n"
            for argument in action.arguments {
                xml += "        <argument>\n"
                element("name", argument.name, indent: 10, to: &xml)
                element("direction", argument.direction.rawValue, indent: 10, to: &xml)
                element("relatedStateVariable", argument.relatedStateVariable, indent: 10, to: &xml)
                xml += "        </argument>\n"
            }
            xml += "      </argumentList>\n"
        }
        xml += "    </action>\n"
    }

    private static func write(_ variable: StateVariable, to xml: inout String) {
        xml += "    <stateVariable sendEvents=\"\(variable.sendEvents ? "yes" : "no")\">\n"
        element("name", variable.name, indent: 6, to: &xml)
        element("dataType", variable.dataType, indent: 6, to: &xml)
        if let defaultValue = variable.defaultValue {
            element("defaultValue", defaultValue, indent: 6, to: &xml)
        }
        if !variable.allowedValues.isEmpty {
            xml += "      <allowedValueList>\n"
            for value in variable.allowedValues {
                element("allowedValue", value, indent: 8, to: &xml)
            }
            xml += "      </allowedValueList>\n"
        }
        if let range = variable.allowedRange {
            xml += "      <allowedValueRange>\n"
            element("minimum", String(range.minimum), indent: 8, to: &xml)
            element("maximum", String(range.maximum), indent: 8, to: &xml)
            if let step = range.step {
                element("step", String(step), indent: 8, to: &xml)
            }
            xml += "      </allowedValueRange>\n"
        }
        xml += "    </stateVariable>\n"
    }

    /// `<name>text</name>` on a line of its own, the text escaped.
    private static func element(_ name: String, _ text: String, indent: Int, to xml: inout String) {
        xml += String(repeating: " ", count: indent) + "<\(name)>\(SSDPRootDevice.escaped(text))</\(name)>\n"
    }
}
