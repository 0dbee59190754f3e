// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency
import Dispatch
import NetCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes log lines to an output (stdout by default) without making the
/// caller wait for the write: lines accumulate in a buffer that one
/// background queue drains, so under load many lines leave in one write
/// and an event loop never blocks on a slow terminal or pipe.
public final class LineWriter: Sendable {
    private struct Pending {
        var bytes: [UInt8] = []
        var drainScheduled = false
    }

    private let pending = Locked(Pending())
    private let queue = DispatchQueue(label: "log.writer", qos: .utility)
    private let output: @Sendable ([UInt8]) -> Void

    /// A writer handing each batch of lines to `output`, one call at a time.
    public init(output: @escaping @Sendable ([UInt8]) -> Void) {
        self.output = output
    }

    /// A writer to the process's standard output.
    public static let standardOutput = LineWriter(output: { bytes in writeFully(bytes, to: STDOUT_FILENO) })

    /// Queues `line` plus a newline.
    public func write(_ line: String) {
        let scheduleDrain = pending.withLock { pending -> Bool in
            pending.bytes.append(contentsOf: line.utf8)
            pending.bytes.append(UInt8(ascii: "\n"))
            defer { pending.drainScheduled = true }
            return !pending.drainScheduled
        }
        if scheduleDrain { queue.async { self.drain() } }
    }

    /// Returns once every line written so far has been handed to the output.
    public func flush() {
        queue.sync { drain() }
    }

    private func drain() {
        let batch = pending.withLock { pending -> [UInt8] in
            defer {
                pending.bytes = []
                pending.drainScheduled = false
            }
            return pending.bytes
        }
        if !batch.isEmpty { output(batch) }
    }

    /// Writes `bytes` to standard error at once (unbuffered), for the few lines that must not wait.
    static func writeToStandardError(_ bytes: [UInt8]) {
        writeFully(bytes, to: STDERR_FILENO)
    }

    private static func writeFully(_ bytes: [UInt8], to descriptor: Int32) {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = systemWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else {
                    return
                }
            }
        }
    }
}

// `write` is also the name of a LineWriter method; this alias keeps the C call unambiguous.
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
