// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// What a request is, as its head says it: the method, the target, the version, the header
/// fields, and the body's framing as decided from them (RFC 9112 §6). What the parser noticed
/// on the way for its connection (`HeadNotes`) is not part of it.
package struct RequestHead: Sendable {
    package var method: HTTPMethod
    /// The target as sent, split once into its path and query.
    package var target: ParsedTarget
    package var version: HTTPVersion
    package var headers: HTTPHeaders
    /// Declared body length; nil for chunked or no body.
    package var contentLength: Int?
    package var isChunked: Bool
    /// The client waits for `100 Continue` before sending its body.
    package var expectsContinue: Bool

    package var hasBody: Bool { isChunked || (contentLength ?? 0) > 0 }
}
