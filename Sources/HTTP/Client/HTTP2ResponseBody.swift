// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import NetCore

/// An HTTP/2 response as `HTTPClient` delivers it: the same answer the HTTP/1.1 parser makes (a gzip
/// body inflated, its `Content-Length` then the inflated size, the rate-limit fields read), so
/// callers cannot tell the protocols apart.
enum HTTP2ResponseBody {
    /// Given the head's last reference (`consume`), its fields are changed in place for a gzip
    /// body: copied out of a head still held, they were copied again, then both lists destroyed.
    static func response(head: consuming HTTP2ResponseHead, body: [UInt8]) -> Result<HTTPClientResponse, HTTPClientError> {
        let status = HTTPStatus(code: head.status), rateLimit = head.rateLimit
        var response: HTTPClientResponse
        if !body.isEmpty && head.gzipCoded {
            guard let inflated = try? Gzip.decompress(body) else { return .failure(.malformed("bad gzip body")) }
            response = HTTPClientResponse(status: status, received: inflatedFields(head.received, length: inflated.count), body: inflated)
        } else {
            response = HTTPClientResponse(status: status, received: (consume head).received, body: body)
        }
        response.rateLimit = rateLimit
        return .success(response)
    }

    /// A gzip answer's fields as the HTTP/1.1 parser leaves them (`inflatedHeaders`, the slow twin):
    /// without `content-encoding`, `content-length` the inflated size, last. Kept as received
    /// fields, not made a list of `String`s (HTTP/2's lowercase names miss `CommonFieldName`, so
    /// each name is a `String` too): the list cost about 7,200 instructions a `/users` request (its
    /// one gzip answer, 13 fields); the answer's reader reads the bytes where they lie
    /// (`UpstreamResponse`). HTTP2ResponseBodyTests compares the two.
    static func inflatedFields(_ received: ReceivedFields, length: Int) -> ReceivedFields {
        let name: StaticString = "content-length"
        var length = String(length)
        return length.withUTF8 { lengthValue in
            received.withSpans { fields in
                let lengthName = UnsafeRawBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
                // Sized first, then written into one allocation: appended a name and a value at a
                // time, the arrays cost about 100 instructions an append.
                var byteCount = lengthName.count + lengthValue.count, kept = 1
                for index in 0..<fields.count where keeps(fields.field(index).name) {
                    let (name, value) = fields.field(index)
                    byteCount += name.count + value.count
                    kept += 1
                }
                let storage = HPACKFieldBytes.storage(byteCount: byteCount, fieldCount: kept) { writer in
                    for index in 0..<fields.count where keeps(fields.field(index).name) {
                        let (name, value) = fields.field(index)
                        writer.add(name)
                        writer.add(value)
                    }
                    writer.add(lengthName)
                    writer.add(UnsafeRawBufferPointer(lengthValue))
                }
                return ReceivedFields(HPACKFieldBytes(storage: storage, checkedFields: 0, overListSize: false))
            }
        }
    }

    /// Whether an inflated answer keeps a field of this name.
    private static func keeps(_ name: UnsafeRawBufferPointer) -> Bool {
        !HTTPSyntax.sameToken(name, "content-encoding") && !HTTPSyntax.sameToken(name, "content-length")
    }

    /// `inflatedFields` as a list of `String`s, as the HTTP/1.1 parser changes it: the slow twin.
    static func inflatedHeaders(_ received: ReceivedFields, length: Int) -> HTTPHeaders {
        var headers = received.headers
        headers.remove(name: "content-encoding")
        headers.replaceOrAdd(name: "content-length", value: String(length))
        return headers
    }
}
