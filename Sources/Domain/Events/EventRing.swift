// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// One stripe's events, oldest first: a ring of at most `capacity`.
struct EventRing {
    private var records: [EventRecord] = []
    private var start = 0
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Files `record` (its id larger than any filed here), the oldest making room when full.
    mutating func append(_ record: EventRecord) {
        if records.count < capacity {
            records.append(record)
        } else {
            records[start] = record
            start = (start + 1) % capacity
        }
    }

    /// The events with ids above `id`, oldest first.
    func events(after id: Int) -> [PipelineEvent] {
        (records[start...] + records[..<start]).filter { $0.id > id }.map(\.event)
    }
}
