import StreamServiceConcurrency
import Foundation
import NetCore
import XCTest

/// The built `stream-service` executable run as a child process, with its
/// output captured, for tests of the command-line contract.
final class ServiceProcess {
    /// Bytes a pipe delivered, read to its end on a thread of its own.
    private final class Captured: Sendable {
        let bytes = Locked<[UInt8]>([])
        /// Signalled on every append, so a reader can wait for more output.
        let arrived = DispatchSemaphore(value: 0)
        /// Signalled once the pipe reached its end: everything the child wrote is in `bytes`.
        let closed = DispatchSemaphore(value: 0)

        /// Reads until end of file. A handler per readability event could still be holding
        /// the last line when the exit is seen (seen under load: an empty stderr at exit 64).
        func drain(_ handle: FileHandle) {
            DispatchQueue.global().async { [self] in
                while true {
                    let data = handle.availableData
                    if data.isEmpty { break }
                    bytes.withLock { $0 += data }
                    arrived.signal()
                }
                closed.signal()
            }
        }
        var text: String { String(decoding: bytes.withLock { $0 }, as: UTF8.self) }
    }

    /// Next to the test bundle in the build directory; built by `swift build --build-tests`.
    static var executable: URL? {
        let directory = Bundle.main.bundleURL.hasDirectoryPath ? Bundle.main.bundleURL : Bundle.main.bundleURL.deletingLastPathComponent()
        let candidates = [directory, directory.deletingLastPathComponent()].map { $0.appendingPathComponent("stream-service") }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    private let process: Process
    private let stdout = Captured()
    private let stderr = Captured()
    private let exited = DispatchSemaphore(value: 0)

    init(_ arguments: [String], environment: [String: String] = [:]) throws {
        guard let executable = Self.executable else { throw XCTSkip("stream-service is not built next to the tests") }
        process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var merged = ProcessInfo.processInfo.environment
        for name in ["HOST", "PORT", "UPSTREAM_URL", "TLS_CERT", "TLS_KEY", "LOG_LEVEL", "LOG_FORMAT"] { merged[name] = nil }
        merged.merge(environment) { _, new in new }
        process.environment = merged
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        stdout.drain(out.fileHandleForReading)
        stderr.drain(err.fileHandleForReading)
        let exited = self.exited
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
    }

    var pid: Int32 { process.processIdentifier }
    var output: String { stdout.text }
    var errorOutput: String { stderr.text }

    /// Waits (bounded) for the process to exit and its output to be read to the end; returns its status.
    func exitStatus(within timeout: TimeInterval = 10) -> Int32? {
        let deadline = DispatchTime.now() + timeout
        guard exited.wait(timeout: deadline) == .success else {
            kill(process.processIdentifier, SIGKILL)
            return nil
        }
        exited.signal() // later calls return at once too
        process.waitUntilExit()
        for pipe in [stdout, stderr] where pipe.closed.wait(timeout: deadline) == .success {
            pipe.closed.signal()
        }
        return process.terminationStatus
    }

    /// The first stdout line, waited for (bounded).
    func firstLine(within timeout: TimeInterval = 10) -> String? {
        let deadline = DispatchTime.now() + timeout
        while !output.contains("\n") {
            guard stdout.arrived.wait(timeout: deadline) == .success else { return nil }
        }
        return output.split(separator: "\n").first.map(String.init)
    }

    func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}
