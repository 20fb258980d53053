import ArgumentParser

@main
struct SSDPSim: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ssdp-sim",
        abstract: "SSDP root-device simulator and test harness.",
        discussion: """
            Start with `ssdp-sim demo`: it replays answers captured from real devices on loopback and \
            runs the real search session against them, with no network and no setup.
            """,
        subcommands: [Search.self, Demo.self]
    )
}
