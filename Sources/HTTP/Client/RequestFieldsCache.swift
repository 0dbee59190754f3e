// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency

/// The encoded fields (`Host` to the blank line) of the last few distinct (origin, fields)
/// pairs a client sent: an upstream client sends the same fields to an origin request after
/// request (a fan-out of GETs differing only in their path), so each head is its request line
/// plus a copy of bytes made once: a few string comparisons that mostly compare the same
/// storage instead of encoding the `Host` value and the fields again.
final class RequestFieldsCache: Sendable {
    private struct Entry {
        let origin: ConnectionPool.Origin
        let headers: HTTPHeaders
        let fields: [UInt8]
    }

    /// A handful covers a service's upstream origins; more would be searched in vain.
    static let capacity = 8

    private struct State {
        var entries: [Entry] = []
        /// The slot the next new pair replaces once full (oldest first).
        var next = 0
    }

    private let state = Locked(State())

    /// `request.encodedFields`, kept from an earlier request with the same origin and fields.
    func fields(for request: HTTPClientRequest, origin: ConnectionPool.Origin) -> [UInt8] {
        let found = state.withLock { state in
            state.entries.first { $0.origin == origin && $0.headers == request.headers }?.fields
        }
        if let found { return found }
        let fields = request.encodedFields
        state.withLock { state in
            let entry = Entry(origin: origin, headers: request.headers, fields: fields)
            if state.entries.count < Self.capacity {
                state.entries.append(entry)
            } else {
                state.entries[state.next] = entry
                state.next = (state.next + 1) % Self.capacity
            }
        }
        return fields
    }
}
