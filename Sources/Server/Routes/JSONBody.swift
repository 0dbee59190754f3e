// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTP
import StreamServiceJSON

/// Encodes route answers as compact camelCase JSON with unescaped slashes (URLs stay readable).
enum JSONBody {
    static func encode(_ value: some Encodable) throws -> [UInt8] {
        if let writable = value as? any JSONWritable { return JSONOutput.encode(writable, reservingCapacity: 4096) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(value))
    }

    static func response(_ value: some Encodable) throws -> Response {
        var response = Response.json(try encode(value))
        response.headers.replaceOrAdd(name: "Content-Type", value: "application/json; charset=utf-8")
        return response
    }
}
