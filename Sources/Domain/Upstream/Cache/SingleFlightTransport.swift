// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency
import Streams

/// Coalesces concurrent identical GETs (same URL, same credential) into one upstream
/// request: the first caller's request becomes a shared stream — many watchers, one
/// upstream call — that later callers join until it answers. A caller that comes after
/// the answer starts a new request (a redirect back to the same URL is a new hop).
///
///     caller A:   --send(u)----------200|
///     caller B:        --send(u)-----200|   (joined A's request: one upstream call)
public final class SingleFlightTransport: UpstreamTransport {
    private struct Flight {
        let id: UInt64
        let answer: DataStream<UpstreamResponse>
    }

    let next: any UpstreamTransport
    let metrics: UpstreamMetrics
    private let flights = Locked((nextID: UInt64(0), byKey: [UpstreamCacheKey: Flight]()))

    public init(_ next: any UpstreamTransport, metrics: UpstreamMetrics) {
        self.next = next
        self.metrics = metrics
    }

    /// Requests in flight now (tests and diagnostics).
    public var inFlight: Int { flights.withLock { $0.byKey.count } }

    /// False: a shared request kept to its leader's timeout would fail callers that joined it
    /// later before their own; each caller's `timeout` stage bounds its wait instead.
    public var keepsTimeouts: Bool { false }

    /// A flight is sent in its leader's context, as `next` would send it.
    public var readsServiceContext: Bool { next.readsServiceContext }

    public func send(_ request: UpstreamRequest) -> DataStream<UpstreamResponse> {
        guard request.method == "GET" else { return next.send(request) }
        let key = UpstreamCacheKey(request)
        return DataStream.deferred { [self] in
            let (answer, joined) = flights.withLock { flights -> (DataStream<UpstreamResponse>, Bool) in
                if let flight = flights.byKey[key] { return (flight.answer, true) }
                flights.nextID += 1
                let id = flights.nextID
                // `replay(1)`: a caller that joined just before the answer but watches just
                // after it still gets it.
                let answer = next.send(request)
                    .call(
                        data: { [weak self] _ in self?.land(key, id) }, error: { [weak self] _ in self?.land(key, id) },
                        disposed: { [weak self] in self?.land(key, id) })
                    .replay(1)
                flights.byKey[key] = Flight(id: id, answer: answer)
                return (answer, false)
            }
            if joined { metrics.coalesced() }
            request.span?.noteFlight(joined ? "joined" : "led")
            return answer
        }
    }

    private func land(_ key: UpstreamCacheKey, _ id: UInt64) {
        flights.withLock { flights in
            if flights.byKey[key]?.id == id { flights.byKey[key] = nil }
        }
    }
}
