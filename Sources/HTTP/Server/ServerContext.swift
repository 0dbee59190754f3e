// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import NetCore
import Tracing
import Synchronization

/// What every connection of a server shares: configuration, routes, hooks and
/// the shutdown flag.
final class ServerContext: Sendable {
    let configuration: HTTPServerConfiguration
    let router: Router
    let observer: HTTPServerObserver
    let tls: TLSContext?
    let writer: ResponseWriter
    /// The tracer of the requests' SERVER spans; nil when none was bootstrapped (no span, no cost).
    let tracer: (any Tracer)?
    /// `tracer != nil`, read per request: testing the optional existential copies it out (with a
    /// retain and a release) for every untraced request.
    let traces: Bool
    /// The tracer names a context's ids itself (`TraceIdentityReading`), asked once here rather
    /// than cast per request.
    let identityReader: (any TraceIdentityReading)?
    /// An unsampled request carries its context (`Request.unrecordedTrace`) instead of binding it.
    let carriesUnrecordedTraces: Bool
    /// The tracer, when its spans take an attribute list whole (asked once).
    let attributeLists: (any SpanAttributeListTaking)?
    /// The tracer extracts nothing from a request without `traceparent` (`TraceparentExtracting`).
    let extractsTraceparentAlone: Bool
    private let shuttingDown = Atomic<Bool>(false)

    init(configuration: HTTPServerConfiguration, router: Router, observer: HTTPServerObserver, tls: TLSContext?) {
        self.configuration = configuration
        self.router = router
        self.observer = observer
        self.tls = tls
        tracer = ActiveTracer.resolve(configuration.tracer)
        traces = tracer != nil
        identityReader = tracer as? any TraceIdentityReading
        carriesUnrecordedTraces = tracer is any UnrecordedContextKeeping
        attributeLists = tracer as? any SpanAttributeListTaking
        extractsTraceparentAlone = tracer is any TraceparentExtracting
        writer = ResponseWriter(
            serverName: configuration.serverName,
            compressor: ResponseCompressor(minimumBytes: configuration.compressionMinimumBytes))
    }

    func isShuttingDown() -> Bool { shuttingDown.load(ordering: .relaxed) }
    func beginShuttingDown() { shuttingDown.store(true, ordering: .relaxed) }
}
