// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency
import Streams

/// The process-local `UpstreamCacheStore`: least recently used entries go first once the
/// stored bytes would exceed `capacityBytes`. An entry larger than the whole capacity is
/// not stored. Lookups and stores are O(1) (a dictionary over a doubly linked list).
public final class InMemoryUpstreamCache: UpstreamCacheStore {
    /// 64 MiB holds about 1,000 avatar PNGs of GitHub's default 460 px size (~40 KiB)
    /// plus every JSON page a busy service asks for, at a fraction of a typical container's memory.
    public static let defaultCapacityBytes = 64 << 20

    private struct Node {
        var entry: UpstreamCacheEntry
        /// `entry.size`, counted once: it adds up every header, and counting it at each
        /// lookup's unlink and relink added up every header again (the figure: Benchmarks/README.md).
        var size: Int
        var older: UpstreamCacheKey?
        var newer: UpstreamCacheKey?
    }

    private struct State {
        var nodes: [UpstreamCacheKey: Node] = [:]
        var newest: UpstreamCacheKey?
        var oldest: UpstreamCacheKey?
        var bytes = 0

        mutating func unlink(_ key: UpstreamCacheKey) -> Node? {
            guard let node = nodes.removeValue(forKey: key) else { return nil }
            if let older = node.older { nodes[older]?.newer = node.newer } else { oldest = node.newer }
            if let newer = node.newer { nodes[newer]?.older = node.older } else { newest = node.older }
            bytes -= node.size
            return node
        }

        mutating func insertNewest(_ entry: UpstreamCacheEntry, size: Int, for key: UpstreamCacheKey) {
            nodes[key] = Node(entry: entry, size: size, older: newest, newer: nil)
            if let newest { nodes[newest]?.newer = key } else { oldest = key }
            newest = key
            bytes += size
        }
    }

    public let capacityBytes: Int
    private let state = Locked(State())

    public init(capacityBytes: Int = InMemoryUpstreamCache.defaultCapacityBytes) {
        self.capacityBytes = capacityBytes
    }

    /// Bytes currently stored.
    public var bytes: Int { state.withLock { $0.bytes } }
    public var count: Int { state.withLock { $0.nodes.count } }

    public func entry(for key: UpstreamCacheKey) -> DataStream<UpstreamCacheEntry?> {
        DataStream.deferred { DataStream.just(self.lookUp(key)) }
    }

    /// Returns the entry and marks it most recently used.
    func lookUp(_ key: UpstreamCacheKey) -> UpstreamCacheEntry? {
        state.withLock { state in
            guard let node = state.unlink(key) else { return nil }
            state.insertNewest(node.entry, size: node.size, for: key)
            return node.entry
        }
    }

    public func store(_ entry: UpstreamCacheEntry, for key: UpstreamCacheKey) {
        let size = entry.size
        guard size <= capacityBytes else { return }
        state.withLock { state in
            _ = state.unlink(key)
            while state.bytes + size > capacityBytes, let oldest = state.oldest {
                _ = state.unlink(oldest)
            }
            state.insertNewest(entry, size: size, for: key)
        }
    }
}
