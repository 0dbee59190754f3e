// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTP

/// One GET (or other method) against the upstream, fully addressed.
public struct UpstreamRequest: Sendable, Equatable {
    public var method: String
    public var url: URL
    public var headers: [String: String]
    /// The validators of a conditional GET (`If-None-Match`, `If-Modified-Since`), sent after
    /// `headers`. Apart from them because `headers` is one dictionary shared by every request
    /// of a client, which the transport's field caches recognise by its storage: a copy with a
    /// validator added, different for each URL, missed them and was hashed and compared per
    /// request (the figure: Benchmarks/README.md).
    public var conditions: [String: String]
    /// The client request this exchange is spent for (per-client budgets); nil = nobody's.
    public var usage: UpstreamUsage?
    /// The exchange's CLIENT span when the client traces: its context goes out as `traceparent`,
    /// and the stages below note on it what answered. Nil when not traced.
    public var span: UpstreamSpan?
    /// Without a span, what goes out for the trace of a request that is not recorded
    /// (`PipelineTrace.unrecordedFields`: `traceparent` with flags `00`, …), as it is.
    public var traceFields: HTTPHeaders?
    /// The exchange's limit, for a transport that keeps it (`UpstreamTransport.keepsTimeouts`);
    /// nil: none, or a `timeout` stage above the transport keeps it.
    public var timeout: UpstreamTimeout?

    public init(method: String = "GET", url: URL, headers: [String: String] = [:], conditions: [String: String] = [:]) {
        self.method = method
        self.url = url
        self.headers = headers
        self.conditions = conditions
    }

    /// `headers` and `conditions` in one dictionary.
    public var allHeaders: [String: String] {
        conditions.isEmpty ? headers : headers.merging(conditions) { _, condition in condition }
    }

    public var isSecure: Bool { clientRequest.isSecure }
    public var host: String { clientRequest.host }
    public var port: Int { clientRequest.port }

    /// Path plus query, as sent on the request line.
    public var target: String { clientRequest.target }

    /// A header's value (or a condition's), whatever the case of its name.
    public func header(_ name: String) -> String? {
        (conditions.first { HTTPHeaders.sameName($0.key, name) } ?? headers.first { HTTPHeaders.sameName($0.key, name) })?.value
    }

    /// `Host` value: the port only when it is not the scheme's default.
    public var hostHeader: String { clientRequest.hostHeader }
}

/// A limit on one exchange that the transport keeps itself: past `after` (from `send`'s
/// subscription) the exchange is abandoned, as a dispose abandons it, and fails with `failure`.
public struct UpstreamTimeout: Sendable, Equatable {
    public var after: Duration
    /// `.timeout(after:)` for an attempt's own timeout; `.deadlineExceeded` when the call's
    /// deadline comes first (`UpstreamCall`).
    public var failure: UpstreamError

    public init(after: Duration, failure: UpstreamError) {
        self.after = after
        self.failure = failure
    }

    /// An attempt's own timeout.
    public static func attempt(_ after: Duration) -> UpstreamTimeout {
        UpstreamTimeout(after: after, failure: .timeout(after: after))
    }
}
