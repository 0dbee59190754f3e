// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Tracing

/// Reads a propagated context (`traceparent`, `tracestate`, or whatever the tracer's format
/// names) from a request's fields, for `Tracer.extract`.
public struct HTTPHeadersExtractor: Extractor {
    /// The extractor; it holds nothing.
    public init() {}

    public func extract(key: String, from carrier: HTTPHeaders) -> String? {
        carrier[key]
    }
}

/// Writes a context into a request's fields, for `Tracer.inject`: one field per key, replacing
/// one of that name (a retried request is not sent two `traceparent`s).
public struct HTTPHeadersInjector: Injector {
    /// The injector; it holds nothing.
    public init() {}

    public func inject(_ value: String, forKey key: String, into carrier: inout HTTPHeaders) {
        carrier.replaceOrAdd(name: key, value: value)
    }
}
