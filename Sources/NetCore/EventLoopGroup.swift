// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A fixed set of event loops (one per core by default) handed out round-robin.
public final class EventLoopGroup: Sendable {
    public let loops: [EventLoop]
    private let cursor = Atomic<Int>(0)

    public init(count: Int = EventLoopGroup.coreCount, label: String = "netcore.loop") {
        loops = (0..<max(1, count)).map { EventLoop(label: "\(label).\($0)") }
    }

    public func next() -> EventLoop {
        let index = cursor.wrappingAdd(1, ordering: .relaxed).oldValue
        return loops[index % loops.count]
    }

    public static var coreCount: Int {
        max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }

    /// How many loops a server runs by default: `NETCORE_EVENT_LOOPS` when set to a positive
    /// number (to measure or pin a deployment), else two per core. Two, because a loop whose
    /// core is taken by another thread (a client on the same machine, a build) holds up every
    /// connection it serves until it runs again; with two per core half as many wait, and the
    /// other loop on that core keeps going: with 64 clients of small answers on 2 shared cores, the
    /// p99 fell by about a quarter for about 5 % more CPU per request (Benchmarks/README.md,
    /// NetCore/Domain ledger).
    public static let defaultLoopCount: Int = {
        if let value = getenv("NETCORE_EVENT_LOOPS"), let count = Int(String(cString: value)), count > 0 { return count }
        return 2 * coreCount
    }()

    /// A process-wide group for clients that do not bring their own.
    public static let shared = EventLoopGroup(label: "netcore.shared")
}
