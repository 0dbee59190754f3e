// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// The values of any number of zipped sources waiting for partners.
struct ZipMany<Value> {
    var queues: [RingBuffer<Value>]
    var ended: [Bool]

    init(count: Int) {
        queues = Array(repeating: RingBuffer(), count: count)
        ended = Array(repeating: false, count: count)
    }

    mutating func emitTuples(into outbox: inout Outbox<[Value]>) {
        while queues.allSatisfy({ !$0.isEmpty }) {
            outbox.data(queues.indices.compactMap { queues[$0].popFirst() })
        }
        if queues.indices.contains(where: { ended[$0] && queues[$0].isEmpty }) {
            queues = queues.map { _ in RingBuffer() }
            outbox.end()
        }
    }
}
