// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `stream-service drain`: the step before a stop. Sends the serving process SIGUSR1, which turns
/// its `/ready` to 503 while it goes on serving, then waits while balancers take it out — a
/// Kubernetes `preStop` hook in an image with no shell (the service is PID 1 there).
struct DrainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "drain",
        abstract: "Make a running service unready (/ready 503) while it still serves, then wait before its SIGTERM."
    )

    @Option(help: "The serving process (PID 1 in its container).") var pid: Int32 = 1
    @Option(help: "Seconds to wait after draining, while balancers stop sending new clients.") var wait: Double = 5

    func validate() throws {
        guard pid > 0 else { throw ValidationError("--pid must be a process id above 0, got \(pid)") }
        guard wait.isFinite, (0...3600).contains(wait) else { throw ValidationError("--wait must be 0…3600 seconds, got \(wait)") }
    }

    func run() throws {
        guard kill(pid, SIGUSR1) == 0 else {
            print("cannot drain process \(pid): \(String(cString: strerror(errno)))")
            throw ExitCode.failure
        }
        print("draining process \(pid): /ready answers 503; waiting \(wait) s")
        // The wait is the command's job: the hook's time for balancers to notice.
        var request = timespec(tv_sec: Int(wait), tv_nsec: Int((wait - wait.rounded(.down)) * 1e9))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0, errno == EINTR { request = remaining }
    }
}
