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
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import SSDPBenchWorkloads
import SSDPCore
import SSDPDeviceCore
import SSDPDevices
import SSDPSimulator

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// 4. A running simulator answering a unicast M-SEARCH flood on loopback, beside the machine's own limit:
/// the same flood against a minimal UDP echo over plain sockets, in the same run, in rounds of one flood
/// each; the figure is the median of the rounds' ratios, printed with their spread.
///
/// One client thread keeps `window` requests in flight: it sends one request for each answer it reads,
/// and sends the whole window again when nothing comes for 20 ms (a request or answer lost). Each
/// request asks for exactly one answer, so answers per second compare one to one.
enum LoopbackBenchmark {
    static let window = 128

    static func run(rounds: Int, duration: Duration) async throws -> Figure {
        let name = "loopback"
        let echo = try EchoServer()
        var device = SimulatorProfile.generic.device(number: 1, seed: 7)
        device.behaviour.delay = .immediate
        let (simulator, group): (DeviceSimulator, MultiThreadedEventLoopGroup)
        do {
            (simulator, group) = try await BenchSimulator.start([device])
        } catch {
            echo.stop()
            throw error
        }
        let port = simulator.udpAddress.port ?? 0
        var echoFloods: [FloodResult] = []
        var simulatorFloods: [FloodResult] = []
        do {
            for _ in 0..<rounds {
                echoFloods.append(try await flood(port: echo.port, duration: duration))
                simulatorFloods.append(try await flood(port: port, duration: duration))
            }
        } catch {
            echo.stop()
            _ = await simulator.shutdown()
            try? await group.shutdownGracefully()
            throw error
        }
        echo.stop()
        let counters = await simulator.shutdown()
        try await group.shutdownGracefully()

        let echoed = echoFloods.reduce(0) { $0 + $1.answers }
        let answered = simulatorFloods.reduce(0) { $0 + $1.answers }
        try require(echoFloods.allSatisfy { $0.answers > 0 }, name, "the echo server answered nothing in a round")
        try require(simulatorFloods.allSatisfy { $0.answers > 0 }, name, "the simulator answered nothing in a round")
        try require(
            counters.answersSent >= answered,
            name,
            "the client read \(answered) answers but the simulator sent \(counters.answersSent)"
        )
        let ratios = Spread(zip(simulatorFloods, echoFloods).map { $0.perSecond / $1.perSecond * 100 })
        return Figure(
            name: name,
            unit: "% of raw UDP echo",
            value: ratios.median,
            target: .atLeast(50),
            details: [
                "simulatorAnswersPerSecond": Spread(simulatorFloods.map(\.perSecond)).median,
                "echoRepliesPerSecond": Spread(echoFloods.map(\.perSecond)).median,
                "simulatorStalls": Double(simulatorFloods.reduce(0) { $0 + $1.stalls }),
                "echoStalls": Double(echoFloods.reduce(0) { $0 + $1.stalls }), "echoReplies": Double(echoed),
                "searchesReceived": Double(counters.searchesAccepted), "answersSent": Double(counters.answersSent),
                "secondsEach": duration.seconds, "rounds": Double(rounds),
            ],
            remark: "ratio per round: \(ratios.text)"
        )
    }

    struct FloodResult: Sendable {
        var answers: Int
        var stalls: Int
        var elapsed: Duration
        var perSecond: Double { Double(answers) / elapsed.seconds }
    }

    /// The request both servers get: a unicast search for the simulator's one MediaRenderer.
    static let request = Array(
        "M-SEARCH * HTTP/1.1\r\nHOST: 127.0.0.1:1900\r\nMAN: \"ssdp:discover\"\r\nST: urn:schemas-upnp-org:device:MediaRenderer:1\r\n\r\n"
            .utf8
    )

    /// Floods 127.0.0.1:`port` for `duration` from a thread of its own and counts the answers, after a
    /// warm-up of a tenth of the time whose answers are drained and not counted.
    static func flood(port: Int, duration: Duration) async throws -> FloodResult {
        try await onThread {
            let socket = try UDPSocket()
            var buffer = [UInt8](repeating: 0, count: 65_536)
            _ = flood(socket, port: port, for: duration / 10, buffer: &buffer)
            while socket.receive(into: &buffer) > 0 {}  // what the warm-up left in flight
            return flood(socket, port: port, for: duration, buffer: &buffer)
        }
    }

