// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Streams

/// The fields of the last few distinct (origin, fields) pairs a client sent, as one protocol
/// writes them: an upstream client sends the same fields to an origin request after request (a
/// fan-out of GETs differing only in their path), so each head is its request line plus what was
/// made once: a few string comparisons that mostly compare the same storage instead of writing the
/// `Host` value and the fields again. HTTP/1.1 keeps the encoded fields (`Host` to the blank line),
/// HTTP/2 the list after the method and scheme (`HTTP2RequestFields.shared(of:)`).
// @unchecked: `state` is only touched between `lock.lock()` and `lock.unlock()`; `make` is immutable.
final class RequestFieldsCache<Fields: Sendable>: @unchecked Sendable {
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

    // A spin lock and the state inline, not a `Locked`: the cache is asked once an exchange, and a
    // pthread mutex's lock and unlock cost about 57 instructions a time; the section is a scan of
    // a handful of entries that calls out to nothing (as `ConnectionPool`'s).
    private let lock = SpinLock()
    @exclusivity(unchecked) private var state = State()
    private let make: @Sendable (HTTPClientRequest) -> Fields

    /// - Parameter make: the fields of a request, made when its pair is not kept.
    init(_ make: @escaping @Sendable (HTTPClientRequest) -> Fields) {
        self.make = make
    }

    /// `make(request)`, kept from an earlier request with the same origin and fields.
    func fields(for request: HTTPClientRequest, origin: ConnectionPool.Origin) -> Fields {
        let headers = request.headers
        if let found = kept(headers: headers, where: { $0 == origin }) { return found }
        return keep(make(request), origin: origin, headers: headers)
    }

    /// `fields(for:origin:)` of the request's own origin, compared by its parts (`Origin.matches`):
    /// an `Origin` is made only for a new pair.
    func fields(for request: HTTPClientRequest, parts: ConnectionPool.Origin.Parts) -> Fields {
        let headers = request.headers
        if let found = kept(headers: headers, where: { $0.matches(parts) }) { return found }
        return keep(make(request), origin: parts.origin, headers: headers)
    }

    private func keep(_ fields: Fields, origin: ConnectionPool.Origin, headers: HTTPHeaders) -> Fields {
        lock.lock()
        let entry = Entry(origin: origin, headers: headers, fields: fields)
        if state.entries.count < Self.capacity {
            state.entries.append(entry)
        } else {
            state.entries[state.next] = entry
            state.next = (state.next + 1) % Self.capacity
        }
        lock.unlock()
        return fields
    }

    /// The fields kept for the pair, compared where the entries lie: `first(where:)` over the
    /// entries copied each entry it passed to its predicate, and the one found again (origin,
    /// headers and fields retained and released: with the mutex, ~360 instructions an exchange,
    /// ~12 k a `/users?limit=30` request, callgrind).
    private func kept(headers: HTTPHeaders, where isOrigin: (ConnectionPool.Origin) -> Bool) -> Fields? {
        lock.lock()
        defer { lock.unlock() }
        for index in state.entries.indices where isOrigin(state.entries[index].origin) && state.entries[index].headers == headers {
            return state.entries[index].fields
        }
        return nil
    }
}

extension RequestFieldsCache where Fields == [UInt8] {
    /// HTTP/1.1's: the encoded fields, `Host` to the blank line.
    convenience init() {
        self.init { $0.encodedFields }
    }
}
