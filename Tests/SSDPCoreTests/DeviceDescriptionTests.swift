import Foundation
import SSDPCore
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

@Suite struct DeviceDescriptionTests {
    /// Reads every element's text, keyed by element name, in document order.
    private final class Collector: NSObject, XMLParserDelegate {
        var elements: [(String, String)] = []
        private var text = ""

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
            text = ""
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            text += string
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            elements.append((name, text.trimmingCharacters(in: .whitespacesAndNewlines)))
            text = ""
        }
    }

    private func parse(_ xml: String) throws -> [(String, String)] {
        let parser = XMLParser(data: Data(xml.utf8))
        let collector = Collector()
        parser.delegate = collector
        try #require(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
        return collector.elements
    }

    @Test func descriptionListsWhatTheDeviceAdvertises() throws {
        let device = DeviceFixtures.gateway
        let elements = try parse(device.descriptionXML(basePath: "/device/0"))
        let values = { (name: String) in elements.filter { $0.0 == name }.map(\.1) }
        #expect(Set(values("UDN")) == Set(device.device.allDevices.map(\.udn)))
        #expect(Set(values("deviceType")) == Set(device.device.allDevices.map(\.deviceType)))
        #expect(values("serviceType").count == 4)
        #expect(Set(values("serviceType")) == Set(device.advertisements.map(\.target).filter { $0.contains(":service:") && !$0.contains("dial") }))
        #expect(values("SCPDURL") == (0..<4).map { "/device/0/service/\($0)/scpd.xml" })
        #expect(device.serviceCount == 4)
    }

    @Test func namesAreEscaped() throws {
        var device = DeviceFixtures.gateway
        device.device.friendlyName = "Tom & Jerry's <TV>"
        let elements = try parse(device.descriptionXML(basePath: "/d"))
        #expect(elements.first { $0.0 == "friendlyName" }?.1 == "Tom & Jerry's <TV>")
    }
}
