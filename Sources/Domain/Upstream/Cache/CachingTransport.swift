// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Streams

/// The upstream response cache as a stage at the transport seam: a GET with a stored answer
/// is sent as a conditional request (`If-None-Match`, `If-Modified-Since`); a 304 is
/// answered with the stored body. GitHub does not count an authorized 304 against the
/// primary rate limit, so a repeated page costs nothing but the round trip.
///
/// Every request is revalidated (no freshness lifetime): answers are never stale, and the
/// saving is the rate limit and the body bytes, not the round trip.
///
///     entry(key):      -e|              (nil when absent)
///     send(request):     --304|         (conditional when e exists)
///     answer:          ----200(e.body)|
public struct CachingTransport: UpstreamTransport {
    let next: any UpstreamTransport
    let store: any UpstreamCacheStore
    let metrics: UpstreamMetrics

    public init(_ next: any UpstreamTransport, store: any UpstreamCacheStore, metrics: UpstreamMetrics) {
        self.next = next
        self.store = store
        self.metrics = metrics
    }

    /// The request, its timeout with it, goes to the next transport after the store's lookup,
    /// which the store bounds itself (`RedisUpstreamCache`: 50 ms; the in-process one answers at once).
    public var keepsTimeouts: Bool { next.keepsTimeouts }

    /// As `next`, over the in-process store (which reads no task-local); any other store may.
    public var readsServiceContext: Bool { next.readsServiceContext || !(store is InMemoryUpstreamCache) }

    public func send(_ request: UpstreamRequest) -> DataStream<UpstreamResponse> {
        guard request.method == "GET" else { return next.send(request) }
        let key = UpstreamCacheKey(request)
        return store.entry(for: key).redirect { [next, store, metrics] stored -> DataStream<UpstreamResponse> in
            var sent = request
            if let stored {
                metrics.cacheRevalidated()
                request.span?.noteCache("refreshed") // until a 304 confirms the stored answer
                if let etag = stored.etag { sent.conditions["If-None-Match"] = etag }
                if let lastModified = stored.lastModified { sent.conditions["If-Modified-Since"] = lastModified }
            } else {
                metrics.cacheMissed()
                request.span?.noteCache("miss")
            }
            return next.send(sent).map { response in
                if response.status == 304, let stored {
                    metrics.cacheHit()
                    request.span?.noteCache("hit")
                    return stored.response(confirmedBy: response)
                }
                if let entry = UpstreamCacheEntry(response) { store.store(entry, for: key) }
                return response
            }
        }
    }
}
