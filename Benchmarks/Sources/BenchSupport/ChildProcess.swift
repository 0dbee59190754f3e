// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs this same executable again with `--child <workload>` so each workload gets its own process:
/// its own peak RSS, and a crash (say a stack overflow) becomes a reported status instead of the end
/// of the benchmark.
public struct ChildProcess: Sendable {
    public var timeout: Duration

    public init(timeout: Duration) {
        self.timeout = timeout
    }

    public func run(_ workload: Workload, library: String) -> Measurement {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
        if let own = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            process.executableURL = URL(fileURLWithPath: own)
        }
        process.arguments = ["--child", workload.id]
        // A crash is reported as a status; its multi-thousand-frame backtrace would only bury the table.
        process.standardError = FileHandle.nullDevice
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        let failed = { (status: String) in
            Measurement(
                library: workload.library ?? library, workload: workload.id, status: status,
                nsPerElement: nil, peakRSSKB: nil, runs: 0, elements: workload.elements
            )
        }
        do { try process.run() } catch { return failed("spawn-failed(\(error))") }

        // Collect output while the child runs so a chatty child never blocks on a full pipe.
        let collected = OutputCollector()
        output.fileHandleForReading.readabilityHandler = { handle in collected.append(handle.availableData) }
        let seconds = Double(timeout.components.seconds)
        if finished.wait(timeout: .now() + seconds) == .timedOut {
            kill(process.processIdentifier, SIGKILL)
            finished.wait()
            output.fileHandleForReading.readabilityHandler = nil
            return failed("timeout(\(Int(seconds))s)")
        }
        output.fileHandleForReading.readabilityHandler = nil
        collected.append(output.fileHandleForReading.readDataToEndOfFile())

        if process.terminationReason == .uncaughtSignal {
            return failed("crashed(signal \(process.terminationStatus))")
        }
        let text = String(decoding: collected.data, as: UTF8.self)
        if let line = text.split(separator: "\n").last(where: { $0.hasPrefix("RESULT\t") }),
           let measurement = Measurement(line: line) {
            return measurement
        }
        return failed("exit(\(process.terminationStatus))")
    }
}

import Synchronization

/// Bytes read from a child's stdout on FileHandle's reader thread.
final class OutputCollector: Sendable {
    private let buffer = Mutex(Data())

    func append(_ data: Data) {
        buffer.withLock { $0.append(data) }
    }

    var data: Data { buffer.withLock { $0 } }
}
