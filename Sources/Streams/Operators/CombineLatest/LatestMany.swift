// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// The latest values of any number of combined sources.
struct LatestMany<Value> {
    var latest: [Value?]
    var ended = 0
    var missing: Int

    init(count: Int) {
        latest = Array(repeating: nil, count: count)
        missing = count
    }

    mutating func receive(_ event: Event<Value>, from index: Int, into outbox: inout Outbox<[Value]>) {
        switch event {
        case .data(let value):
            if latest[index] == nil { missing -= 1 }
            latest[index] = value
            if missing == 0 { outbox.data(latest.compactMap { $0 }) }
        case .error(let error):
            outbox.error(error)
        case .end:
            ended += 1
            if latest[index] == nil || ended == latest.count { outbox.end() }
        }
    }
}
