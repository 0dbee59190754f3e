// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// What the HTTP/1.1 parser noticed in a head's fields on the way, for the connection that
/// reads it: not part of the request (its header list says all of it), but a server asks it of
/// every request, and searching the list again costs more than noting each field as it is read.
/// The connection keeps it to itself; `Request` does not carry it.
package struct HeadNotes: Sendable {
    /// The first `X-Request-ID` field's value.
    package internal(set) var requestID: String?
    /// The first `User-Agent` field's value, for the access log.
    package internal(set) var userAgent: String?
    /// What the `Connection` fields said.
    var connection = ConnectionOptions()
    /// Whether a `traceparent` field came: without one a W3C Trace Context extraction finds no
    /// parent, so a server whose tracer reads nothing else (`TraceparentExtracting`) skips it.
    package internal(set) var hasTraceparent = false

    init() {}

    /// Whether the connection persists after this request's response: `ConnectionOptions.persists(in:)`,
    /// the one keep-alive rule, on what the fields said.
    package func persists(in version: HTTPVersion) -> Bool {
        connection.persists(in: version)
    }
}
