// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency
import CoreMetrics
import NetCore
import Synchronization

/// What an `HTTPServer` records, emitted through swift-metrics: the application picks
/// the backend (StreamService serves a Prometheus registry at `/metrics`), and a library
/// user gets whatever `MetricsSystem` was bootstrapped with.
///
/// - `http_requests_total{method,route,status}` (counter)
/// - `http_request_duration_seconds{route}` (timer: a histogram in Prometheus)
/// - `http_connections_open` (meter: a gauge in Prometheus)
/// - `http_rejections_total{status,reason}` (counter: answers the server gave itself, see `Rejection`)
/// - `http_accept_pauses_total` (counter: episodes of `accept()` failing, see `AcceptPause`)
/// - `http_accept_paused` (meter: 1 while accepting is paused)
public final class HTTPMetrics: Sendable {
    /// `http_requests_total`: requests answered, by method, route pattern and status.
    public static let requestsName = "http_requests_total"
    /// `http_request_duration_seconds`: time to answer, by route pattern.
    public static let durationName = "http_request_duration_seconds"
    /// `http_connections_open`: connections open now.
    public static let connectionsName = "http_connections_open"
    /// `http_rejections_total`: answers the server gave itself, by status and ``Rejection/Reason``.
    public static let rejectionsName = "http_rejections_total"
    /// `http_accept_pauses_total`: episodes of `accept()` failing.
    public static let acceptPausesName = "http_accept_pauses_total"
    /// `http_accept_paused`: 1 while accepting is paused, else 0.
    public static let acceptPausedName = "http_accept_paused"

    /// Upper bounds of the duration histogram: 1 ms to 10 s, from a fixed answer to a page
    /// fanned out to upstreams that needed retries.
    public static let durationBuckets: [Duration] = [
        .milliseconds(1), .microseconds(2500), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
        .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .milliseconds(2500), .seconds(5), .seconds(10),
    ]

    /// Route label for requests that matched no route, so scanners cannot blow up cardinality.
    public static let unmatchedRoute = "unmatched"

    /// One series of `http_requests_total` and the timer of its route.
    private struct Series: Equatable {
        let method: String
        let route: String
        let status: Int
    }

    private struct Handles: Sendable {
        let requests: Counter
        let duration: Timer
    }

    private let factory: any MetricsFactory
    /// The handles of every series seen so far. Making a swift-metrics handle per request
    /// asks the backend to look the series up under its one lock: with swift-prometheus,
    /// recording a request that way costs 1.8-2.9 µs on one thread and 3.9-5.5 µs with two
    /// threads at once, against 0.4-0.6 and 0.8-1.1 µs with this cache (scripts/bench-metrics).
    /// One entry per series, which route patterns, method labels and statuses keep bounded.
    /// Searched in order rather than hashed: a few dozen series compare by status first, and a
    /// route pattern is the very string the router holds, so `==` sees the same storage at once;
    /// hashing two strings per request walks both strings' characters.
    ///
    /// Read without a lock: `current` is the latest of `snapshots`, each a complete list, and a
    /// new series publishes a new list (under `snapshots`' lock) instead of changing one. Every
    /// list stays alive until this object goes, so a reader needs no reference count either.
    /// With a lock here the event loops took turns at it for every request, and a loop that was
    /// preempted while holding it stalled the others: 84 % of the server's futex calls under
    /// `wrk -c64` (`perf record -e syscalls:sys_enter_futex -g`), and a p99 tail.
    private let snapshots: Locked<[Snapshot]>
    private let current: Atomic<Unmanaged<Snapshot>>

    private final class Snapshot: Sendable {
        let entries: [(series: Series, handles: Handles)]

        init(_ entries: [(series: Series, handles: Handles)]) {
            self.entries = entries
        }
    }
    private let connectionsOpen: Meter
    /// Requests and connections by protocol, and HTTP/2's streams, resets, GOAWAYs and stalls.
    public let protocols: HTTPProtocolMetrics
    /// One counter per status and reason, made on first use (rejections are rare: a map under a lock will do).
    private let rejections = Locked<[String: Counter]>([:])
    private let acceptPauses: Counter
    private let acceptPaused: Meter

