// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

// Dispatch sources are thread-safe but not yet annotated Sendable on Linux.
@preconcurrency import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns signals into calls on a queue. Their handler is in place when `init` returns: it
/// writes the signal's number into a pipe, which a Dispatch read source drains, so a signal
/// that comes before Dispatch watches the pipe waits there.
///
/// Why not Dispatch signal sources: on Linux libdispatch installs its own handler later, on
/// its manager thread, and until then the `SIG_IGN` that stops the default action dropped the
/// signal. A SIGINT sent to `demo-upstream` right after its "listening" line was lost 1 time
/// in 30, and the process ran on (found as a `CommandLineContractTests` timeout under load).
///
/// A process has one watcher: the newest one receives the signals.
public final class SignalWatcher: Sendable {
    private let source: DispatchSourceRead
    private let signals: [Int32]

    /// Installs the handler for `signals` and calls `handler` on `queue` with each one's number as it arrives.
    public init(signals: [Int32], queue: DispatchQueue = DispatchQueue(label: "signals"), handler: @escaping @Sendable (Int32) -> Void) {
        var ends: [Int32] = [-1, -1]
        precondition(pipe(&ends) == 0, "pipe failed: errno \(errno)")
        for end in ends { _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK); _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        let readEnd = ends[0]
        self.signals = signals
        source = DispatchSource.makeReadSource(fileDescriptor: readEnd, queue: queue)
        source.setEventHandler {
            var numbers = [UInt8](repeating: 0, count: 64)
            while true {
                let count = read(readEnd, &numbers, numbers.count)
                guard count > 0 else { return }
                for number in numbers.prefix(count) { handler(Int32(number)) }
            }
        }
        source.activate()
        signalWriteEnd = ends[1]
        for number in signals {
            _ = signal(number) { number in
                // Only async-signal-safe calls here: write(2), and errno kept for the interrupted code.
                let saved = errno
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(signalWriteEnd, &byte, 1)
                errno = saved
            }
        }
    }

    /// Stops watching: the signals are ignored from now on, as they were while shutting down.
    public func cancel() {
        for number in signals { _ = signal(number, SIG_IGN) }
        source.cancel()
    }
}

/// Where the handler writes, set before any handler is installed (a signal handler can take no context).
nonisolated(unsafe) private var signalWriteEnd: Int32 = -1
