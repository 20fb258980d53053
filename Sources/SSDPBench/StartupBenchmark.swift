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

import Foundation
import NIOCore
import NIOPosix

/// 7. What a container or a CI job waits for before its test starts: from the exec of `ssdp-sim serve`
/// (the binary beside `ssdp-bench`) to the first answer to a search, for 1, 100 and 10,000 devices at
/// addresses of their own and at one shared address; and from the exec to `GET /health` answering 200
/// (the simulator attached) with the control API on. Each figure is the median of its rounds, a process
/// each; the searches go to 127.0.0.1 every millisecond until one is answered. Beside each, `readySeconds`:
/// the median time to the ready file (`--ready-file`, what `ssdp-sim ready` checks as a container's health
/// check), which a busy start reaches later than its first answer.
///
/// The anchor, in the same round just before each start: a bare start of the same binary (the exec of
/// `ssdp-sim --version` to its exit: the loader, the Swift runtime, the argument parser). Each figure's
/// remark gives the start as a multiple of it, per round, with its spread: a busy machine slows both.
enum StartupBenchmark {
    /// The most a start may take before the round counts as failed.
    static let limit = Duration.seconds(30)

    /// The `ssdp-sim` of the same build as this `ssdp-bench`.
    static let binary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        .appendingPathComponent("ssdp-sim")

    /// Fails at once, before the other benchmarks run, when there is no `ssdp-sim` to start.
    static func requireBinary() throws {
        try require(
            FileManager.default.isExecutableFile(atPath: binary.path),
            "startup",
            "no ssdp-sim beside ssdp-bench (\(binary.path)): build both (swift build -c release), or leave startup out (--only)"
        )
    }

    static func run(deviceCounts: [Int], rounds: Int) async throws -> [Figure] {
        try requireBinary()
        var figures: [Figure] = []
        for count in deviceCounts {
            for shared in [false, true] {
                let name = "startup-\(count)" + (shared ? "-shared" : "")
                var times: [Duration] = []
                var ready: [Duration] = []
                var bare: [Duration] = []
                for _ in 0..<(count >= 10_000 ? min(rounds, 3) : rounds) {
                    bare.append(try bareStart(binary: binary))
                    let start = try await firstAnswer(binary: binary, devices: count, shared: shared, name: name)
                    times.append(start.answer)
                    ready.append(start.ready)
                }
                var measured = figure(name, times, bare: bare, devices: count, target: target(devices: count))
                measured.details["readySeconds"] = median(ready)
                figures.append(measured)
            }
        }
        var health: [Duration] = []
        var bare: [Duration] = []
        for _ in 0..<rounds {
            bare.append(try bareStart(binary: binary))
            health.append(try await firstHealth(binary: binary))
        }
        figures.append(figure("startup-health", health, bare: bare, devices: 1, target: .atMost(0.05)))
        return figures
    }

    /// The anchor: the exec of `binary --version` to its exit, started as `timed` starts serve (a `Process`
    /// with no pipes, not `runProgram`, whose reader thread would be in the anchor's time alone).
    private static func bareStart(binary: URL) throws -> Duration {
        let process = Process()
        process.executableURL = binary
        process.arguments = ["--version"]
        process.standardOutput = FileHandle.nullDevice
        let clock = ContinuousClock()
        let start = clock.now
        try process.run()
        process.waitUntilExit()
        try require(
            process.terminationStatus == 0,
            "startup",
            "\(binary.path) --version exited \(process.terminationStatus)"
        )
        return clock.now - start
    }

    /// The goals: 50 ms for one device, 3 s for 10,000.
    private static func target(devices: Int) -> Figure.Target? {
        switch devices {
        case 1: .atMost(0.05)
        case 10_000: .atMost(3)
        default: nil
        }
    }

    private static func median(_ times: [Duration]) -> Double {
        let seconds = times.map(\.seconds).sorted()
        return seconds[seconds.count / 2]
    }

