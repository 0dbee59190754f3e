// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// A complete answer received by `HTTPClient`: status, header fields as sent, and the
/// body with any gzip content coding already decoded.
public struct HTTPClientResponse: Sendable, Equatable {
    /// The answer's status: any status, 4xx and 5xx included, is delivered as a response (unless
    /// the client's `HTTPStatusPolicy` fails it).
    public var status: HTTPStatus
    /// The whole body, decoded from chunked or gzip as sent.
    public var body: [UInt8]
    private var fields: Fields
    /// The `x-ratelimit-*` fields as the parser read them (`unread` for an answer made otherwise).
    public internal(set) var rateLimit = RateLimitFields.unread

    /// A parsed answer's fields stay as received (`ReceivedFields`) until `headers` is asked
    /// for or set. One reference in either case: the answer is copied on its way out.
    private enum Fields: Sendable {
        case received(ReceivedFields)
        case list(HTTPHeaders)
    }

    /// An answer with these parts (tests build their own).
    public init(status: HTTPStatus, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.status = status
        fields = .list(headers)
        self.body = body
    }

    /// An answer with its fields as the parser found them.
    init(status: HTTPStatus, received: ReceivedFields, body: [UInt8]) {
        self.status = status
        fields = .received(received)
        self.body = body
    }

    /// The fields as a list of `String`s (made on each read for a parsed answer: read one field
    /// with `received` or `header(_:)` instead).
    public var headers: HTTPHeaders {
        get {
            switch fields {
            case .received(let received): return received.headers
            case .list(let headers): return headers
            }
        }
        set { fields = .list(newValue) }
    }

    /// The fields as received, when the answer was parsed and `headers` not set since.
    public var received: ReceivedFields? {
        if case .received(let received) = fields { return received }
        return nil
    }

    /// The first value of the fields named `name` (any case), or nil.
    public func header(_ name: String) -> String? {
        switch fields {
        case .received(let received): return received[name]
        case .list(let headers): return headers[name]
        }
    }

    /// Equal when the status, the body and the fields (in order) are.
    public static func == (lhs: HTTPClientResponse, rhs: HTTPClientResponse) -> Bool {
        lhs.status == rhs.status && lhs.body == rhs.body && lhs.headers == rhs.headers
    }
}
