// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a server's new connections are spread over its event loops.
public enum AcceptBalancing: String, Sendable {
    /// One listening socket on the first loop, which hands connections out in turn: every
    /// loop gets the same number. The default: a loop with more connections than another is
    /// where the tail latency grows, and keep-alive clients make accepting rare anyway.
    case roundRobin
    /// One `SO_REUSEPORT` listening socket per loop, each loop accepting its own: no hand-off
    /// between threads, but the kernel spreads connections by a hash of their addresses, so
    /// 64 connections over 2 loops split about 32 ± 4.
    case reusePort

    /// `NETCORE_ACCEPT=reuseport` picks `reusePort` (to measure one against the other); else `roundRobin`.
    public static let `default`: AcceptBalancing = {
        if let value = getenv("NETCORE_ACCEPT"), String(cString: value) == "reuseport" { return .reusePort }
        return .roundRobin
    }()
}