    /// The figure of `times`, each beside the bare start `bare` of its round.
    private static func figure(
        _ name: String,
        _ times: [Duration],
        bare: [Duration],
        devices: Int,
        target: Figure.Target?
    ) -> Figure {
        let seconds = times.map(\.seconds).sorted()
        let multiples = Spread(zip(times, bare).filter { $0.1 > .zero }.map { $0.seconds / $1.seconds })
        return Figure(
            name: name,
            unit: "s to ready",
            value: median(times),
            target: target,
            details: [
                "devices": Double(devices), "rounds": Double(seconds.count), "minSeconds": seconds.first ?? 0,
                "maxSeconds": seconds.last ?? 0, "bareStartSeconds": median(bare),
                "timesBareStart": multiples.median,
            ],
            remark: "× a bare start of the binary (--version) in the same round: \(multiples.text)"
        )
    }

    /// Starts `serve` with `devices` generic devices on loopback and times the first answer, and the ready
    /// file (which may come before or after it).
    private static func firstAnswer(
        binary: URL,
        devices: Int,
        shared: Bool,
        name: String
    ) async throws -> (answer: Duration, ready: Duration) {
        let group = MultiThreadedEventLoopGroup.singleton
        let answered = group.next().makePromise(of: Void.self)
        // Completed on every path (completing it twice does nothing): a promise left open is a bug NIO reports.
        defer { answered.fail(CancellationError()) }
        let searcher = try await DatagramBootstrap(group: group)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(FirstAnswer(promise: answered))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        defer { searcher.close(promise: nil) }
        let port = try await freePort(group: group)
        let arguments = [
            "serve", "--interface", "lo", "--unicast-only", "--port", "\(port)", "--profile", "generic",
            "--count", "\(devices)", "--http-port", "any", "--delay", "immediate", "--seed", "1",
            "--log-level", "error", "--serve-for", "\(Int(limit.seconds) * 2)", "--ready-file", readyFile.path,
        ]
        let search =
            "M-SEARCH * HTTP/1.1\r\nHOST: 127.0.0.1:\(port)\r\nMAN: \"ssdp:discover\"\r\nMX: 1\r\n"
            + "ST: upnp:rootdevice\r\n\r\n"
        let destination = try SocketAddress(ipAddress: "127.0.0.1", port: port)
        try? FileManager.default.removeItem(at: readyFile)  // one left by a round that was killed
        return try await timed(binary: binary, arguments: arguments + (shared ? ["--shared-address"] : [])) {
            clock,
            start in
            // One search a millisecond until the first answer, within the limit: bounded in count and time.
            let sender = searcher.eventLoop.scheduleRepeatedTask(initialDelay: .zero, delay: .milliseconds(1)) { _ in
                let envelope = AddressedEnvelope(
                    remoteAddress: destination,
                    data: searcher.allocator.buffer(string: search)
                )
                searcher.writeAndFlush(envelope, promise: nil)
            }
            let timeout = searcher.eventLoop.scheduleTask(in: TimeAmount(limit)) {
                answered.fail(BenchmarkFailure(benchmark: name, reason: "no answer within \(limit.seconds) s"))
            }
            defer {
                sender.cancel()
                timeout.cancel()
            }
            try await answered.futureResult.get()
            let answer = clock.now - start
            sender.cancel()  // the ready file is waited for without more searches
            return (answer, try await fileAppears(readyFile, clock: clock, since: start, name: name))
        }
    }

    /// A file name of this process's own for `serve --ready-file`, which `serve` removes as it starts.
    private static let readyFile = FileManager.default.temporaryDirectory
        .appendingPathComponent("ssdp-bench-ready-\(getpid())")

    /// How long after `start` `file` exists, looked for every millisecond within the limit.
    private static func fileAppears(
        _ file: URL,
        clock: ContinuousClock,
        since start: ContinuousClock.Instant,
        name: String
    ) async throws -> Duration {
        let deadline = start + limit
        while clock.now < deadline {
            if FileManager.default.fileExists(atPath: file.path) { return clock.now - start }
            try await Task.sleep(for: .milliseconds(1))
        }
        throw BenchmarkFailure(benchmark: name, reason: "no ready file within \(limit.seconds) s")
    }

