// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Streams

/// A piece that runs around every request a `Router` answers (Hummingbird's
/// `RouterMiddleware`): it may answer by itself (a CORS preflight, a `304`) or
/// pass the request on with `next` and adjust the response. It sees the request
/// after routing, so `routePattern` is set for a matched route (nil for a 404/405).
public protocol RouterMiddleware: Sendable {
    /// The response to `request`: this middleware's own, or `next(request)`'s, adjusted as it passes.
    func handle(_ request: Request, next: @escaping RequestHandler) -> DataStream<Response>
}
