// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import PeerSupport
import FlyingSocks

/// An `/events` body for FlyingFox: one buffer per broadcast tick, for as long as the client stays.
struct BroadcastBytes: AsyncBufferedSequence {
    typealias Element = UInt8
    let feed: AsyncStream<Int>

    func makeAsyncIterator() -> Iterator {
        Iterator(ticks: feed.makeAsyncIterator())
    }

    struct Iterator: AsyncBufferedIteratorProtocol {
        var ticks: AsyncStream<Int>.Iterator
        var pending: [UInt8] = []

        mutating func next() async throws -> UInt8? {
            if pending.isEmpty {
                guard let tick = await ticks.next() else { return nil }
                pending = TickEvent.bytes(tick).reversed()
            }
            return pending.popLast()
        }

        mutating func nextBuffer(suggested count: Int) async throws -> [UInt8]? {
            if !pending.isEmpty {
                defer { pending = [] }
                return pending.reversed()
            }
            guard let tick = await ticks.next() else { return nil }
            return TickEvent.bytes(tick)
        }
    }
}
