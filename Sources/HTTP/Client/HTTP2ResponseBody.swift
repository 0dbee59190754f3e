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
    /// fields, not made a list of `String`s: about 7,900 instructions a `/users` request (its
    /// gzip list answer's 14 fields, names and values), where these bytes cost about 1,000; the
    /// answer's reader reads them where they lie (`UpstreamResponse`). HTTP2ResponseBodyTests
    /// compares the two.
    static func inflatedFields(_ received: ReceivedFields, length: Int) -> ReceivedFields {
        received.withSpans { fields in
            var writer = FieldsWriter(byteCount: fields.start + 24, fieldCount: fields.count + 1)
            for index in 0..<fields.count {
                let (name, value) = fields.field(index)
                if HTTPSyntax.sameToken(name, "content-encoding") || HTTPSyntax.sameToken(name, "content-length") { continue }
                writer.add(name, value)
            }
            let name: StaticString = "content-length"
            var length = String(length)
            length.withUTF8 { value in
                writer.add(UnsafeRawBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount), UnsafeRawBufferPointer(value))
            }
            return ReceivedFields(HPACKFieldBytes(storage: HPACKFieldBytes.storage(bytes: writer.bytes, spans: writer.spans), checkedFields: 0, overListSize: false))
        }
    }

    /// `inflatedFields`' bytes and spans. A struct, not a local function capturing two arrays: those
    /// were boxed, and each append began a run-time exclusivity check (about 75 instructions).
    private struct FieldsWriter {
        var bytes: [UInt8] = []
        var spans: [UInt32] = []

        init(byteCount: Int, fieldCount: Int) {
            bytes.reserveCapacity(byteCount)
            spans.reserveCapacity(fieldCount * 4)
        }

        mutating func add(_ name: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) {
            spans.append(UInt32(truncatingIfNeeded: bytes.count))
            bytes.append(contentsOf: name)
            spans.append(UInt32(truncatingIfNeeded: bytes.count))
            spans.append(UInt32(truncatingIfNeeded: bytes.count))
            bytes.append(contentsOf: value)
            spans.append(UInt32(truncatingIfNeeded: bytes.count))
        }
    }

    /// `inflatedFields` as a list of `String`s, as the HTTP/1.1 parser changes it: the slow twin.
    static func inflatedHeaders(_ received: ReceivedFields, length: Int) -> HTTPHeaders {
        var headers = received.headers
        headers.remove(name: "content-encoding")
        headers.replaceOrAdd(name: "content-length", value: String(length))
        return headers
    }
}
