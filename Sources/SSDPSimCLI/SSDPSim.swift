import ArgumentParser

#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif

@main
enum Entry {
    static func main() async {
        // Line-buffer standard output so that each line (a found service, a JSON event, the responder's
        // address) reaches a pipe, a file or a container log as soon as it is printed.
        setvbuf(stdout, nil, _IOLBF, 0)
        let arguments = Array(CommandLine.arguments.dropFirst())
        await SSDPSim.main(ServeEnvironment.arguments(arguments))
    }
}

struct SSDPSim: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ssdp-sim",
        abstract: "SSDP root-device simulator and test harness.",
        discussion: """
            Start with `ssdp-sim demo`: it replays answers captured from real devices on loopback and \
            runs the real search session against them, with no network and no setup.
            """,
        subcommands: [Serve.self, Send.self, Search.self, Profiles.self, Demo.self]
    )
}
