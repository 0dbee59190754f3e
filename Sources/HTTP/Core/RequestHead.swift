// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// What a request is, as its head says it: the method, the target, the version, the header
/// fields, and the body's framing as decided from them (RFC 9112 §6). What the parser noticed
/// on the way for its connection (`HeadNotes`) is not part of it.
public struct RequestHead: Sendable {
    public var method: HTTPMethod
    /// The target as sent, split once into its path and query.
    public var target: ParsedTarget
    public var version: HTTPVersion
    public var headers: HTTPHeaders
    /// Declared body length; nil for chunked or no body.
    public var contentLength: Int?
    public var isChunked: Bool
    /// The client waits for `100 Continue` before sending its body.
    public var expectsContinue: Bool

    public var hasBody: Bool { isChunked || (contentLength ?? 0) > 0 }
}
