// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Response {
    /// The one JSON configuration of `json(encoding:)`: keys sorted, so equal values give equal
    /// bytes (and equal ETags); `/` not escaped, so URLs stay readable; keys and dates as
    /// `JSONEncoder`'s defaults write them (the type's own names; dates as seconds since 2001 —
    /// give a `Date` property an ISO 8601 `String` if clients need one).
    public static func jsonEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// An `application/json; charset=utf-8` response with `value` encoded by `jsonEncoder()`;
    /// throws what the encoder throws (a handler's pipeline turns it into a generic 500).
    public static func json(encoding value: some Encodable, status: HTTPStatus = .ok) throws -> Response {
        var response = Response.json(Array(try jsonEncoder().encode(value)), status: status)
        response.headers.replaceOrAdd(name: "Content-Type", value: "application/json; charset=utf-8")
        return response
    }
}
