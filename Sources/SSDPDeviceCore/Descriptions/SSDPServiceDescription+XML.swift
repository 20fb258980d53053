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
    /// list in the description's order and every text escaped, laid out in `style`. A service without actions
    /// leaves `<actionList>` out, as UDA allows and as a Roku's `ecp_SCPD.xml` does.
    public var xml: String {
        var writer = Writer(style: style)
        writer.xml = style.declaration
        writer.open("scpd xmlns=\"urn:schemas-upnp-org:service-1-0\"", level: 0)
        if style == .indented {
            writer.line("<specVersion><major>1</major><minor>\(specVersionMinor)</minor></specVersion>", level: 1)
        } else {
            writer.open("specVersion", level: 1)
            writer.element("major", "1", level: 2)
            writer.element("minor", "\(specVersionMinor)", level: 2)
            writer.close("specVersion", level: 1)
        }
        if !actions.isEmpty {
            writer.open("actionList", level: 1)
            for action in actions { writer.write(action) }
            writer.close("actionList", level: 1)
        }
        writer.open("serviceStateTable", level: 1)
        for variable in stateVariables { writer.write(variable) }
        writer.close("serviceStateTable", level: 1)
        writer.close("scpd", level: 0)
        return writer.xml
    }

    // MARK: - Elements

    /// Writes an SCPD's elements, each on a line of its own, as `style` lays lines out.
    private struct Writer {
        let style: SSDPDescriptionLayout.Style
        var xml = ""

        mutating func line(_ text: String, level: Int) {
            xml += String(repeating: style.indent, count: level) + text + style.newline
        }

        mutating func open(_ tag: String, level: Int) { line("<\(tag)>", level: level) }

        mutating func close(_ name: String, level: Int) { line("</\(name)>", level: level) }

        /// `<name>text</name>` on a line of its own, the text escaped.
        mutating func element(_ name: String, _ text: String, level: Int) {
            line("<\(name)>\(SSDPRootDevice.escaped(text))</\(name)>", level: level)
        }

        mutating func write(_ action: Action) {
            open("action", level: 2)
            element("name", action.name, level: 3)
            if !action.arguments.isEmpty {
                open("argumentList", level: 3)
                for argument in action.arguments {
                    open("argument", level: 4)
                    element("name", argument.name, level: 5)
                    element("direction", argument.direction.rawValue, level: 5)
                    element("relatedStateVariable", argument.relatedStateVariable, level: 5)
                    close("argument", level: 4)
                }
                close("argumentList", level: 3)
            }
            close("action", level: 2)
        }

        mutating func write(_ variable: StateVariable) {
            open("stateVariable sendEvents=\"\(variable.sendEvents ? "yes" : "no")\"", level: 2)
            element("name", variable.name, level: 3)
            element("dataType", variable.dataType, level: 3)
            // UDA's place for the default is before the allowed values; gmrender-resurrect writes it after.
            let defaultFirst = style == .indented
            if defaultFirst, let defaultValue = variable.defaultValue {
                element("defaultValue", defaultValue, level: 3)
            }
            if !variable.allowedValues.isEmpty {
                open("allowedValueList", level: 3)
                for value in variable.allowedValues { element("allowedValue", value, level: 4) }
                close("allowedValueList", level: 3)
            }
            if let range = variable.allowedRange {
                open("allowedValueRange", level: 3)
                element("minimum", String(range.minimum), level: 4)
                element("maximum", String(range.maximum), level: 4)
                if let step = range.step {
                    element("step", String(step), level: 4)
                }
                close("allowedValueRange", level: 3)
            }
            if !defaultFirst, let defaultValue = variable.defaultValue {
                element("defaultValue", defaultValue, level: 3)
            }
            close("stateVariable", level: 2)
        }
    }
}
