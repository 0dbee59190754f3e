// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import PeerSupport
import FlyingSocks

/// A `/ticks` body for FlyingFox: each buffer is one event, released when its tick is due.
struct TickBytes: AsyncBufferedSequence {
    typealias Element = UInt8
    let schedule: TickSchedule

    func makeAsyncIterator() -> Iterator {
        Iterator(schedule: schedule)
    }

    struct Iterator: AsyncBufferedIteratorProtocol {
        let schedule: TickSchedule
        var tick = 0
        var pending: [UInt8] = []

        init(schedule: TickSchedule) {
            self.schedule = schedule
        }

        mutating func next() async throws -> UInt8? {
            if pending.isEmpty {
                guard let buffer = try await nextEvent() else { return nil }
                pending = buffer.reversed()
            }
            return pending.popLast()
        }

        mutating func nextBuffer(suggested count: Int) async throws -> [UInt8]? {
            if !pending.isEmpty {
                defer { pending = [] }
                return pending.reversed()
            }
            return try await nextEvent()
        }

        private mutating func nextEvent() async throws -> [UInt8]? {
            guard tick < schedule.count else { return nil }
            try await schedule.waitFor(tick: tick)
            defer { tick += 1 }
            return TickEvent.bytes(tick)
        }
    }
}
