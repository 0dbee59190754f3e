// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import HTTP

/// A complete upstream answer: status, headers (names lower-cased) and the decoded body.
public struct UpstreamResponse: Sendable, Equatable {
    public var status: Int
    public var body: [UInt8]
    private var fields: Fields
    /// The `x-ratelimit-*` fields as the HTTP client's parser read them; `unread` for an answer
    /// made otherwise (then `UpstreamQuota` reads the fields).
    var rateLimit = RateLimitFields.unread

    /// The header fields as the HTTP transport received them, or as a dictionary given by the
    /// caller. A received answer's dictionary is built only when `headers` is asked for: the
    /// pipelines ask `header(_:)` for one or two fields, and building the dictionary of every field
    /// (lower-casing each name) is work the pipelines throw away (the figure:
    /// Benchmarks/README.md).
    private enum Fields: Sendable {
        case lowercased([String: String])
        case received(HTTPHeaders)
        /// As the client parsed them: a `String` is made only for a field read.
        case wire(ReceivedFields)
        /// A stored answer's fields refreshed by a 304's, merged when read.
        case refreshed(Refreshed)
    }

    /// A stored answer's fields (lower-cased) and the fields of a 304 received for it, which
    /// replace the stored ones but for the names in `kept`. In an object, so that every case of
    /// `Fields` holds one reference: with the three inline, copying any answer (several times
    /// per stage) went through the enum's value witnesses (the figure: Benchmarks/README.md).
    private final class Refreshed: Sendable {
        let stored: [String: String]
        let update: HTTPHeaders
        let kept: Set<String>

        init(stored: [String: String], update: HTTPHeaders, kept: Set<String>) {
            self.stored = stored
            self.update = update
            self.kept = kept
        }
    }

    public init(status: Int, headers: [String: String] = [:], body: [UInt8] = []) {
        self.status = status
        fields = .lowercased(Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first }))
        self.body = body
    }

    /// An answer with its fields as received (the HTTP transport's answers).
    init(status: Int, received headers: HTTPHeaders, body: [UInt8]) {
        self.status = status
        fields = .received(headers)
        self.body = body
    }

    /// An answer with its fields as the HTTP client parsed them.
    init(status: Int, wire fields: ReceivedFields, body: [UInt8]) {
        self.status = status
        self.fields = .wire(fields)
        self.body = body
    }

    /// A stored answer (`stored`: its fields, names lower-cased) with the fields of `update` in
    /// place of its own, except for the names in `kept`. The merge waits until the fields are
    /// read: merged into a new dictionary at once, a revalidated avatar paid for every field where
    /// its pipeline reads one (the figure: Benchmarks/README.md).
    init(status: Int, stored: [String: String], refreshedBy update: UpstreamResponse, keeping kept: Set<String>, body: [UInt8]) {
        self.status = status
        self.body = body
        switch update.fields {
        case .received(let received):
            fields = .refreshed(Refreshed(stored: stored, update: received, kept: kept))
            return
        case .wire(let wire):
            fields = .refreshed(Refreshed(stored: stored, update: wire.headers, kept: kept))
            return
        case .lowercased, .refreshed: break
        }
        var merged = stored
        for (name, value) in update.headers where !kept.contains(name) { merged[name] = value }
        fields = .lowercased(merged)
    }

    /// Header names lower-cased; repeated fields joined with `, ` (RFC 9110 §5.3).
    public var headers: [String: String] {
        get {
            switch fields {
            case .lowercased(let headers): return headers
            case .received(let received):
                return Self.lowercased(received)
            case .wire(let wire):
                return Self.lowercased(wire.headers)
            case .refreshed(let refreshed):
                var merged = refreshed.stored
                for (name, value) in Self.lowercased(refreshed.update) where !refreshed.kept.contains(name) { merged[name] = value }
                return merged
            }
        }
        set { fields = .lowercased(newValue) }
    }

    /// `received` as a dictionary: names lower-cased, repeated fields joined.
    private static func lowercased(_ received: HTTPHeaders) -> [String: String] {
        var headers: [String: String] = [:]
        for (name, value) in received {
            let key = name.lowercased()
            headers[key] = headers[key].map { "\($0), \(value)" } ?? value
        }
        return headers
    }

    /// A header's value, whatever the case of its name; repeated fields joined with `, `.
    public func header(_ name: String) -> String? {
        switch fields {
        case .lowercased(let headers): return headers[name.lowercased()]
        case .received(let received):
            return Self.joined(received, name)
        case .wire(let wire):
            return wire.combinedValue(for: name)
        case .refreshed(let refreshed):
            let key = name.lowercased()
            if !refreshed.kept.contains(key), let updated = Self.joined(refreshed.update, name) { return updated }
            return refreshed.stored[key]
        }
    }

    /// The values of the fields named `name` (any case) in `received`, joined; nil without one.
    private static func joined(_ received: HTTPHeaders, _ name: String) -> String? {
        var joined: String?
        for (field, value) in received where HTTPHeaders.sameName(field, name) {
            joined = joined.map { "\($0), \(value)" } ?? value
        }
        return joined
    }

    public static func == (lhs: UpstreamResponse, rhs: UpstreamResponse) -> Bool {
        lhs.status == rhs.status && lhs.body == rhs.body && lhs.headers == rhs.headers
    }
}
