import SSDPHarness
import Testing

/// The scenarios tagged live pass over real UDP sockets on loopback with the real `SSDPSearchSession`.
@Suite(.tags(.live)) struct LiveScenarioTests {
    @Test(arguments: try HarnessFixtures.shippedScenarios().filter(\.isLive).map(\.name))
    func liveScenarioPasses(name: String) async throws {
        let scenario = try #require(try HarnessFixtures.shippedScenarios().first { $0.name == name })
        let result = await ScenarioRunner(mode: .live(multicast: false)).run(scenario)

        #expect(result.passed, "\(Reports.failureLines(result))")
        #expect(result.record.mode == .live)
    }

    @Test func scenariosNotTaggedLiveAreSkipped() async throws {
        let scenario = try HarnessFixtures.scenario(
            #"{"name": "v", "description": "d", "seed": 1, "search": {"target": "ssdp:all"}, "devices": [{}], "network": {"loss": 0.5}}"#
        )
        let result = await ScenarioRunner(mode: .live(multicast: false)).run(scenario)

        #expect(result.skipped == "not tagged live")
        #expect(!result.passed)
    }
}
