// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import HTTP
import Streams

/// Cross-origin reads by browsers (the Fetch standard's CORS protocol) for the
/// origins of `--cors-origins`: an allowed `Origin` gets `Access-Control-Allow-Origin`
/// on every answer (JSON, problems, event streams) and its preflight a `204`;
/// any other origin gets no CORS header, so its browser withholds the answer.
///
/// The API is read-only (GET and HEAD). Without `--auth-cookie` it takes no cookies, so no
/// `Access-Control-Allow-Credentials`, and `*` then really means any page. With it, a page's
/// `EventSource(url, {withCredentials: true})` sends the token cookie, which the Fetch standard
/// allows only with `Access-Control-Allow-Credentials: true` and the page's own origin echoed
/// (never `*`, which the configuration refuses beside a cookie).
struct CORSMiddleware: RouterMiddleware {
    let origins: CORSOrigins
    /// Answers may be read by credentialed requests (the token cookie).
    var credentials = false

    static let allowedMethods = "GET, HEAD"
    /// What an EventSource (`Last-Event-ID`, `Cache-Control`), a revalidating fetch
    /// (`If-None-Match`) and a tracing client (`X-Request-ID`) send beyond the safelisted headers.
    static let allowedHeaders = "Last-Event-ID, If-None-Match, Cache-Control, X-Request-ID, Authorization"
    /// Beyond the safelisted response headers a page may read: the tag to revalidate
    /// with, how long to back off, the id to quote in a bug report, and a 405's methods.
    static let exposedHeaders = "ETag, Retry-After, X-Request-ID, Allow, WWW-Authenticate, RateLimit, RateLimit-Policy"
    /// Ten minutes; Chromium caps a preflight cache at two hours anyway.
    static let maxAgeSeconds = 600

    func handle(_ request: Request, next: @escaping RequestHandler) -> DataStream<Response> {
        // With CORS on, every answer depends on Origin — one without Allow-Origin (no Origin, or a
        // refused one) included: a shared cache must not hand that one to an allowed page, or the
        // allowed one to a refused page. Without CORS nothing depends on Origin.
        guard origins != .none else { return next(request) }
        guard let origin = request.headers["Origin"] else { return next(request).map(Self.varyingOnOrigin) }
        let allowed = origins.allows(origin)
        if request.method == .options, request.headers.contains("Access-Control-Request-Method") {
            // A disallowed preflight falls through to the router's 405, which carries no CORS header.
            return allowed ? .just(preflight(origin: origin)) : next(request).map(Self.varyingOnOrigin)
        }
        guard allowed else { return next(request).map(Self.varyingOnOrigin) }
        let headers = allowOrigin(origin)
        return next(request).map { response in
            var response = Self.varyingOnOrigin(response)
            for (name, value) in headers { response.headers.replaceOrAdd(name: name, value: value) }
            return response
        }
    }

    @Sendable static func varyingOnOrigin(_ response: Response) -> Response {
        var response = response
        response.headers.add(name: "Vary", value: "Origin")
        return response
    }

    func preflight(origin: String) -> Response {
        var headers = allowOrigin(origin)
        headers.add(name: "Vary", value: "Origin")
        headers.add(name: "Access-Control-Allow-Methods", value: Self.allowedMethods)
        headers.add(name: "Access-Control-Allow-Headers", value: Self.allowedHeaders)
        headers.add(name: "Access-Control-Max-Age", value: String(Self.maxAgeSeconds))
        return Response(status: .noContent, headers: headers)
    }

    private func allowOrigin(_ origin: String) -> HTTPHeaders {
        var headers: HTTPHeaders = [
            "Access-Control-Allow-Origin": origins == .any && !credentials ? "*" : origin,
            "Access-Control-Expose-Headers": Self.exposedHeaders,
        ]
        if credentials { headers.add(name: "Access-Control-Allow-Credentials", value: "true") }
        return headers
    }
}
