// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency
import HTTP
import Tracing

/// The process's tracer behind `InstrumentationSystem`, which may be bootstrapped only once per
/// process: the first `install` bootstraps it with a switch, later ones point the switch at another
/// tracer (the tests run many applications in one process, each with its own exporter). A process
/// that never installs one keeps the library's no-op tracer: nothing is bootstrapped, nothing costs.
public enum TracingSystem {
    private static let current = Locked<OTelTracer?>(nil)
    private static let bootstrapped = OnceFlag()

    /// Makes `tracer` the one `InstrumentationSystem.tracer` starts spans with; nil turns tracing
    /// off again (after an earlier install).
    public static func install(_ tracer: OTelTracer?) {
        current.withLock { $0 = tracer }
        guard tracer != nil, bootstrapped.set() else { return }
        InstrumentationSystem.bootstrap(SwitchingTracer())
    }

    /// Turns tracing off if `tracer` is still the installed one (an application stopping must not
    /// switch off a newer one's).
    public static func uninstall(_ tracer: OTelTracer) {
        current.withLock { if $0 === tracer { $0 = nil } }
    }

    /// The installed tracer, if any.
    public static var tracer: OTelTracer? { current.withLock { $0 } }

    /// Forwards to the installed tracer; without one, spans carry the caller's context and record nothing.
    /// A class, as a `SpanAttributeListTaking` is.
    final class SwitchingTracer: Tracer {
        typealias Span = OTelSpan

        func startSpan<Instant: TracerInstant>(
            _ operationName: String, context: @autoclosure () -> ServiceContext, ofKind kind: SpanKind,
            at instant: @autoclosure () -> Instant, function: String, file fileID: String, line: UInt
        ) -> OTelSpan {
            guard let tracer = TracingSystem.tracer else { return OTelSpan(context: context()) }
            return tracer.startSpan(operationName, context: context(), ofKind: kind, at: instant(), function: function, file: fileID, line: line)
        }

        func forceFlush() { TracingSystem.tracer?.forceFlush() }

        func extract<Carrier, Extract: Extractor>(_ carrier: Carrier, into context: inout ServiceContext, using extractor: Extract)
        where Extract.Carrier == Carrier {
            TracingSystem.tracer?.extract(carrier, into: &context, using: extractor)
        }

        func inject<Carrier, Inject: Injector>(_ context: ServiceContext, into carrier: inout Carrier, using injector: Inject)
        where Inject.Carrier == Carrier {
            TracingSystem.tracer?.inject(context, into: &carrier, using: injector)
        }
    }
}

/// Forwards to an `OTelTracer`, or keeps the caller's context without one.
extension TracingSystem.SwitchingTracer: UnrecordedContextKeeping {}

/// Forwards to an `OTelTracer`'s `extract`, or extracts nothing without one.
extension TracingSystem.SwitchingTracer: TraceparentExtracting {}

/// Its spans are `OTelSpan`s, whichever tracer began them.
extension TracingSystem.SwitchingTracer: SpanAttributeListTaking {
    func addAttributes(_ list: SpanAttributeList, to span: any Tracing.Span) -> Bool {
        guard let span = span as? OTelSpan else { return false }
        span.addAttributes(list)
        return true
    }

    func startRecordedSpan(_ name: String, context: ServiceContext, ofKind kind: SpanKind) -> (span: any Tracing.Span, recorded: (any RecordedSpan)?) {
        guard let tracer = TracingSystem.tracer else { return (OTelSpan(context: context), nil) }
        return tracer.startRecordedSpan(name, context: context, ofKind: kind)
    }

    func startSpanOrRecording(_ name: String, context: ServiceContext, ofKind kind: SpanKind) -> StartedSpan {
        guard let tracer = TracingSystem.tracer else { return .span(OTelSpan(context: context)) }
        return tracer.startSpanOrRecording(name, context: context, ofKind: kind)
    }
}

extension TracingSystem.SwitchingTracer: TraceIdentityReading {
    func traceIdentity(of context: ServiceContext) -> TraceIdentity? {
        TracingSystem.tracer?.traceIdentity(of: context)
    }
}
