import ArgumentParser
import SSDPSimulator

struct Profiles: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List the built-in device profiles.")

    func run() {
        for profile in SimulatorProfile.all {
            print("\(profile.name)  \(profile.summary)")
        }
    }
}
