import SSDPCore

extension SSDPServiceDescription {
    /// The SCPD document (UDA 1.1 §2.5) a device serves at the service's SCPDURL. A service without actions
    /// leaves `<actionList>` out, as UDA allows.
    public var xml: String {
        var xml = """
            <?xml version="1.0" encoding="utf-8"?>
            <scpd xmlns="urn:schemas-upnp-org:service-1-0">
              <specVersion><major>1</major><minor>0</minor></specVersion>

            """
        if !actions.isEmpty {
            xml += "  <actionList>\n"
            for action in actions {
                xml += "    <action>\n      <name>\(escaped(action.name))</name>\n"
                if !action.arguments.isEmpty {
                    xml += "      <argumentList>\n"
                    for argument in action.arguments {
                        xml += "        <argument>\n"
                        xml += "          <name>\(escaped(argument.name))</name>\n"
                        xml += "          <direction>\(argument.direction.rawValue)</direction>\n"
                        xml += "          <relatedStateVariable>\(escaped(argument.relatedStateVariable))</relatedStateVariable>\n"
                        xml += "        </argument>\n"
                    }
                    xml += "      </argumentList>\n"
                }
                xml += "    </action>\n"
            }
            xml += "  </actionList>\n"
        }
        xml += "  <serviceStateTable>\n"
        for variable in stateVariables {
            xml += "    <stateVariable sendEvents=\"\(variable.sendEvents ? "yes" : "no")\">\n"
            xml += "      <name>\(escaped(variable.name))</name>\n"
            xml += "      <dataType>\(escaped(variable.dataType))</dataType>\n"
            if let defaultValue = variable.defaultValue {
                xml += "      <defaultValue>\(escaped(defaultValue))</defaultValue>\n"
            }
            if !variable.allowedValues.isEmpty {
                xml += "      <allowedValueList>\n"
                for value in variable.allowedValues {
                    xml += "        <allowedValue>\(escaped(value))</allowedValue>\n"
                }
                xml += "      </allowedValueList>\n"
            }
            if let range = variable.allowedRange {
                xml += "      <allowedValueRange>\n"
                xml += "        <minimum>\(range.lowerBound)</minimum>\n        <maximum>\(range.upperBound)</maximum>\n"
                xml += "      </allowedValueRange>\n"
            }
            xml += "    </stateVariable>\n"
        }
        xml += "  </serviceStateTable>\n</scpd>\n"
        return xml
    }

    private func escaped(_ text: String) -> String {
        SSDPRootDevice.escaped(text)
    }
}
