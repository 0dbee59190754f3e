// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import HTTP

/// The demo upstream's answer, independent of any transport.
public struct DemoResponse: Sendable, Equatable {
    public var status: Int
    /// Header fields in the order they go on the wire, which is by name (as the demo has
    /// always sent them); `Content-Length` is left to the transport.
    public var fields: HTTPHeaders
    public var body: [UInt8]
    /// When set, the transport announces the full length but sends only this many body
    /// bytes and then closes the connection: the "cut mid-response" failure.
    public var truncatedAfter: Int?
    /// True when the same request always gets this body and these fields but the rate
    /// limit's: a stored answer, whose encodings (gzip) a transport may keep too.
    public var isStored: Bool

    public init(status: Int, fields: HTTPHeaders, body: [UInt8] = [], truncatedAfter: Int? = nil, isStored: Bool = false) {
        self.status = status
        self.fields = fields
        self.body = body
        self.truncatedAfter = truncatedAfter
        self.isStored = isStored
    }

    /// The fields by name, for readers that look them up.
    public var headers: [String: String] {
        Dictionary(fields.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
    }
}
