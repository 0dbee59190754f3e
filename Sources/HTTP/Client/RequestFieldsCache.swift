// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency

/// The fields of the last few distinct (origin, fields) pairs a client sent, as one protocol
/// writes them: an upstream client sends the same fields to an origin request after request (a
/// fan-out of GETs differing only in their path), so each head is its request line plus what was
/// made once: a few string comparisons that mostly compare the same storage instead of writing the
/// `Host` value and the fields again. HTTP/1.1 keeps the encoded fields (`Host` to the blank line),
/// HTTP/2 the list after the method and scheme (`HTTP2RequestFields.shared(of:)`).
final class RequestFieldsCache<Fields: Sendable>: Sendable {
    private struct Entry: Sendable {
        let origin: ConnectionPool.Origin
        let headers: HTTPHeaders
        let fields: Fields
    }

    /// A handful covers a service's upstream origins; more would be searched in vain.
    static var capacity: Int { 8 }

    private struct State: Sendable {
        var entries: [Entry] = []
        /// The slot the next new pair replaces once full (oldest first).
        var next = 0
    }

    private let state = Locked(State())
    private let make: @Sendable (HTTPClientRequest) -> Fields

    /// - Parameter make: the fields of a request, made when its pair is not kept.
    init(_ make: @escaping @Sendable (HTTPClientRequest) -> Fields) {
        self.make = make
    }

    /// `make(request)`, kept from an earlier request with the same origin and fields.
    func fields(for request: HTTPClientRequest, origin: ConnectionPool.Origin) -> Fields {
        let found = state.withLock { state in
            state.entries.first { $0.origin == origin && $0.headers == request.headers }?.fields
        }
        if let found { return found }
        let fields = make(request)
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

extension RequestFieldsCache where Fields == [UInt8] {
    /// HTTP/1.1's: the encoded fields, `Host` to the blank line.
    convenience init() {
        self.init { $0.encodedFields }
    }
}
