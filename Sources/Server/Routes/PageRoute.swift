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

    /// `index.html` with the trace link template in its `trace-link-template` meta element (the
    /// page links a run's trace id through it; empty: the id alone).
    static func page(traceLinkTemplate: String?) -> EmbeddedDocument {
        guard let template = traceLinkTemplate else { return page }
        let empty = Array(#"<meta name="trace-link-template" content="">"#.utf8)
        let filled = Array(#"<meta name="trace-link-template" content="\#(htmlAttribute(template))">"#.utf8)
        var bytes = PackageResources.index_html
        if let range = bytes.firstRange(of: empty) { bytes.replaceSubrange(range, with: filled) }
        return EmbeddedDocument(contentType: "text/html; charset=utf-8", bytes: bytes, headers: page.headers)
    }

    static func htmlAttribute(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "\"": escaped += "&quot;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    static func register(on router: inout Router, traceLinkTemplate: String? = nil) {
        let page = page(traceLinkTemplate: traceLinkTemplate)
        router.get("/") { .just(page.response(to: $0)) }
        router.get("/page.css") { .just(style.response(to: $0)) }
        router.get("/page.js") { .just(script.response(to: $0)) }
        router.get("/page-feed.js") { .just(feedScript.response(to: $0)) }
    }
}