    /// Makes the handles from `factory`; the default is the process-wide `MetricsSystem`,
    /// so bootstrap it before creating servers.
    public init(factory: any MetricsFactory = MetricsSystem.factory) {
        self.factory = factory
        let empty = Snapshot([])
        snapshots = Locked([empty])
        current = Atomic(Unmanaged.passUnretained(empty))
        connectionsOpen = Meter(label: Self.connectionsName, factory: factory)
        connectionsOpen.set(0)
        protocols = HTTPProtocolMetrics(factory: factory)
        acceptPauses = Counter(label: Self.acceptPausesName, factory: factory)
        acceptPaused = Meter(label: Self.acceptPausedName, factory: factory)
        acceptPaused.set(0)
    }

    /// Counts one answer the server gave itself.
    public func record(_ rejection: Rejection) {
        let key = "\(rejection.status) \(rejection.reason.rawValue)"
        let counter = rejections.withLock { counters in
            if let counter = counters[key] { return counter }
            let counter = Counter(
                label: Self.rejectionsName,
                dimensions: [("status", String(rejection.status)), ("reason", rejection.reason.rawValue)], factory: factory)
            counters[key] = counter
            return counter
        }
        counter.increment()
    }

    /// An accept pause began or ended.
    public func record(_ pause: AcceptPause) {
        switch pause {
        case .paused:
            acceptPauses.increment()
            acceptPaused.set(1)
        case .resumed:
            acceptPaused.set(0)
        }
    }

    /// Counts and times one answered request, labelled by its route pattern (never its path).
    public func record(_ request: CompletedRequest) {
        let series = Series(method: Self.methodLabel(request.method), route: request.routePattern ?? Self.unmatchedRoute, status: request.status)
        let handles = current.load(ordering: .acquiring)._withUnsafeGuaranteedRef { Self.find(series, in: $0.entries) } ?? make(series)
        handles.requests.increment()
        handles.duration.recordNanoseconds(Int64(clamping: request.duration.nanoseconds))
        protocols.record(request)
    }

    /// Made outside the lock (the factory is the backend's code); the first one stored wins.
    private func make(_ series: Series) -> Handles {
        let made = Handles(
            requests: Counter(
                label: Self.requestsName,
                dimensions: [("method", series.method), ("route", series.route), ("status", String(series.status))], factory: factory),
            duration: Timer(label: Self.durationName, dimensions: [("route", series.route)], factory: factory))
        return snapshots.withLock { snapshots in
            let latest = snapshots[snapshots.count - 1].entries
            if let stored = Self.find(series, in: latest) { return stored }
            let next = Snapshot(latest + [(series, made)])
            snapshots.append(next)
            current.store(Unmanaged.passUnretained(next), ordering: .releasing)
            return made
        }
    }

    private static func find(_ series: Series, in cache: [(series: Series, handles: Handles)]) -> Handles? {
        for entry in cache where entry.series.status == series.status && entry.series == series { return entry.handles }
        return nil
    }

    /// The server's open-connection count after a connection opened or closed.
    public func connectionsChanged(to open: Int) {
        connectionsOpen.set(open)
        protocols.connectionsChanged(to: open)
    }

    /// Standard methods as sent; anything else is one label, for the same cardinality reason as routes.
    static func methodLabel(_ method: HTTPMethod) -> String {
        switch method {
        case .get, .head, .post, .put, .patch, .delete, .options: method.rawValue
        default: "other"
        }
    }
}

extension HTTPServerObserver {
    /// This observer with `metrics` recording each completed request and connection count first.
    /// A copy of `self` with the metered callbacks wrapped, so a callback added later is kept as is.
    func recording(into metrics: HTTPMetrics) -> HTTPServerObserver {
        var observer = self
        let requestCompleted = self.requestCompleted, connectionsChanged = self.connectionsChanged
        let requestRejected = self.requestRejected, acceptPauseChanged = self.acceptPauseChanged
        let http2Event = self.http2Event
        observer.requestCompleted = { request in
            metrics.record(request)
            requestCompleted?(request)
        }
        observer.connectionsChanged = { open in
            metrics.connectionsChanged(to: open)
            connectionsChanged?(open)
        }
        observer.requestRejected = { rejection in
            metrics.record(rejection)
            requestRejected?(rejection)
        }
        observer.acceptPauseChanged = { pause in
            metrics.record(pause)
            acceptPauseChanged?(pause)
        }
        observer.http2Event = { event in
            metrics.protocols.record(event)
            http2Event?(event)
        }
        return observer
    }
}