    /// One flood: `window` requests in flight, one more for each answer, the whole window again after a
    /// receive timeout (a stall: a request or answer lost).
    private static func flood(
        _ socket: UDPSocket,
        port: Int,
        for length: Duration,
        buffer: inout [UInt8]
    ) -> FloodResult {
        let destination = loopback(port: port)
        let clock = ContinuousClock()
        let start = clock.now
        var answers = 0
        var stalls = 0
        for _ in 0..<window { socket.send(request, to: destination) }
        while clock.now - start < length {
            if socket.receive(into: &buffer) > 0 {
                answers += 1
                socket.send(request, to: destination)
            } else {
                stalls += 1
                for _ in 0..<window { socket.send(request, to: destination) }
            }
        }
        return FloodResult(answers: answers, stalls: stalls, elapsed: clock.now - start)
    }

    /// Runs blocking `body` on a new thread, so it neither blocks the Swift concurrency pool nor NIO.
    static func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread { continuation.resume(with: Result { try body() }) }
            thread.start()
        }
    }

    static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
        return address
    }
}

/// A plain UDP socket on 127.0.0.1 with a 20 ms receive timeout.
final class UDPSocket: @unchecked Sendable {
    let descriptor: Int32

    init() throws {
        #if canImport(Glibc)
        descriptor = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        #else
        descriptor = socket(AF_INET, SOCK_DGRAM, 0)
        #endif
        guard descriptor >= 0 else {
            throw BenchmarkFailure(benchmark: "loopback", reason: "socket() failed: errno \(errno)")
        }
        var address = LoopbackBenchmark.loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else {
            close(descriptor)
            throw BenchmarkFailure(benchmark: "loopback", reason: "bind() failed: errno \(errno)")
        }
        var timeout = timeval(tv_sec: 0, tv_usec: 20_000)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(descriptor) }

    var port: Int {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    func send(_ bytes: [UInt8], to destination: sockaddr_in) {
        bytes.withUnsafeBytes { send($0, to: destination) }
    }

    func send(_ payload: UnsafeRawBufferPointer, to destination: sockaddr_in) {
        var destination = destination
        _ = withUnsafePointer(to: &destination) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                sendto(descriptor, payload.baseAddress, payload.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
    }

    /// Reads one datagram; 0 or less on timeout.
    func receive(into buffer: inout [UInt8]) -> Int {
        buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
    }

    /// Reads one datagram and its sender; a length of 0 or less on timeout.
    func receiveFrom(into buffer: inout [UInt8]) -> (Int, sockaddr_in) {
        var source = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let count = buffer.withUnsafeMutableBytes { payload in
            withUnsafeMutablePointer(to: &source) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    recvfrom(descriptor, payload.baseAddress, payload.count, 0, $0, &length)
                }
            }
        }
        return (count, source)
    }
}

/// The machine's limit to compare with: a thread that sends every datagram back to its sender.
final class EchoServer: Sendable {
    private let socket: UDPSocket
    private let stopped = NIOLockedValueBox(false)
    private let done = NIOLockedValueBox(false)
    let port: Int

    init() throws {
        socket = try UDPSocket()
        port = socket.port
        let thread = Thread { [socket, stopped, done] in
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while !stopped.withLockedValue({ $0 }) {
                let (count, source) = socket.receiveFrom(into: &buffer)
                if count > 0 {
                    buffer.withUnsafeBytes { socket.send(UnsafeRawBufferPointer(rebasing: $0[0..<count]), to: source) }
                }
            }
            done.withLockedValue { $0 = true }
        }
        thread.start()
    }

    /// Stops the thread (within its 20 ms receive timeout) and waits for it.
    func stop() {
        stopped.withLockedValue { $0 = true }
        while !done.withLockedValue({ $0 }) { usleep(1_000) }
    }
}

/// The simulator both live benchmarks run: unicast only, on 127.0.0.1, on an event loop of its own,
/// with limits far above the load (the per-source rate limit would otherwise cut the flood), and
/// logging only warnings (the per-search info lines are for people, not for a flood).
enum BenchSimulator {
    static func start(
        _ devices: [SimulatedDevice],
        addressing: DeviceAddressing = .automatic
    ) async throws -> (DeviceSimulator, MultiThreadedEventLoopGroup) {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        var logger = Logger(label: "ssdp-bench.simulator")
        logger.logLevel = .warning
        var configuration = SimulatorConfiguration(
            devices: devices,
            interfaces: ["lo"],
            port: 0,
            httpPort: .any,
            listening: .unicastOnly,
            responder: Workloads.unlimitedResponder,
            seed: 1,
            bootID: 1
        )
        configuration.addressing = addressing
        do {
            return (try await DeviceSimulator.start(configuration, eventLoopGroup: group, logger: logger), group)
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
    }
}
