// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import HTTP
import Streams

/// `GET /`, `/page.css`, `/page.js`, `/page-feed.js`: the service's own page (a live marble diagram
/// of `/events` and the users browser), compiled into the binary from `Sources/Server/Page/`.
///
/// The page loads nothing from elsewhere, and its Content-Security-Policy says so:
/// scripts, styles, feeds and images come from this origin only (avatars may be `data:` URIs).
enum PageRoute {
    static let contentSecurityPolicy =
        "default-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

    static let page = EmbeddedDocument(
        contentType: "text/html; charset=utf-8", bytes: PackageResources.index_html,
        headers: ["Content-Security-Policy": contentSecurityPolicy, "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer"])
    static let style = EmbeddedDocument(
        contentType: "text/css; charset=utf-8", bytes: PackageResources.page_css, headers: ["X-Content-Type-Options": "nosniff"])
    static let script = EmbeddedDocument(
        contentType: "text/javascript; charset=utf-8", bytes: PackageResources.page_js, headers: ["X-Content-Type-Options": "nosniff"])
    /// The `/events` connection every tab shares (a SharedWorker's script, or the tab's own feed without one).
    static let feedScript = EmbeddedDocument(
        contentType: "text/javascript; charset=utf-8", bytes: PackageResources.page_feed_js, headers: ["X-Content-Type-Options": "nosniff"])

    static func register(on router: inout Router) {
        router.get("/") { .just(page.response(to: $0)) }
        router.get("/page.css") { .just(style.response(to: $0)) }
        router.get("/page.js") { .just(script.response(to: $0)) }
        router.get("/page-feed.js") { .just(feedScript.response(to: $0)) }
    }
}