    /// Starts `serve` with one device and the control API, and times `GET /health` answering 200.
    private static func firstHealth(binary: URL) async throws -> Duration {
        let group = MultiThreadedEventLoopGroup.singleton
        let port = try await freePort(group: group, tcp: true)
        let arguments = [
            "serve", "--interface", "lo", "--unicast-only", "--port", "0", "--profile", "generic", "--http-port",
            "any", "--control", "127.0.0.1:\(port)", "--log-level", "error", "--serve-for", "\(Int(limit.seconds) * 2)",
        ]
        return try await timed(binary: binary, arguments: arguments) { clock, start in
            let deadline = ContinuousClock.now + limit
            while ContinuousClock.now < deadline {
                if (try? await health(port: port, group: group)) == 200 { return clock.now - start }
                try await Task.sleep(for: .milliseconds(1))
            }
            throw BenchmarkFailure(benchmark: "startup-health", reason: "no 200 from /health within \(limit.seconds) s")
        }
    }

    /// Runs `binary` with `arguments` and `ready` (which gives up itself after `limit`), given the clock and
    /// the instant just before the exec to time from, then stops the process (SIGTERM, then SIGKILL after
    /// 10 s; `--serve-for` stops it anyway should this process die first).
    private static func timed<Result>(
        binary: URL,
        arguments: [String],
        ready: (ContinuousClock, ContinuousClock.Instant) async throws -> Result
    ) async throws -> Result {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        let clock = ContinuousClock()
        let start = clock.now
        try process.run()
        defer {
            process.terminate()
            let deadline = clock.now + .seconds(10)
            while process.isRunning && clock.now < deadline { usleep(10_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        return try await ready(clock, start)
    }

    /// A port no socket holds now, on 127.0.0.1 (UDP, or TCP with `tcp`).
    private static func freePort(group: any EventLoopGroup, tcp: Bool = false) async throws -> Int {
        let channel: any Channel =
            tcp
            ? try await ServerBootstrap(group: group).bind(host: "127.0.0.1", port: 0).get()
            : try await DatagramBootstrap(group: group).bind(host: "127.0.0.1", port: 0).get()
        let port = channel.localAddress?.port
        try await channel.close()
        guard let port else { throw BenchmarkFailure(benchmark: "startup", reason: "a probe socket has no port") }
        return port
    }

    /// The status of `GET /health` on 127.0.0.1:`port`, or a throw when nothing listens yet.
    private static func health(port: Int, group: any EventLoopGroup) async throws -> Int {
        let status = group.next().makePromise(of: Int.self)
        defer { status.fail(CancellationError()) }  // nothing listens yet, say
        let channel = try await ClientBootstrap(group: group)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(StatusLine(promise: status))
                }
            }
            .connect(host: "127.0.0.1", port: port).get()
        defer { channel.close(promise: nil) }
        try await channel.writeAndFlush(channel.allocator.buffer(string: "GET /health HTTP/1.0\r\n\r\n"))
        return try await status.futureResult.get()
    }

    /// Completes its promise at the first datagram that reaches it.
    private final class FirstAnswer: ChannelInboundHandler, Sendable {
        typealias InboundIn = AddressedEnvelope<ByteBuffer>
        let promise: EventLoopPromise<Void>

        init(promise: EventLoopPromise<Void>) {
            self.promise = promise
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            promise.succeed()
        }
    }

    /// Completes its promise with the status of the HTTP response it reads (0 when there is none).
    private final class StatusLine: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        let promise: EventLoopPromise<Int>

        init(promise: EventLoopPromise<Int>) {
            self.promise = promise
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            var buffer = unwrapInboundIn(data)
            let line = buffer.readString(length: min(buffer.readableBytes, 12)) ?? ""
            promise.succeed(Int(line.dropFirst(9).prefix(3)) ?? 0)
        }

        func channelInactive(context: ChannelHandlerContext) {
            promise.succeed(0)
        }
    }
}
