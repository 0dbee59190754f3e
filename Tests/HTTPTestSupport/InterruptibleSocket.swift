// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

#if canImport(Glibc)
import Glibc
#endif

/// `recv` again when a signal interrupted it. A socket with `SO_RCVTIMEO` is never restarted after a
/// signal (signal(7)), so a SIGCHLD from a test's child process (redis-server, a replica) ended a
/// read after 0.4 s, which the test clients took for a time-out.
func receiveRestartingAfterSignals(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
    var n: Int
    repeat { n = recv(fd, buffer.baseAddress, buffer.count, 0) } while n < 0 && errno == EINTR
    return n
}
