import Foundation
import Logging
import NIOCore
import NIOPosix
import SSDPCore
import SSDPSearch
import SSDPSimulator

/// 6. Many devices in one simulator process answering one `ssdp:all` search on loopback, found by the
/// real `SSDPSearchSession`: what fraction of the answers it received and reported once, and the memory
/// each simulated device costs while it waits for searches (after the search the figure also includes
/// the 60,000 services the session holds, so it is printed as a detail, not held to the target).
///
/// It runs in a child process of its own (`--scale-child`), so the memory figures start from a fresh
/// heap and not from what the other benchmarks left behind.
enum ScaleBenchmark {
    static let mx = 5

    static func run(devices count: Int) async throws -> [Figure] {
        let name = "scale"
        let residentAtStart = residentBytes()
        let simulated = (0..<count).map { SimulatorProfile.generic.device(number: $0 + 1, seed: 7) }
        let (simulator, group) = try await BenchSimulator.start(simulated)
        let residentWithDevices = residentBytes()
        let expected = simulator.devices.reduce(0) { $0 + $1.advertisements.count }

        // A unicast search is answered within 1 s (UDA 1.1 §1.3.3), whatever MX says: the answers of
        // every device arrive in one second, five times the rate of a multicast search with MX 5.
        let session = SSDPSearchSession(
            configuration: try .createUnicastConfiguration(
                forSearchTarget: "ssdp:all",
                host: "127.0.0.1",
                port: simulator.udpAddress.port ?? 0,
                maximumWaitResponseTime: mx,
                maximumSearchRequestsBeforeClosing: 1
            )
        )
        let clock = ContinuousClock()
        let start = clock.now
        let found = try await session.search()
        let searchTime = clock.now - start
        let statistics = session.statistics
        // After answering, each device also holds its answers on the wire (made at the first search).
        let residentAfterSearch = residentBytes()
        let counters = await simulator.shutdown()
        try await group.shutdownGracefully()

        let distinct = Set(found.map { "\($0.uniqueServiceName) \($0.searchTarget)" })
        let devicesFound = Set(found.map { udn(of: $0.uniqueServiceName) })
        try require(distinct.count == found.count, name, "\(found.count - distinct.count) services were reported twice")
        try require(counters.answersSent == expected, name, "the simulator sent \(counters.answersSent) answers, expected \(expected)")
        try require(statistics.wrongSearchTarget == 0 && statistics.incomplete == 0 && statistics.unparseable == 0, name, "answers were dropped: \(statistics)")

        let received = Double(found.count) / Double(expected)
        let perDevice = Double(residentWithDevices - residentAtStart) / Double(count)
        return [
            Figure(
                name: name,
                unit: "% of answers reported",
                value: received * 100,
                target: .atLeast(100),
                details: [
                    "devices": Double(count), "devicesFound": Double(devicesFound.count),
                    "answersExpected": Double(expected), "answersSent": Double(counters.answersSent),
                    "datagramsReceived": Double(statistics.datagramsReceived),
                    "servicesReported": Double(found.count), "duplicatesDropped": Double(statistics.duplicates),
                    "searchSeconds": searchTime.seconds,
                ]
            ),
            Figure(
                name: "memory",
                unit: "bytes per device",
                value: perDevice,
                target: .atMost(4_096),
                details: [
                    "devices": Double(count), "residentAtStartBytes": Double(residentAtStart),
                    "residentWithDevicesBytes": Double(residentWithDevices), "peakResidentBytes": Double(peakResidentBytes()),
                    "residentAfterSearchBytes": Double(residentAfterSearch),
                ]
            ),
        ]
    }

    /// `uuid:X` of a USN `uuid:X[::type]`.
    static func udn(of usn: String) -> String {
        guard let range = usn.range(of: "::") else { return usn }
        return String(usn[..<range.lowerBound])
    }
}
