// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// A check that may refuse a request before its handler runs (a per-client request cap), as one
/// synchronous call rather than a stage around the handler: each `RouterMiddleware` is a closure
/// layer the request is copied through on every request, which costs more than a cheap check
/// that nearly always passes (figures in Benchmarks/README.md's HTTP ledger).
///
/// The router asks its gates once it has resolved a request (so `routePattern` is set, and a
/// 404 or 405 is asked about too), before any middleware sees it — a CORS preflight included. A
/// refusal goes out through every middleware, as a handler's answer would.
///
/// A class: the router asks each gate through its protocol, and a gate held as a struct was
/// copied (everything it holds retained and released) on every request.
public protocol RouterGate: AnyObject, Sendable {
    /// The answer that refuses `request`, or nil to let it through.
    func refusal(for request: Request) -> Response?
}
