// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Streams

/// Two `UpstreamCacheStore`s, a fast one in front of a slower shared one (the
/// in-process LRU before Redis, so replicas reuse each other's answers): a lookup
/// asks the front first and, on a miss, the back, copying a back hit to the front;
/// a store goes to both.
public struct TieredUpstreamCache: UpstreamCacheStore {
    public let front: any UpstreamCacheStore
    public let back: any UpstreamCacheStore

    public init(front: any UpstreamCacheStore, back: any UpstreamCacheStore) {
        self.front = front
        self.back = back
    }

    public func entry(for key: UpstreamCacheKey) -> DataStream<UpstreamCacheEntry?> {
        let front = self.front, back = self.back
        return front.entry(for: key).redirect { local -> DataStream<UpstreamCacheEntry?> in
            if let local { return .just(local) }
            return back.entry(for: key).call(data: { shared in
                if let shared { front.store(shared, for: key) }
            })
        }
    }

    public func store(_ entry: UpstreamCacheEntry, for key: UpstreamCacheKey) {
        front.store(entry, for: key)
        back.store(entry, for: key)
    }
}
