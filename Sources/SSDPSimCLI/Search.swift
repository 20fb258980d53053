import ArgumentParser
import Logging
import SSDPSearch

struct Search: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Search the network for SSDP services and print each as it is found.",
        discussion: """
            Sends N M-SEARCH messages over N × MX + 0.1 s (the first at once), prints every matching \
            service once, with its time since the start, and a summary of what was received and dropped. \
            By default it multicasts to 239.255.255.250:1900 with TTL 2; give --host and --port to search \
            one device by unicast.
            """
    )

    @Argument(
        help:
            "The search target (ST): ssdp:all, upnp:rootdevice, roku:ecp, uuid:…, urn:…:device:T:v, urn:…:service:T:v."
    )
    var searchTarget = "ssdp:all"

    @OptionGroup var options: SearchOptions

    func validate() throws {
        _ = try options.configuration(searchTarget: searchTarget)
    }

    func run() async throws {
        let configuration = try options.configuration(searchTarget: searchTarget)
        let session = SSDPSearchSession(
            configuration: configuration,
            interface: options.interface,
            multicastTTL: options.ttl,
            logger: makeLogger(level: options.logLevel)
        )
        let output = SearchOutput(json: options.json)
        let outcome = try await output.run(session)
        if case .failed = outcome { throw ExitCode.failure }
    }
}

/// The options every command that searches shares.
struct SearchOptions: ParsableArguments {
    @Option(help: "MX: the most seconds a device may wait before answering, 1...5.")
    var mx = 3

    @Option(help: "How many M-SEARCH messages to send (0 stops at once).")
    var requests = 3

    @Option(help: "Where to send the search: the multicast group, or a device's IP address for unicast.")
    var host = SSDPSearchSessionConfiguration.multicastHost

    @Option(help: "The destination port.")
    var port = SSDPSearchSessionConfiguration.multicastPort

    @Option(help: "The network interface to search on (e.g. eth0); default: the system's choice.")
    var interface: String?

    @Option(help: "The multicast TTL, 1...255.")
    var ttl = 2

    @Flag(help: "Print one JSON object per line instead of text.")
    var json = false

    @Option(help: "Log level on standard error: trace, debug, info, notice, warning, error, critical.")
    var logLevel: Logger.Level = .warning

    /// The session configuration these options describe, or an error that names the option at fault.
    func configuration(searchTarget: String) throws -> SSDPSearchSessionConfiguration {
        guard isIPAddress(host) else {
            throw ValidationError("--host must be an IPv4 or IPv6 address, got '\(host)'")
        }
        guard (1...255).contains(ttl) else { throw ValidationError("--ttl must be 1...255, got \(ttl)") }
        do {
            return try SSDPSearchSessionConfiguration(
                searchTarget: searchTarget,
                host: host,
                port: port,
                maximumWaitResponseTime: mx,
                maximumSearchRequestsBeforeClosing: requests
            )
        } catch {
            let flag =
                [
                    "maximumWaitResponseTime": "--mx", "maximumSearchRequestsBeforeClosing": "--requests",
                    "searchTarget": "<search-target>", "host": "--host", "port": "--port",
                ][error.field] ?? error.field
            throw ValidationError("\(flag) '\(error.value)': \(error.reason)")
        }
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
