// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension HTTPServer {
    /// Starts the server and blocks until SIGTERM or SIGINT, then shuts it down gracefully:
    /// in-flight requests finish, streamed responses end with their `shutdownTrailer`, and what is
    /// still open at `shutdownDeadline` is closed. What a container runtime expects of PID 1
    /// (Docker and Kubernetes send SIGTERM, then SIGKILL after 10 s and 30 s by default).
    ///
    /// The signal handlers are in place before the server starts, so a signal sent the moment the
    /// port is known is never fatal.
    /// - Parameters:
    ///   - shutdownDeadline: how long the graceful shutdown may take before what is left is closed.
    ///   - started: called with the bound port once the server listens (print it, tell a test).
    public func serveUntilTerminated(shutdownDeadline: Duration = .seconds(8), started: (Int) -> Void = { _ in }) throws {
        let done = DispatchSemaphore(value: 0)
        let signals = SignalWatcher(signals: [SIGTERM, SIGINT]) { [self] _ in
            shutdown(deadline: shutdownDeadline) { done.signal() }
        }
        defer { signals.cancel() }
        started(try start())
        done.wait()
    }
}
