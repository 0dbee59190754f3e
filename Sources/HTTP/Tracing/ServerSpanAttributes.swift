// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Streams

/// The attributes a route's SERVER spans share, made once per method, scheme, `Host`, protocol
/// version and route pattern, and per status under those: everything but `url.path` (and the
/// rare `streamservice.response.completed`). A recorded SERVER span ends with its path as its
/// one attribute of its own and these shared (`RecordedSpan.end(adding:string:sharing:)`), which
/// its exporter writes as it wrote them once (`SharedSpanAttributes.memo`): its list was built
/// per request (the `Host` split, the version's string, seven entries appended) and written an
/// attribute at a time (about 5 k instructions of a traced `/health` request's 16 k).
/// `ServerSpan.attributeList` is its slow twin: the tests hold the two lists equal.
// @unchecked: `routes` is only touched between `lock.lock()` and `lock.unlock()`.
final class ServerSpanAttributes: @unchecked Sendable {
    /// One route of one origin: its span name and its shared sets by status.
    // @unchecked: `byStatus` is only touched between `lock.lock()` and `lock.unlock()`.
    final class Route: @unchecked Sendable {
        let method: String
        let scheme: String
        let authority: String?
        let major: Int
        let minor: Int
        let pattern: String?
        /// `GET /users`, the name the conventions give a routed span; nil without a route.
        let name: String?
        /// The set of a 200 answer, the usual one, made with the route and read with no lock
        /// (the lock and the search of `byStatus` cost about 100 instructions a request).
        private let ok: SharedSpanAttributes
        /// A few field reads and an append under it, never a call out: the inline `SpinLock`.
        private let lock = SpinLock()
        @exclusivity(unchecked) private var byStatus: [(status: Int, shared: SharedSpanAttributes)] = []

        init(method: String, scheme: String, authority: String?, major: Int, minor: Int, pattern: String?) {
            self.method = method
            self.scheme = scheme
            self.authority = authority
            self.major = major
            self.minor = minor
            self.pattern = pattern
            name = pattern.map { "\(method) \($0)" }
            ok = Self.make(method: method, scheme: scheme, authority: authority, major: major, minor: minor, pattern: pattern, status: 200)
        }

        private static func make(
            method: String, scheme: String, authority: String?, major: Int, minor: Int, pattern: String?, status: Int
        ) -> SharedSpanAttributes {
            SharedSpanAttributes(ServerSpan.attributeList(
                method: method, path: nil, scheme: scheme, major: major, minor: minor, authority: authority, route: pattern,
                status: status, completed: true))
        }

        func matches(method: String, scheme: String, authority: String?, major: Int, minor: Int, pattern: String?) -> Bool {
            // The route first: it differs most often, and is the router's own string (equal at once).
            self.pattern == pattern && self.method == method && self.authority == authority && self.major == major && self.minor == minor
                && self.scheme == scheme
        }

        /// The shared attributes of a span of this route that answered `status` (over 0) in full.
        func shared(status: Int) -> SharedSpanAttributes {
            if status == 200 { return ok }
            if let kept = kept(status: status) { return kept }
            let made = Self.make(method: method, scheme: scheme, authority: authority, major: major, minor: minor, pattern: pattern, status: status)
            lock.lock()
            defer { lock.unlock() }
            if let first = byStatus.first(where: { $0.status == status }) { return first.shared }
            if byStatus.count < ServerSpanAttributes.statusesPerRoute { byStatus.append((status, made)) }
            return made
        }

        private func kept(status: Int) -> SharedSpanAttributes? {
            lock.lock()
            defer { lock.unlock() }
            return byStatus.first { $0.status == status }?.shared
        }
    }

    /// The process's memo: every server's SERVER spans share it.
    static let shared = ServerSpanAttributes()

    /// Routes kept: a service's routes by the few `Host`s and versions it is called with, with room to spare.
    static let capacity = 64
    /// Statuses kept per route; a span of any other is given a set made for it.
    static let statusesPerRoute = 16

    /// The latest routes, the newest last; the oldest leaves once `capacity` are kept (a
    /// client sending ever new `Host`s turns the memo over, costing itself the misses).
    @exclusivity(unchecked) private var routes: [Route] = []
    /// Held for a search of a few entries compared by their strings' bits, or an append: the
    /// inline `SpinLock`, where `Locked`'s mutex and closure cost about 100 instructions a request.
    private let lock = SpinLock()

    /// The route entry of these request parts, made on first use.
    func route(method: String, scheme: String, authority: String?, major: Int, minor: Int, pattern: String?) -> Route {
        if let found = kept(method: method, scheme: scheme, authority: authority, major: major, minor: minor, pattern: pattern) { return found }
        let made = Route(method: method, scheme: scheme, authority: authority, major: major, minor: minor, pattern: pattern)
        lock.lock()
        defer { lock.unlock() }
        if routes.count == Self.capacity { routes.removeFirst() }
        routes.append(made)
        return made
    }

    private func kept(method: String, scheme: String, authority: String?, major: Int, minor: Int, pattern: String?) -> Route? {
        lock.lock()
        defer { lock.unlock() }
        return routes.last { $0.matches(method: method, scheme: scheme, authority: authority, major: major, minor: minor, pattern: pattern) }
    }
}
