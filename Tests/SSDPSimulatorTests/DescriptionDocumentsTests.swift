import SSDPCore
import Testing

@testable import SSDPSimulator

/// The HTTP server's paths: made on request, and nothing but the paths the descriptions name.
@Suite struct DescriptionDocumentsTests {
    let documents = DescriptionDocuments(
        devices: (1...3).map { SimulatorProfile.generic.device(number: $0, seed: 9) }  // 3 services each
    )

    @Test func servesEachDevicesDescriptionAndServices() throws {
        for index in 0..<3 {
            let description = try #require(documents.document(at: "/device/\(index)/description.xml"))
            #expect(description.contentType == "text/xml; charset=\"utf-8\"")
            let udn = documents.devices[index].device.udn
            #expect(description.body.contains("<UDN>\(udn)</UDN>"))
            #expect(description.body.contains("/device/\(index)/service/2/scpd.xml"))
            for service in 0..<3 {
                #expect(documents.document(at: "/device/\(index)/service/\(service)/scpd.xml")?.body == SSDPRootDevice.emptyServiceDescriptionXML)
            }
        }
    }

    @Test(
        arguments: [
            "/", "", "/device", "/device/", "/device/3/description.xml", "/device/-1/description.xml",
            "/device/01/description.xml", "/device/+1/description.xml", "/device/0/description.xml/",
            "/device/0/service/3/scpd.xml", "/device/0/service/00/scpd.xml", "/device/0/service/0/scpd.xml/x",
            "/device/0/../0/description.xml", "//device/0/description.xml", "/device/0/description.XML",
            "/etc/passwd", "/device/99999999999999999999/description.xml",
        ]
    )
    func refusesEveryOtherPath(path: String) {
        #expect(documents.document(at: path) == nil, "\(path)")
    }
}
