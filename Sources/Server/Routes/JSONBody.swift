// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTP
import StreamServiceJSON

/// Route answers as the HTTP library's `Response.json(encoding:)` writes them; a `JSONWritable`
/// model writes the same bytes itself, without `JSONEncoder`'s reflection (`AnswerJSONTests`
/// checks that the two agree).
enum JSONBody {
    static func encode(_ value: some Encodable) throws -> [UInt8] {
        if let writable = value as? any JSONWritable { return JSONOutput.encode(writable, reservingCapacity: 4096) }
        return Array(try Response.jsonEncoder().encode(value))
    }

    static func response(_ value: some Encodable) throws -> Response {
        guard let writable = value as? any JSONWritable else { return try .json(encoding: value) }
        var response = Response.json(JSONOutput.encode(writable, reservingCapacity: 4096))
        response.headers.replaceOrAdd(name: "Content-Type", value: "application/json; charset=utf-8")
        return response
    }
}
