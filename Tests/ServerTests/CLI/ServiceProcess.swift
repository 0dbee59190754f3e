// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import ProcessTestSupport

/// The built `stream-service` executable run as a child process, with its
/// output captured, for tests of the command-line contract.
final class ServiceProcess {
    struct NotBuilt: Error, CustomStringConvertible {
        let description: String
    }

    /// Next to the test bundle in the build directory; built by `swift build --build-tests`.
    static var executable: URL? {
        candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    private static var candidates: [URL] {
        let directory = Bundle.main.bundleURL.hasDirectoryPath ? Bundle.main.bundleURL : Bundle.main.bundleURL.deletingLastPathComponent()
        return [directory, directory.deletingLastPathComponent()].map { $0.appendingPathComponent("stream-service") }
    }

    private let child: ChildProcess

    /// With `openFilesLimit`, the process runs under `ulimit -n` of that many descriptors (soft
    /// and hard, so the service cannot raise it), through `/bin/sh`, which `exec`s it: same PID.
    init(_ arguments: [String], environment: [String: String] = [:], openFilesLimit: Int? = nil) throws {
        guard let executable = Self.executable else {
            throw NotBuilt(description: "stream-service is not built next to the tests (looked for \(Self.candidates.map(\.path).joined(separator: " and "))): run `swift build --build-tests` (scripts/test's `swift test` builds it too), then the tests")
        }
        // The service's own settings in the test process's environment would change what it does.
        var changes: [String: String?] = [:]
        for name in ["HOST", "PORT", "UPSTREAM_URL", "TLS_CERT", "TLS_KEY", "LOG_LEVEL", "LOG_FORMAT"] { changes[name] = .some(nil) }
        for (name, value) in environment { changes[name] = value }
        if let openFilesLimit {
            child = try ChildProcess("/bin/sh", ["-c", "ulimit -n \(openFilesLimit) && exec \"$0\" \"$@\"", executable.path] + arguments, environment: changes)
        } else {
            child = try ChildProcess(executable.path, arguments, environment: changes)
        }
    }

    var pid: Int32 { child.pid }
    var output: String { child.output }
    var errorOutput: String { child.errorOutput }

    /// Waits (bounded) for the process to exit and its output to be read to the end; returns its
    /// exit status (128 + the signal's number if a signal ended it, as a shell reports it), or nil
    /// if it is still running at the deadline (it is killed then).
    func exitStatus(within timeout: TimeInterval = 10) -> Int32? {
        switch child.wait(within: timeout) {
        case .exited(let status): return status
        case .killed(let signal): return 128 + signal
        case .unobserved, nil:
            child.terminate()
            return nil
        }
    }

    /// The first stdout line, waited for (bounded).
    func firstLine(within timeout: TimeInterval = 10) -> String? {
        guard child.waitForOutput(within: timeout, until: { $0.contains("\n") }) else { return nil }
        return output.split(separator: "\n").first.map(String.init)
    }

    func signal(_ number: Int32) { child.signal(number) }
}
